"""The quick-race queue's store: its interface, window and pairing rule (``base``), in memory
(``memory``), in Redis (``redis``)."""
