"""Rooms over the web: the room websocket, the room HTTP API, what a room's stream does here
(deadlines, spectators' boards), the spectator count, and batched progress for large rooms."""

__all__: list[str] = []
