"""Rooms: settings, deals, boards, places, and the room lifecycle over a store.

:class:`RoomService` runs rooms from creation to results; :class:`Play`
handles the actions on players' boards.  Nothing here knows about HTTP or
websockets.
"""

from .errors import RoomError
from .play import Play
from .service import RoomService
from .settings import CreateRoom, JoinRoom, RoomSettings

__all__ = ["CreateRoom", "JoinRoom", "Play", "RoomError", "RoomService", "RoomSettings"]
