"""Friends over the web: the HTTP API (:mod:`.friends_http`) and the notification socket
``/ws/notify`` (:mod:`.notify_socket`); each process's open tabs are
:mod:`stalactites.live.tabs`."""
