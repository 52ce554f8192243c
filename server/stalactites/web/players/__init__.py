"""The players' HTTP API, their sessions on requests and sockets, and their races' recording."""
