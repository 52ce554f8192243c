"""The room store: its interface and rows (``base``), in memory (``memory``), in Redis
(``redis``, its key names in ``keys``, its lists in ``lists``, a kept room in ``archive``), and
who may act (``refusals``)."""
