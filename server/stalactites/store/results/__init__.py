"""The results log and rooms' deadlines: the interface (``base``), in memory (``memory``), in
Redis (``redis``), and waiting for the append-only file (``durable``)."""
