"""Tournaments over the web: the tournament websocket, the tournament HTTP API and routes,
and the standings a tournament's stream sends."""

__all__: list[str] = []
