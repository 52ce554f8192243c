"""A request's JSON body: the object, or a model of it; else 422 ``bad_message`` naming the
field at fault (``"field": null``: the body as a whole), never quoting the input
(:mod:`.invalid`)."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from .errors import Refused
from .invalid import describe

__all__ = ["bad_message", "body_of", "json_object"]

Body = TypeVar("Body", bound=BaseModel)


def bad_message(field: str | None, message: str) -> Refused:
    return Refused("bad_message", message, 422, field)


async def json_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object (an empty body: ``{}``)."""
    raw = await request.body()
    try:
        data: Any = json.loads(raw) if raw.strip() else {}
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise bad_message(None, "the body is not JSON (or nested too deeply)") from None
    if not isinstance(data, dict):
        raise bad_message(None, "the body is a JSON object")
    return data


async def body_of(request: Request, model: type[Body]) -> Body:
    """The body as ``model``."""
    data = await json_object(request)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise bad_message(*describe(error)) from None
