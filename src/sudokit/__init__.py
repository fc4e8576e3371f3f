"""sudokit: Sudoku written once and for all.

Solve, count, prove uniqueness and optimise boards of any box shape from 2x2 to 8x8 (4x4 to
64x64 boards), with a JIT-compiled search core.

>>> import sudokit
>>> result = sudokit.solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
>>> result.status.value, result.board.to_line()[:9]
('solved', '534678912')
"""

from .batch import iter_results, solve_batch, solve_column, solve_file
from .board import Board, BoardStatus, Conflict, Record, as_board, read, read_text
from .canon import canonical, equivalent, shuffle
from .errors import FormatError
from .generator import GenerationError, generate, generate_iter
from .logic import Explanation, Level, NotUnique, Rating, SEExplanation, SEStep, Step, explain, explain_se, hint, rate, rate_batch
from .optimize import maximize, minimize
from .results import (
    BatchResult,
    ExitCode,
    Limits,
    OptimumResult,
    SolveResult,
    SolveStatus,
)
from .setters import Clues, Diagnosis, Estimate, diagnose, estimate, make_unique, reduce
from .shape import Geometry, Shape
from .solver import count, is_unique, solutions, solve

__version__ = "0.2.0"

__all__ = [
    "BatchResult",
    "Board",
    "BoardStatus",
    "Clues",
    "Conflict",
    "Diagnosis",
    "Estimate",
    "ExitCode",
    "Explanation",
    "FormatError",
    "GenerationError",
    "Geometry",
    "Level",
    "Limits",
    "NotUnique",
    "OptimumResult",
    "Rating",
    "SEExplanation",
    "SEStep",
    "Record",
    "Shape",
    "SolveResult",
    "SolveStatus",
    "Step",
    "as_board",
    "canonical",
    "count",
    "diagnose",
    "equivalent",
    "estimate",
    "explain",
    "explain_se",
    "generate",
    "generate_iter",
    "hint",
    "is_unique",
    "iter_results",
    "make_unique",
    "maximize",
    "minimize",
    "rate",
    "rate_batch",
    "read",
    "read_text",
    "reduce",
    "shuffle",
    "solutions",
    "solve",
    "solve_batch",
    "solve_column",
    "solve_file",
]
