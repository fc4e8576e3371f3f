"""The arrays of the human-style solver's state and step record (see ``core`` for their
layout), made in plain Python with numpy only: the Python layer makes them without loading
numba where the kernels were compiled ahead of time (``kernels/build/ahead.py``)."""

from __future__ import annotations

import numpy as np

#: the state's arrays (``new_state`` makes them in this order): kernels read ``st[ST_CAND]``,
#: never a bare number
ST_VALUES = 0  #: each cell's value, 0 for empty
ST_CAND = 1  #: each cell's candidates, bit ``v - 1`` for value ``v``
ST_FREE = 2  #: per house and value, the cells that can still take it
ST_NSQ = 3  #: the naked singles' queue (cell, value)
ST_HSQ = 4  #: the hidden singles' queue (house, value)
ST_QCTL = 5  #: the queues' heads and tails (``core``: NS_HEAD, NS_TAIL, HS_HEAD, HS_TAIL)
ST_FIXED = 6  #: 1 for a given, 0 for a value the solver placed

#: the geometry's arrays (``sudokit.logic.grid.geometry`` makes them in this order)
GEO_HOUSES = 0  #: each house's cells
GEO_CELL_HOUSES = 1  #: each cell's houses
GEO_PEERS = 2  #: each cell's peers in increasing order, -1 padded
GEO_INFO = 3  #: the board's numbers, in the slots below
#: ``geo[GEO_INFO]`` slots
SIZE = 0  #: values per house (n)
BOX_HEIGHT = 1
BOX_WIDTH = 2
HOUSES = 3  #: number of houses

#: the step record's arrays (``new_step`` makes them in this order)
S_HDR = 0  #: the header: counts and ids, in the slots below
S_ELIM = 1  #: eliminations (cell, value)
S_PLACE = 2  #: placements (cell, value)
S_CELLS = 3  #: the pattern's cells
S_FINS = 4  #: fins
S_HOUSES = 5  #: houses: the bases first, then the covers
S_CHAIN = 6  #: chain nodes (cell, value, link to the next)
S_DIGS = 7  #: masks of values, in the slots below

#: ``step[S_HDR]`` slots
HDR_SIZE = 16
KIND = 0  #: technique id (see ``sudokit.logic.techniques``)
NE = 1  #: eliminations written
NP = 2  #: placements written
NC = 3  #: pattern cells written
NF = 4  #: fins written
NH = 5  #: houses written
NL = 6  #: chain nodes written
NB = 7  #: of the houses, how many are bases (the rest are covers)
SUB = 8  #: a technique's variant (type of a unique rectangle, a chain's shape, ...)

#: ``step[S_DIGS]`` slots: masks of values
DIGS_SIZE = 4
DIGITS = 0  #: the values the pattern is about
EXTRA = 1  #: a second set (a wing's eliminated value, an ALS's common values, ...)


def new_step(cells: int, size: int, houses: int):
    """A step record big enough for any step on a board of ``cells`` cells and ``size``
    values."""
    return (
        np.zeros(HDR_SIZE, dtype=np.int64),
        np.zeros((cells * size, 2), dtype=np.int32),
        np.zeros((cells, 2), dtype=np.int32),
        np.zeros(cells, dtype=np.int32),
        np.zeros(cells, dtype=np.int32),
        np.zeros(2 * houses, dtype=np.int32),
        np.zeros((cells * size, 3), dtype=np.int32),
        np.zeros(DIGS_SIZE, dtype=np.uint64),
    )


def new_state(cells: int, size: int, houses: int):
    """``(values, cand, free, nsq, hsq, qctl, fixed)`` for an empty board: every candidate
    everywhere.
    The queues hold every sighting a whole solve can make (a removed candidate queues at most
    one naked and three hidden singles)."""
    full = np.uint64((1 << size) - 1) if size < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    free = np.zeros((houses, size + 1), dtype=np.int32)
    free[:, 1:] = size
    capacity = 4 * cells * size + cells
    return (
        np.zeros(cells, dtype=np.int32),
        np.full(cells, full, dtype=np.uint64),
        free,
        np.zeros((capacity, 2), dtype=np.int32),
        np.zeros((capacity, 2), dtype=np.int32),
        np.zeros(4, dtype=np.int64),
        np.zeros(cells, dtype=np.uint8),
    )
