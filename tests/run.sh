#!/usr/bin/env bash
# Install what the tests need, start the services they use, and run every check:
# ruff, mypy --strict, the web client's unit tests (node --test), format (Prettier) and types
# (tsc over its JSDoc), and
# pytest (which fails on "no tests ran", exit 5).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -e '.[test]'

# The Redis store is tested against a real Redis server on 127.0.0.1:6379; the Redis Cluster
# tests start their own redis-server nodes and join them with redis-cli (redis-tools).
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    apt-get update -qq && apt-get install -y -qq redis-server
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
    for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null && break; sleep 0.1; done
fi

# The web client is tested in Debian's chromium, driven by Playwright.
if ! command -v chromium >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium
fi

# The accessibility test injects axe-core; the client's format is checked by Prettier and its
# types by TypeScript; each
# at the version package.json pins (from node_modules).
if ! node -e 'const pins = Object.entries(require("./package.json").devDependencies);
    const installed = (name) => require(`./node_modules/${name}/package.json`).version;
    process.exit(pins.every(([name, pin]) => installed(name) === pin) ? 0 : 1)' \
    2>/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi

# The deployment topology test runs Debian's nginx (no Docker engine here).
if [ ! -x /usr/sbin/nginx ]; then
    apt-get update -qq && apt-get install -y -qq nginx
fi

# The static checks run beside the tests, on the core they leave free while they start; their
# output comes after the tests', and a failing check fails the run.
checks_log=$(mktemp)
(
    set -e
    .venv/bin/ruff check server tests bench
    .venv/bin/ruff format --check server tests bench
    .venv/bin/mypy
    node --test tests/js/*.test.mjs
    npx prettier --check client_web tests/js
    npx tsc -p jsconfig.json
) >"$checks_log" 2>&1 &
checks=$!

# The suite starts hundreds of server processes: compiled once here, not by each of them.
.venv/bin/python -m compileall -q server tests
# Four workers (pytest-xdist) keep both cores busy with the tests' servers, browsers and Redis;
# each module's tests stay on one worker (--dist=loadfile, pyproject.toml).
status=0
.venv/bin/pytest -n 4 "$@" || status=$?
checks_status=0
wait "$checks" || checks_status=$?
cat "$checks_log"
if [ "$checks_status" -ne 0 ]; then
    echo "tests/run.sh: a static check failed (its output is above)" >&2
    status=1
fi
rm -f "$checks_log"
exit "$status"
