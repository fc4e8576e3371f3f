"""Weighted optimisation: the best-scoring completion of a board, with a proof.

Each cell has an integer weight; a completion scores the sum of weight x value over all cells
(givens included). :func:`maximize` and :func:`minimize` find a completion with the best
score and prove that none is better, by branch and bound in a compiled kernel
(``kernels/search/optimize.py``). Seed 003 (NOIP 2009 "target sudoku") is ``maximize(board,
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

import re
import time
from typing import Any, Iterable

import numpy as np

from . import engines
from .board import Board, as_board
from .errors import FormatError, quote
from .kernels.search import protocol as P
from .results import UNLIMITED, Limits, OptimumResult, Sense, limits, status_of
from .shape import ShapeLike

#: the named weight presets
PRESETS = ("target",)

#: the largest weight magnitude accepted: keeps every score and bound far inside int64
MAX_WEIGHT = (1 << 31) - 1


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


def maximize(
    puzzle: Any,
    weights: Any = "target",
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
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
    shape: ShapeLike | None = None,
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
    shape: ShapeLike | None,
    sweeps: int | None = None,
) -> OptimumResult:
    board = as_board(puzzle, shape)
    matrix = as_weights(weights, board.size)
    return optimum(board, matrix, sense, limits(UNLIMITED, time_limit, node_limit), sweeps)


def optimum(
    board: Board, matrix: np.ndarray, sense: Sense, budget: Limits, sweeps: int | None = None
) -> OptimumResult:
    """The best completion of ``board`` under the weight matrix ``matrix`` (``n x n`` int64, as
    :func:`as_weights` returns it) and ``budget``: what :func:`maximize`, :func:`minimize` and
    the command line call once they hold a board, weights and checked limits. The budget's
    ``limit`` counts improvements of the best completion: :data:`UNLIMITED` searches on
    until the optimum is proven."""
    matrix.setflags(write=False)
    start = time.perf_counter()
    status = board.status()
    if not status.valid:
        return OptimumResult(
            status_of(0, True, 2), sense, puzzle=board, weights=matrix, value=None, board=None, proven=True, bound=None,
            nodes=0, guesses=0, improvements=0, elapsed=0.0, conflicts=status.conflicts,
        )  # fmt: skip
    sign = 1 if sense == "max" else -1
    search = engines.optimize_search(board, sign * matrix, sweeps)
    code = search.run(budget)
    elapsed = time.perf_counter() - start
    found = search.found
    done = code == P.DONE
    value = sign * search.best if found else None
    if done:
        bound = value
    else:
        upper = search.open_bound()
        bound = None if upper is None else sign * upper
    return OptimumResult(
        status_of(int(found), done, 2),  # solved only once proven, as uniqueness is
        sense,
        puzzle=board,
        weights=matrix,
        value=value,
        board=board._solution(search.out.copy()) if found else None,
        proven=done,
        bound=bound,
        nodes=search.nodes,
        guesses=search.guesses,
        improvements=search.count,
        elapsed=elapsed,
    )
