"""``python -m stalactites.protocol.doc [PATH]``: write ``docs/protocol.md`` (or print it)."""

import sys

from .render import main

sys.exit(main())
