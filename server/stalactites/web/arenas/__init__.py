"""Arenas over the web: the HTTP API (:mod:`.arena_http`), the arena socket
(:mod:`.arena_socket`) and each process's feeds of standings and pairings (:mod:`.feeds`)."""
