"""What the setters' questions share: a budget spent over many searches, boards that keep a
board's rules with other givens, and solutions found once and reused as witnesses.

A *witness* is a solution found on the way. It stays a valid grid under the board's rules, so
any later set of givens it agrees with has a solution without a search: removing givens only
ever adds solutions, and the questions here (a minimal core, the givens that can go, the cells
that tell solutions apart) ask that again and again on smaller and smaller sets of givens.
"""

from __future__ import annotations

import time
from typing import Iterable

import numpy as np

from .. import engines, results
from ..board import Board
from ..kernels.search import protocol as P
from ..results import UNLIMITED, Limits


class Budget(results.Budget):
    """One time and node budget for a whole question (``time_limit`` seconds and ``node_limit``
    search nodes over every search it runs): the library's account
    (:class:`sudokit.results.Budget`) in search nodes, that also counts the searches."""

    def __init__(self, time_limit: float | None = None, node_limit: int | None = None) -> None:
        Limits(1, time_limit, node_limit)  # checked once, with the usual messages
        super().__init__(node_limit, time_limit)
        self.searches = 0  #: searches run so far

    @property
    def nodes(self) -> int:
        """Search nodes spent so far."""
        return self.spent

    def stop(self) -> bool:
        """Whether to stop now (and note it): for loops that run no search of their own."""
        if self.exhausted:
            self.ran_out = True
        return self.ran_out and self.exhausted


def rebuilt(board: Board, cells: np.ndarray) -> Board:
    """``board``'s rules (houses, cages, pencil marks) with the values ``cells``. Where a given
    of ``board`` is taken out, its cell's pencil marks open to every value (a given's marks are
    the given alone)."""
    if board.candidates is None:
        if board.plain:
            return Board._trusted(np.array(cells, dtype=np.uint8), board.shape, board.symbols)
        return Board(cells, board.shape, board.symbols, geometry=board.geometry, cages=board.cages)
    masks = board.candidates.copy()
    opened = (board.cells != 0) & (np.asarray(cells) == 0)
    masks[opened] = np.uint64((1 << board.size) - 1)
    return Board(cells, board.shape, board.symbols, geometry=board.geometry, cages=board.cages, candidates=masks)


def with_givens(board: Board, cells: Iterable[int]) -> Board:
    """``board`` keeping only the givens at ``cells`` (its rules unchanged)."""
    values = np.zeros_like(board.cells)
    chosen = np.fromiter(cells, dtype=np.int64)
    values[chosen] = board.cells[chosen]
    return rebuilt(board, values)


def search(board: Board, want: int, budget: Budget) -> tuple[list[np.ndarray], bool]:
    """Up to ``want`` solutions of ``board`` (cell arrays), and whether the answer is decided:
    True when ``want`` were found or the search space is exhausted, False when the budget
    stopped the search first."""
    budget.searches += 1
    if engines.repeats_a_given(board):
        return [], True
    found: list[np.ndarray] = []
    run = engines.search_for(board)
    while len(found) < want:
        if budget.exhausted:
            budget.ran_out = True
            return found, False
        before, began = run.nodes, time.perf_counter()
        left = budget.units_left()
        code = run.run(
            Limits(len(found) + 1, budget.seconds_left(), run.nodes + (UNLIMITED if left is None else left)),
            record_at=len(found) + 1,
        )
        budget.record(run.nodes - before, time.perf_counter() - began)
        if code == P.LIMIT:
            found.append(run.out.copy())
        elif code == P.DONE:
            return found, True
        else:
            budget.ran_out = True
            return found, False
    return found, True


class Witnesses:
    """Solutions found so far (valid grids under one board's rules), asked whether one of
    them agrees with a set of givens."""

    def __init__(self, cells: int) -> None:
        self.grids = np.zeros((0, cells), dtype=np.uint8)

    def add(self, grids: Iterable[np.ndarray]) -> None:
        rows = [np.asarray(grid, dtype=np.uint8) for grid in grids]
        if rows:
            self.grids = np.concatenate([self.grids, np.stack(rows)])

    def agreeing(self, values: np.ndarray, other_than: np.ndarray | None = None) -> np.ndarray | None:
        """A stored grid that keeps every nonzero value of ``values`` (and differs from
        ``other_than``, when given), or None."""
        if not len(self.grids):
            return None
        given = np.flatnonzero(values)
        fits = (self.grids[:, given] == values[given]).all(axis=1)
        if other_than is not None:
            fits &= (self.grids != other_than).any(axis=1)
        hits = np.flatnonzero(fits)
        return self.grids[hits[0]] if len(hits) else None
