"""Fair play's HTTP API: reports, the player's own standing and appeal, the moderators'."""

from .fairplay_http import fairplay_routes

__all__ = ["fairplay_routes"]
