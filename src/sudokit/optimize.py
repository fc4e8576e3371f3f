"""Weighted optimisation: the best-scoring completion of a board, with a proof.

Each cell has an integer weight; a completion scores the sum of weight x value over all cells
(givens included). :func:`maximize` and :func:`minimize` find a completion with the best
score and prove that none is better, by branch and bound in a compiled kernel
(``kernels/optimize.py``). Seed 003 (NOIP 2009 "target sudoku") is ``maximize(board,
"target")``.

Weights are an ``n x n`` matrix of integers (list of lists or numpy array) or the name of a
preset:

``"target"``
    seed 003's rings: 6 on the outer ring, one more per ring inwards, so a 9x9 board runs from
    6 on the rim to 10 in the centre: ``6 + min(r, n-1-r, c, n-1-c)`` for the cell in row ``r``
    and column ``c`` (0-based). The same formula serves every size: 4x4 boards have rings 6
    and 7, 16x16 boards run from 6 to 13.

A board with no completion (or rule-breaking givens) is a result, not an error: ``value`` is
None. Time and node budgets stop the search early; the result then carries the best
completion found so far, unproven, and ``bound``, a proven limit on the optimum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

import numpy as np

from .board import Board, Conflict
from .errors import FormatError, quote
from .kernels import protocol as P
from .shape import Shape
from .solve import UNLIMITED, Search, SolveStatus, as_board

Sense = Literal["max", "min"]

#: the named weight presets
PRESETS = ("target",)

#: the largest weight magnitude accepted: keeps every score and bound far inside int64
MAX_WEIGHT = (1 << 31) - 1


@dataclass(frozen=True)
class OptimumResult:
    """The best completion found, whether it is proven best, and what the search cost.

    ``status`` is SOLVED when the optimum is proven, NO_SOLUTION when the board has no
    completion (proven too), UNKNOWN when a budget stopped the search first; then ``value``
    and ``board`` are the best completion found so far (None if none yet) and ``bound`` is a
    proven limit on the optimum (an upper one when maximising, a lower one when minimising;
    None if the search stopped before the first bound).
    """

    status: SolveStatus
    sense: Sense
    puzzle: Board
    weights: np.ndarray  #: the ``n x n`` int64 weight matrix used
    value: int | None  #: the best score found; the optimum when ``proven``
    board: Board | None  #: a completion scoring ``value``
    proven: bool  #: True when ``value`` is the optimum (or no completion exists)
    bound: int | None  #: no completion scores better than this; equals ``value`` when proven
    nodes: int  #: propagations run: the root and every branch tried
    guesses: int  #: choice points: cells the search branched on
    improvements: int  #: how many times the best completion found so far improved
    elapsed: float  #: seconds spent in the search
    conflicts: tuple[Conflict, ...] = field(default=())  #: rule-breaking givens, if any

    @property
    def solved(self) -> bool:
        return self.status is SolveStatus.SOLVED

    @property
    def gap(self) -> int | None:
        """How far the optimum may still be from ``value`` (0 when proven)."""
        if self.value is None or self.bound is None:
            return None
        return abs(self.bound - self.value)

    def __bool__(self) -> bool:
        return self.solved

    def __repr__(self) -> str:
        board = f", board={self.board.to_line()!r}" if self.board is not None else ""
        bound = "" if self.proven else f" bound={self.bound}"
        return (
            f"<OptimumResult {self.status.value} {self.sense}: value={self.value}{bound} "
            f"nodes={self.nodes}{board}>"
        )


# -- weights --------------------------------------------------------------------------------


def preset(name: str, size: int) -> np.ndarray:
    """The ``size x size`` weight matrix of a named preset (see the module docstring)."""
    if name == "target":
        index = np.arange(size)
        ring = np.minimum(index, size - 1 - index)
        return (6 + np.minimum.outer(ring, ring)).astype(np.int64)
    raise ValueError(f"unknown weight preset {name!r}; choose one of {', '.join(PRESETS)}")


def as_weights(weights: Any, size: int) -> np.ndarray:
    """An ``(size, size)`` int64 matrix from a preset name, rows of integers or an array;
    raises ``ValueError`` (or ``TypeError``) saying what is wrong."""
    if isinstance(weights, str):
        return preset(weights, size)
    if isinstance(weights, np.ndarray):
        array = weights
        if array.dtype == bool or not (
            np.issubdtype(array.dtype, np.integer) or array.dtype == object
        ):
            raise TypeError(f"weights must be integers, not an array of {array.dtype}")
    elif isinstance(weights, (list, tuple)):
        rows = list(weights)
        for r, row in enumerate(rows):
            if not isinstance(row, (list, tuple, np.ndarray)):
                raise TypeError(f"weights row {r + 1} is a {type(row).__name__}, not a row of integers")
        array = np.empty((len(rows),), dtype=object)
        if rows and all(len(row) == len(rows[0]) for row in rows):
            array = np.empty((len(rows), len(rows[0])), dtype=object)
            for r, row in enumerate(rows):
                for c, item in enumerate(row):
                    array[r, c] = item
        else:
            lengths = sorted({len(row) for row in rows})
            raise ValueError(f"weights rows have different lengths ({lengths}); expected {size} rows of {size}")
    else:
        raise TypeError(
            f"weights must be an {size}x{size} matrix of integers or a preset name "
            f"({', '.join(PRESETS)}), not {type(weights).__name__}"
        )
    if array.shape != (size, size):
        got = "x".join(str(d) for d in array.shape) or "a scalar"
        raise ValueError(f"weights are {got}, the board is {size}x{size}")
    if array.dtype == object:
        for (r, c), item in np.ndenumerate(array):
            if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
                raise TypeError(
                    f"weights must be integers; row {r + 1}, column {c + 1} holds {item!r}"
                )
            if abs(int(item)) > MAX_WEIGHT:
                raise ValueError(
                    f"weight {item} at row {r + 1}, column {c + 1} is too large "
                    f"(at most {MAX_WEIGHT} in absolute value)"
                )
        return array.astype(np.int64)
    too_big = np.abs(array.astype(object)) > MAX_WEIGHT if array.dtype == np.uint64 else None
    if too_big is None:
        too_big = np.abs(array.astype(np.int64)) > MAX_WEIGHT
    if too_big.any():
        r, c = (int(i) for i in np.argwhere(too_big)[0])
        raise ValueError(
            f"weight {array[r, c]} at row {r + 1}, column {c + 1} is too large "
            f"(at most {MAX_WEIGHT} in absolute value)"
        )
    return array.astype(np.int64)


def parse_weights(lines: Iterable[str | bytes], *, source: str | None = None) -> np.ndarray:
    """A weight matrix from text: ``n`` rows of ``n`` integers (negative ones too), separated
    by spaces, tabs or commas; blank lines and lines starting with ``#`` are skipped. Raises
    :class:`FormatError` with the line and column of the first problem."""
    import re

    rows: list[list[int]] = []
    first_line = None
    width = None
    last = 0
    for number, raw in enumerate(lines, 1):
        last = number
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        text = text.rstrip("\r\n")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = [(m.group(), m.start() + 1) for m in re.finditer(r"[^\s,]+", text)]
        row = []
        for item, column in fields:
            if not re.fullmatch(r"[+-]?\d+", item):
                raise FormatError(f"expected an integer weight, found {quote(item)}", line=number, column=column, source=source)
            value = int(item)
            if abs(value) > MAX_WEIGHT:
                raise FormatError(
                    f"weight {item} is too large (at most {MAX_WEIGHT} in absolute value)",
                    line=number, column=column, source=source,
                )
            row.append(value)
        if width is None:
            width, first_line = len(row), number
        elif len(row) != width:
            column = fields[width][1] if len(row) > width else len(text.rstrip()) + 1
            raise FormatError(
                f"row has {len(row)} weights, the first row (line {first_line}) has {width}",
                line=number, column=column, source=source,
            )
        if len(rows) == width:
            raise FormatError(
                f"{width} rows of {width} weights are complete; this is one row too many",
                line=number, column=1, source=source,
            )
        rows.append(row)
    if width is None:
        raise FormatError("no weights: expected n rows of n integers", line=max(last, 1), column=1, source=source)
    if len(rows) != width:
        raise FormatError(
            f"rows have {width} weights, so {width} rows are needed; found {len(rows)}",
            line=last + 1, column=1, source=source,
        )
    return np.array(rows, dtype=np.int64)


def score(board: Board, weights: Any = "target") -> int:
    """The score of a (complete or partial) board: sum of weight x value over filled cells."""
    matrix = as_weights(weights, board.size)
    return int((matrix.reshape(-1) * board.cells.astype(np.int64)).sum())


# -- search ---------------------------------------------------------------------------------


class OptimizeSearch(Search):
    """The branch-and-bound kernel over one board and one weight vector (maximising)."""

    def __init__(self, board: Board, weights: np.ndarray, sweeps: int | None = None) -> None:
        from .kernels import optimize as K

        shape = board.shape
        n, cells = shape.size, shape.cells
        self.board = board
        self.cells = cells
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        self.houses = shape.houses
        self.cell_houses = shape.cell_houses
        self.weights = np.ascontiguousarray(weights.reshape(-1), dtype=np.int64)
        # each house's cells in increasing weight, for the assignment bound
        order = np.argsort(self.weights[self.houses], axis=1, kind="stable")
        self.by_weight = np.ascontiguousarray(np.take_along_axis(self.houses, order, axis=1), dtype=np.int32)
        self.full = np.uint64((1 << n) - 1)
        levels = min(cells + 1, max(16, (1 << 21) // (8 * cells)))
        self.stack = np.zeros((levels, cells), dtype=np.uint64)
        self.branch_cell = np.zeros(levels, dtype=np.int64)
        self.branch_rest = np.zeros(levels, dtype=np.uint64)
        self.level_bound = np.zeros(levels, dtype=np.int64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(cells, dtype=np.uint8)
        self.queue = np.zeros(cells, dtype=np.int32)
        self.dirty = np.zeros(len(self.houses), dtype=np.uint8)
        self.lam = np.zeros((len(self.houses), n), dtype=np.int64)
        self.red = np.zeros((cells, n), dtype=np.int64)
        self.top1 = np.zeros(cells, dtype=np.int64)
        self.top1v = np.zeros(cells, dtype=np.int64)
        self.top2 = np.zeros(cells, dtype=np.int64)
        self.sweeps = K.SWEEPS if sweeps is None else int(sweeps)
        self.stats = np.zeros(K.STATS_SIZE, dtype=np.int64)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        from .kernels import optimize as K

        return K.search(
            self.givens, self.houses, self.cell_houses, self.by_weight, self.weights, self.full,
            self.stack, self.branch_cell, self.branch_rest, self.level_bound, self.ctl,
            limit, node_budget, self.out, self.queue, self.dirty,
            self.lam, self.red, self.top1, self.top1v, self.top2, self.sweeps, self.stats,
        )  # fmt: skip

    def _grow(self) -> None:
        self._double_levels("stack", "branch_cell", "branch_rest", "level_bound")

    @property
    def found(self) -> bool:
        from .kernels import optimize as K

        return bool(self.ctl[K.FOUND])

    @property
    def best(self) -> int:
        from .kernels import optimize as K

        return int(self.ctl[K.BEST])

    def open_bound(self) -> int | None:
        """A proven upper bound on the optimum while the search is paused: the best of the
        incumbent and the bounds of the levels that still have work left. None before the
        root's bound is known."""
        depth, phase = int(self.ctl[P.DEPTH]), int(self.ctl[P.PHASE])
        bounds = [int(self.level_bound[d]) for d in range(depth) if self.branch_rest[d]]
        if phase == P.NEXT_BRANCH:
            bounds.append(int(self.level_bound[depth]))
        elif phase == P.PROPAGATE:
            if depth == 0:
                return None  # the root is still to be bounded
            bounds.append(int(self.level_bound[depth - 1]))
        if self.found:
            bounds.append(self.best)
        return max(bounds) if bounds else None


def maximize(
    puzzle: Any,
    weights: Any = "target",
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: Shape | None = None,
) -> OptimumResult:
    """The completion of ``puzzle`` with the largest score ``sum(weight * value)``, proven.

    ``puzzle`` is anything :func:`sudokit.as_board` reads; ``weights`` an ``n x n`` integer
    matrix or a preset name (``"target"``: seed 003's rings). ``time_limit`` (seconds) and
    ``node_limit`` bound the search; when one runs out first the status is UNKNOWN, ``value``
    is the best found so far and ``bound`` a proven upper bound on the optimum.

    >>> result = maximize("12..34..........", [[1] * 4] * 4)
    >>> result.value, result.proven
    (40, True)
    """
    return _optimize(puzzle, weights, "max", time_limit, node_limit, shape)


def minimize(
    puzzle: Any,
    weights: Any = "target",
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: Shape | None = None,
) -> OptimumResult:
    """The completion with the smallest score; as :func:`maximize`, with ``bound`` a proven
    lower bound when a budget stops the search."""
    return _optimize(puzzle, weights, "min", time_limit, node_limit, shape)


def _optimize(
    puzzle: Any,
    weights: Any,
    sense: Sense,
    time_limit: float | None,
    node_limit: int | None,
    shape: Shape | None,
    sweeps: int | None = None,
) -> OptimumResult:
    board = as_board(puzzle, shape)
    matrix = as_weights(weights, board.size)
    matrix.setflags(write=False)
    if time_limit is not None and time_limit < 0:
        raise ValueError(f"time_limit must be at least 0, not {time_limit!r}")
    if node_limit is not None and (not isinstance(node_limit, (int, np.integer)) or node_limit < 1):
        raise ValueError(f"node_limit must be a positive integer, not {node_limit!r}")
    start = time.perf_counter()
    status = board.status()
    common = dict(sense=sense, puzzle=board, weights=matrix)
    if not status.valid:
        return OptimumResult(
            SolveStatus.NO_SOLUTION, value=None, board=None, proven=True, bound=None,
            nodes=0, guesses=0, improvements=0, elapsed=0.0, conflicts=status.conflicts, **common,
        )  # fmt: skip
    from .kernels import _jit
    from .kernels import optimize as K

    _jit.notify_compile(K.search, what="the optimisation kernel")
    sign = 1 if sense == "max" else -1
    search = OptimizeSearch(board, sign * matrix, sweeps)
    code = search.run(UNLIMITED, 1, time_limit, node_limit)
    elapsed = time.perf_counter() - start
    found = search.found
    done = code == P.DONE
    value = sign * search.best if found else None
    if done:
        bound = value
        result_status = SolveStatus.SOLVED if found else SolveStatus.NO_SOLUTION
    else:
        upper = search.open_bound()
        bound = None if upper is None else sign * upper
        result_status = SolveStatus.UNKNOWN
    return OptimumResult(
        result_status,
        value=value,
        board=Board(search.out.copy(), board.shape, board.symbols) if found else None,
        proven=done,
        bound=bound,
        nodes=search.nodes,
        guesses=search.guesses,
        improvements=search.count,
        elapsed=elapsed,
        **common,
    )
