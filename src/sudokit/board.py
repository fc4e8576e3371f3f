"""``Board``: an immutable Sudoku position that reads and writes every text format, and the
stream reader that turns a text of puzzles into boards (:func:`read`, :class:`Record`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from . import formats
from . import symbols as _symbols
from .errors import FormatError
from .formats import (
    BoardData,
    FormatName,
    Position,
    grid,
    ints,
    leetcode,
    line,
    pretty,
    sukaku,
    svg,
    variant,
)
from .shape import Cage, Geometry, Shape, ShapeLike, as_cages


@dataclass(frozen=True)
class Conflict:
    """A value given twice (or more) in one house."""

    value: int  #: the value given more than once
    kind: str  #: ``'row'``, ``'column'`` or ``'box'`` (``'region'``, ``'diagonal'``, ... in variants)
    index: int  #: 0-based row, column or box number
    cells: tuple[tuple[int, int], ...]  #: the (row, col) pairs holding the value, 0-based
    symbol: str = ""  #: how the board's alphabet writes ``value`` (``'D'`` for 4 in ``A-P``)

    def __str__(self) -> str:
        where = ", ".join(f"r{r + 1}c{c + 1}" for r, c in self.cells)
        value = self.symbol or str(self.value)
        return f"{value} appears {len(self.cells)} times in {self.kind} {self.index + 1} ({where})"


@dataclass(frozen=True)
class SumError:
    """A killer cage whose values already add up to more than its sum, or that is full and
    adds up to something else."""

    index: int  #: 0-based cage number, in the board's order of cages
    total: int  #: the cage's sum
    found: int  #: what its filled cells add up to
    complete: bool  #: every cell of the cage holds a value
    cells: tuple[tuple[int, int], ...]  #: the cage's (row, col) pairs, 0-based

    def __str__(self) -> str:
        where = ",".join(f"r{r + 1}c{c + 1}" for r, c in self.cells)
        if self.complete:
            return f"cage {self.index + 1} ({where}) adds up to {self.found}, not {self.total}"
        return f"cage {self.index + 1} ({where}) already adds up to {self.found}, over its sum {self.total}"


_PROBLEMS_SHOWN = 3  #: how many rule breaks a message lists before "and N more"


def describe_problems(problems: Sequence[Conflict | SumError]) -> str:
    """One line for a board's rule breaks: the first three, then how many more. A board of one
    repeated value breaks every house, and 27 of them on one line say no more than three."""
    shown = "; ".join(str(problem) for problem in problems[:_PROBLEMS_SHOWN])
    hidden = len(problems) - _PROBLEMS_SHOWN
    return shown if hidden <= 0 else f"{shown}; and {hidden} more"


@dataclass(frozen=True)
class BoardStatus:
    """What ``Board.status()`` finds: rule-breaking givens, without raising."""

    conflicts: tuple[Conflict, ...]  #: every value given twice (or more) in a house or a cage
    givens: int  #: the filled cells
    empty: int  #: the empty cells
    sums: tuple[SumError, ...] = ()  #: killer cages whose values break their sum

    @property
    def valid(self) -> bool:
        """No value is given twice in any house or cage, and no cage's values break its sum
        (the board may still have no solution)."""
        return not self.conflicts and not self.sums

    @property
    def complete(self) -> bool:
        """Every cell holds a value."""
        return self.empty == 0

    @property
    def solved(self) -> bool:
        """Complete and valid: a finished Sudoku."""
        return self.valid and self.complete

    def __bool__(self) -> bool:
        return self.valid

    def __str__(self) -> str:
        if not self.valid:
            return describe_problems([*self.conflicts, *self.sums])
        return "solved" if self.complete else f"valid, {self.empty} empty cells"


#: what ``candidates=`` takes: a mask per cell (bit ``v - 1`` for value ``v``), a Sukaku
#: string of ``n**3`` characters, or the candidate values of each cell (per cell, or as ``n``
#: rows of ``n`` cells)
Candidates = Any


class Board:
    """A Sudoku board: a :class:`Shape`, ``n*n`` cell values (0 = empty) and the alphabet that
    writes them, and the rules of its variant, if any: its houses (``geometry``: jigsaw
    regions, diagonals, windoku windows, any extra house), killer ``cages`` and the
    ``candidates`` it starts from (pencil marks, as in a Sukaku).

    Boards are immutable values: equal when their shapes, cells and rules are equal (the
    alphabet is presentation only), hashable, and ``eval(repr(board)) == board`` (with
    ``Board``, ``Shape`` and ``Geometry`` in scope).

    >>> board = Board.from_line("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> board[0, 0], board.givens
    (5, 30)
    """

    __slots__ = ("_shape", "_cells", "_symbols", "_hash", "_geometry", "_cages", "_candidates")

    def __init__(
        self,
        cells: Iterable[int] | np.ndarray,
        shape: Shape | None = None,
        symbols: str | None = None,
        *,
        geometry: Geometry | None = None,
        cages: Iterable[Cage | tuple[int | None, Sequence[int]]] = (),
        candidates: Candidates = None,
    ) -> None:
        array = np.array(cells, dtype=np.int64).reshape(-1)
        if shape is None:
            size = int(round(len(array) ** 0.5))
            if size * size != len(array):
                raise ValueError(f"{len(array)} cells do not make a square board")
            # a board with its own houses needs no box shape: a 7x7 jigsaw has none
            shape = (Shape.for_size_or_none(size) or Shape(1, size)) if geometry is not None else Shape.for_size(size)
        if len(array) != shape.cells:
            raise ValueError(f"a {shape.name} board has {shape.cells} cells, not {len(array)}")
        if len(array) and (array.min() < 0 or array.max() > shape.size):
            bad = int(array[(array < 0) | (array > shape.size)][0])
            raise ValueError(f"cell values must be 0 (empty) to {shape.size}, not {bad}")
        stored = array.astype(np.uint8)
        stored.setflags(write=False)
        self._shape = shape
        self._cells = stored
        self._symbols = _symbols.check(symbols, shape.size) if symbols else _symbols.default(shape.size)
        self._hash: int | None = None
        self._geometry, self._cages, self._candidates = _checked_rules(
            shape, stored, self._symbols, geometry, cages, candidates
        )

    @classmethod
    def _trusted(cls, cells: np.ndarray, shape: Shape, symbols: str) -> Board:
        """A board from values already checked: a fresh array of ``shape.cells`` uint8
        values 0..n, which the board takes over (made read-only), and a valid alphabet (the
        parsers' and the kernels' output). Skips the checks ``__init__`` makes, which cost
        more than solving an easy 16x16 board."""
        board = cls.__new__(cls)
        stored = cells.reshape(-1)
        stored.setflags(write=False)
        board._shape = shape
        board._cells = stored
        board._symbols = symbols
        board._hash = None
        board._geometry = None
        board._cages = ()
        board._candidates = None
        return board

    def _solution(self, cells: np.ndarray) -> Board:
        """A board of values already checked (as ``_trusted``) under this board's houses and
        cages: a solution of this board. Its candidates are its values."""
        board = Board._trusted(cells, self._shape, self._symbols)
        board._geometry = self._geometry
        board._cages = self._cages
        return board

    # -- constructors -------------------------------------------------------------------

    @classmethod
    def empty(cls, shape: Shape | int = 9) -> Board:
        """A board with no givens; ``shape`` is a :class:`Shape` or a board size."""
        if not isinstance(shape, Shape):
            shape = Shape.for_size(shape)
        return cls(np.zeros(shape.cells, dtype=np.uint8), shape)

    @classmethod
    def from_rows(
        cls, rows: Sequence[Sequence[int]], shape: Shape | None = None, symbols: str | None = None
    ) -> Board:
        """From ``n`` rows of ``n`` integers (0 = empty)."""
        return cls([value for row in rows for value in row], shape, symbols)

    @classmethod
    def _of(cls, data: BoardData) -> Board:
        """The board a format parsed (its values are checked and its array is fresh)."""
        if data.geometry is None and not data.cages and data.candidates is None:
            return cls._trusted(data.cells, data.shape, data.symbols)
        return cls(
            data.cells, data.shape, data.symbols, geometry=data.geometry, cages=data.cages, candidates=data.candidates
        )

    @classmethod
    def from_line(
        cls,
        text: str,
        shape: Shape | None = None,
        symbols: str | None = None,
        *,
        geometry: Geometry | None = None,
        cages: Iterable[Cage | tuple[int | None, Sequence[int]]] = (),
        candidates: Candidates = None,
    ) -> Board:
        """From the one-line form: ``n*n`` symbols, ``.``/``-``/``0`` for empty cells; the
        variant's rules as in the constructor."""
        if geometry is not None and shape is None and Shape.for_size_or_none(geometry.size) is None:
            shape = Shape(1, geometry.size)  # a prime size: the line reader needs a shape
        data = line.parse(text, shape=shape, symbols=symbols)
        if geometry is None and not cages and candidates is None:
            return cls._of(data)
        return cls(data.cells, data.shape, data.symbols, geometry=geometry, cages=cages, candidates=candidates)

    @classmethod
    def from_sukaku(cls, text: str, shape: Shape | None = None, symbols: str | None = None) -> Board:
        """From a Sukaku line: ``n**3`` characters, each cell's ``n`` in order, the value's
        symbol where it is a candidate and ``.`` or ``0`` where it is not (tdoku's and
        SukakuExplainer's 729-character form for 9x9)."""
        return cls._of(sukaku.parse(text, shape=shape, symbols=symbols))

    @classmethod
    def from_grid(
        cls, text: str, shape: Shape | None = None, symbols: str | None = None
    ) -> Board:
        """From ``n`` lines of ``n`` symbols (box rules such as ``|`` and ``+---+`` are skipped)."""
        return cls._of(grid.parse(text, shape=shape, symbols=symbols))

    @classmethod
    def from_ints(cls, text: str | Sequence[Sequence[int]], shape: Shape | None = None) -> Board:
        """From ``n`` lines of ``n`` whitespace-separated integers, 0 = empty (NOIP form), or
        from ``n`` rows of integers already read (as :meth:`from_rows`)."""
        if not isinstance(text, str):
            return cls.from_rows(text, shape)
        return cls._of(ints.parse(text, shape=shape))

    @classmethod
    def from_leetcode(
        cls, rows: Sequence[Sequence[str]] | str, shape: Shape | None = None
    ) -> Board:
        """From LeetCode's list of lists of one-character strings, or its JSON text."""
        if isinstance(rows, str):
            return cls._of(leetcode.parse(rows, shape=shape))
        return cls._of(leetcode.from_lists(rows, shape=shape))

    @classmethod
    def parse(
        cls,
        text: str,
        format: FormatName | None = None,
        shape: Shape | None = None,
        symbols: str | None = None,
    ) -> Board:
        """Read exactly one board in any format (detected unless ``format`` is given)."""
        return cls._of(formats.parse_one(text, format=format, shape=shape, symbols=symbols))

    # -- writers ------------------------------------------------------------------------

    def to_line(self, blank: str = ".") -> str:
        """The one-line form, in this board's alphabet."""
        return line.format(self, blank=blank)

    def to_grid(self, blank: str = ".") -> str:
        """``n`` lines of ``n`` symbols, newline-terminated."""
        return grid.format(self, blank=blank)

    def to_ints(self) -> str:
        """``n`` lines of ``n`` space-separated integers, newline-terminated."""
        return ints.format(self)

    def to_leetcode(self) -> list[list[str]]:
        """LeetCode's list of lists of one-character strings (``'.'`` for empty)."""
        return leetcode.to_lists(self)

    def to_pretty(self) -> str:
        """The boxed grid for a person (what ``str(board)`` prints)."""
        return pretty.format(self)

    def to_sukaku(self) -> str:
        """The Sukaku line: each cell's candidates (a value alone where it is filled)."""
        return sukaku.format(self)

    def to_json(self) -> str:
        """One JSON object with the givens and every rule (``givens``, ``size``, ``regions``,
        ``diagonals``, ``windoku``, ``houses``, ``cages``, ``candidates``): the variant form."""
        return variant.format_json(self)

    def to_svg(self, puzzle: Board | None = None) -> str:
        """An SVG picture; cells that ``puzzle`` leaves empty (the solver's) are drawn in blue."""
        return svg.format(self, puzzle)

    def format(self, format: FormatName) -> str:
        """The board in a named format: ``line``, ``grid``, ``ints``, ``leetcode``, ``pretty``."""
        return formats.format_board(self, format)

    # -- access -------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        """The box shape, which gives the size."""
        return self._shape

    @property
    def size(self) -> int:
        """``n``: the number of rows, of columns and of values."""
        return self._shape.size

    @property
    def symbols(self) -> str:
        """The alphabet: ``symbols[v - 1]`` writes value ``v``."""
        return self._symbols

    @property
    def geometry(self) -> Geometry:
        """The houses whose values must differ: rows, columns and boxes of the shape, or the
        variant's (jigsaw regions, extra houses)."""
        return self._shape.geometry if self._geometry is None else self._geometry

    @property
    def cages(self) -> tuple[Cage, ...]:
        """The killer cages (none on a plain board)."""
        return self._cages

    @property
    def candidates(self) -> np.ndarray | None:
        """The candidates the board starts from, one read-only ``uint64`` mask per cell (bit
        ``v - 1`` for value ``v``; a given's own bit), or None: every value."""
        return self._candidates

    @property
    def plain(self) -> bool:
        """Rows, columns and the shape's boxes only: no other houses, cages or candidates."""
        return self._geometry is None and not self._cages and self._candidates is None

    def start_masks(self) -> np.ndarray:
        """A fresh ``uint64`` mask per cell: the candidates, else every value (``n`` bits)."""
        if self._candidates is not None:
            return self._candidates.copy()
        return np.full(self._shape.cells, (1 << self.size) - 1, dtype=np.uint64)

    def with_rules(
        self,
        *,
        geometry: Geometry | None = None,
        cages: Iterable[Cage | tuple[int | None, Sequence[int]]] | None = None,
        candidates: Candidates = None,
    ) -> Board:
        """This board with other rules: each argument given replaces the board's own."""
        return Board(
            self._cells,
            self._shape,
            self._symbols,
            geometry=self._geometry if geometry is None else geometry,
            cages=self._cages if cages is None else cages,
            candidates=self._candidates if candidates is None else candidates,
        )

    @property
    def cells(self) -> np.ndarray:
        """The ``n*n`` cell values, row by row, as a read-only ``uint8`` array (0 = empty)."""
        return self._cells

    def to_array(self) -> np.ndarray:
        """A writable ``(n, n)`` ``uint8`` copy of the cells."""
        return self._cells.reshape(self.size, self.size).copy()

    def rows(self) -> list[list[int]]:
        """The cells as ``n`` lists of ``n`` integers."""
        return self.to_array().tolist()

    def __getitem__(self, position: tuple[int, int]) -> int:
        row, col = position
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IndexError(f"({row}, {col}) is outside a {self.size}x{self.size} board")
        return int(self._cells[row * self.size + col])

    def with_values(self, changes: dict[tuple[int, int], int]) -> Board:
        """A new board with some cells changed: ``{(row, col): value}``, 0 to empty a cell."""
        cells = self._cells.copy()
        for (row, col), value in changes.items():
            self[row, col]  # bounds check
            cells[row * self.size + col] = value
        return Board(
            cells, self._shape, self._symbols, geometry=self._geometry, cages=self._cages, candidates=self._candidates
        )

    @property
    def givens(self) -> int:
        """The number of filled cells."""
        return int(np.count_nonzero(self._cells))

    # -- rules --------------------------------------------------------------------------

    def status(self) -> BoardStatus:
        """Rule-breaking givens (a value twice in a house or a cage, a cage's values past its
        sum), without raising."""
        n = self.size
        conflicts: list[Conflict] = []
        geometry = self.geometry
        houses = geometry.houses
        values = self._cells[houses]  # (houses, n)
        for house in np.nonzero(_has_repeat(values, n))[0]:
            cells = houses[house]
            house_values = values[house]
            kind, number = geometry.describe(int(house))
            for value in np.unique(house_values[house_values > 0]):
                where = cells[house_values == value]
                if len(where) > 1:
                    conflicts.append(
                        Conflict(
                            value=int(value),
                            kind=kind,
                            index=number,
                            cells=tuple((int(c) // n, int(c) % n) for c in where),
                            symbol=self._symbols[int(value) - 1],
                        )
                    )
        sums: list[SumError] = []
        for number, cage in enumerate(self._cages):
            cage_values = self._cells[list(cage.cells)]
            where = tuple((cell // n, cell % n) for cell in cage.cells)
            for value in np.unique(cage_values[cage_values > 0]):
                cells = tuple(where[k] for k in np.flatnonzero(cage_values == value).tolist())
                if len(cells) > 1:
                    conflicts.append(Conflict(int(value), "cage", number, cells, self._symbols[int(value) - 1]))
            if cage.total is not None:
                found = int(cage_values.sum())
                complete = bool((cage_values > 0).all())
                if found > cage.total or (complete and found != cage.total):
                    sums.append(SumError(number, cage.total, found, complete, where))
        empty = int(np.count_nonzero(self._cells == 0))
        return BoardStatus(tuple(conflicts), givens=n * n - empty, empty=empty, sums=tuple(sums))

    def is_solution_of(self, puzzle: Board) -> bool:
        """True when this board is a finished Sudoku under ``puzzle``'s rules (its houses,
        cages and candidates) that keeps every given of ``puzzle``."""
        if self._shape != puzzle._shape:
            return False
        judged = puzzle._solution(self._cells.copy())
        if not judged.status().solved:
            return False
        if puzzle._candidates is not None:
            bits = np.uint64(1) << (self._cells.astype(np.uint64) - np.uint64(1))
            if ((puzzle._candidates & bits) == 0).any():
                return False
        given = puzzle._cells > 0
        return bool(np.array_equal(self._cells[given], puzzle._cells[given]))

    # -- value semantics ----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._shape == other._shape
            and bool(np.array_equal(self._cells, other._cells))
            and self._geometry == other._geometry
            and self._cages == other._cages
            and _same_masks(self._candidates, other._candidates)
        )

    def __hash__(self) -> int:
        if self._hash is None:
            marks = None if self._candidates is None else self._candidates.tobytes()
            self._hash = hash((self._shape, self._cells.tobytes(), self._geometry, self._cages, marks))
        return self._hash

    def __repr__(self) -> str:
        args = [repr(self.to_line())]
        if self._shape != Shape.for_size_or_none(self.size):
            args.append(f"shape={self._shape!r}")
        if self._symbols != _symbols.default(self.size):
            args.append(f"symbols={self._symbols!r}")
        if self._geometry is not None:
            args.append(f"geometry={self._geometry.recipe(self._shape)}")
        if self._cages:
            args.append(f"cages={[(cage.total, cage.cells) for cage in self._cages]!r}")
        if self._candidates is not None:
            args.append(f"candidates={self.to_sukaku()!r}")
        return f"Board.from_line({', '.join(args)})"

    def __str__(self) -> str:
        return self.to_pretty()

    def _repr_svg_(self) -> str:
        return svg.format(self)

    def __reduce__(self):
        if self.plain:
            return (Board, (self._cells, self._shape, self._symbols))
        return (_rebuild, (self._cells, self._shape, self._symbols, self._geometry, self._cages, self._candidates))


def _rebuild(cells, shape, symbols, geometry, cages, candidates) -> Board:
    """A pickled variant board (``Board.__reduce__``)."""
    return Board(cells, shape, symbols, geometry=geometry, cages=cages, candidates=candidates)


def _same_masks(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is b
    return bool(np.array_equal(a, b))


def _checked_rules(
    shape: Shape, cells: np.ndarray, symbols: str, geometry: Geometry | None, cages: Iterable[Any], candidates: Candidates
) -> tuple[Geometry | None, tuple[Cage, ...], np.ndarray | None]:
    """The rules a board keeps, checked: its geometry (None: the shape's), its cages and its
    candidate masks (None: every value). Raises ``ValueError`` naming what is wrong."""
    n = shape.size
    if geometry is not None:
        if not isinstance(geometry, Geometry):
            raise TypeError(f"geometry must be a Geometry, not {type(geometry).__name__}")
        if geometry.size != n:
            raise ValueError(f"a geometry of {geometry.size}x{geometry.size} for a {n}x{n} board")
        if len(geometry.houses) < 3 * n:
            raise ValueError("a geometry needs rows, columns and n regions (boxes or jigsaw pieces)")
        if geometry == shape.geometry:
            geometry = None
    checked = as_cages(cages)
    for number, cage in enumerate(checked, 1):
        try:
            cage.check(n)
        except ValueError as error:
            raise ValueError(f"cage {number} ({cage.where(n) if max(cage.cells) < n * n else cage.cells}): {error}") from None
    masks = None if candidates is None else _masks(shape, cells, symbols, candidates)
    return geometry, checked, masks


def _masks(shape: Shape, cells: np.ndarray, symbols: str, candidates: Candidates) -> np.ndarray | None:
    """Candidate masks from any form ``candidates=`` takes (see :data:`Candidates`), checked
    against the givens; None when they leave every value everywhere."""
    n = shape.size
    full = (1 << n) - 1
    if isinstance(candidates, str):
        masks = sukaku.parse(candidates, shape=shape, symbols=symbols).candidates
        assert masks is not None
        masks = masks.astype(np.uint64)
    elif isinstance(candidates, np.ndarray) and candidates.dtype.kind in "iu" and candidates.ndim == 1:
        if len(candidates) != shape.cells:
            raise ValueError(f"{len(candidates)} candidate masks for a board of {shape.cells} cells")
        if (candidates.astype(np.uint64) & ~np.uint64(full)).any():
            raise ValueError(f"a candidate mask has bits past value {n}")
        masks = candidates.astype(np.uint64)
    else:
        rows = list(candidates)
        if len(rows) == n and shape.cells != n and all(
            not isinstance(row, (str, int, np.integer)) and len(row) == n for row in rows
        ):
            rows = [cell for row in rows for cell in row]  # n rows of n cells
        if len(rows) != shape.cells:
            raise ValueError(f"candidates for {len(rows)} cells, the board has {shape.cells}")
        masks = np.zeros(shape.cells, dtype=np.uint64)
        lookup = {char: value for value, char in enumerate(symbols, 1)}
        for cell, values in enumerate(rows):
            mask = 0
            for value in values:
                number = lookup.get(value) if isinstance(value, str) else int(value)
                if number is None or not 1 <= number <= n:
                    raise ValueError(f"r{cell // n + 1}c{cell % n + 1}: candidate {value!r} is not a value of a {n}x{n} board")
                mask |= 1 << (number - 1)
            masks[cell] = mask
    for cell in np.flatnonzero(cells).tolist():
        value = int(cells[cell])
        bit = 1 << (value - 1)
        mark = int(masks[cell])
        if mark and not mark & bit:
            raise ValueError(
                f"r{cell // n + 1}c{cell % n + 1}: the candidates leave out the given {symbols[value - 1]}"
            )
        masks[cell] = bit
    open_cells = cells == 0
    if (masks[open_cells] == np.uint64(full)).all():
        return None
    masks.setflags(write=False)
    return masks


def _has_repeat(values: np.ndarray, size: int) -> np.ndarray:
    """For each row of ``values``, whether a nonzero value occurs twice."""
    houses = values.shape[0]
    keys = values.astype(np.int64) + (size + 1) * np.arange(houses)[:, None]
    counts = np.bincount(keys.ravel(), minlength=houses * (size + 1)).reshape(houses, size + 1)
    return np.asarray((counts[:, 1:] > 1).any(axis=1))


# -- reading anything as a board ---------------------------------------------------------------


def as_board(puzzle: Any, shape: ShapeLike | None = None) -> Board:
    """A :class:`Board` from a board, text in any format, rows of values or symbols, or an
    array; raises :class:`sudokit.FormatError` (a ``ValueError``) for anything else. ``shape``
    as :meth:`Shape.of` reads it."""
    known = Shape.of(shape)
    if isinstance(puzzle, Board):
        return puzzle
    if isinstance(puzzle, (str, bytes)):
        text = puzzle.decode("utf-8", "surrogateescape") if isinstance(puzzle, bytes) else puzzle
        body = text.strip()
        if "\n" not in body and len(body) in line.BOARD_LENGTHS and not sukaku.looks_like(body, known):
            return Board.from_line(body, shape=known)  # a board's line: the fast path
        return Board.parse(text, shape=known)
    if isinstance(puzzle, np.ndarray):
        return Board(puzzle, known)
    if isinstance(puzzle, (list, tuple)) and puzzle and isinstance(puzzle[0], (list, tuple)):
        if any(isinstance(cell, str) for row in puzzle for cell in row):
            return Board.from_leetcode(puzzle, known)
        return Board.from_rows(puzzle, known)
    raise TypeError(f"cannot read a board from {type(puzzle).__name__}")


# -- streams of puzzles ------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One puzzle of an input stream: its board, or the error that stopped it being one."""

    index: int  #: 0-based position among the records of the input
    line: int  #: 1-based line where the record starts
    format: str  #: the format it was read in
    text: str  #: the record's text as read (lines joined with ``\\n``)
    board: Board | None = None  #: the board, or None where the record is not one
    error: FormatError | None = None  #: why the record is not a board (line and column in the input)
    column: int = 1  #: 1-based column where the record starts on its line

    @property
    def ok(self) -> bool:
        """The record is a board (``error`` is None)."""
        return self.error is None

    def position(self, row: int, col: int) -> Position:
        """The 1-based (line, column) of the input where cell ``(row, col)`` (0-based) was
        written: messages about a cell point at it in the file."""
        assert self.board is not None
        scanned = formats.Scanned(self.index, self.line, self.column, self.format, self.text, None, None)
        return formats.positions(scanned)[row * self.board.size + col]


def read(
    lines: Iterable[str | bytes],
    *,
    format: FormatName | None = None,
    shape: Shape | None = None,
    symbols: str | None = None,
    source: str | None = None,
) -> Iterator[Record]:
    """Every puzzle in a stream of lines, in order, one :class:`Record` each, a bad one
    included (its ``error`` says what and where). The format is detected from the first puzzle
    unless given; a line ``end`` ends the input and lines starting with ``#`` are comments."""
    for scanned in formats.scan(lines, format=format, shape=shape, symbols=symbols, source=source):
        board, error = None, scanned.error
        if scanned.data is not None:
            try:
                board = Board._of(scanned.data)
            except ValueError as problem:  # a variant's rules the format let through
                error = FormatError(str(problem), line=scanned.line, column=scanned.column, source=source)
        yield Record(scanned.index, scanned.line, scanned.format, scanned.text, board, error, scanned.column)


def read_text(text: str | bytes, **options: Any) -> list[Record]:
    """:func:`read` over a whole text."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    return list(read(formats.text_lines(text), **options))
