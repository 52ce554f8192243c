"""The friends' store: its interface (``base``), in memory (``memory``), in Redis (``redis``)."""
