"""The real-time core of a process, under the web app and free of HTTP: the fan-out of
store events to subscribers (:mod:`.fanout`), the loop's alarms and rooms' deadlines
(:mod:`.alarms`, :mod:`.deadlines`), what a room's stream does here (:mod:`.rooms`), a
tournament's standings (:mod:`.standings_feed`), an arena's feeds (:mod:`.arena_feeds`), the
notification tabs (:mod:`.tabs`), the ghosts' timer (:mod:`.ghost_driver`), a race's
recording (:mod:`.race_recording`) and the figures a process keeps (:mod:`.metrics`).
:mod:`stalactites.web` holds the Starlette app, the sockets and the HTTP API over it.
"""
