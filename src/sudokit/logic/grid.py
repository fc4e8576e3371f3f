"""The candidate grid the technique engine works on: a board, every empty cell's candidates,
and the kernel state behind them (``kernels/hodoku/core.py``)."""

from __future__ import annotations

import functools
from typing import Iterator

import numpy as np

from .. import engines
from ..board import Board
from ..kernels.hodoku import record as R
from ..shape import Shape
from .steps import Step, decode
from .techniques import Technique


def human_rules(board: Board, marks: bool = True) -> None:
    """Refuse, with ``ValueError``, a board whose rules the techniques do not know: they
    work on rows, columns and boxes (HoDoKu's techniques and scores are defined there), so
    jigsaw regions, extra houses and killer cages are refused, never solved wrongly; pencil
    marks (a Sukaku, a player's candidates) are fine where ``marks``."""
    n = board.size
    geometry = board.geometry
    if not geometry.is_boxed(board.shape):
        raise ValueError("the human-style techniques work on rows, columns and boxes; this board has jigsaw regions")
    if geometry.extra:
        kinds = sorted(set(geometry.kinds[3 * n :]))
        raise ValueError(f"the human-style techniques work on rows, columns and boxes; this board has extra houses ({', '.join(kinds)})")
    if board.cages:
        raise ValueError("the human-style techniques work on rows, columns and boxes; this board has killer cages")
    if not marks and board.candidates is not None:
        raise ValueError("HoDoKu's scale rates givens; this board starts from pencil marks (explain and hint take them)")


@functools.lru_cache(maxsize=32)
def geometry(shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tables the logic kernels read: houses, each cell's houses, each cell's peers in
    increasing order (-1 padded), and ``(n, box height, box width, houses)``."""
    peers = [sorted(p) for p in shape.peers]
    width = max(len(p) for p in peers)
    table = np.full((shape.cells, width), -1, dtype=np.int32)
    for cell, row in enumerate(peers):
        table[cell, : len(row)] = row
    table.setflags(write=False)
    info = np.array([shape.size, shape.box_height, shape.box_width, len(shape.houses)], dtype=np.int64)
    houses = np.ascontiguousarray(shape.houses, dtype=np.int32)
    cell_houses = np.ascontiguousarray(shape.cell_houses, dtype=np.int32)
    # the exact types the kernels were compiled for ahead of time (which do not check them)
    for array in (houses, cell_houses, info):
        array.setflags(write=False)
    return (houses, cell_houses, table, info)


class CandidateGrid:
    """A board and its candidates. Starts from the givens (every candidate the givens allow),
    optionally narrowed to a player's pencil marks (``marks``: a candidate mask per cell, bit
    ``v - 1`` for value ``v``). ``fixed`` tells the puzzle's givens from values a solver
    placed (default: every value is a given). A board's own candidates (a Sukaku) are the
    default marks; rules the techniques do not know are refused (:func:`human_rules`)."""

    def __init__(self, board: Board, marks: np.ndarray | None = None, fixed: np.ndarray | None = None) -> None:
        human_rules(board)
        if marks is None:
            marks = board.candidates
        kernel = engines.logic_kernels()
        shape = board.shape
        self.board = board
        self.geo = geometry(shape)
        self.state = kernel.core.new_state(shape.cells, shape.size, len(shape.houses))
        self.step = kernel.core.new_step(shape.cells, shape.size, len(shape.houses))
        givens = np.ascontiguousarray(board.cells, dtype=np.int32)
        fixed = givens != 0 if fixed is None else np.ascontiguousarray(fixed, dtype=np.bool_)
        kernel.core.load(self.state, self.geo, givens, fixed)
        if marks is not None:
            kernel.core.remove_marks(self.state, self.geo, np.ascontiguousarray(marks, dtype=np.uint64))
        self._kernel = kernel

    # -- reading --------------------------------------------------------------------------

    @property
    def values(self) -> np.ndarray:
        """The cell values, 0 where empty (a copy)."""
        return self.state[R.ST_VALUES].astype(np.uint8)

    @property
    def candidates(self) -> np.ndarray:
        """Each cell's candidate mask (0 for solved cells; a copy)."""
        return self.state[R.ST_CAND].copy()

    def candidate_values(self, cell: int) -> tuple[int, ...]:
        mask = int(self.state[R.ST_CAND][cell])
        return tuple(v + 1 for v in range(self.board.size) if mask >> v & 1)

    @property
    def solved(self) -> bool:
        return bool((self.state[R.ST_VALUES] != 0).all())

    def to_board(self) -> Board:
        return Board(self.values, self.board.shape, self.board.symbols)

    # -- steps ----------------------------------------------------------------------------

    def find(self, technique: Technique, nth: int = 0) -> Step | None:
        """The nth instance of ``technique`` on this grid (no side effects), or None."""
        if self._kernel.solver.find(self.state, self.geo, self.step, int(technique.id), int(nth)):
            return self._decode()
        return None

    def find_all(self, technique: Technique, most: int = 10_000) -> Iterator[Step]:
        """Every instance of ``technique``, in the finder's scan order."""
        for nth in range(most):
            step = self.find(technique, nth)
            if step is None:
                return
            yield step

    def next_step(self, order: np.ndarray) -> Step | None:
        """The step the solving loop takes next (the first of ``order``'s techniques that finds
        one), or None when none does. For singles it consumes the sighting, as a solver does."""
        if self._kernel.solver.next_step(self.state, self.geo, self.step, np.ascontiguousarray(order, dtype=np.int64)):
            return self._decode()
        return None

    def apply(self, step: Step) -> None:
        """Carry out a step found on this grid (the one decoded last, or any other)."""
        self._load_step(step)
        self._kernel.core.apply(self.state, self.geo, self.step)

    def copy(self) -> CandidateGrid:
        other = object.__new__(CandidateGrid)
        other.board = self.board
        other.geo = self.geo
        other.state = tuple(array.copy() for array in self.state)
        other.step = tuple(array.copy() for array in self.step)
        other._kernel = self._kernel
        return other

    def _decode(self) -> Step:
        return decode(self.step, self.board.shape, self.board.symbols)

    def _load_step(self, step: Step) -> None:
        hdr, elim, place = self.step[R.S_HDR], self.step[R.S_ELIM], self.step[R.S_PLACE]
        hdr[:] = 0
        hdr[R.KIND] = step.technique.id
        for k, (cell, value) in enumerate(step.placements):
            place[k] = (cell, value)
        for k, (cell, value) in enumerate(step.eliminations):
            elim[k] = (cell, value)
        hdr[R.NE], hdr[R.NP] = len(step.eliminations), len(step.placements)
