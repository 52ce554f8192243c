"""The players' HTTP API and their sessions on requests and sockets (their races' recording
is :mod:`stalactites.live.race_recording`)."""
