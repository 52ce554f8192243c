"""The ghosts' index and ghost races due: the interface (``base``), in memory (``memory``), in
Redis (``redis``)."""
