"""Board shapes: the geometry of a Sudoku, computed once per shape.

Glossary (used throughout sudokit):

- *size* ``n``: the number of rows, of columns and of values; a board has ``n * n`` cells.
- *cell*: one square, numbered ``0 .. n*n-1`` row by row (``index = row * n + col``).
- *value*: ``1 .. n``; ``0`` marks an empty cell.
- *box*: a ``box_height x box_width`` rectangle; ``n = box_height * box_width``.
- *house*: a row, a column or a box; every house holds each value exactly once.
  Houses are numbered rows ``0..n-1``, columns ``n..2n-1``, boxes ``2n..3n-1``.
- *band* / *stack*: a row / column of boxes.
- *peer*: another cell that shares a house with a cell.
- *given*: a value fixed by the puzzle; *candidate*: a value a cell may still take.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

#: the largest board: candidates live in one 64-bit word per cell
MAX_SIZE = 64


@dataclass(frozen=True)
class Shape:
    """The geometry of a board with boxes ``box_height`` rows tall and ``box_width`` columns wide."""

    box_height: int
    box_width: int
    size: int = field(init=False)

    def __post_init__(self) -> None:
        for name in ("box_height", "box_width"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        size = int(self.box_height) * int(self.box_width)
        if not 2 <= size <= MAX_SIZE:
            hint = ""
            if self.box_height == self.box_width and Shape.for_size_or_none(self.box_height):
                usual = Shape.for_size(self.box_height)
                hint = (
                    f"; for a {self.box_height}x{self.box_height} board give its box, "
                    f"{usual.box_height}x{usual.box_width}, or the size {self.box_height}"
                )
            raise ValueError(
                f"a {self.box_height}x{self.box_width} box makes a board of {size}x{size}, but boards "
                f"go from 2x2 to {MAX_SIZE}x{MAX_SIZE}{hint}"
            )
        object.__setattr__(self, "box_height", int(self.box_height))
        object.__setattr__(self, "box_width", int(self.box_width))
        object.__setattr__(self, "size", size)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def for_size(cls, size: int) -> Shape:
        """The usual shape for an ``size x size`` board: the squarest box, wider than tall.

        4 -> 2x2, 6 -> 2x3, 8 -> 2x4, 9 -> 3x3, 12 -> 3x4, 16 -> 4x4, 25 -> 5x5, 64 -> 8x8.
        A prime size has no box shape and is refused; ask for ``Shape(1, n)`` explicitly.
        """
        return _shape_for_size(size)

    @classmethod
    def for_size_or_none(cls, size: int) -> Shape | None:
        """:meth:`for_size`, or None where the size has no usual box shape."""
        try:
            return _shape_for_size(size)
        except ValueError:
            return None

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Read ``"3x3"``, ``"2x3"`` (box height x width) or a plain board size ``"9"``."""
        cleaned = text.strip().lower()
        try:
            if "x" in cleaned:
                height, width = (int(part) for part in cleaned.split("x"))
                return cls(height, width)
            return cls.for_size(int(cleaned))
        except ValueError as error:
            if "box" in str(error) or "size" in str(error):
                raise
            raise ValueError(
                f"expected a box shape such as '3x3' or '2x3', or a board size such as '9': {text!r}"
            ) from None

    # -- geometry ---------------------------------------------------------------------

    @property
    def cells(self) -> int:
        """The number of cells, ``size * size``."""
        return self.size * self.size

    @property
    def name(self) -> str:
        """``'9x9'``, or ``'6x6 (2x3 boxes)'`` where the box is not square."""
        board = f"{self.size}x{self.size}"
        if self.box_height == self.box_width:
            return board
        return f"{board} ({self.box_height}x{self.box_width} boxes)"

    def box_of(self, row: int, col: int) -> int:
        """The box number (0-based, left to right, top to bottom) that holds a cell."""
        return (row // self.box_height) * self.box_height + col // self.box_width

    @functools.cached_property
    def houses(self) -> np.ndarray:
        """``(3n, n)`` int32: the cells of each house (rows, then columns, then boxes)."""
        n = self.size
        rows = np.arange(n * n, dtype=np.int32).reshape(n, n)
        boxes = (
            rows.reshape(self.box_width, self.box_height, self.box_height, self.box_width)
            .transpose(0, 2, 1, 3)
            .reshape(n, n)
        )
        table = np.concatenate([rows, rows.T, boxes]).astype(np.int32)
        table.setflags(write=False)
        return table

    @functools.cached_property
    def cell_houses(self) -> np.ndarray:
        """``(n*n, 3)`` int32: the row, column and box house of each cell."""
        n = self.size
        index = np.arange(n * n)
        row, col = index // n, index % n
        box = (row // self.box_height) * self.box_height + col // self.box_width
        table = np.stack([row, n + col, 2 * n + box], axis=1).astype(np.int32)
        table.setflags(write=False)
        return table

    @functools.cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, the other cells that share a house with it."""
        houses = self.houses
        return tuple(
            frozenset(int(p) for h in self.cell_houses[cell] for p in houses[h]) - {cell}
            for cell in range(self.cells)
        )

    def __repr__(self) -> str:
        return f"Shape({self.box_height}, {self.box_width})"

    def __str__(self) -> str:
        return self.name


@functools.lru_cache(maxsize=None)
def _shape_for_size(size: int) -> Shape:
    if not isinstance(size, (int, np.integer)) or not 2 <= size <= MAX_SIZE:
        raise ValueError(f"board size must be 4 to {MAX_SIZE}, not {size!r}")
    height = max(d for d in range(1, math.isqrt(size) + 1) if size % d == 0)
    if height == 1:
        raise ValueError(
            f"a {size}x{size} board has no box shape ({size} is prime); "
            f"give the box explicitly, e.g. Shape(1, {size})"
        )
    return Shape(height, size // height)


def is_board_size(size: int) -> bool:
    """True when ``size`` is a board size with a usual box shape (4, 6, 8, 9, 10, 12, ...)."""
    return Shape.for_size_or_none(size) is not None
