"""Ghost races on the web: ``POST /api/rooms/{room_id}/ghost`` and the ghosts' replay timer."""
