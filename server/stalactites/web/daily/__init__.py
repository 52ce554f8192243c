"""The daily deal's HTTP API (``/api/daily/...``)."""
