"""What SE's dynamic forcing chains (+) add to a chain: the eliminations of the simple rules
(pointing and claiming, hidden and naked pairs, X-Wing) in the grid the chain has reduced.

When a dynamic chaining at level 1 or more has nothing left to process, SE runs these rules, in
this order, on the reduced grid and takes every hint of the first rule that has any: each
candidate a hint removes is implied "off", and its parents are the candidates the hint needed
gone (removed by the chain so far, its *rule parents*); a hint needing none is skipped (it would
apply without the chain). The potentials go to ``out`` in SE's order, which is also the order
of a Java ``HashMap`` of cells for each hint's removals (``_map_order``), because that order
decides the chain's later parents and so its length.

``src`` is the grid as the chaining began (candidates and positions), ``g`` the reduced one.
``out = (pots, par_start, par_count, pool, counts)``.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import G_CAND, G_POS, G_VALUES
from .core import CROSS, IN_REGION, LOW, POP, REGION, empty_cells
from .record import ADV_MAX, ADV_POOL



def new_buffer():
    return (
        np.zeros(ADV_MAX, dtype=np.int64),
        np.zeros(ADV_MAX, dtype=np.int64),
        np.zeros(ADV_MAX, dtype=np.int64),
        np.zeros(ADV_POOL, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )


@kernel(inline="always")
def _pot(cell, value, on):
    return (cell * 9 + value - 1) * 2 + on


@kernel
def _map_order(cells, n, order):
    """The order a Java ``HashMap`` keyed by cell (hash = index) iterates the n cells put in
    ``cells`` (in that order): by index modulo the table size (16, doubled while more than
    three quarters full), ties in insertion order."""
    cap = 16
    while n > cap * 3 // 4:
        cap *= 2
    k = 0
    for bucket in range(cap):
        for i in range(n):
            if cells[i] & (cap - 1) == bucket:
                order[k] = cells[i]
                k += 1
    return k


@kernel
def _emit(out, elim_cells, elim_vals, n, parents, np_):
    """Append a hint's removals (cells with their value masks, in put order) as potentials
    sharing the parents."""
    pots, pstart, pn, pool, counts = out
    order = np.zeros(81, dtype=np.int64)
    k = _map_order(elim_cells, n, order)
    mask_of = np.zeros(81, dtype=np.int64)
    for i in range(n):
        mask_of[elim_cells[i]] = elim_vals[i]
    for i in range(k):
        c = order[i]
        m = mask_of[c]
        for v in range(1, 10):
            if (m >> v) & 1 and counts[0] < ADV_MAX and counts[1] + np_ <= ADV_POOL:
                j = counts[0]
                pots[j] = _pot(c, v, 0)
                pstart[j] = counts[1]
                pn[j] = np_
                for q in range(np_):
                    pool[counts[1] + q] = parents[q]
                counts[1] += np_
                counts[0] = j + 1


LOCK_TYPES = np.array([[0, 2], [0, 1], [2, 0], [1, 0]], dtype=np.int64)
SCAN_TYPES = np.array([0, 2, 1], dtype=np.int64)


@kernel
def _locking(g, src_cand, out):
    cand, pos = g[G_CAND], g[G_POS]
    cells = np.zeros(81, dtype=np.int64)
    vals = np.zeros(81, dtype=np.int64)
    parents = np.zeros(81, dtype=np.int64)
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
                    if not CROSS[r1, r2]:
                        continue
                    inside = True
                    mm = m1
                    while mm:
                        if not IN_REGION[r2, REGION[r1, LOW[mm & -mm]]]:
                            inside = False
                            break
                        mm &= mm - 1
                    if not inside:
                        continue
                    n = 0
                    for i in range(9):
                        c = REGION[r2, i]
                        if not IN_REGION[r1, c] and (cand[c] >> v) & 1:
                            cells[n] = c
                            vals[n] = 1 << v
                            n += 1
                    if n == 0:
                        continue
                    npar = 0
                    for i in range(9):
                        c = REGION[r1, i]
                        if (src_cand[c] >> v) & 1 and not (cand[c] >> v) & 1 and not IN_REGION[r2, c]:
                            parents[npar] = _pot(c, v, 0)
                            npar += 1
                    if npar > 0:
                        _emit(out, cells, vals, n, parents, npar)


@kernel
def _hidden_pairs(g, src_cand, out):
    cand, pos = g[G_CAND], g[G_POS]
    cells = np.zeros(81, dtype=np.int64)
    vals = np.zeros(81, dtype=np.int64)
    parents = np.zeros(81, dtype=np.int64)
    for k in range(3):
        t = SCAN_TYPES[k]
        for i in range(9):
            r = t * 9 + i
            if empty_cells(g, r) <= 4:
                continue
            for pair in range(3, 512):
                # SE's tuple order: masks in increasing order, (1,2), (1,3), (2,3), (1,4), ...
                if POP[pair] != 2:
                    continue
                a = LOW[pair] + 1
                b = LOW[pair & (pair - 1)] + 1
                pa, pb = pos[r, a], pos[r, b]
                if POP[pa] <= 1 or POP[pb] <= 1:
                    continue
                union = pa | pb
                if POP[union] != 2:
                    continue
                values = (1 << a) | (1 << b)
                n = 0
                for j in range(9):
                    if (union >> j) & 1:
                        c = REGION[r, j]
                        extra = cand[c] & ~values
                        if extra:
                            cells[n] = c
                            vals[n] = extra
                            n += 1
                if n == 0:
                    continue
                npar = 0
                for j in range(9):
                    if (union >> j) & 1:
                        continue
                    c = REGION[r, j]
                    for v in (a, b):
                        if (src_cand[c] >> v) & 1:
                            parents[npar] = _pot(c, v, 0)
                            npar += 1
                if npar > 0:
                    _emit(out, cells, vals, n, parents, npar)


@kernel
def _naked_pairs(g, src_cand, out):
    cand = g[G_CAND]
    cells = np.zeros(81, dtype=np.int64)
    vals = np.zeros(81, dtype=np.int64)
    parents = np.zeros(81, dtype=np.int64)
    for k in range(3):
        t = SCAN_TYPES[k]
        for i in range(9):
            r = t * 9 + i
            if empty_cells(g, r) < 4:
                continue
            for pair in range(3, 512):
                if POP[pair] != 2:
                    continue
                cx = REGION[r, LOW[pair]]
                cy = REGION[r, LOW[pair & (pair - 1)]]
                if POP[cand[cx]] <= 1 or POP[cand[cy]] <= 1:
                    continue
                union = cand[cx] | cand[cy]
                if POP[union] != 2:
                    continue
                n = 0
                for j in range(9):
                    c = REGION[r, j]
                    if c == cx or c == cy:
                        continue
                    common = cand[c] & union
                    if common:
                        cells[n] = c
                        vals[n] = common
                        n += 1
                if n == 0:
                    continue
                npar = 0
                for c in (cx, cy):
                    extra = src_cand[c] & ~union
                    for v in range(1, 10):
                        if (extra >> v) & 1:
                            parents[npar] = _pot(c, v, 0)
                            npar += 1
                if npar > 0:
                    _emit(out, cells, vals, n, parents, npar)


@kernel
def _x_wings(g, src_cand, out):
    values, cand, pos = g[G_VALUES], g[G_CAND], g[G_POS]
    occurrences = np.zeros(10, dtype=np.int64)
    for c in range(81):
        occurrences[values[c]] += 1
    cells = np.zeros(81, dtype=np.int64)
    vals = np.zeros(81, dtype=np.int64)
    parents = np.zeros(81, dtype=np.int64)
    for k in range(2):
        t1 = 2 if k == 0 else 1
        t2 = 1 if k == 0 else 2
        for lines in range(3, 512):
            # SE's tuple order: masks in increasing order
            if POP[lines] != 2:
                continue
            la = LOW[lines]
            lb = LOW[lines & (lines - 1)]
            for v in range(1, 10):
                if occurrences[v] + 4 > 9:
                    continue
                pa, pb = pos[t1 * 9 + la, v], pos[t1 * 9 + lb, v]
                if POP[pa] <= 1 or POP[pb] <= 1:
                    continue
                union = pa | pb
                if POP[union] != 2:
                    continue
                n = 0
                for j in range(9):
                    if not (union >> j) & 1:
                        continue
                    cover = t2 * 9 + j
                    rest = pos[cover, v] & ~lines
                    while rest:
                        cells[n] = REGION[cover, LOW[rest & -rest]]
                        vals[n] = 1 << v
                        n += 1
                        rest &= rest - 1
                if n == 0:
                    continue
                npar = 0
                for base in (t1 * 9 + la, t1 * 9 + lb):
                    for i in range(9):
                        c = REGION[base, i]
                        if (src_cand[c] >> v) & 1 and not (cand[c] >> v) & 1:
                            covered = False
                            for j in range(9):
                                if (union >> j) & 1 and IN_REGION[t2 * 9 + j, c]:
                                    covered = True
                            if not covered:
                                parents[npar] = _pot(c, v, 0)
                                npar += 1
                if npar > 0:
                    _emit(out, cells, vals, n, parents, npar)


@kernel
def basic(g, src_cand, out):
    """The potentials of the first of SE's four simple rules with any (level 1 and up); how
    many."""
    counts = out[4]
    counts[0] = 0
    counts[1] = 0
    _locking(g, src_cand, out)
    if counts[0] == 0:
        _hidden_pairs(g, src_cand, out)
    if counts[0] == 0:
        _naked_pairs(g, src_cand, out)
    if counts[0] == 0:
        _x_wings(g, src_cand, out)
    return counts[0]
