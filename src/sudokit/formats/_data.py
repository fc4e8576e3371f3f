"""What readers return and writers take: a board as plain data, with no behaviour of its own.

Formats sit below :class:`sudokit.Board`: ``Board`` calls them and wraps what they return, so
no format module needs to know ``Board`` (and the import graph has no cycle).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np

from ..shape import Shape


class BoardData(NamedTuple):
    """A parsed board: ``n*n`` uint8 cell values (0 empty), its shape, and the alphabet that
    wrote it (``symbols[v - 1]`` writes value ``v``). The cells array is fresh and the taker
    may keep it."""

    cells: np.ndarray
    shape: Shape
    symbols: str


class BoardLike(Protocol):
    """What a writer reads of a board: a :class:`sudokit.Board` or a :class:`BoardData`."""

    @property
    def cells(self) -> np.ndarray: ...

    @property
    def shape(self) -> Shape: ...

    @property
    def symbols(self) -> str: ...


def value_rows(board: BoardLike) -> list[list[int]]:
    """The cells as ``n`` lists of ``n`` integers."""
    size = board.shape.size
    return board.cells.reshape(size, size).tolist()


#: where a cell was written: 1-based line and column
Position = tuple[int, int]
