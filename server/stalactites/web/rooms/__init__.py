"""Rooms over the web: the room websocket and the room HTTP API (what a room's stream does
here, its spectators' boards and count, and batched progress: :mod:`stalactites.live.rooms`)."""

__all__: list[str] = []
