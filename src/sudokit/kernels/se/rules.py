"""Sudoku Explainer's rules short of chains: singles, intersections, subsets, fish, link
patterns, wings, unique loops, BUG and aligned exclusion, each rated as SukakuExplainer 1.18
rates it.

Each finder writes the hint SE would take into ``h`` and returns True, or returns False. SE
takes the first hint a rule finds, scanning in its own order (regions by type, values 1..9,
tuples in increasing bit order), except for the rules it sorts: link patterns, the ALS wings and
unique loops hand over their easiest hint (then, for links and wings, the one removing most).
The scan orders below are SE's, because the first hint found decides the path.
"""

from __future__ import annotations

import numpy as np

from . import ids as T
from ..build.jit import kernel
from .record import (
    G_CAND, G_POS, G_VALUES, H_CELLS, H_DIFF, H_ELIM, H_HDR, KIND, NE, REGION_SLOT, REMOVED, SUB, VALUE,
)  # fmt: skip
from .core import (
    CROSS, IN_REGION, LOW, PEERS, POP, REGION, SEES, add_cell, add_elim, changed_cells, clear_hint, empty_cells,
    found_nothing, set_place,
)  # fmt: skip

# SE's region types, in the order most of its rules scan them: block, column, row
SCAN_TYPES = np.array([0, 2, 1], dtype=np.int64)
# k-subsets of 9 in increasing bit order (SE's ``Permutations``), for k = 1..4: masks
def _subsets():
    rows = [[m for m in range(512) if bin(m).count("1") == k] for k in range(10)]
    table = np.full((10, max(len(r) for r in rows)), -1, dtype=np.int64)
    for k, row in enumerate(rows):
        table[k, : len(row)] = row
    table.setflags(write=False)
    return table, np.array([len(r) for r in rows], dtype=np.int64)


#: SUBSETS[k, :SUBSET_COUNT[k]]: the k-subsets of 9 as masks, in increasing order
SUBSETS, SUBSET_COUNT = _subsets()


@kernel(inline="always")
def subsets(k):
    return SUBSETS[k, : SUBSET_COUNT[k]]


# -- singles ----------------------------------------------------------------------------------


@kernel
def hidden_single(g, h):
    """Last cell of a region (1.0), then hidden singles in blocks (1.2), columns and rows
    (1.5)."""
    pos = g[G_POS]
    for alone in range(2):
        for k in range(3):
            t = SCAN_TYPES[k]
            for i in range(9):
                r = t * 9 + i
                free = empty_cells(g, r)
                for v in range(1, 10):
                    m = pos[r, v]
                    if m != 0 and m & (m - 1) == 0:
                        is_alone = free == 1
                        if is_alone == (alone == 0):
                            cell = REGION[r, LOW[m]]
                            diff = 1.0 if is_alone else (1.2 if t == 0 else 1.5)
                            clear_hint(h, T.HIDDEN_SINGLE, diff)
                            set_place(h, cell, v)
                            h[H_HDR][REGION_SLOT] = r
                            h[H_HDR][SUB] = 0 if is_alone else (1 if t == 0 else 2)
                            return True
    return False


@kernel
def naked_single(g, h):
    values, cand = g[G_VALUES], g[G_CAND]
    for c in range(81):
        if values[c] == 0:
            m = cand[c]
            if m != 0 and m & (m - 1) == 0:
                clear_hint(h, T.NAKED_SINGLE, 2.3)
                set_place(h, c, LOW[m])
                return True
    return False


# -- intersections ----------------------------------------------------------------------------

LOCK_TYPES = np.array([[0, 2], [0, 1], [2, 0], [1, 0]], dtype=np.int64)


@kernel
def _inside(pos_mask, r1, r2):
    """Whether every position ``pos_mask`` of region r1 lies in region r2."""
    m = pos_mask
    while m:
        i = LOW[m & -m]
        m &= m - 1
        if not IN_REGION[r2, REGION[r1, i]]:
            return False
    return True


@kernel
def _lock_elims(g, h, r1, r2, v):
    cand = g[G_CAND]
    for i in range(9):
        c = REGION[r2, i]
        if not IN_REGION[r1, c] and (cand[c] >> v) & 1:
            add_elim(h, c, v)
    for i in range(9):
        c = REGION[r1, i]
        if (cand[c] >> v) & 1:
            add_cell(h, c)


@kernel
def locking(g, h, direct):
    """Pointing (block -> line) and claiming (line -> block). In direct mode only where the
    removal leaves a hidden single in a third region of the first type (1.7 pointing, 1.9
    claiming, the single placed); otherwise any removal (2.6, 2.8)."""
    pos = g[G_POS]
    for k in range(4):
        t1, t2 = LOCK_TYPES[k, 0], LOCK_TYPES[k, 1]
        for v in range(1, 10):
            for i1 in range(9):
                r1 = t1 * 9 + i1
                m1 = pos[r1, v]
                if POP[m1] < 2:
                    continue
                for i2 in range(9):
                    r2 = t2 * 9 + i2
                    if not CROSS[r1, r2] or not _inside(m1, r1, r2):
                        continue
                    if direct:
                        for i3 in range(9):
                            if i3 == i1:
                                continue
                            r3 = t1 * 9 + i3
                            if not CROSS[r3, r2]:
                                continue
                            m3 = pos[r3, v]
                            if POP[m3] > 1:
                                left = 0
                                hcell = -1
                                m = m3
                                while m:
                                    j = LOW[m & -m]
                                    m &= m - 1
                                    c = REGION[r3, j]
                                    if not IN_REGION[r2, c]:
                                        left += 1
                                        hcell = c
                                if left == 1:
                                    kind = T.DIRECT_POINTING if t1 == 0 else T.DIRECT_CLAIMING
                                    clear_hint(h, kind, 1.7 if t1 == 0 else 1.9)
                                    _lock_elims(g, h, r1, r2, v)
                                    set_place(h, hcell, v)
                                    h[H_HDR][VALUE] = v
                                    h[H_HDR][REGION_SLOT] = r1
                                    return True
                    else:
                        clear_hint(h, T.POINTING if t1 == 0 else T.CLAIMING, 2.6 if t1 == 0 else 2.8)
                        _lock_elims(g, h, r1, r2, v)
                        if h[H_HDR][NE] > 0:
                            h[H_HDR][VALUE] = v
                            h[H_HDR][REGION_SLOT] = r1
                            return True
    return False


# -- subsets ----------------------------------------------------------------------------------


@kernel
def hidden_set(g, h, degree, direct):
    """Hidden pairs, triplets, quads; in direct mode only where the set leaves a hidden single
    for another value of its region (2.0 pair, 2.5 triplet, the single placed)."""
    pos = g[G_POS]
    tuples = subsets(degree)
    for k in range(3):
        t = SCAN_TYPES[k]
        for i in range(9):
            r = t * 9 + i
            free = empty_cells(g, r)
            if not (free > degree * 2 or (direct and free > degree)):
                continue
            for n in range(tuples.shape[0]):
                vm = tuples[n]
                union = 0
                ok = True
                m = vm
                while m:
                    v = LOW[m & -m] + 1
                    m &= m - 1
                    pm = pos[r, v]
                    if POP[pm] <= 1:
                        ok = False
                        break
                    union |= pm
                if not ok or POP[union] != degree:
                    continue
                values = vm << 1
                if direct:
                    for v in range(1, 10):
                        if (values >> v) & 1:
                            continue
                        pm = pos[r, v]
                        if POP[pm] > 1:
                            rest = pm & ~union
                            if POP[rest] == 1:
                                kind = T.DIRECT_HIDDEN_PAIR if degree == 2 else T.DIRECT_HIDDEN_TRIPLET
                                clear_hint(h, kind, 2.0 if degree == 2 else 2.5)
                                _hidden_elims(g, h, r, union, values)
                                set_place(h, REGION[r, LOW[rest]], v)
                                h[H_HDR][VALUE] = values
                                h[H_HDR][REGION_SLOT] = r
                                return True
                else:
                    kind = T.HIDDEN_PAIR if degree == 2 else (T.HIDDEN_TRIPLET if degree == 3 else T.HIDDEN_QUAD)
                    clear_hint(h, kind, 3.4 if degree == 2 else (4.0 if degree == 3 else 5.4))
                    _hidden_elims(g, h, r, union, values)
                    if h[H_HDR][NE] > 0:
                        h[H_HDR][VALUE] = values
                        h[H_HDR][REGION_SLOT] = r
                        return True
    return False


@kernel
def _hidden_elims(g, h, r, cells_mask, values):
    cand = g[G_CAND]
    m = cells_mask
    while m:
        c = REGION[r, LOW[m & -m]]
        m &= m - 1
        add_cell(h, c)
        extra = cand[c] & ~values
        for v in range(1, 10):
            if (extra >> v) & 1:
                add_elim(h, c, v)


@kernel
def naked_set(g, h, degree):
    """Naked pairs (3.0), triplets (3.6), quads (5.0)."""
    cand = g[G_CAND]
    tuples = subsets(degree)
    for k in range(3):
        t = SCAN_TYPES[k]
        for i in range(9):
            r = t * 9 + i
            if empty_cells(g, r) < degree * 2:
                continue
            for n in range(tuples.shape[0]):
                cm = tuples[n]
                union = 0
                ok = True
                m = cm
                while m:
                    c = REGION[r, LOW[m & -m]]
                    m &= m - 1
                    if POP[cand[c]] <= 1:
                        ok = False
                        break
                    union |= cand[c]
                if not ok or POP[union] != degree:
                    continue
                kind = T.NAKED_PAIR if degree == 2 else (T.NAKED_TRIPLET if degree == 3 else T.NAKED_QUAD)
                clear_hint(h, kind, 3.0 if degree == 2 else (3.6 if degree == 3 else 5.0))
                for j in range(9):
                    c = REGION[r, j]
                    if (cm >> j) & 1:
                        add_cell(h, c)
                        continue
                    common = cand[c] & union
                    for v in range(1, 10):
                        if (common >> v) & 1:
                            add_elim(h, c, v)
                if h[H_HDR][NE] > 0:
                    h[H_HDR][VALUE] = union
                    h[H_HDR][REGION_SLOT] = r
                    return True
    return False


# -- fish -------------------------------------------------------------------------------------

FISH_TYPES = np.array([[2, 1], [1, 2]], dtype=np.int64)


@kernel
def fish(g, h, degree):
    """X-Wing (3.2), Swordfish (3.8), Jellyfish (5.2): columns as bases first, then rows."""
    values, pos = g[G_VALUES], g[G_POS]
    occurrences = np.zeros(10, dtype=np.int64)
    for c in range(81):
        occurrences[values[c]] += 1
    tuples = subsets(degree)
    for k in range(2):
        t1, t2 = FISH_TYPES[k, 0], FISH_TYPES[k, 1]
        for n in range(tuples.shape[0]):
            lines = tuples[n]
            for v in range(1, 10):
                if occurrences[v] + degree * 2 > 9:
                    continue
                union = 0
                ok = True
                m = lines
                while m:
                    pm = pos[t1 * 9 + LOW[m & -m], v]
                    m &= m - 1
                    if POP[pm] <= 1:
                        ok = False
                        break
                    union |= pm
                if not ok or POP[union] != degree:
                    continue
                kind = T.X_WING if degree == 2 else (T.SWORDFISH if degree == 3 else T.JELLYFISH)
                clear_hint(h, kind, 3.2 if degree == 2 else (3.8 if degree == 3 else 5.2))
                m = union
                while m:
                    cover = t2 * 9 + LOW[m & -m]
                    m &= m - 1
                    rest = pos[cover, v] & ~lines
                    while rest:
                        add_elim(h, REGION[cover, LOW[rest & -rest]], v)
                        rest &= rest - 1
                if h[H_HDR][NE] > 0:
                    m = lines
                    while m:
                        base = t1 * 9 + LOW[m & -m]
                        m &= m - 1
                        pm = pos[base, v]
                        while pm:
                            add_cell(h, REGION[base, LOW[pm & -pm]])
                            pm &= pm - 1
                    h[H_HDR][VALUE] = v
                    h[H_HDR][SUB] = t1
                    return True
    return False


# -- XY- and XYZ-Wing -------------------------------------------------------------------------


@kernel
def xy_wing(g, h, xyz):
    """XY-Wing (4.2) and XYZ-Wing (4.4)."""
    cand = g[G_CAND]
    target = 3 if xyz else 2
    for i in range(81):
        xy = cand[i]
        if POP[xy] != target:
            continue
        for a in range(20):
            xz_cell = PEERS[i, a]
            xz = cand[xz_cell]
            if POP[xz] != 2 or POP[xy & ~xz] != 1:
                continue
            for b in range(20):
                yz_cell = PEERS[i, b]
                yz = cand[yz_cell]
                if POP[yz] != 2:
                    continue
                union = xy | xz | yz
                inter = xy & xz & yz
                if POP[union] != 3:
                    continue
                if xyz:
                    if POP[inter] != 1:
                        continue
                elif inter != 0:
                    continue
                z = LOW[xz & yz]
                if z < 1:
                    continue
                clear_hint(h, T.XYZ_WING if xyz else T.XY_WING, 4.4 if xyz else 4.2)
                for c in range(81):
                    if c == i or c == xz_cell or c == yz_cell:
                        continue
                    if SEES[c, xz_cell] and SEES[c, yz_cell] and (not xyz or SEES[c, i]) and (cand[c] >> z) & 1:
                        add_elim(h, c, z)
                if h[H_HDR][NE] > 0:
                    add_cell(h, i)
                    add_cell(h, xz_cell)
                    add_cell(h, yz_cell)
                    h[H_HDR][VALUE] = z
                    return True
    return False


# -- WXYZ- to TUVWXYZ-Wing: an ALS of one house and a bivalue cell -----------------------------------


@kernel
def _rc_ok(cand, cells, n, bit, yz):
    """Every cell of the set holding the value (``bit``) sees the bivalue cell."""
    for k in range(n):
        c = cells[k]
        if cand[c] & bit and not SEES[c, yz]:
            return False
    return True


@kernel
def _wing_victims(cand, cells, n, yz, v, h):
    """Remove v from every cell seeing the bivalue cell and every cell of the set holding v;
    the number removed."""
    removed = 0
    bit = 1 << v
    for c in range(81):
        if not SEES[c, yz] or not (cand[c] & bit) or c == yz:
            continue
        ok = True
        for k in range(n):
            o = cells[k]
            if o == c or (cand[o] & bit and not SEES[c, o]):
                ok = False
                break
        if ok:
            add_elim(h, c, v)
            removed += 1
    return removed


@kernel
def _wing_set_victims(cand, cells, n, v, h):
    """Remove v from every cell (outside the set and the bivalue cell) that sees every cell
    of the set holding v (a doubly linked wing's 'locked' values)."""
    removed = 0
    bit = 1 << v
    for c in range(81):
        if not (cand[c] & bit):
            continue
        inside = False
        ok = False
        for k in range(n):
            o = cells[k]
            if o == c:
                inside = True
                break
            if cand[o] & bit:
                if not SEES[c, o]:
                    ok = False
                    break
                ok = True
        if ok and not inside:
            add_elim(h, c, v)
            removed += 1
    return removed


@kernel
def als_wing(g, size, scratch, best, masks, cache, ok):
    """The WXYZ- (3 cells, 5.5-5.6), VWXYZ- (4, 6.2-6.4), UVWXYZ- (5, 6.6) and TUVWXYZ-Wing
    (6, 7.5): ``size`` cells that all see each other holding ``size + 1`` values, and a bivalue
    cell outside them holding two of those; one of its values (x) is in the set only in cells
    that see it, so the other (z) goes from every cell seeing the bivalue cell and the set's
    z cells. Both values restricted: a doubly linked wing, which also removes the set's other
    values from the cells seeing all their holders. SE rates the easiest and, among equals,
    the one removing most; that one is left in ``best`` (True if any).

    Where the search found nothing in a grid of which this one is a part (``core.changed_cells``),
    a wing whose cells and bivalue cell kept their candidates was there, with no fewer victims:
    a set of unchanged cells is closed only with a changed bivalue cell."""
    cand = g[G_CAND]
    best[H_HDR][KIND] = 0
    changed = np.zeros(2, dtype=np.uint64)
    changed_cells(g, masks, cache, ok, changed)
    fresh = np.zeros(9, dtype=np.bool_)  # fresh[d]: one of the first d cells changed
    cells = np.zeros(8, dtype=np.int64)
    unions = np.zeros(9, dtype=np.int64)
    biggest = np.zeros(9, dtype=np.int64)
    nxt = np.zeros(8, dtype=np.int64)
    depth = 0
    nxt[0] = 0
    while depth >= 0:
        c = nxt[depth]
        while c < 81:
            m = cand[c]
            if POP[m] >= 2 and POP[unions[depth] | m] <= size + 1:
                sees_all = True
                for k in range(depth):
                    if not SEES[c, cells[k]]:
                        sees_all = False
                        break
                if sees_all:
                    break
            c += 1
        if c >= 81:
            depth -= 1
            continue
        nxt[depth] = c + 1
        cells[depth] = c
        unions[depth + 1] = unions[depth] | cand[c]
        biggest[depth + 1] = max(biggest[depth], POP[cand[c]])
        fresh[depth + 1] = fresh[depth] or (changed[c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != 0
        if depth + 1 == size:
            if POP[unions[depth + 1]] == size + 1:
                _wing_close(g, size, cells, unions[depth + 1], biggest[depth + 1], scratch, best,
                            changed, fresh[depth + 1])
        else:
            depth += 1
            nxt[depth] = c + 1
    if best[H_HDR][KIND] != 0:
        return True
    return found_nothing(masks, cache, ok, True)


@kernel
def _wing_close(g, size, cells, union, biggest, scratch, best, changed, fresh):
    cand = g[G_CAND]
    for yz in range(81):
        ym = cand[yz]
        if POP[ym] != 2 or ym & union != ym:
            continue
        if not fresh and (changed[yz >> 6] >> np.uint64(yz & 63)) & np.uint64(1) == 0:
            continue  # the whole wing as it was where nothing was found
        inset = False
        near = False
        for k in range(size):
            if cells[k] == yz:
                inset = True
                break
            if SEES[yz, cells[k]]:
                near = True
        if inset or not near:
            continue
        a = LOW[ym]
        b = LOW[ym & (ym - 1)]
        a_rc = _rc_ok(cand, cells, size, 1 << a, yz)
        b_rc = _rc_ok(cand, cells, size, 1 << b, yz)
        if not a_rc and not b_rc:
            continue
        if size == 3:
            diff = 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1
        elif size == 4:
            diff = 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1
        elif size == 5:
            diff = 6.6
        else:
            diff = 7.5
        kind = T.WXYZ_WING if size == 3 else (T.VWXYZ_WING if size == 4 else (T.UVWXYZ_WING if size == 5 else T.TUVWXYZ_WING))
        clear_hint(scratch, kind, diff)
        removed = 0
        if a_rc and b_rc:
            # doubly linked: both bivalue values go from cells seeing the whole pattern's holders,
            # and the set's other values from cells seeing all their holders
            removed += _wing_victims(cand, cells, size, yz, a, scratch)
            removed += _wing_victims(cand, cells, size, yz, b, scratch)
            rest = union & ~ym
            for v in range(1, 10):
                if (rest >> v) & 1:
                    removed += _wing_set_victims(cand, cells, size, v, scratch)
        else:
            z = b if a_rc else a
            removed += _wing_victims(cand, cells, size, yz, z, scratch)
        if removed == 0:
            continue
        if best[H_HDR][KIND] == 0 or diff < best[H_DIFF][0] or (diff == best[H_DIFF][0] and removed > best[H_HDR][REMOVED]):
            for k in range(size):
                add_cell(scratch, cells[k])
            add_cell(scratch, yz)
            scratch[H_HDR][VALUE] = ym
            scratch[H_HDR][REMOVED] = removed
            _copy(scratch, best)


@kernel
def _copy(src, dst):
    n = src[H_HDR][NE]
    dst[H_HDR][:] = src[H_HDR]
    dst[H_DIFF][0] = src[H_DIFF][0]
    dst[H_ELIM][:n, :] = src[H_ELIM][:n, :]
    dst[H_CELLS][:] = src[H_CELLS]
