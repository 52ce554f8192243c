"""The wire protocols, one module per socket or API, each a module of pydantic models with one
``TypeAdapter`` as its only parser: :mod:`.room` (a room's race socket and its HTTP bodies),
:mod:`.tournament`, :mod:`.match` (``/ws/match``), :mod:`.friends` (``/ws/notify`` and the
friends' bodies), :mod:`.arenas`; :mod:`.doc` writes ``docs/protocol.md`` from them.
"""
