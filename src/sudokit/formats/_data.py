"""What readers return and writers take: a board as plain data, with no behaviour of its own.

Formats sit below :class:`sudokit.Board`: ``Board`` calls them and wraps what they return, so
no format module needs to know ``Board`` (and the import graph has no cycle).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np

from ..shape import Cage, Geometry, Shape


class BoardData(NamedTuple):
    """A parsed board: ``n*n`` uint8 cell values (0 empty), its shape, and the alphabet that
    wrote it (``symbols[v - 1]`` writes value ``v``); for a variant, its houses (None: the
    shape's), cages and starting candidates (a uint64 mask per cell, None: every value). The
    arrays are fresh and the taker may keep them."""

    cells: np.ndarray
    shape: Shape
    symbols: str
    geometry: Geometry | None = None
    cages: tuple[Cage, ...] = ()
    candidates: np.ndarray | None = None


class BoardLike(Protocol):
    """What a writer reads of a board: a :class:`sudokit.Board` or a :class:`BoardData`."""

    @property
    def cells(self) -> np.ndarray: ...

    @property
    def shape(self) -> Shape: ...

    @property
    def symbols(self) -> str: ...

    @property
    def geometry(self) -> Geometry | None: ...

    @property
    def cages(self) -> tuple[Cage, ...]: ...

    @property
    def candidates(self) -> np.ndarray | None: ...


def value_rows(board: BoardLike) -> list[list[int]]:
    """The cells as ``n`` lists of ``n`` integers."""
    size = board.shape.size
    return board.cells.reshape(size, size).tolist()


#: where a cell was written: 1-based line and column
Position = tuple[int, int]
