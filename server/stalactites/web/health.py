"""The health endpoints: ``/healthz`` (the process answers) and ``/readyz`` (its store does)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse

from .process import process_of

__all__ = ["healthz", "readyz"]

READY_TIMEOUT_S = 2.0


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    try:
        ready = await asyncio.wait_for(process_of(request).store.ping(), READY_TIMEOUT_S)
    except TimeoutError:
        ready = False
    if ready:
        return JSONResponse({"status": "ok"})
    return JSONResponse({"status": "unavailable"}, status_code=503)
