"""Solving many boards at once: ``solve_batch`` runs a whole batch inside one compiled call.

The single-board API pays for Python on every board (parsing, checking, a result object);
at a few microseconds a 9x9 search that overhead is most of the time. ``solve_batch`` checks
and converts the whole batch with numpy, then hands it to a compiled loop: the classic kernel
for 9x9 boards with 3x3 boxes, the general kernel for every other shape.

A record that cannot be read never stops the batch: its count is -1, its row of
``solutions`` stays zero, and ``errors`` holds its index and the message. Givens that repeat a
value in a house are read fine but cannot be solved: count 0, flagged in ``conflicts``.

Variants: ``rules``, a board whose houses, cages and candidates every row shares (a batch of
killers on one cage layout, of jigsaws on one layout), sends the whole array to the general
kernel's batch loop with those rules; a :class:`Board` in a list that carries rules of its own
is searched on its own (its rules are its own), in the same result.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np

from . import engines
from .board import Board
from .kernels.search import protocol as P
from .formats import NOT_A_SYMBOL, value_table
from .results import BatchResult, Limits
from .shape import Shape, ShapeLike

#: characters of the 9x9 one-line form that the fast path reads (as ``Board.from_line`` does)
_DIGITS = value_table("123456789")


def solve_batch(
    puzzles: Sequence[str | Board] | np.ndarray,
    limit: int = 1,
    *,
    shape: ShapeLike | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    rules: Board | None = None,
) -> BatchResult:
    """Search every board of a batch for up to ``limit`` solutions, in one compiled call.

    ``puzzles`` is a list of one-line strings (or :class:`Board` objects), or an integer array
    of shape ``(N, cells)`` or ``(N, n, n)`` with 0 for empty cells. The board shape comes from
    ``shape`` (a :class:`Shape`, or as :meth:`Shape.of` reads it), else from the array width or the first readable string (81 cells: 9x9).
    ``node_limit`` caps the nodes of each search and ``time_limit`` its seconds (as in
    :func:`sudokit.count`); where one stops a search, ``exhausted`` is False. ``rules``: the
    variant every row shares (see the module's docstring); its own values do not count.

    >>> result = solve_batch(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", "oops"])
    >>> result.counts.tolist(), result.errors[0][0]
    ([1, -1], 1)
    """
    limits = Limits(limit, time_limit, node_limit)
    shape = Shape.of(shape)
    if rules is not None:
        if shape is not None and shape != rules.shape:
            raise ValueError(f"rules for a {rules.shape.name} board in a batch of {shape.name} boards")
        shape = rules.shape
    alone: dict[int, Board] = {}
    if isinstance(puzzles, np.ndarray):
        values, shape, errors = _from_array(puzzles, shape)
    else:
        values, shape, errors = _from_records(list(puzzles), shape, alone)
    result = _run(values, shape, errors, limits, rules, alone)
    for index, board in alone.items():
        _search_alone(index, board, limits, result)
    return result


def _search_alone(index: int, board: Board, limits: Limits, result: BatchResult) -> None:
    """Row ``index`` of ``result``: ``board`` (which has rules of its own) searched alone."""
    if engines.repeats_a_given(board):
        result.conflicts[index] = True
        result.exhausted[index] = True
        return
    search = engines.search_for(board)
    code = search.run(limits)
    result.counts[index] = search.count
    result.nodes[index] = search.nodes
    result.guesses[index] = search.guesses
    result.exhausted[index] = code == P.DONE
    if search.count:
        result.solutions[index] = search.out


def _from_array(array: np.ndarray, shape: Shape | None) -> tuple[np.ndarray, Shape, dict[int, str]]:
    if array.ndim == 3 and array.shape[1] == array.shape[2]:
        array = array.reshape(array.shape[0], -1)
    if array.ndim != 2:
        raise ValueError(f"expected an (N, cells) or (N, n, n) array, not shape {array.shape}")
    if not (np.issubdtype(array.dtype, np.integer) or array.dtype == np.bool_):
        raise ValueError(f"expected an integer array, not {array.dtype}")
    if shape is None:
        size = int(round(array.shape[1] ** 0.5))
        if size * size != array.shape[1]:
            raise ValueError(f"{array.shape[1]} cells do not make a square board; pass shape=")
        shape = Shape.for_size(size)
    if array.shape[1] != shape.cells:
        raise ValueError(f"a {shape.name} board has {shape.cells} cells, not {array.shape[1]}")
    errors: dict[int, str] = {}
    bad = np.flatnonzero(((array < 0) | (array > shape.size)).any(axis=1))
    for index in bad:
        row = array[index]
        value = int(row[(row < 0) | (row > shape.size)][0])
        errors[int(index)] = f"cell values must be 0 (empty) to {shape.size}, not {value}"
    values = np.zeros(array.shape, dtype=np.uint8)
    good = np.ones(len(array), dtype=bool)
    good[list(errors)] = False
    values[good] = array[good]
    return values, shape, errors


def _from_records(
    records: list[Any], shape: Shape | None, alone: dict[int, Board]
) -> tuple[np.ndarray, Shape, dict[int, str]]:
    boards: dict[int, Board] = {}
    errors: dict[int, str] = {}
    fast = _fast_lines(records) if shape is None or shape == Shape(3, 3) else None
    if fast is not None:  # every record a plain 9x9 line: read them all at once
        return fast, Shape(3, 3), {}
    for index, record in enumerate(records):
        try:
            board = record if isinstance(record, Board) else _parse(record, shape)
        except (ValueError, TypeError) as error:
            errors[index] = str(error)
            continue
        if shape is None:
            shape = board.shape
        if board.shape != shape:
            errors[index] = f"a {board.shape.name} board in a batch of {shape.name} boards"
            continue
        if not board.plain:
            alone[index] = board
            continue
        boards[index] = board
    shape = shape or Shape(3, 3)
    values = np.zeros((len(records), shape.cells), dtype=np.uint8)
    for index, board in boards.items():
        values[index] = board.cells
    return values, shape, errors


def _parse(record: Any, shape: Shape | None) -> Board:
    if isinstance(record, bytes):
        record = record.decode("utf-8", "surrogateescape")
    if not isinstance(record, str):
        raise TypeError(f"expected a one-line board as text, not {type(record).__name__}")
    return Board.from_line(record, shape=shape)


def _fast_lines(records: list[Any]) -> np.ndarray | None:
    """The values of 9x9 one-line records when every one is exactly 81 of ``1-9 . 0 -``
    (what ``Board.from_line`` would read the same way); None otherwise."""
    if not records or not all(isinstance(record, str) and len(record) == 81 for record in records):
        return None
    try:
        raw = "".join(records).encode("ascii")
    except UnicodeEncodeError:
        return None
    values = _DIGITS[np.frombuffer(raw, dtype=np.uint8)].reshape(len(records), 81)
    if (values == NOT_A_SYMBOL).any():
        return None
    return values


def _run(
    values: np.ndarray, shape: Shape, errors: dict[int, str], limits: Limits, rules: Board | None,
    alone: dict[int, Board],
) -> BatchResult:
    unreadable = np.zeros(len(values), dtype=bool)
    unreadable[list(errors)] = True
    skip = unreadable.copy()
    skip[list(alone)] = True
    conflicts = engines.repeats(values, shape, rules) & ~skip
    start = time.perf_counter()
    solutions, counts, nodes, guesses, exhausted = engines.solve_arrays(values, shape, limits, skip | conflicts, rules)
    elapsed = time.perf_counter() - start
    counts[unreadable] = -1
    exhausted[conflicts] = True
    return BatchResult(
        shape=shape,
        limit=int(limits.limit),
        solutions=solutions,
        counts=counts,
        guesses=guesses,
        nodes=nodes,
        exhausted=exhausted,
        conflicts=conflicts,
        errors=tuple(sorted(errors.items())),
        elapsed=elapsed,
    )
