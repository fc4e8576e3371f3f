"""Solving many boards at once: ``solve_batch`` runs a whole batch inside one compiled call.

The single-board API pays for Python on every board (parsing, checking, a result object);
at a few microseconds a 9x9 search that overhead is most of the time. ``solve_batch`` checks
and converts the whole batch with numpy, then hands it to a compiled loop: the classic kernel
for 9x9 boards with 3x3 boxes, the general kernel for every other shape.

A record that cannot be read never stops the batch: its count is -1, its row of
``solutions`` stays zero, and ``errors`` holds its index and the message. Givens that repeat a
value in a house are read fine but cannot be solved: count 0, flagged in ``conflicts``.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .board import Board
from .shape import Shape

#: more nodes than any search will ever run: "no node limit"
UNLIMITED = 1 << 62
#: characters of the 9x9 one-line form that the fast path reads (as ``Board.from_line`` does)
_DIGITS = np.full(256, 255, dtype=np.uint8)
_DIGITS[ord(".")] = _DIGITS[ord("0")] = _DIGITS[ord("-")] = 0
for _value in range(1, 10):
    _DIGITS[ord(str(_value))] = _value


@dataclass(frozen=True, eq=False)
class BatchResult:
    """What ``solve_batch`` found, one row per record, in input order."""

    shape: Shape
    limit: int
    #: ``(N, cells)`` uint8: the first solution found, zeros where there is none
    solutions: np.ndarray
    #: ``(N,)`` int64: solutions found, at most ``limit``; -1 where the record could not be read
    counts: np.ndarray
    #: ``(N,)`` int64: choice points (cells or digit configurations branched on)
    guesses: np.ndarray
    #: ``(N,)`` int64: propagations run (the root and every branch tried)
    nodes: np.ndarray
    #: ``(N,)`` bool: the whole search space was explored, so ``counts`` is exact
    exhausted: np.ndarray
    #: ``(N,)`` bool: givens repeat a value in a house (count 0, not searched)
    conflicts: np.ndarray
    #: ``(index, message)`` for every record that could not be read
    errors: tuple[tuple[int, str], ...]
    #: seconds spent in the compiled search (reading and checking not included)
    elapsed: float

    def __len__(self) -> int:
        return len(self.counts)

    @property
    def solved(self) -> np.ndarray:
        """``(N,)`` bool: a solution was found."""
        return self.counts >= 1

    @property
    def unique(self) -> np.ndarray:
        """``(N,)`` bool: exactly one solution, proven (needs ``limit >= 2``)."""
        return (self.counts == 1) & self.exhausted

    def board(self, index: int) -> Board | None:
        """The solution of record ``index`` as a :class:`Board`, or None."""
        if self.counts[index] < 1:
            return None
        return Board(self.solutions[index], self.shape)

    def __repr__(self) -> str:
        return (
            f"<BatchResult {len(self)} boards ({self.shape.name}, limit {self.limit}): "
            f"{int(np.count_nonzero(self.counts >= 1))} solved, "
            f"{int(np.count_nonzero(self.counts == 0))} without solution, "
            f"{len(self.errors)} unreadable>"
        )


def solve_batch(
    puzzles: Sequence[str | Board] | np.ndarray,
    limit: int = 1,
    *,
    shape: Shape | None = None,
    node_limit: int | None = None,
) -> BatchResult:
    """Search every board of a batch for up to ``limit`` solutions, in one compiled call.

    ``puzzles`` is a list of one-line strings (or :class:`Board` objects), or an integer array
    of shape ``(N, cells)`` or ``(N, n, n)`` with 0 for empty cells. The board shape comes from
    ``shape``, else from the array width or the first readable string (81 cells: 9x9).
    ``node_limit`` caps the nodes of each search; where it stops one, ``exhausted`` is False.

    >>> result = solve_batch(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", "oops"])
    >>> result.counts.tolist(), result.errors[0][0]
    ([1, -1], 1)
    """
    if not isinstance(limit, (int, np.integer)) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"limit must be a positive integer, not {limit!r}")
    if node_limit is not None and (not isinstance(node_limit, (int, np.integer)) or node_limit < 1):
        raise ValueError(f"node_limit must be a positive integer, not {node_limit!r}")
    if isinstance(puzzles, np.ndarray):
        values, shape, errors = _from_array(puzzles, shape)
    else:
        values, shape, errors = _from_records(list(puzzles), shape)
    return _run(values, shape, errors, int(limit), UNLIMITED if node_limit is None else int(node_limit))


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
    bad = np.nonzero(((array < 0) | (array > shape.size)).any(axis=1))[0] if len(array) else []
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
    records: list[Any], shape: Shape | None
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
    if (values == 255).any():
        return None
    return values


def _conflicts(values: np.ndarray, shape: Shape) -> np.ndarray:
    """For each board, whether a value repeats in some house."""
    found = np.zeros(len(values), dtype=np.bool_)
    if len(values):
        from .kernels.givens import repeats

        seen = np.zeros(len(shape.houses), dtype=np.uint64)
        repeats(np.ascontiguousarray(values), shape.cell_houses, seen, found)
    return found


def _run(values: np.ndarray, shape: Shape, errors: dict[int, str], limit: int, node_limit: int) -> BatchResult:
    from .kernels import _jit

    solve_module = importlib.import_module(".solve", __package__)  # the name ``solve`` is the function

    count = len(values)
    solutions = np.zeros((count, shape.cells), dtype=np.uint8)
    counts = np.zeros(count, dtype=np.int64)
    nodes = np.zeros(count, dtype=np.int64)
    guesses = np.zeros(count, dtype=np.int64)
    exhausted = np.zeros(count, dtype=bool)
    conflicts = _conflicts(values, shape)
    unreadable = np.zeros(count, dtype=bool)
    unreadable[list(errors)] = True
    conflicts &= ~unreadable
    counts[unreadable | conflicts] = -1  # the kernels skip these rows
    values = np.ascontiguousarray(values)
    start = time.perf_counter()
    if count:
        special = solve_module._shape_kernel(shape)
        if special == "classic":
            from .kernels import classic

            _jit.notify_compile(classic.solve_many, what="the 9x9 batch kernel")
            classic.solve_many(values, limit, node_limit, solutions, counts, nodes, guesses, exhausted)
        elif special == "hexa":
            from .kernels import hexa

            _jit.notify_compile(hexa.solve_many, what="the 16x16 batch kernel")
            hexa.solve_many(
                values, hexa.DEFAULT_RULES, hexa.DEFAULT_BRANCHING, limit, node_limit,
                solutions, counts, nodes, guesses, exhausted,
            )
        else:
            from .kernels import general_batch

            _jit.notify_compile(general_batch.solve_many, what="the general batch kernel")
            general_batch.solve_many(
                values, shape.houses, shape.cell_houses, np.uint64((1 << shape.size) - 1),
                limit, node_limit, solutions, counts, nodes, guesses, exhausted,
            )
    elapsed = time.perf_counter() - start
    counts[conflicts] = 0
    exhausted[conflicts] = True
    return BatchResult(
        shape=shape,
        limit=limit,
        solutions=solutions,
        counts=counts,
        guesses=guesses,
        nodes=nodes,
        exhausted=exhausted,
        conflicts=conflicts,
        errors=tuple(sorted(errors.items())),
        elapsed=elapsed,
    )
