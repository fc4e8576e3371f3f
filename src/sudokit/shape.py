"""Board shapes and geometry: which cells must hold different values, computed once.

A :class:`Shape` is the box shape of a board (3x3 boxes make a 9x9 board). A
:class:`Geometry` is the rule as data: the list of houses, each ``n`` cells that hold every value
once. A shape gives the usual geometry (rows, columns, boxes); irregular regions (jigsaw) and
extra houses (diagonals, windoku windows) give others. Kernels, the rules check and the logic
engine read only the tables, so a new variant is a new table rather than new code.

Glossary (used throughout sudokit):

- *size* ``n``: the number of rows, of columns and of values; a board has ``n * n`` cells.
- *cell*: one square, numbered ``0 .. n*n-1`` row by row (``index = row * n + col``).
- *value*: ``1 .. n``; ``0`` marks an empty cell.
- *box*: a ``box_height x box_width`` rectangle; ``n = box_height * box_width``.
- *house*: a row, a column, a box or region, or an extra house such as a diagonal; every house
  holds each value exactly once. Houses are numbered rows ``0..n-1``, columns ``n..2n-1``,
  boxes (or regions) ``2n..3n-1``, then extra houses.
- *region*: one of the ``n`` houses that tile the board: the boxes, or a jigsaw's pieces.
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
    def geometry(self) -> Geometry:
        """The houses of this shape as data: rows, columns and boxes (see :class:`Geometry`)."""
        return Geometry.boxed(self)

    @functools.cached_property
    def houses(self) -> np.ndarray:
        """``(3n, n)`` int32: the cells of each house (rows, then columns, then boxes)."""
        return self.geometry.houses

    @functools.cached_property
    def cell_houses(self) -> np.ndarray:
        """``(n*n, 3)`` int32: the row, column and box house of each cell."""
        return self.geometry.cell_houses

    @property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, the other cells that share a house with it."""
        return self.geometry.peers

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


#: house kinds, in house-number order for a boxed board
ROW, COLUMN, BOX, REGION = "row", "column", "box", "region"
DIAGONAL, ANTI_DIAGONAL, WINDOW = "diagonal", "anti-diagonal", "window"


class Geometry:
    """The houses of a board as data: ``houses[h]`` lists the ``n`` cells of house ``h``.

    Rows come first (houses ``0..n-1``), columns next (``n..2n-1``), then the ``n`` regions
    that tile the board (boxes, or a jigsaw's pieces), then extra houses in the order they were
    added. ``kinds[h]`` names the kind of house ``h``; a message calls it by kind and 1-based
    number within the kind (``box 3``, ``diagonal 1``). Geometries are values: equal when
    their houses are, in the same order.

    >>> g = Shape(3, 3).geometry.with_diagonals()
    >>> len(g.houses), g.describe(27), int(g.cell_houses[0].max())
    (29, ('diagonal', 0), 27)
    """

    __slots__ = ("size", "houses", "kinds", "_cache")

    def __init__(self, houses: np.ndarray, kinds: tuple[str, ...]) -> None:
        table = np.array(houses, dtype=np.int32)
        if table.ndim != 2 or len(table) != len(kinds):
            raise ValueError("houses must be a (houses, n) table with one kind per house")
        size = table.shape[1]
        if not 2 <= size <= MAX_SIZE:
            raise ValueError(f"a house has 2 to {MAX_SIZE} cells, not {size}")
        if table.min() < 0 or table.max() >= size * size:
            raise ValueError(f"house cells must be 0 to {size * size - 1}")
        for house, cells in enumerate(table):
            if len(set(cells.tolist())) != size:
                kind, number = _ordinal(kinds, house)
                raise ValueError(f"{kind} {number + 1} holds a cell twice")
        table.setflags(write=False)
        self.size = size
        self.houses = table
        self.kinds = tuple(kinds)
        self._cache: dict[str, object] = {}

    # -- construction -----------------------------------------------------------------

    @classmethod
    def boxed(cls, shape: Shape) -> Geometry:
        """Rows, columns and the boxes of ``shape``."""
        n = shape.size
        rows = np.arange(n * n, dtype=np.int32).reshape(n, n)
        boxes = (
            rows.reshape(shape.box_width, shape.box_height, shape.box_height, shape.box_width)
            .transpose(0, 2, 1, 3)
            .reshape(n, n)
        )
        return cls(np.concatenate([rows, rows.T, boxes]), (ROW,) * n + (COLUMN,) * n + (BOX,) * n)

    @classmethod
    def jigsaw(cls, regions: object) -> Geometry:
        """Rows, columns and irregular regions: ``regions`` gives each cell's region label, row
        by row (a string of ``n*n`` characters, or ``n*n`` integers). Regions are numbered in
        the order their first cell appears. Raises ``ValueError`` naming the region at fault
        when there are not ``n`` regions of ``n`` cells each."""
        labels = list(regions)  # type: ignore[call-overload]
        size = math.isqrt(len(labels))
        if size * size != len(labels) or size < 2:
            raise ValueError(f"{len(labels)} region labels do not make a square board")
        members: dict[object, list[int]] = {}
        for cell, label in enumerate(labels):
            members.setdefault(label, []).append(cell)
        for label, cells in members.items():
            if len(cells) != size:
                first = cells[0]
                raise ValueError(
                    f"region {label!r} has {len(cells)} cells, a {size}x{size} board needs {size} "
                    f"(its first cell is r{first // size + 1}c{first % size + 1})"
                )
        if len(members) != size:  # pragma: no cover - n regions of n cells cover n*n cells
            raise ValueError(f"{len(members)} regions, a {size}x{size} board needs {size}")
        rows = np.arange(size * size, dtype=np.int32).reshape(size, size)
        pieces = np.array(list(members.values()), dtype=np.int32)
        return cls(np.concatenate([rows, rows.T, pieces]), (ROW,) * size + (COLUMN,) * size + (REGION,) * size)

    def with_houses(self, houses: object, kind: str) -> Geometry:
        """This geometry with extra houses of ``kind`` (each ``n`` distinct cells)."""
        extra = np.array(houses, dtype=np.int32).reshape(-1, self.size)
        return Geometry(np.concatenate([self.houses, extra]), self.kinds + (kind,) * len(extra))

    def with_diagonals(self) -> Geometry:
        """With both long diagonals as houses (X-Sudoku): the main one, then the anti-diagonal."""
        n = self.size
        main = [r * n + r for r in range(n)]
        anti = [r * n + n - 1 - r for r in range(n)]
        return self.with_houses([main], DIAGONAL).with_houses([anti], ANTI_DIAGONAL)

    def with_windows(self, box_side: int) -> Geometry:
        """With windoku windows: ``box_side`` squares placed one cell in from the edge and one
        cell apart (the four extra boxes of a 9x9 windoku for ``box_side=3``)."""
        n = self.size
        starts = range(1, n - box_side, box_side + 1)
        windows = [
            [(top + r) * n + left + c for r in range(box_side) for c in range(box_side)]
            for top in starts
            for left in starts
        ]
        if box_side * box_side != n or not windows:
            raise ValueError(f"windows of side {box_side} do not fit a {n}x{n} board")
        return self.with_houses(windows, WINDOW)

    # -- tables -------------------------------------------------------------------------

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def cell_houses(self) -> np.ndarray:
        """``(n*n, k)`` int32: the houses of each cell, -1 after the last (rows with fewer)."""
        table = self._cache.get("cell_houses")
        if table is None:
            lists: list[list[int]] = [[] for _ in range(self.cells)]
            for house, cells in enumerate(self.houses.tolist()):
                for cell in cells:
                    lists[cell].append(house)
            width = max(len(houses) for houses in lists)
            table = np.full((self.cells, width), -1, dtype=np.int32)
            for cell, houses in enumerate(lists):
                table[cell, : len(houses)] = houses
            table.setflags(write=False)
            self._cache["cell_houses"] = table
        return table  # type: ignore[return-value]

    @property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, the other cells that share a house with it."""
        peers = self._cache.get("peers")
        if peers is None:
            houses = self.houses.tolist()
            peers = tuple(
                frozenset(p for h in row if h >= 0 for p in houses[h]) - {cell}
                for cell, row in enumerate(self.cell_houses.tolist())
            )
            self._cache["peers"] = peers
        return peers  # type: ignore[return-value]

    def describe(self, house: int) -> tuple[str, int]:
        """``(kind, number)`` of a house, the number 0-based within its kind."""
        return _ordinal(self.kinds, house)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Geometry):
            return NotImplemented
        return self.kinds == other.kinds and bool(np.array_equal(self.houses, other.houses))

    def __hash__(self) -> int:
        return hash((self.kinds, self.houses.tobytes()))

    def __repr__(self) -> str:
        counts: dict[str, int] = {}
        for kind in self.kinds:
            counts[kind] = counts.get(kind, 0) + 1
        parts = ", ".join(f"{count} {kind}{'es' if kind.endswith('x') else 's'}" for kind, count in counts.items())
        return f"<Geometry {self.size}x{self.size}: {parts}>"


def _ordinal(kinds: tuple[str, ...], house: int) -> tuple[str, int]:
    kind = kinds[house]
    return kind, sum(1 for k in kinds[:house] if k == kind)
