"""The arrays of the human-style solver's state and step record (see ``core`` for their
layout), made in plain Python with numpy only: the Python layer makes them without loading
numba where the kernels were compiled ahead of time (``kernels/build/ahead.py``)."""

from __future__ import annotations

import numpy as np

#: the step record's hdr slots (``core`` names them)
HDR_SIZE = 16
#: the step record's digs slots (``core`` names them)
DIGS_SIZE = 4


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
