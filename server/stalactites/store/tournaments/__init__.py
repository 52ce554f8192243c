"""The tournament store: its interface (``base``), in memory (``memory``), in Redis
(``redis``), and the tournament lists (``lists``)."""
