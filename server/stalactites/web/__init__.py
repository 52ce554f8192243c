"""The service over HTTP and websockets: the Starlette app and its parts.

``create_app()`` builds the app; ``stalactites serve`` runs it under uvicorn.
"""

from .app import create_app

__all__ = ["create_app"]
