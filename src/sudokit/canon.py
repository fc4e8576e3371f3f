"""Equivalent boards: canonical (minlex) forms, random equivalents, and the test between them.

Two boards are *equivalent* when one becomes the other by moves that keep every Sudoku a
Sudoku: reordering the bands, the rows inside a band, the stacks, the columns inside a stack,
transposing (where boxes are square) and renaming the values. A :class:`Transformation` is one
such move. The *canonical form* of a 9x9 board is the smallest of its 3,359,232 rearrangements
read as an 81-character line, with the values renamed 1, 2, 3, ... in order of first
appearance and an empty cell smaller than any digit (the *minlex* form, the one Royle's list
of 17-clue puzzles is written in). Equivalent boards, and only they, share it.

The search is compiled (``kernels/search/canon.py``); this module checks the boards once and reads
its answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .board import Board, as_board
from . import engines
from .engines import repeats, repeats_a_given
from .shape import Shape

#: the only shape with canonical forms here
CLASSIC = Shape(3, 3)

#: how a canonical form writes each value: ``.`` empty, then the digits
_TEXT = np.frombuffer(b".123456789", dtype=np.uint8)

@dataclass(frozen=True)
class Transformation:
    """A move from a board to an equivalent one. ``apply`` reads the board transposed if
    ``transpose``, then takes its output row ``k`` from row ``rows[k]`` and its output column
    ``j`` from column ``cols[j]`` (of the board as read), and writes each value ``v`` as
    ``values[v - 1]``."""

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    values: tuple[int, ...]

    def apply(self, puzzle: Any) -> Board:
        """The board this move makes of ``puzzle`` (anything :func:`sudokit.as_board` reads),
        in the puzzle's alphabet."""
        board = as_board(puzzle)
        n = board.size
        if len(self.rows) != n or len(self.cols) != n or len(self.values) != n:
            raise ValueError(f"this transformation moves {len(self.rows)}x{len(self.rows)} boards, not {n}x{n}")
        grid = board.cells.reshape(n, n)
        if self.transpose:
            grid = grid.T
        table = np.array((0,) + self.values, dtype=np.uint8)
        moved = table[grid[np.ix_(self.rows, self.cols)]].reshape(-1)
        return Board._trusted(moved, board.shape, board.symbols)

    @classmethod
    def random(cls, shape: Shape, rng: np.random.Generator) -> Transformation:
        """A move drawn uniformly from all those of boards of ``shape``: each band order,
        row order in each band, stack order, column order in each stack, transposition (square
        boxes only) and renaming of values equally likely."""
        height, width = shape.box_height, shape.box_width
        transpose = height == width and bool(rng.integers(2))
        rows = [band * height + row for band in rng.permutation(width) for row in rng.permutation(height)]
        cols = [stack * width + col for stack in rng.permutation(height) for col in rng.permutation(width)]
        values = rng.permutation(shape.size) + 1
        return cls(transpose, tuple(map(int, rows)), tuple(map(int, cols)), tuple(map(int, values)))


def canonical(puzzle: Any) -> str:
    """The canonical (minlex) form of a 9x9 board: 81 characters, ``.`` for an empty cell and
    the digits renamed ``1``-``9`` in order of first appearance (whatever alphabet the board
    uses), as Royle's 17-clue list writes its puzzles. ``puzzle`` is anything
    :func:`sudokit.as_board` reads, a solution grid too; two boards are equivalent exactly
    when their forms are equal.

    Raises ``ValueError`` for a board that is not 9x9 with 3x3 boxes, that carries a variant's
    rules, or whose givens repeat a value in a house (the moves would still apply, but it is
    no Sudoku)."""
    if type(puzzle) is str and len(puzzle) == 81 and puzzle.isascii():
        # the common case, a line of '.', '0' and digits: read, checked and minlexed in one
        # compiled call, bytes in and a bytearray out (no arrays to make or to type-check);
        # anything else (or a board that breaks a rule) goes the long way
        form = bytearray(81)
        if not (_LINE or _line_kernel())(puzzle.encode("ascii"), form):
            return form.decode("ascii")
    board = _checked(as_board(puzzle))
    out, _ = _minlex(board.cells[None, :])
    return _TEXT[out[0]].tobytes().decode("ascii")


def canonical_batch(boards: Any) -> np.ndarray:
    """The canonical forms of the rows of ``boards`` (``(N, 81)`` values, 0 empty), as an
    ``(N, 81)`` uint8 array (0 empty, 1-9 the renamed digits): one compiled call for all.
    Raises ``ValueError`` naming the first row that is not a board whose givens break no
    rule."""
    values = np.asarray(boards)
    if values.ndim != 2 or values.shape[1] != CLASSIC.cells:
        raise ValueError(f"expected an (N, 81) array of 9x9 boards, not shape {values.shape}")
    if values.size and (values.min() < 0 or values.max() > 9):
        row = int(np.nonzero(((values < 0) | (values > 9)).any(axis=1))[0][0])
        raise ValueError(f"board {row}: values must be 0 (empty) to 9")
    values = np.ascontiguousarray(values, dtype=np.uint8)
    bad = np.nonzero(repeats(values, CLASSIC))[0]
    if len(bad):
        row = int(bad[0])
        raise ValueError(f"board {row}: its givens repeat: {Board(values[row], CLASSIC).status()}")
    return _minlex(values)[0]


def canonical_transformation(puzzle: Any) -> Transformation:
    """A move that takes ``puzzle`` to its canonical form (one of them, where the board has
    symmetries): ``canonical_transformation(p).apply(p).to_line()`` is ``canonical(p)`` in the
    board's alphabet. Same checks as :func:`canonical`."""
    board = _checked(as_board(puzzle))
    _, how = _minlex(board.cells[None, :])
    transpose, rows, cols = bool(how[0, 0]), how[0, 1:10], how[0, 10:19]
    grid = board.cells.reshape(9, 9)
    moved = (grid.T if transpose else grid)[np.ix_(rows, cols)].reshape(-1)
    # the kernel fixes rows and columns; the values take their names in order of first
    # appearance, those the board lacks the names left over
    order = list(dict.fromkeys(int(v) for v in moved if v))
    order += [v for v in range(1, 10) if v not in order]
    values = [0] * 9
    for name, value in enumerate(order, 1):
        values[value - 1] = name
    return Transformation(transpose, tuple(map(int, rows)), tuple(map(int, cols)), tuple(values))


def shuffle(puzzle: Any, seed: int | np.random.Generator | None = None) -> Board:
    """A random board equivalent to ``puzzle``, drawn uniformly from all of them (see
    :meth:`Transformation.random`), in the puzzle's alphabet. Works for every box shape.
    ``seed`` is an int or a ``numpy.random.Generator`` (None: fresh entropy); the same seed
    gives the same board. A variant's rules (regions, extra houses, cages, pencil marks) raise
    ``ValueError``: these moves would break them."""
    board = _plain(as_board(puzzle))
    return Transformation.random(board.shape, np.random.default_rng(seed)).apply(board)


def equivalent(a: Any, b: Any) -> bool:
    """Whether two 9x9 boards are equivalent: one is a rearrangement of the other (see
    :func:`canonical`, whose checks apply to both)."""
    return canonical(a) == canonical(b)


def _plain(board: Board) -> Board:
    """``board`` if its rules are rows, columns and boxes only, else a ``ValueError``: the
    moves here keep those houses, not diagonals, regions or extra houses, and relabelling
    values breaks cage sums, so a variant's rules would be silently dropped or broken."""
    if not board.plain:
        rules = [name for name, present in (("regions or extra houses", board._geometry is not None),
                                            ("cages", bool(board.cages)), ("candidates", board.candidates is not None)) if present]
        raise ValueError(f"canonical forms and shuffles are for plain boards (rows, columns, boxes), not one with {' and '.join(rules)}")
    return board


def _checked(board: Board) -> Board:
    """``board``, if it has canonical forms here; else a ``ValueError`` that says why."""
    _plain(board)
    if board.shape != CLASSIC:
        raise ValueError(f"canonical forms are for 9x9 boards with 3x3 boxes, not {board.shape.name}")
    if repeats_a_given(board):
        raise ValueError(f"its givens repeat: {board.status()}")
    return board


#: ``kernels.search.canon.minlex_line`` once loaded
_LINE: Any = None


def _line_kernel() -> Any:
    """``kernels.search.canon.minlex_line``, loaded (and kept) on first use."""
    global _LINE
    _LINE = engines.canon_kernel().minlex_line
    return _LINE


def _minlex(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's answers for checked ``(N, 81)`` uint8 boards: their minlex forms and,
    for each, one transformation that gives it (``kernels.search.canon.minlex``)."""
    kernel = engines.canon_kernel()
    # the kernel built ahead of time takes writable C-ordered uint8 boards and checks nothing
    # (a read-only array would also compile the JIT's kernel once more)
    values = np.require(values, dtype=np.uint8, requirements=("C", "W"))
    out = np.empty(values.shape, dtype=np.uint8)
    how = np.empty((len(values), kernel.HOW_SIZE), dtype=np.int8)
    kernel.minlex(values, out, how)
    return out, how
