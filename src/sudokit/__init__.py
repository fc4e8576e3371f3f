"""sudokit: Sudoku written once and for all.

Solve, count, prove uniqueness and optimise boards of any box shape from 2x2 to 8x8 (4x4 to
64x64 boards), with a JIT-compiled search core.

>>> import sudokit
>>> result = sudokit.solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
>>> result.status.value, result.board.to_line()[:9]
('solved', '534678912')
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and the reference see; at run time each name loads on first use
    from .arrays import solve_batch
    from .batch import iter_results, solve_column, solve_file
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

#: each public name and the module that defines it, imported on first use (PEP 562): ``import
#: sudokit`` costs milliseconds, not numpy's and the kernels' import
_HOME = {
    "BatchResult": "results",
    "Board": "board",
    "BoardStatus": "board",
    "Clues": "setters",
    "Conflict": "board",
    "Diagnosis": "setters",
    "Estimate": "setters",
    "ExitCode": "results",
    "Explanation": "logic",
    "FormatError": "errors",
    "GenerationError": "generator",
    "Geometry": "shape",
    "Level": "logic",
    "Limits": "results",
    "NotUnique": "logic",
    "OptimumResult": "results",
    "Rating": "logic",
    "Record": "board",
    "SEExplanation": "logic",
    "SEStep": "logic",
    "Shape": "shape",
    "SolveResult": "results",
    "SolveStatus": "results",
    "Step": "logic",
    "as_board": "board",
    "canonical": "canon",
    "count": "solver",
    "diagnose": "setters",
    "equivalent": "canon",
    "estimate": "setters",
    "explain": "logic",
    "explain_se": "logic",
    "generate": "generator",
    "generate_iter": "generator",
    "hint": "logic",
    "is_unique": "solver",
    "iter_results": "batch",
    "make_unique": "setters",
    "maximize": "optimize",
    "minimize": "optimize",
    "rate": "logic",
    "rate_batch": "logic",
    "read": "board",
    "read_text": "board",
    "reduce": "setters",
    "shuffle": "canon",
    "solutions": "solver",
    "solve": "solver",
    "solve_batch": "arrays",
    "solve_column": "batch",
    "solve_file": "batch",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))



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
