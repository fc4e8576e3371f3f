"""Checks of boards' givens, compiled (numpy spent a microsecond a board on this, a quarter of a
17-clue search)."""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel


@kernel(inline="always")
def _repeat_in(values, cell_houses, seen):
    """Whether the givens ``values`` (one board) repeat a value in a house; ``seen`` is
    scratch, one zeroed word per house."""
    for cell in range(values.shape[0]):
        value = values[cell]
        if value == 0:
            continue
        bit = np.uint64(1) << np.uint64(value - 1)
        for j in range(cell_houses.shape[1]):
            house = cell_houses[cell, j]
            if house < 0:
                break
            if seen[house] & bit:
                return True
            seen[house] |= bit
    return False


@kernel
def repeats(values, cell_houses, seen, found):
    """Mark in ``found`` the boards (rows of ``values``) whose givens repeat a value in a
    house; ``seen`` is scratch, one word per house."""
    for k in range(values.shape[0]):
        seen[:] = 0
        if _repeat_in(values[k], cell_houses, seen):
            found[k] = True


@kernel
def repeat_in(values, cell_houses, houses):
    """Whether one board's givens repeat a value in one of its ``houses`` houses (one call,
    no arrays from the caller: what the single-board API asks before every search)."""
    return _repeat_in(values, cell_houses, np.zeros(houses, dtype=np.uint64))
