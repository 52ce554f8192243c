"""The matchmaking websocket ``/ws/match`` (quick races)."""
