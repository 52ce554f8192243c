"""What every Redis store shares: the client (``resp``), Cluster routing (``cluster``), the
pub/sub connection (``listener``), bell channels (``doorbells``), leases on rooms' bells
(``bell_leases``) and the Lua scripts of ``store/lua/`` (``scripts``)."""
