"""For the people who make puzzles: why a board has no solution (:func:`diagnose`), the fewest
givens that make it unique (:func:`make_unique`), the givens it can do without
(:func:`reduce`), and how many solutions an open board has (:func:`estimate`)."""

from .clues import Clues, make_unique, reduce
from .diagnosis import Diagnosis, diagnose
from .forced import Chain, forced_contradiction
from .sampling import Estimate, estimate

__all__ = ["Chain", "Clues", "Diagnosis", "Estimate", "diagnose", "estimate", "forced_contradiction", "make_unique", "reduce"]
