"""Fair play's store: its interface (``base``), in memory (``memory``), in Redis (``redis``)."""
