"""Arenas over the web: the HTTP API (:mod:`.arena_http`) and the arena socket
(:mod:`.arena_socket`); each process's feeds of standings and pairings are
:mod:`stalactites.live.arena_feeds`."""
