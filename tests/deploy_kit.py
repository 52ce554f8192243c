"""The deployment's pieces for the tests: the nginx template filled in, Debian's nginx in the
foreground on it, and ``stalactites serve`` processes on Redis behind it, all on 127.0.0.1.

An :class:`App` logs in text (uvicorn's access lines), so that a test can read from its log
which process served a websocket.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from server_kit import NO_RATE_LIMITS, REDIS_URL, REPO, end_process, free_port

__all__ = ["NGINX", "PLACEHOLDERS", "TEMPLATE", "App", "Balancer", "fill_template", "nginx_conf"]

NGINX = "/usr/sbin/nginx"
TEMPLATE = REPO / "deploy" / "nginx.conf.template"
PLACEHOLDERS = ("LISTEN_PORT", "APP1", "APP2")


def fill_template(text: str, values: dict[str, str]) -> str:
    """The template with ``${NAME}`` replaced for exactly the three names envsubst fills in
    the nginx image; nginx's own ``$variables`` are left alone."""
    assert sorted(values) == sorted(PLACEHOLDERS)
    for name, value in values.items():
        assert f"${{{name}}}" in text, f"the template has no ${{{name}}}"
        text = text.replace(f"${{{name}}}", value)
    assert "${" not in text, "the template has a placeholder the deployment does not fill"
    return text


def nginx_conf(workdir: Path, server_block: str) -> str:
    """A whole nginx.conf around the filled template (which the nginx image includes inside
    ``http {}``), with every file nginx writes kept in ``workdir``."""
    paths = {kind: workdir / kind for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    temp = "\n".join(f"    {kind}_temp_path {path};" for kind, path in paths.items())
    return (
        "worker_processes 1;\n"
        f"pid {workdir / 'nginx.pid'};\n"
        f"error_log {workdir / 'error.log'} info;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {workdir / 'access.log'};\n"
        f"{temp}\n"
        f"{server_block}\n"
        "}\n"
    )


def compose_setting(name: str) -> str:
    """The value docker-compose.yml gives the apps' variable ``name``."""
    text = (REPO / "docker-compose.yml").read_text()
    match = re.search(rf"^\s+{name}: \"?([^\"\n]*)\"?$", text, re.MULTILINE)
    assert match is not None, f"docker-compose.yml sets no {name}"
    return match.group(1)


class App:
    """One ``stalactites serve`` process on Redis; everything it prints goes to its log file."""

    def __init__(self, prefix: str, log: Path, limited: bool = False) -> None:
        """``limited``: with the default rate limits and the deployment's own proxy trust
        (``FORWARDED_ALLOW_IPS`` as docker-compose.yml sets it), not with the limits off."""
        env = dict(os.environ, REDIS_URL=REDIS_URL, STALACTITES_REDIS_PREFIX=prefix)
        env.update(STALACTITES_PRESENCE_TTL_S="3")
        if limited:
            env.update(FORWARDED_ALLOW_IPS=compose_setting("FORWARDED_ALLOW_IPS"))
            for variable in NO_RATE_LIMITS:
                env.pop(variable, None)
        else:
            env.update(NO_RATE_LIMITS)
        env["STALACTITES_LOG_FORMAT"] = "text"  # the test reads uvicorn's access lines
        self.log = log
        self.log_file: IO[str] = log.open("w")
        command = [str(Path(sys.executable).parent / "stalactites"), "serve", "--port", "0"]
        self.process = subprocess.Popen(
            command, stdout=self.log_file, stderr=subprocess.STDOUT, env=env, cwd=REPO
        )
        self.address = f"127.0.0.1:{self._wait_port()}"

    def _wait_port(self) -> str:
        """The port from the line ``stalactites serve`` prints once it is listening."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and self.process.poll() is None:
            match = re.search(
                r"Stalactites Race on http://127\.0\.0\.1:(\d+)/", self.log.read_text()
            )
            if match is not None:
                return match.group(1)
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")

    def accepted(self, room_id: str) -> int:
        """How many websockets to this room the process has accepted, by its own log."""
        return self.log.read_text().count(f'"WebSocket /ws/rooms/{room_id}" [accepted]')

    def kill(self) -> None:
        """SIGKILL: no close frames, no cleaning up."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        end_process(self.process)
        self.log_file.close()


class Balancer:
    """Debian's nginx in the foreground on the filled template, everything in ``workdir``."""

    def __init__(self, workdir: Path, apps: list[App]) -> None:
        self.port = free_port()
        values = {"LISTEN_PORT": f"127.0.0.1:{self.port}"}
        values.update(APP1=apps[0].address, APP2=apps[1].address)
        conf = workdir / "nginx.conf"
        conf.write_text(nginx_conf(workdir, fill_template(TEMPLATE.read_text(), values)))
        self.error_log = workdir / "error.log"
        self.command = [NGINX, "-p", str(workdir), "-e", str(self.error_log), "-c", str(conf)]
        self.output = workdir / "nginx.out"
        with self.output.open("w") as output:
            self.process = subprocess.Popen(
                [*self.command, "-g", "daemon off;"], stdout=output, stderr=subprocess.STDOUT
            )
        self._wait_listening()
        self.url = f"http://127.0.0.1:{self.port}"

    def _wait_listening(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start:\n{self.errors()}")

    def errors(self) -> str:
        """What nginx said on its terminal and in its error log."""
        return "".join(path.read_text() for path in (self.output, self.error_log) if path.exists())

    def ws_url(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"

    def stop(self) -> None:
        end_process(self.process)  # SIGTERM: nginx's fast shutdown
