"""``docs/protocol.md``, written from the protocol's models: :mod:`.render` writes the whole
document (the room's part with it), each other module one part.

    python -m stalactites.protocol.doc docs/protocol.md
"""

from .render import main, render

__all__ = ["main", "render"]
