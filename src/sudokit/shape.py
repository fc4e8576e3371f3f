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
- *cage*: a set of cells (killer sudoku) whose values differ and, when it has one, add up to
  its *total*; unlike a house a cage may hold fewer than ``n`` cells, and cages may overlap.
- *combination*: a set of distinct values (a mask) that could fill a cage to its total.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence, Union

import numpy as np

#: the largest board: candidates live in one 64-bit word per cell
MAX_SIZE = 64


@dataclass(frozen=True)
class Shape:
    """The geometry of a board with boxes ``box_height`` rows tall and ``box_width`` columns wide."""

    box_height: int  #: rows of a box
    box_width: int  #: columns of a box
    size: int = field(init=False)  #: ``n = box_height * box_width``: rows, columns and values of the board

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
    def of(cls, value: ShapeLike | None) -> Shape | None:
        """The shape a caller means: a :class:`Shape`, text as :meth:`parse` reads it
        (``"2x3"``, ``"9x9"``, ``"9"``), a board size (``9``) or a box ``(height, width)``
        pair; None stays None (the board says). Anything else is a ``TypeError`` naming it."""
        if value is None or isinstance(value, Shape):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return cls.parse(str(value))
        if (isinstance(value, tuple) and len(value) == 2
                and all(isinstance(part, int) and not isinstance(part, bool) for part in value)):
            return cls(*value)
        raise TypeError(
            "shape must be a Shape, a text such as '2x3' or '9', a board size or a (box height, "
            f"box width) pair, not {value!r}"
        )

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Read a board ``"9x9"`` (``"NxN"``, its usual boxes), a box ``"2x3"`` (height x width,
        two different numbers) or a board size ``"9"``: one meaning in every command. Square
        boxes need no name of their own: each is the usual box of its board (``"9"``, ``"9x9"``)."""
        cleaned = text.strip().lower()
        try:
            if "x" in cleaned:
                height, width = (int(part) for part in cleaned.split("x"))
                if height != width:
                    return cls(height, width)
                size = height
            else:
                size = int(cleaned)
        except ValueError:
            raise ValueError(
                f"expected a board such as '9x9' or '9', or a box shape such as '2x3': {text!r}"
            ) from None
        if not 2 <= size <= MAX_SIZE:
            raise ValueError(f"board size must be 4 to {MAX_SIZE}, not {size}")
        if cls.for_size_or_none(size) is None:
            hint = f"; for {size}x{size} boxes say '{size * size}'" if size * size <= MAX_SIZE else ""
            raise ValueError(f"a {size}x{size} board has no box shape ({size} is prime){hint}")
        return cls.for_size(size)

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

    @property
    def spec(self) -> str:
        """The spelling :meth:`parse` reads back as this shape: ``'9x9'`` (a board with its
        usual square boxes) or ``'2x3'`` (a box, height x width)."""
        if self.box_height == self.box_width:
            return f"{self.size}x{self.size}"
        return f"{self.box_height}x{self.box_width}"

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


#: what a ``shape=`` argument may be (see :meth:`Shape.of`)
ShapeLike = Union[Shape, str, int, tuple[int, int]]


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
    def jigsaw(cls, regions: object, connected: bool = True) -> Geometry:
        """Rows, columns and irregular regions: ``regions`` gives each cell's region label, row
        by row (a string of ``n*n`` characters, or ``n*n`` integers). Regions are numbered in
        the order their first cell appears. Raises ``ValueError`` naming the region at fault
        when there are not ``n`` regions of ``n`` cells each, or (``connected``, the jigsaw
        rule) when a region is not one orthogonally connected piece."""
        labels = list(regions)  # type: ignore[call-overload]
        size = math.isqrt(len(labels))
        if size * size != len(labels) or size < 2:
            raise ValueError(f"{len(labels)} region labels do not make a square board")
        problem = jigsaw_problem(labels, connected)
        if problem is not None:
            raise ValueError(problem[0])
        members: dict[object, list[int]] = {}
        for cell, label in enumerate(labels):
            members.setdefault(label, []).append(cell)
        rows = np.arange(size * size, dtype=np.int32).reshape(size, size)
        pieces = np.array(list(members.values()), dtype=np.int32)
        return cls(np.concatenate([rows, rows.T, pieces]), (ROW,) * size + (COLUMN,) * size + (REGION,) * size)

    def with_houses(self, houses: object, kind: str) -> Geometry:
        """This geometry with extra houses of ``kind`` (each ``n`` distinct cells)."""
        extra = np.array(houses, dtype=np.int32).reshape(-1, self.size)
        return Geometry(np.concatenate([self.houses, extra]), self.kinds + (kind,) * len(extra))

    def with_diagonals(self, main: bool = True, anti: bool = True) -> Geometry:
        """With the long diagonals as houses (X-Sudoku): the main one (top left to bottom
        right), then the anti-diagonal; ``main`` or ``anti`` False leaves that one out."""
        n = self.size
        geometry = self
        if main:
            geometry = geometry.with_houses([[r * n + r for r in range(n)]], DIAGONAL)
        if anti:
            geometry = geometry.with_houses([[r * n + n - 1 - r for r in range(n)]], ANTI_DIAGONAL)
        return geometry

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

    @property
    def regions(self) -> np.ndarray:
        """``(n*n,)`` int32: each cell's region (0-based: house ``2n + region``)."""
        table = self._cache.get("regions")
        if table is None:
            n = self.size
            table = np.full(self.cells, -1, dtype=np.int32)
            for region in range(n):
                table[self.houses[2 * n + region]] = region
            table.setflags(write=False)
            self._cache["regions"] = table
        return table  # type: ignore[return-value]

    def region_labels(self) -> str:
        """Each cell's region as one character, row by row (``1``-``9`` then ``A``-``Z``,
        ``a``-``z``: what a jigsaw layout line holds)."""
        return "".join(_LABELS[region] for region in self.regions.tolist())

    def is_boxed(self, shape: Shape) -> bool:
        """Whether the first ``3n`` houses are the rows, columns and boxes of ``shape``."""
        n = self.size
        if shape.size != n or len(self.houses) < 3 * n:
            return False
        boxed = shape.geometry
        return boxed.kinds == self.kinds[: 3 * n] and bool(np.array_equal(boxed.houses, self.houses[: 3 * n]))

    @property
    def extra(self) -> int:
        """The number of houses beyond the rows, columns and regions."""
        return len(self.houses) - 3 * self.size

    def recipe(self, shape: Shape | None = None) -> str:
        """Python text that rebuilds this geometry (with ``Shape`` and ``Geometry`` in scope):
        ``Shape(3, 3).geometry.with_diagonals()``, ``Geometry.jigsaw('111...')``, ..."""
        n = self.size
        base_kinds = (ROW,) * n + (COLUMN,) * n
        if shape is not None and self.is_boxed(shape):
            text = f"{shape!r}.geometry"
        elif self.kinds[: 3 * n] == base_kinds + (REGION,) * n and Geometry.jigsaw(
            self.region_labels(), connected=False
        ) == Geometry(self.houses[: 3 * n], self.kinds[: 3 * n]):
            labels = self.region_labels()
            pieces = all(_disconnected(house.tolist(), n) is None for house in self.houses[2 * n : 3 * n])
            text = f"Geometry.jigsaw({labels!r})" if pieces else f"Geometry.jigsaw({labels!r}, connected=False)"
        else:
            return f"Geometry({self.houses.tolist()!r}, {self.kinds!r})"
        rest = list(zip(self.kinds[3 * n :], self.houses[3 * n :].tolist()))
        while rest:
            kind, cells = rest[0]
            if kind == DIAGONAL and cells == [r * n + r for r in range(n)]:
                anti = len(rest) > 1 and rest[1] == (ANTI_DIAGONAL, [r * n + n - 1 - r for r in range(n)])
                text += ".with_diagonals()" if anti else ".with_diagonals(anti=False)"
                rest = rest[2 if anti else 1 :]
                continue
            if kind == ANTI_DIAGONAL and cells == [r * n + n - 1 - r for r in range(n)]:
                text += ".with_diagonals(main=False)"
                rest = rest[1:]
                continue
            run = [cells for k, cells in itertools.takewhile(lambda item: item[0] == kind, rest)]
            side = math.isqrt(n)
            if kind == WINDOW and side * side == n:
                windows = Geometry(self.houses[: 3 * n], self.kinds[: 3 * n]).with_windows(side)
                if windows.houses[3 * n :].tolist() == run:
                    text += f".with_windows({side})"
                    rest = rest[len(run) :]
                    continue
            text += f".with_houses({run!r}, {kind!r})"
            rest = rest[len(run) :]
        return text

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


def jigsaw_problem(labels: Sequence[object], connected: bool = True) -> tuple[str, int] | None:
    """What is wrong with a jigsaw layout (each cell's region label, row by row, ``n*n`` of
    them), and the cell to point at; None when it makes ``n`` regions of ``n`` cells (each one
    orthogonally connected piece, where ``connected``)."""
    size = math.isqrt(len(labels))
    members: dict[object, list[int]] = {}
    for cell, label in enumerate(labels):
        members.setdefault(label, []).append(cell)
    for label, cells in members.items():
        if len(cells) != size:
            first = cells[0] if len(cells) < size else cells[size]
            where = "its first cell" if len(cells) < size else f"its cell {size + 1}"
            return (
                f"region {label!r} has {len(cells)} cells, a {size}x{size} board needs {size} "
                f"({where} is r{first // size + 1}c{first % size + 1})",
                first,
            )
    if connected:
        for label, cells in members.items():
            apart = _disconnected(cells, size)
            if apart is not None:
                return (
                    f"region {label!r} is not connected: r{apart // size + 1}c{apart % size + 1} "
                    f"cannot be reached from r{cells[0] // size + 1}c{cells[0] % size + 1} "
                    f"through the region's cells (jigsaw regions are one piece each)",
                    apart,
                )
    return None


#: characters that label regions in text (``Geometry.region_labels``), 62 of them
_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0+"


def _disconnected(cells: list[int], size: int) -> int | None:
    """A cell of ``cells`` that the first cannot reach through orthogonal steps inside the
    set, or None when the set is one piece."""
    members = set(cells)
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        cell = todo.pop()
        row, col = divmod(cell, size)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            other = r * size + c
            if 0 <= r < size and 0 <= c < size and other in members and other not in seen:
                seen.add(other)
                todo.append(other)
    missing = [cell for cell in cells if cell not in seen]
    return missing[0] if missing else None


# -- cages -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cage:
    """A killer cage: ``cells`` (0-based cell numbers, row by row) hold distinct values that
    add up to ``total``; a cage with ``total`` None only forbids repeats.

    >>> Cage(3, (0, 1)).combinations(9)
    (3,)
    """

    total: int | None
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        cells = tuple(int(cell) for cell in self.cells)
        object.__setattr__(self, "cells", cells)
        if self.total is not None:
            if isinstance(self.total, bool) or not isinstance(self.total, (int, np.integer)):
                raise ValueError(f"a cage's sum is an integer or None, not {self.total!r}")
            object.__setattr__(self, "total", int(self.total))
        if not cells:
            raise ValueError("a cage needs at least one cell")
        if len(set(cells)) != len(cells):
            twice = next(cell for cell in cells if cells.count(cell) > 1)
            raise ValueError(f"the cage lists cell {twice} twice")

    def check(self, size: int) -> None:
        """Raise ``ValueError`` when the cage cannot be filled on a ``size x size`` board:
        a cell off the board, more cells than values, or a sum no distinct values make."""
        for cell in self.cells:
            if not 0 <= cell < size * size:
                raise ValueError(f"cell {cell} is not on a {size}x{size} board (cells 0 to {size * size - 1})")
        count = len(self.cells)
        if count > size:
            raise ValueError(f"{count} cells cannot hold distinct values 1-{size}")
        if self.total is not None:
            low, high = count * (count + 1) // 2, count * (2 * size - count + 1) // 2
            if not low <= self.total <= high:
                raise ValueError(
                    f"no {count} distinct values of 1-{size} add up to {self.total} "
                    f"({count} cell{'s' if count > 1 else ''} make {low} to {high})"
                )

    def combinations(self, size: int, most: int | None = None) -> tuple[int, ...]:
        """The value sets that fill the cage to its total, as masks (bit ``v - 1`` for value
        ``v``), in increasing order; every ``len(cells)``-set of ``1..size`` without a total.
        An empty tuple when there are more than ``most`` of them."""
        return _combinations(size, len(self.cells), self.total, most)

    def where(self, size: int) -> str:
        """The cells as ``r1c1,r1c2,...`` (1-based)."""
        return ",".join(f"r{cell // size + 1}c{cell % size + 1}" for cell in self.cells)


@functools.lru_cache(maxsize=4096)
def _combinations(size: int, count: int, total: int | None, most: int | None) -> tuple[int, ...]:
    found: list[int] = []
    # distinct values in increasing order; prune on the least and most the rest can add
    def extend(start: int, left: int, remaining: int | None, mask: int) -> bool:
        if left == 0:
            if remaining is None or remaining == 0:
                found.append(mask)
                if most is not None and len(found) > most:
                    return False
            return True
        for value in range(start, size - left + 2):
            if remaining is not None:
                low = left * (2 * value + left - 1) // 2  # value, value + 1, ...
                high = left * (2 * size - left + 1) // 2  # the largest ``left`` values
                if low > remaining or high < remaining:
                    break
                rest: int | None = remaining - value
            else:
                rest = None
            if not extend(value + 1, left - 1, rest, mask | 1 << (value - 1)):
                return False
        return True

    if not extend(1, count, total, 0):
        return ()
    return tuple(sorted(found))


def as_cages(cages: Iterable[object]) -> tuple[Cage, ...]:
    """Cages from :class:`Cage` objects or ``(total, cells)`` pairs (the JSON form)."""
    out = []
    for number, cage in enumerate(cages, 1):
        if isinstance(cage, Cage):
            out.append(cage)
            continue
        try:
            pair: tuple[int | None, Iterable[int]] = cage  # type: ignore[assignment]
            total, cells = pair
            out.append(Cage(total, tuple(cells)))
        except (TypeError, ValueError) as error:
            raise ValueError(f"cage {number}: expected (sum, cells), {error}") from None
    return tuple(out)
