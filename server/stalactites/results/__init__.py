"""What happens to a race after its last move, whatever process dies when: its deadlines kept
in the store and advanced by any process (:mod:`.sweep`), and its effects recorded exactly once
from the store's results log (:mod:`.recorder`)."""

from .recorder import Effect, Recorder
from .sweep import Sweep

__all__ = ["Effect", "Recorder", "Sweep"]
