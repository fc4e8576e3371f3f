"""Solving, counting and proving uniqueness: validate once, run a kernel, wrap the result.

Every entry point accepts a :class:`Board` or anything :func:`sudokit.as_board` reads (text in
any format, a list of lists, a numpy array) and returns a :class:`SolveResult`. A puzzle with no
solution, or with several, is a result, never an exception; only malformed input raises.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

from . import engines
from .board import Board, as_board
from .kernels.search import protocol as P
from .results import Limits, SolveResult, limits, solve_result
from .shape import ShapeLike


def count(
    puzzle: Any,
    limit: int = 2,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
) -> SolveResult:
    """Search for up to ``limit`` solutions: 1 solves, 2 proves uniqueness, N counts to N.

    ``time_limit`` (seconds) and ``node_limit`` bound the search; when one runs out first the
    status is ``UNKNOWN`` and ``count`` is what was found so far.
    """
    budget = limits(limit, time_limit, node_limit)
    return run(as_board(puzzle, shape), budget)


def run(board: Board, budget: Limits) -> SolveResult:
    """Search ``board`` under ``budget``: what :func:`count` and the command line call once
    they hold a board and checked limits."""
    start = time.perf_counter()
    if engines.repeats_a_given(board):
        conflicts = board.status().conflicts
        return solve_result(board, None, 0, True, budget.limit, 0, 0, 0.0, conflicts)
    search = engines.search_for(board)
    code = search.run(budget)
    found = search.count
    return solve_result(
        board,
        search.solution() if found else None,
        found,
        code == P.DONE,
        budget.limit,
        search.nodes,
        search.guesses,
        time.perf_counter() - start,
    )


def solve(
    puzzle: Any,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
) -> SolveResult:
    """Find one solution (``count(puzzle, limit=1)``)."""
    return count(puzzle, 1, time_limit=time_limit, node_limit=node_limit, shape=shape)


def is_unique(
    puzzle: Any,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
) -> SolveResult:
    """Prove the puzzle has exactly one solution (``count(puzzle, limit=2)``).

    The result is truthy only when the solution is proven unique; ``result.unique`` is
    True, False, or None when a budget stopped the search first.
    """
    return count(puzzle, 2, time_limit=time_limit, node_limit=node_limit, shape=shape)


def solutions(puzzle: Any, limit: int | None = None, *, shape: ShapeLike | None = None) -> Iterator[Board]:
    """Every solution, lazily, in the kernel's search order (at most ``limit`` of them).

    The search pauses after each solution and resumes when the next is asked for, so taking
    the first few solutions of a puzzle with millions costs only what those few cost.
    """
    board = as_board(puzzle, shape)
    if engines.repeats_a_given(board):
        return
    search = engines.search_for(board)
    while limit is None or search.count < limit:
        code = search.run(limits(search.count + 1), record_at=search.count + 1)
        if code == P.LIMIT:
            yield search.solution()
        else:
            return
