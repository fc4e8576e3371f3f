"""Human-style solving: techniques as a person uses them, steps with their reasons, ratings.

``hint`` gives the easiest next step, ``explain`` every step to the end, ``rate`` and
``rate_batch`` the difficulty on HoDoKu's scale (levels easy, medium, hard, unfair, extreme and
HoDoKu's score) and, on 9x9 boards, Sudoku Explainer's (ER/EP/ED, ``se.py``; ``explain_se``
lists the steps of SE's path). The techniques (``techniques.py``) run in compiled finders
(``kernels/logic*.py``) over a candidate grid (``grid.py``); each step is a record with its
pattern, eliminations, placements and the line a player reads (``steps.py``).
"""

from .grid import CandidateGrid
from .human import Explanation, NotUnique, Rating, SEExplanation, explain, explain_se, hint, rate, rate_batch
from .se import SEStep
from .steps import Step
from .techniques import TECHNIQUES, Level, Technique

__all__ = [
    "TECHNIQUES",
    "CandidateGrid",
    "Explanation",
    "Level",
    "NotUnique",
    "Rating",
    "SEExplanation",
    "SEStep",
    "Step",
    "Technique",
    "explain",
    "explain_se",
    "hint",
    "rate",
    "rate_batch",
]
