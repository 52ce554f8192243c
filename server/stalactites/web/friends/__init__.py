"""Friends over the web: the HTTP API (:mod:`.friends_http`) and the notification socket
``/ws/notify`` (:mod:`.notify_socket`) with each process's open tabs (:mod:`.tabs`)."""
