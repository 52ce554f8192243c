"""Tournaments over the web: the tournament websocket, the tournament HTTP API and routes
(the standings a tournament's stream sends: :mod:`stalactites.live.standings_feed`)."""

__all__: list[str] = []
