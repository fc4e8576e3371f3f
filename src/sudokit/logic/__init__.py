"""Human-style solving: techniques as a person uses them, steps with their reasons, ratings.

``hint`` gives the easiest next step, ``explain`` every step to the end, ``rate`` and
``rate_batch`` the difficulty on HoDoKu's scale (levels easy, medium, hard, unfair, extreme and
HoDoKu's score). The techniques (``techniques.py``) run in compiled finders
(``kernels/logic*.py``) over a candidate grid (``grid.py``); each step is a record with its
pattern, eliminations, placements and the line a player reads (``steps.py``).
"""

from .grid import CandidateGrid
from .human import Explanation, NotUnique, Rating, explain, hint, rate, rate_batch
from .steps import Step
from .techniques import TECHNIQUES, Level, Technique

__all__ = [
    "TECHNIQUES",
    "CandidateGrid",
    "Explanation",
    "Level",
    "NotUnique",
    "Rating",
    "Step",
    "Technique",
    "explain",
    "hint",
    "rate",
    "rate_batch",
]
