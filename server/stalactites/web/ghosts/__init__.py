"""Ghost races on the web: ``POST /api/rooms/{room_id}/ghost`` (the ghosts' replay timer is
:mod:`stalactites.live.ghost_driver`)."""
