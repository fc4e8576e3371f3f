"""Sudoku Explainer's grid, the record of a hint, and the tables every SE rule reads (9x9 only).

Sudoku Explainer (SE, and its fork SukakuExplainer) rates a puzzle by solving it with the
easiest step it can see at each moment; its steps and their ratings are in ``se_rules`` (the
patterns) and ``chains`` (the chains), the loop in ``rate``. This module holds what they share.

The grid is SE's: a value per cell and a candidate mask per cell, nothing else (no singles
queue). ``g = (values, cand, pos)``:

    values[c]      the value of cell c, 0 while empty
    cand[c]        candidates of cell c, bit v for value v (1..9; bit 0 unused), 0 once solved
    pos[r, v]      positions of value v in region r, bit i for the region's i-th cell

Regions are numbered as SE numbers them by type, blocks first: ``r = type * 9 + index`` with type
0 block, 1 row, 2 column; a region's cells are in SE's order (a block row by row). ``pos`` is
kept by ``remove`` and ``restore`` so that "the other place of this value in this block" is a
mask and not a scan, which is most of what a chain asks.

A *potential* (SE's word for a candidate taken as true, "on", or false, "off") is one integer:
``p = (cell * 9 + value - 1) * 2 + on``.

A hint is written into ``h = (hdr, diff, elim, cells)``: its technique and counts in ``hdr``,
its rating in ``diff[0]`` (a float, computed as SE computes it so that ties break the same way),
the candidates it removes, and the cells of its pattern (for the text a person reads).
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    G_CAND, G_POS, G_VALUES, H_CELLS, H_DIFF, H_ELIM, H_HDR, KIND, NC, NE, PCELL, PVALUE, REGION_SLOT,
    SRC, TARGET,
)  # fmt: skip
from ..search.bits import borrowed
from .record import ALL, HDR, NP, new_grid, new_hint, new_workspace  # noqa: F401 - the Python layer's makers, here too

# -- tables -----------------------------------------------------------------------------------


def _tables():
    region = np.zeros((27, 9), dtype=np.int64)
    for b in range(9):
        top, left = 3 * (b // 3), 3 * (b % 3)
        for i in range(9):
            region[b, i] = (top + i // 3) * 9 + left + i % 3
    for r in range(9):
        region[9 + r] = [r * 9 + c for c in range(9)]
        region[18 + r] = [c * 9 + r for c in range(9)]
    cell_region = np.zeros((81, 3), dtype=np.int64)
    cell_pos = np.zeros((81, 3), dtype=np.int64)
    for r in range(27):
        for i in range(9):
            cell_region[region[r, i], r // 9] = r
            cell_pos[region[r, i], r // 9] = i
    peers = np.zeros((81, 20), dtype=np.int64)
    sees = np.zeros((81, 81), dtype=np.bool_)
    for c in range(81):
        others = sorted({int(x) for r in cell_region[c] for x in region[r]} - {c})
        peers[c] = others
        sees[c, others] = True
    in_region = np.zeros((27, 81), dtype=np.bool_)
    for r in range(27):
        in_region[r, region[r]] = True
    cross = np.zeros((27, 27), dtype=np.bool_)
    for a in range(27):
        for b in range(27):
            cross[a, b] = a != b and bool((in_region[a] & in_region[b]).any())
    # cell sets as two 64-bit words: cells 0-63, then 64-80
    def split(cells):
        lo = hi = 0
        for c in cells:
            if c < 64:
                lo |= 1 << c
            else:
                hi |= 1 << (c - 64)
        return lo, hi

    masks = np.zeros((81 + 81 + 27, 2), dtype=np.uint64)
    for c in range(81):
        masks[c] = split([c])
        masks[81 + c] = split(peers[c])
    for r in range(27):
        masks[162 + r] = split(region[r])
    pop = np.array([bin(m).count("1") for m in range(1 << 10)], dtype=np.int64)
    low = np.array([(m & -m).bit_length() - 1 if m else -1 for m in range(1 << 10)], dtype=np.int64)
    for table in (region, cell_region, cell_pos, peers, sees, in_region, cross, pop, low, masks):
        table.setflags(write=False)
    return region, cell_region, cell_pos, peers, sees, in_region, cross, pop, low, masks


REGION, CELL_REGION, CELL_POS, PEERS, SEES, IN_REGION, CROSS, POP, LOW, MASKS = _tables()
#: rows of ``MASKS`` (a cell set as two words, cells 0-63 and 64-80): the cell itself, its
#: peers, a region's cells
CELL_MASK = 0
PEER_MASK = 81
REGION_MASK = 162


# -- the grid ---------------------------------------------------------------------------------

# Each kernel entry borrows its arrays once (``bits.borrowed``: views without reference
# counts), as the logic kernels do: the finders pass them down and read them out of tuples in
# their inner loops, where an atomic count per access would cost more than the work.


@kernel(inline="always")
def borrow_grid(g):
    return (borrowed(g[G_VALUES]), borrowed(g[G_CAND]), borrowed(g[G_POS]))


@kernel(inline="always")
def borrow_hint(h):
    return (borrowed(h[H_HDR]), borrowed(h[H_DIFF]), borrowed(h[H_ELIM]), borrowed(h[H_CELLS]))



@kernel(inline="always")
def pot(cell, value, on):
    return (cell * 9 + value - 1) * 2 + on


@kernel(inline="always")
def has(g, cell, value):
    return (g[G_CAND][cell] >> value) & 1 != 0


@kernel
def remove(g, cell, value):
    """Remove one candidate (nothing if it is not there); True if it was."""
    cand, pos = g[G_CAND], g[G_POS]
    if (cand[cell] >> value) & 1 == 0:
        return False
    cand[cell] &= ~(1 << value)
    for t in range(3):
        pos[CELL_REGION[cell, t], value] &= ~(1 << CELL_POS[cell, t])
    return True


@kernel
def restore(g, cell, value):
    """Put a removed candidate back (the undo of ``remove``)."""
    cand, pos = g[G_CAND], g[G_POS]
    cand[cell] |= 1 << value
    for t in range(3):
        pos[CELL_REGION[cell, t], value] |= 1 << CELL_POS[cell, t]


@kernel
def place(g, cell, value):
    """SE's ``setValueAndCancel``: the value, no candidates left in the cell, the value gone
    from every peer."""
    values, cand = g[G_VALUES], g[G_CAND]
    values[cell] = value
    rest = cand[cell]
    for v in range(1, 10):
        if (rest >> v) & 1:
            remove(g, cell, v)
    for j in range(20):
        remove(g, PEERS[cell, j], value)


@kernel
def load(g, givens):
    """Every candidate on the empty cells, then each given placed (SE rebuilds the same grid)."""
    values, cand, pos = g[G_VALUES], g[G_CAND], g[G_POS]
    values[:] = 0
    cand[:] = ALL
    for r in range(27):
        pos[r, 0] = 0
        for v in range(1, 10):
            pos[r, v] = 0x1FF
    for c in range(81):
        if givens[c]:
            place(g, c, givens[c])


@kernel
def digit_masks(g, out):
    """Each value's candidate cells as two words (``out[v]``, cells 0-63 and 64-80): what the
    single-value rules read, so a rule that found nothing for a value finds nothing again
    while they stay the same."""
    cand = g[G_CAND]
    out[:, :] = 0
    for c in range(81):
        m = cand[c]
        if c < 64:
            bit = np.uint64(1) << np.uint64(c)
            for v in range(1, 10):
                if (m >> v) & 1:
                    out[v, 0] |= bit
        else:
            bit = np.uint64(1) << np.uint64(c - 64)
            for v in range(1, 10):
                if (m >> v) & 1:
                    out[v, 1] |= bit


@kernel(inline="always")
def same_cells(masks, cache, ok, v):
    """Whether value v's cells (``masks``) are those a per-value cache remembers a search that
    found nothing for (``cache``, ``ok``)."""
    return ok[v] == 1 and cache[v, 0] == masks[v, 0] and cache[v, 1] == masks[v, 1]


@kernel
def changed_cells(g, masks, cache, ok, changed):
    """For a rule that remembers the grid it last found nothing in (its values' cells in
    ``cache``, ``ok[0]`` set; ``masks`` gets the grid's now): the cells whose candidates
    changed since, as two words in ``changed``; every cell where nothing is remembered or the
    grid is not a part of that one (a candidate came back)."""
    digit_masks(g, masks)
    changed[:] = ~np.uint64(0)
    if ok[0] != 1:
        return
    for v in range(1, 10):
        if masks[v, 0] & ~cache[v, 0] != 0 or masks[v, 1] & ~cache[v, 1] != 0:
            return
    changed[:] = 0
    for v in range(1, 10):
        changed[0] |= masks[v, 0] ^ cache[v, 0]
        changed[1] |= masks[v, 1] ^ cache[v, 1]


@kernel
def found_nothing(masks, cache, ok, remember):
    """A search found nothing in the grid of ``masks``: remembered (``changed_cells``) where
    ``remember``; False. (Where it does find something, the grid it last found nothing in
    stays remembered: the grid now is still a part of it.)"""
    ok[0] = 1 if remember else 0
    for v in range(1, 10):
        cache[v, 0] = masks[v, 0]
        cache[v, 1] = masks[v, 1]
    return False


@kernel
def copy_grid(src, dst):
    dst[G_VALUES][:] = src[G_VALUES]
    dst[G_CAND][:] = src[G_CAND]
    dst[G_POS][:, :] = src[G_POS]


@kernel
def solved(g):
    values = g[G_VALUES]
    for c in range(81):
        if values[c] == 0:
            return False
    return True


@kernel(inline="always")
def count(mask):
    return POP[mask & 0x3FF]


@kernel(inline="always")
def empty_cells(g, r):
    values = g[G_VALUES]
    n = 0
    for i in range(9):
        if values[REGION[r, i]] == 0:
            n += 1
    return n


# -- the hint record ----------------------------------------------------------------------------

#: its arrays and header slots are named in ``record`` (H_HDR, KIND, ...)


@kernel(inline="always")
def clear_hint(h, kind, diff):
    hdr = h[H_HDR]
    hdr[:] = 0
    hdr[KIND] = kind
    hdr[PCELL] = -1
    hdr[SRC] = -1
    hdr[TARGET] = -1
    hdr[REGION_SLOT] = -1
    h[H_DIFF][0] = diff


@kernel(inline="always")
def add_elim(h, cell, value):
    hdr = h[H_HDR]
    k = hdr[NE]
    h[H_ELIM][k, 0] = cell
    h[H_ELIM][k, 1] = value
    hdr[NE] = k + 1


@kernel(inline="always")
def add_cell(h, cell):
    hdr = h[H_HDR]
    k = hdr[NC]
    if k < 81:
        h[H_CELLS][k] = cell
        hdr[NC] = k + 1


@kernel(inline="always")
def set_place(h, cell, value):
    h[H_HDR][PCELL] = cell
    h[H_HDR][PVALUE] = value


@kernel
def copy_hint(src, dst):
    n = src[H_HDR][NE]
    dst[H_HDR][:] = src[H_HDR]
    dst[H_DIFF][0] = src[H_DIFF][0]
    dst[H_ELIM][:n, :] = src[H_ELIM][:n, :]
    dst[H_CELLS][:] = src[H_CELLS]


@kernel
def apply_hint(g, h):
    """SE's ``apply``: remove the hint's candidates, then place its value if it has one."""
    hdr, elim = h[H_HDR], h[H_ELIM]
    for k in range(hdr[NE]):
        remove(g, elim[k, 0], elim[k, 1])
    if hdr[PCELL] >= 0:
        place(g, hdr[PCELL], hdr[PVALUE])


@kernel
def length_difficulty(complexity):
    """SE's length penalty for a chain of ``complexity`` nodes: 0.1 for each time the length
    (nodes less two) passes 4, 6, 8, 12, 16, 24, 32, ... (the ceiling grows by 3/2 and 4/3 in
    turn), added up in floating point as SE adds it."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        if not odd:
            ceil = (ceil * 3) // 2
        else:
            ceil = (ceil * 4) // 3
        odd = not odd
    return added
