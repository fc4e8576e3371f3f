"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS-XY-Chain, and Sue de Coq.

An *almost locked set* (ALS) is a set of N empty cells of one house that together hold exactly
N + 1 candidates (a bivalue cell is the one-cell case): take any one value away and the rest
must fill the cells. Two ALS that do not share a cell have a *restricted common* value x when
every cell of either ALS holding x sees every cell of the other holding x: x then lies in at most
one of them. Two ALS share at most two such values.

* ALS-XZ: ALS A and B with a restricted common x. A value z of both (z != x) must lie in A or in
  B (if A lacks z it is locked and holds x, so B lacks x and is locked and holds z): z goes from
  every cell outside both that sees all of A's and B's z cells. With two restricted commons
  (doubly linked) each ALS holds exactly one of them, so either value may play x, and what is
  left of each ALS is a locked set: its values go from every cell seeing all their places in it
  (HoDoKu keeps the other ALS's cells).
* ALS-XY-Wing: A and B each linked to a pivot C, by restricted commons whose values differ;
  a value of A and B other than those goes as for ALS-XZ.
* ALS-XY-Chain: ALS linked in a row by restricted commons, each link's value(s) other than the
  one(s) used by the link before; at least four ALS. A value of the first and the last ALS
  other than the values of the first and the last link goes as for ALS-XZ.
* Sue de Coq: two or more empty cells C where a line crosses a box, holding |C| + 2 or more
  values V. A set D of the line's other cells and a set E of the box's other cells, sharing no
  value of V, such that |C| + |D| + |E| equals |V| plus the values D and E hold outside V (a
  value outside V they both hold can appear twice, once in D and once in E). Then every value
  is accounted for: the line loses (V | D's values) - E's values, the box (V | E's values) -
  D's values, and both lose the outside values D and E share.

What HoDoKu does, mirrored here: ALS are collected house by house (rows, columns, boxes), each
house's cell subsets in increasing order, a cell set counted once (where first found), sizes 1
to n - 1. Restricted commons are collected for pairs (i, j) of that list with i < j only
("forward only"), overlapping pairs skipped. ALS-XZ and ALS-XY-Wing take the first instance in
that order; ALS-XY-Chain collects every chain (up to 50 links, forward only), keeps one chain per
set of eliminations (the one with the fewest ALS cells) and takes the one with the most
eliminations, ties to the smallest weighted sum of the eliminated candidates, then to the first
found. Sue de Coq takes the first instance scanning rows then columns, boxes, intersection
subsets, line subsets, box subsets.

Listing instances (``nth >= 0``, hints and the regression library) follows HoDoKu's "all steps"
settings of its regression tester: after the instances of the solver's rules come the ALS-XY-
Wings and ALS-XY-Chains that need overlapping ALS (allowed when the overlap holds no restricted
common value), and chains are followed both ways along restricted commons, up to 6 links,
each set of eliminations listed once.

Cell sets are arrays of 64-bit words (any board size); per ALS and value we keep the cells
holding the value and the cells outside it that see all of them and hold the value too.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    DIGITS, EXTRA, GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, GEO_PEERS, SIZE, ST_CAND, ST_VALUES, S_DIGS,
)  # fmt: skip
from ..search.bits import ONE, ZERO, plain, popcount, trailing_zeros
from .core import add_cell, add_elim, add_house, clear


#: links an ALS-XY-Chain of the solving loop may have (HoDoKu's MAX_RC)
MAX_LINKS = 50
#: links of a listed chain (HoDoKu's all-steps chain length)
LIST_LINKS = 6
#: weight step of HoDoKu's eliminations sum (its tie-break between chains)
SUM_STEP = 80
#: hash modulus for telling sets of eliminations apart while listing
HASH_MOD = 2147483647


# -- collecting ALS and restricted commons ---------------------------------------------------


@kernel
def _peer_bits(geo, ncell, words):
    peers = geo[GEO_PEERS]
    out = np.zeros((ncell, words), dtype=np.uint64)
    for c in range(ncell):
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if p < 0:
                break
            out[c, p >> 6] |= ONE << np.uint64(p & 63)
    return out


@kernel
def _earlier_house(cell_houses, cells, size, house):
    """Whether the cells all lie in a house listed before ``house`` (the ALS was found there)."""
    first = cells[0]
    for k in range(cell_houses.shape[1]):
        h = cell_houses[first, k]
        if h < 0 or h >= house:
            continue
        inside = True
        for i in range(1, size):
            found = False
            for kk in range(cell_houses.shape[1]):
                if cell_houses[cells[i], kk] == h:
                    found = True
                    break
            if not found:
                inside = False
                break
        if inside:
            return True
    return False


@kernel
def _walk_als(st, geo, a_cells, a_size, a_cand, a_house, fill):
    """Walk every ALS in HoDoKu's order, writing them when ``fill``; returns how many."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    width = houses.shape[1]
    count = 0
    empty = np.zeros(width, dtype=np.int32)
    idx = np.zeros(width + 1, dtype=np.int64)
    masks = np.zeros(width + 1, dtype=np.uint64)
    chosen = np.zeros(width, dtype=np.int32)
    for h in range(houses.shape[0]):
        m = 0
        for j in range(width):
            c = houses[h, j]
            if c >= 0 and values[c] == 0:
                empty[m] = c
                m += 1
        if m == 0:
            continue
        # subsets of the house's empty cells in increasing order; a branch stops when it
        # cannot get back to one candidate more than cells
        level = 0
        idx[0] = -1
        masks[0] = ZERO
        while level >= 0:
            idx[level] += 1
            if idx[level] >= m:
                level -= 1
                continue
            mask = masks[level] | cand[empty[idx[level]]]
            size = level + 1
            k = popcount(mask)
            if k == size + 1:
                for i in range(size):
                    chosen[i] = empty[idx[i]]
                if not _earlier_house(cell_houses, chosen, size, h):
                    if fill:
                        for i in range(size):
                            a_cells[count, i] = chosen[i]
                        a_size[count] = size
                        a_cand[count] = mask
                        a_house[count] = h
                    count += 1
            if size < width - 1 and idx[level] + 1 < m and k - size - 1 <= m - 1 - idx[level]:
                masks[level + 1] = mask
                idx[level + 1] = idx[level]
                level += 1
    return count


@kernel
def _collect_als(st, geo):
    """Every ALS in HoDoKu's order: ``(count, cells, sizes, candidates, houses)``. Counted
    first, then written: growing the arrays inside the walk made it ten times slower."""
    width = geo[GEO_HOUSES].shape[1]
    a_cells = np.zeros((1, width), dtype=np.int32)
    a_size = np.zeros(1, dtype=np.int64)
    a_cand = np.zeros(1, dtype=np.uint64)
    a_house = np.zeros(1, dtype=np.int64)
    count = _walk_als(st, geo, a_cells, a_size, a_cand, a_house, plain(False))
    a_cells = np.zeros((max(count, 1), width), dtype=np.int32)
    a_size = np.zeros(max(count, 1), dtype=np.int64)
    a_cand = np.zeros(max(count, 1), dtype=np.uint64)
    a_house = np.zeros(max(count, 1), dtype=np.int64)
    _walk_als(st, geo, a_cells, a_size, a_cand, a_house, plain(True))
    return count, a_cells, a_size, a_cand, a_house


@kernel
def _als_sets(st, geo, count, a_cells, a_size, a_cand):
    """Per ALS: its cells (``bits``), and per value d (0-based) the cells holding d
    (``held[k, d]``) and the cells outside it holding d that see all of those
    (``sees[k, d]``); only the ALS's own values are filled in."""
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    ncell = cand.shape[0]
    words = (ncell + 63) >> 6
    pb = _peer_bits(geo, ncell, words)
    cb = np.zeros((n, words), dtype=np.uint64)
    for c in range(ncell):
        m = cand[c]
        while m != ZERO:
            d = trailing_zeros(m)
            m &= m - ONE
            cb[d, c >> 6] |= ONE << np.uint64(c & 63)
    bits = np.zeros((count, words), dtype=np.uint64)
    held = np.zeros((count, n, words), dtype=np.uint64)
    sees = np.zeros((count, n, words), dtype=np.uint64)
    for k in range(count):
        for i in range(a_size[k]):
            c = a_cells[k, i]
            bits[k, c >> 6] |= ONE << np.uint64(c & 63)
        m = a_cand[k]
        while m != ZERO:
            d = trailing_zeros(m)
            m &= m - ONE
            b = ONE << np.uint64(d)
            for w in range(words):
                sees[k, d, w] = cb[d, w] & ~bits[k, w]
            for i in range(a_size[k]):
                c = a_cells[k, i]
                if cand[c] & b:
                    held[k, d, c >> 6] |= ONE << np.uint64(c & 63)
                    for w in range(words):
                        sees[k, d, w] &= pb[c, w]
    return bits, held, sees


@kernel
def _collect_rcs(count, a_cand, bits, held, sees, overlap, forward):
    """Restricted commons, grouped by their first ALS in ALS order: ``(number, first ALS,
    second ALS, value 1, value 2 (-1: none), pair overlaps, start, end)``. ``forward``: only
    pairs i < j (HoDoKu's solver); else every ordered pair. ``overlap``: ALS may share cells
    that hold no restricted common value. Each ALS's links go to a row buffer first, so that
    the arrays grow outside the pair loop (growing inside it cost a factor of ten)."""
    row_b = np.zeros(max(count, 1), dtype=np.int64)
    row_c1 = np.zeros(max(count, 1), dtype=np.int64)
    row_c2 = np.zeros(max(count, 1), dtype=np.int64)
    row_ov = np.zeros(max(count, 1), dtype=np.bool_)
    cap = 1024
    rc_a = np.zeros(cap, dtype=np.int64)
    rc_b = np.zeros(cap, dtype=np.int64)
    rc_c1 = np.zeros(cap, dtype=np.int64)
    rc_c2 = np.zeros(cap, dtype=np.int64)
    rc_ov = np.zeros(cap, dtype=np.bool_)
    start = np.zeros(count, dtype=np.int64)
    end = np.zeros(count, dtype=np.int64)
    nrc = 0
    for i in range(count):
        nrow = _rc_row(i, count, a_cand, bits, held, sees, overlap, forward, row_b, row_c1, row_c2, row_ov)
        if nrc + nrow > cap:
            while nrc + nrow > cap:
                cap *= 2
            rc_a = _grown(rc_a, nrc, cap)
            rc_b = _grown(rc_b, nrc, cap)
            rc_c1 = _grown(rc_c1, nrc, cap)
            rc_c2 = _grown(rc_c2, nrc, cap)
            ov = np.zeros(cap, dtype=np.bool_)
            ov[:nrc] = rc_ov[:nrc]
            rc_ov = ov
        start[i] = nrc
        for q in range(nrow):
            rc_a[nrc] = i
            rc_b[nrc] = row_b[q]
            rc_c1[nrc] = row_c1[q]
            rc_c2[nrc] = row_c2[q]
            rc_ov[nrc] = row_ov[q]
            nrc += 1
        end[i] = nrc
    return nrc, rc_a, rc_b, rc_c1, rc_c2, rc_ov, start, end


@kernel
def _grown(a, used, cap):
    out = np.zeros(cap, dtype=a.dtype)
    out[:used] = a[:used]
    return out


@kernel
def _rc_row(i, count, a_cand, bits, held, sees, overlap, forward, row_b, row_c1, row_c2, row_ov):
    """The links of ALS i, in order of the other ALS; returns how many."""
    words = bits.shape[1]
    nrow = 0
    j0 = i + 1 if forward else 0
    for j in range(j0, count):
        common = a_cand[i] & a_cand[j]
        if common == ZERO or j == i:
            continue
        shared = False
        for w in range(words):
            if bits[i, w] & bits[j, w]:
                shared = True
                break
        if shared and not overlap:
            continue
        c1 = -1
        c2 = -1
        while common != ZERO:
            d = trailing_zeros(common)
            common &= common - ONE
            ok = True
            for w in range(words):
                if held[j, d, w] & ~sees[i, d, w]:
                    ok = False
                    break
                if shared and (held[i, d, w] | held[j, d, w]) & bits[i, w] & bits[j, w]:
                    ok = False
                    break
            if not ok:
                continue
            if c1 < 0:
                c1 = d
            else:
                c2 = d
                break
        if c1 < 0:
            continue
        row_b[nrow] = j
        row_c1[nrow] = c1
        row_c2[nrow] = c2
        row_ov[nrow] = shared
        nrow += 1
    return nrow


# -- eliminations ------------------------------------------------------------------------------


@kernel(inline="always")
def _rc_mask(c1, c2):
    m = ONE << np.uint64(c1)
    if c2 >= 0:
        m |= ONE << np.uint64(c2)
    return m


@kernel
def _z_any(sees, a, b, zmask):
    """Whether a value of ``zmask`` has a cell seeing all its places in ALS a and b."""
    words = sees.shape[2]
    m = zmask
    while m != ZERO:
        d = trailing_zeros(m)
        m &= m - ONE
        for w in range(words):
            if sees[a, d, w] & sees[b, d, w]:
                return True
    return False


@kernel
def _z_values(sees, a, b, zmask):
    """The values of ``zmask`` that have a cell seeing all their places in ALS a and b."""
    words = sees.shape[2]
    out = ZERO
    m = zmask
    while m != ZERO:
        d = trailing_zeros(m)
        m &= m - ONE
        for w in range(words):
            if sees[a, d, w] & sees[b, d, w]:
                out |= ONE << np.uint64(d)
                break
    return out


@kernel
def _z_fill(sees, a, b, zmask, em):
    """Add to ``em`` (a value mask per cell) the ALS-XZ eliminations of ``zmask``."""
    words = sees.shape[2]
    m = zmask
    while m != ZERO:
        d = trailing_zeros(m)
        m &= m - ONE
        for w in range(words):
            x = sees[a, d, w] & sees[b, d, w]
            while x != ZERO:
                c = (w << 6) + trailing_zeros(x)
                x &= x - ONE
                em[c] |= ONE << np.uint64(d)


@kernel
def _z_stats(sees, a, b, zmask):
    """Number of eliminations, HoDoKu's weighted sum of them (by value, then cell), and a
    hash of the set."""
    words = sees.shape[2]
    count = 0
    total = 0
    weight = 1
    h = 0
    m = zmask
    while m != ZERO:
        d = trailing_zeros(m)
        m &= m - ONE
        for w in range(words):
            x = sees[a, d, w] & sees[b, d, w]
            while x != ZERO:
                c = (w << 6) + trailing_zeros(x)
                x &= x - ONE
                count += 1
                total += c * weight + d + 1
                weight += SUM_STEP
                h = (h * 1000003 + c * 64 + d + 1) % HASH_MOD
    return count, total, h


@kernel
def _write_elims(step, em, n):
    """Eliminations from the per-cell masks, by value then cell; the mask of values removed."""
    gone = ZERO
    for d in range(n):
        b = ONE << np.uint64(d)
        for c in range(em.shape[0]):
            if em[c] & b:
                add_elim(step, c, d + 1)
                gone |= b
    return gone


@kernel
def _write_als(step, k, a_cells, a_size, a_house):
    for i in range(a_size[k]):
        add_cell(step, a_cells[k, i])
    add_house(step, a_house[k])


# -- ALS-XZ --------------------------------------------------------------------------------------


@kernel
def _xz_fill(sees, bits, a_cand, a, b, c1, c2, em):
    if c2 < 0:
        _z_fill(sees, a, b, a_cand[a] & a_cand[b] & ~(ONE << np.uint64(c1)), em)
        return
    common = a_cand[a] & a_cand[b]
    _z_fill(sees, a, b, common & ~(ONE << np.uint64(c1)), em)
    _z_fill(sees, a, b, common & ~(ONE << np.uint64(c2)), em)
    rcm = _rc_mask(c1, c2)
    words = bits.shape[1]
    for side in range(2):
        x = a if side == 0 else b
        y = b if side == 0 else a
        m = a_cand[x] & ~rcm
        while m != ZERO:
            d = trailing_zeros(m)
            m &= m - ONE
            for w in range(words):
                t = sees[x, d, w] & ~bits[y, w]
                while t != ZERO:
                    c = (w << 6) + trailing_zeros(t)
                    t &= t - ONE
                    em[c] |= ONE << np.uint64(d)


@kernel
def _xz_any(sees, bits, a_cand, a, b, c1, c2):
    common = a_cand[a] & a_cand[b]
    if c2 < 0:
        return _z_any(sees, a, b, common & ~(ONE << np.uint64(c1)))
    if _z_any(sees, a, b, common):  # with two links every common value can go
        return True
    rcm = _rc_mask(c1, c2)
    words = bits.shape[1]
    for side in range(2):
        x = a if side == 0 else b
        y = b if side == 0 else a
        m = a_cand[x] & ~rcm
        while m != ZERO:
            d = trailing_zeros(m)
            m &= m - ONE
            for w in range(words):
                if sees[x, d, w] & ~bits[y, w]:
                    return True
    return False


@kernel
def als_xz(st, geo, step, kind, nth):
    """ALS-XZ, singly and doubly linked: the nth in restricted-common order (the first for
    the solving loop)."""
    n = geo[GEO_INFO][SIZE]
    count, a_cells, a_size, a_cand, a_house = _collect_als(st, geo)
    if count < 2:
        return False
    bits, held, sees = _als_sets(st, geo, count, a_cells, a_size, a_cand)
    nrc, rc_a, rc_b, rc_c1, rc_c2, rc_ov, start, end = _collect_rcs(
        count, a_cand, bits, held, sees, plain(False), plain(True)
    )
    target = max(nth, 0)
    found = 0
    for i in range(nrc):
        a, b, c1, c2 = rc_a[i], rc_b[i], rc_c1[i], rc_c2[i]
        if not _xz_any(sees, bits, a_cand, a, b, c1, c2):
            continue
        if found < target:
            found += 1
            continue
        em = np.zeros(st[ST_CAND].shape[0], dtype=np.uint64)
        _xz_fill(sees, bits, a_cand, a, b, c1, c2, em)
        clear(step, kind)
        _write_als(step, a, a_cells, a_size, a_house)
        _write_als(step, b, a_cells, a_size, a_house)
        step[S_DIGS][DIGITS] = _write_elims(step, em, n)
        step[S_DIGS][EXTRA] = _rc_mask(c1, c2)
        return True
    return False


# -- ALS-XY-Wing -----------------------------------------------------------------------------------


@kernel
def _wing_try(st, geo, step, kind, n, sees, bits, a_cells, a_size, a_cand, a_house,
              rc_c1, rc_c2, rc_ov, i, j, a, b, c, skip_plain, target, found):
    """Check one wing (A = a, B = b, pivot c; links i and j). Returns the running count of
    instances, or -1 once the target instance is written."""
    if rc_c2[i] < 0 and rc_c2[j] < 0 and rc_c1[i] == rc_c1[j]:
        return found
    words = bits.shape[1]
    shared = False
    inside_a = True
    inside_b = True
    for w in range(words):
        both = bits[a, w] & bits[b, w]
        if both:
            shared = True
        if both != bits[b, w]:
            inside_a = False
        if both != bits[a, w]:
            inside_b = False
    if inside_a or inside_b:  # one ALS within the other
        return found
    if skip_plain:
        # the overlap pass lists only the wings that need overlapping ALS
        if not shared and not rc_ov[i] and not rc_ov[j]:
            return found
    elif shared:
        return found
    rcm = _rc_mask(rc_c1[i], rc_c2[i]) | _rc_mask(rc_c1[j], rc_c2[j])
    zmask = a_cand[a] & a_cand[b] & ~rcm
    if zmask == ZERO or not _z_any(sees, a, b, zmask):
        return found
    if found < target:
        return found + 1
    em = np.zeros(st[ST_CAND].shape[0], dtype=np.uint64)
    _z_fill(sees, a, b, zmask, em)
    clear(step, kind)
    _write_als(step, a, a_cells, a_size, a_house)
    _write_als(step, b, a_cells, a_size, a_house)
    _write_als(step, c, a_cells, a_size, a_house)
    step[S_DIGS][DIGITS] = _write_elims(step, em, n)
    step[S_DIGS][EXTRA] = rcm
    return -1


@kernel
def _wings(st, geo, step, kind, overlap, target, found):
    """Wings in HoDoKu's order: pairs of restricted commons (i < j) sharing exactly one ALS.
    Links j > i that share an ALS with link i = (a1, b1) are, in increasing order: the rest of
    a1's links, the links (x, b1) with x > a1, then b1's links."""
    n = geo[GEO_INFO][SIZE]
    count, a_cells, a_size, a_cand, a_house = _collect_als(st, geo)
    if count < 3:
        return found
    bits, held, sees = _als_sets(st, geo, count, a_cells, a_size, a_cand)
    nrc, rc_a, rc_b, rc_c1, rc_c2, rc_ov, start, end = _collect_rcs(count, a_cand, bits, held, sees, overlap, plain(True))
    # links by their second ALS, in link order
    into_n = np.zeros(count + 1, dtype=np.int64)
    for i in range(nrc):
        into_n[rc_b[i] + 1] += 1
    for k in range(count):
        into_n[k + 1] += into_n[k]
    into = np.zeros(max(nrc, 1), dtype=np.int64)
    fill = into_n[:count].copy()
    for i in range(nrc):
        into[fill[rc_b[i]]] = i
        fill[rc_b[i]] += 1
    for i in range(nrc):
        a1, b1 = rc_a[i], rc_b[i]
        for j in range(i + 1, end[a1]):
            found = _wing_try(st, geo, step, kind, n, sees, bits, a_cells, a_size, a_cand, a_house,
                              rc_c1, rc_c2, rc_ov, i, j, b1, rc_b[j], a1, overlap, target, found)
            if found < 0:
                return -1
        for t in range(into_n[b1], into_n[b1 + 1]):
            j = into[t]
            if j <= i:
                continue
            found = _wing_try(st, geo, step, kind, n, sees, bits, a_cells, a_size, a_cand, a_house,
                              rc_c1, rc_c2, rc_ov, i, j, a1, rc_a[j], b1, overlap, target, found)
            if found < 0:
                return -1
        for j in range(start[b1], end[b1]):
            found = _wing_try(st, geo, step, kind, n, sees, bits, a_cells, a_size, a_cand, a_house,
                              rc_c1, rc_c2, rc_ov, i, j, a1, rc_b[j], b1, overlap, target, found)
            if found < 0:
                return -1
    return found


@kernel
def als_xy_wing(st, geo, step, kind, nth):
    """ALS-XY-Wing: the first in HoDoKu's order for the solving loop; listing adds the wings
    of overlapping ALS after the others."""
    target = max(nth, 0)
    found = _wings(st, geo, step, kind, plain(False), target, plain(0))
    if found < 0:
        return True
    if nth < 0:
        return False
    return _wings(st, geo, step, kind, plain(True), target, found) < 0


# -- ALS-XY-Chain ----------------------------------------------------------------------------------


@kernel(inline="always")
def _active(prev_c1, prev_c2, prev_act, c1, c2):
    """Which values of a link stay usable after the link before (1: the first, 2: the second,
    3: both, 0: none). HoDoKu compares against the previous link's first value alone when
    both of its values were usable; a chain through such a link is void anyway (both values
    would be forced out of the next ALS), so this only decides which void chains are tried."""
    p = prev_c2 if prev_act == 2 else prev_c1
    if c2 < 0:
        return 0 if p == c1 else 1
    if p == c2:
        return 1
    if p == c1:
        return 2
    return 3


@kernel(inline="always")
def _act_mask(c1, c2, act):
    m = ZERO
    if act == 1 or act == 3:
        m |= ONE << np.uint64(c1)
    if act == 2 or act == 3:
        m |= ONE << np.uint64(c2)
    return m


@kernel
def _write_chain(step, kind, n, sees, a_cells, a_size, a_house, chain_als, links, zmask, rcm, em):
    em[:] = ZERO
    _z_fill(sees, chain_als[0], chain_als[links], zmask, em)
    clear(step, kind)
    for k in range(links + 1):
        _write_als(step, chain_als[k], a_cells, a_size, a_house)
    step[S_DIGS][DIGITS] = _write_elims(step, em, n)
    step[S_DIGS][EXTRA] = rcm


@kernel
def _chains(st, geo, step, kind, overlap, forward, max_links, nth, seen, nseen):
    """Depth-first search over chains from every ALS. ``nth < 0``: write the chain HoDoKu
    takes and return (1 if written, 0 if none); else list distinct sets of eliminations,
    recording them in ``seen`` (count, sum, hash rows); returns -1 once the nth is written, or
    the number of distinct sets seen so far."""
    n = geo[GEO_INFO][SIZE]
    ncell = st[ST_CAND].shape[0]
    count, a_cells, a_size, a_cand, a_house = _collect_als(st, geo)
    if count < 4:
        return nseen if nth >= 0 else 0
    bits, held, sees = _als_sets(st, geo, count, a_cells, a_size, a_cand)
    nrc, rc_a, rc_b, rc_c1, rc_c2, rc_ov, start, end = _collect_rcs(count, a_cand, bits, held, sees, overlap, forward)
    chain_als = np.zeros(max_links + 2, dtype=np.int64)
    chain_rc = np.zeros(max_links + 1, dtype=np.int64)
    act = np.zeros(max_links + 1, dtype=np.int64)
    it = np.zeros(max_links + 2, dtype=np.int64)
    first_try = np.zeros(max_links + 2, dtype=np.bool_)
    in_chain = np.zeros(count, dtype=np.bool_)
    em = np.zeros(ncell, dtype=np.uint64)
    best_em = np.zeros(ncell, dtype=np.uint64)
    zpair = np.zeros(count, dtype=np.uint64)
    zstamp = np.zeros(count, dtype=np.int64)
    best_count = 0
    best_sum = 0
    best_cells = 0
    for s in range(count):
        in_chain[s] = True
        k = 0  # links in the chain; chain_als[k] is its last ALS
        chain_als[0] = s
        it[0] = start[s]
        first_try[0] = True
        while k >= 0:
            cur = chain_als[k]
            if k >= max_links or it[k] >= end[cur]:
                k -= 1
                if k >= 0:
                    in_chain[chain_als[k + 1]] = False
                    i = it[k]
                    if k == 0 and rc_c2[i] >= 0 and first_try[0]:
                        first_try[0] = False  # a doubly linked first link: try its other value
                    else:
                        it[k] = i + 1
                        first_try[k] = True
                continue
            i = it[k]
            b = rc_b[i]
            if k == 0:
                a_ = 1 if rc_c2[i] < 0 or first_try[0] else 2
            else:
                p = chain_rc[k - 1]
                a_ = _active(rc_c1[p], rc_c2[p], act[k - 1], rc_c1[i], rc_c2[i])
            if a_ == 0 or in_chain[b]:
                it[k] = i + 1
                first_try[k] = True
                continue
            chain_rc[k] = i
            act[k] = a_
            in_chain[b] = True
            chain_als[k + 1] = b
            if k >= 2:
                r0 = chain_rc[0]
                rcm = _act_mask(rc_c1[r0], rc_c2[r0], act[0]) | _act_mask(rc_c1[i], rc_c2[i], a_)
                if zstamp[b] != s + 1:  # values of s and b with a cell seeing all their places
                    zstamp[b] = s + 1
                    zpair[b] = _z_values(sees, s, b, a_cand[s] & a_cand[b])
                zmask = zpair[b] & ~rcm
                if zmask != ZERO:
                    cnt, total, h = _z_stats(sees, s, b, zmask)
                    links_mask = ZERO
                    for q in range(k + 1):
                        links_mask |= _act_mask(rc_c1[chain_rc[q]], rc_c2[chain_rc[q]], act[q])
                    if nth >= 0:
                        new = True
                        for q in range(nseen):
                            if seen[q, 0] == cnt and seen[q, 1] == total and seen[q, 2] == h:
                                new = False
                                break
                        if new:
                            if nseen == nth:
                                _write_chain(step, kind, n, sees, a_cells, a_size, a_house, chain_als, k + 1, zmask, links_mask, em)
                                return -1
                            if nseen < seen.shape[0]:
                                seen[nseen, 0] = cnt
                                seen[nseen, 1] = total
                                seen[nseen, 2] = h
                                nseen += 1
                    else:
                        cells = 0
                        for q in range(k + 2):
                            cells += a_size[chain_als[q]]
                        better = cnt > best_count or (cnt == best_count and total < best_sum)
                        if not better and cnt == best_count and total == best_sum and cells < best_cells:
                            # the same eliminations by fewer cells replace the chain kept
                            em[:] = ZERO
                            _z_fill(sees, s, b, zmask, em)
                            better = True
                            for c in range(ncell):
                                if em[c] != best_em[c]:
                                    better = False
                                    break
                        if better:
                            _write_chain(step, kind, n, sees, a_cells, a_size, a_house, chain_als, k + 1, zmask, links_mask, em)
                            best_em[:] = em
                            best_count = cnt
                            best_sum = total
                            best_cells = cells
            k += 1
            it[k] = start[b]
            first_try[k] = True
        in_chain[s] = False
    if nth >= 0:
        return nseen
    return 1 if best_count > 0 else 0


@kernel
def als_xy_chain(st, geo, step, kind, nth):
    """ALS-XY-Chain: HoDoKu's pick for the solving loop; listing gives each set of
    eliminations once (chains both ways, up to 6 links, then with overlapping ALS)."""
    seen = np.zeros((4096, 3), dtype=np.int64)
    if nth < 0:
        return _chains(st, geo, step, kind, plain(False), plain(True), plain(MAX_LINKS), nth, seen, plain(0)) > 0
    return _chains(st, geo, step, kind, plain(False), plain(False), plain(LIST_LINKS), nth, seen, plain(0)) < 0


# -- Sue de Coq ------------------------------------------------------------------------------------
# Cells are positions in the line (bit j: houses[line, j]) and in the box; ``lpos[v]`` and
# ``bpos[v]`` are the positions of the empty cells holding value v (0-based).


@kernel
def _positions(values, cand, houses, house, n, pos):
    width = houses.shape[1]
    pos[:] = ZERO
    for j in range(width):
        c = houses[house, j]
        if c < 0 or values[c] != 0:
            continue
        m = cand[c]
        while m != ZERO:
            v = trailing_zeros(m)
            m &= m - ONE
            pos[v] |= ONE << np.uint64(j)


@kernel(inline="always")
def _sdc_hits(lpos, bpos, c_line, c_box, d_line, e_box, vc, vd, ve):
    """Whether a Sue de Coq removes anything: the box outside C and E, the line outside C and
    D."""
    shared = vd & ve & ~vc
    m = ((vc | ve) & ~vd) | shared
    while m != ZERO:
        v = trailing_zeros(m)
        m &= m - ONE
        if bpos[v] & ~(c_box | e_box):
            return True
    m = ((vc | vd) & ~ve) | shared
    while m != ZERO:
        v = trailing_zeros(m)
        m &= m - ONE
        if lpos[v] & ~(c_line | d_line):
            return True
    return False


@kernel
def _to_box(pos, l2b):
    """Line positions of crossing cells as box positions."""
    out = ZERO
    while pos != ZERO:
        j = trailing_zeros(pos)
        pos &= pos - ONE
        if l2b[j] >= 0:
            out |= ONE << np.uint64(l2b[j])
    return out


@kernel
def _sdc_search(cand, houses, line, box, lpos, bpos, l_empty, b_empty, l2b, c_line, c_box, vc, plus, target, found,
                idx, masks, out):
    """For one intersection set C: line sets D (every subset of the line's other empty cells,
    in increasing order), and for each D that leaves some of V to the box, box sets E in
    HoDoKu's order (a cell holding a value of V that D holds is never taken; a branch stops
    once it covers more of V than is left). Returns the running count of instances, or -1 at
    the target (its values and cells left in ``out``). One function: calls per set cost more
    than the sets."""
    dsrc = idx[0]
    didx = idx[1]
    esrc = idx[2]
    eidx = idx[3]
    dval = masks[0]
    dset = masks[1]
    dbox = masks[2]
    rest = masks[3]
    eval_ = masks[4]
    eset = masks[5]
    ns = 0
    free = l_empty & ~c_line
    while free != ZERO:
        dsrc[ns] = trailing_zeros(free)
        free &= free - ONE
        ns += 1
    # the values outside V the cells from a position on hold: a branch whose every extension
    # covers ``plus`` or more of V can stop (HoDoKu walks them all, finding nothing there)
    rest[ns] = ZERO
    for q in range(ns - 1, -1, -1):
        rest[q] = rest[q + 1] | (cand[houses[line, dsrc[q]]] & ~vc)
    level = 0
    didx[0] = -1
    while level >= 0:
        didx[level] += 1
        if didx[level] >= ns:
            level -= 1
            continue
        j = dsrc[didx[level]]
        vd = dval[level] | cand[houses[line, j]]
        d_line = dset[level] | (ONE << np.uint64(j))
        d_box = dbox[level]
        if l2b[j] >= 0:
            d_box |= ONE << np.uint64(l2b[j])
        size = level + 1
        extra = popcount(vd & ~vc)
        if vd & vc != ZERO and size > extra and size - extra < plus:
            left = plus - (size - extra)
            barred = vd & vc
            ne = 0
            bfree = b_empty & ~(c_box | d_box)
            while bfree != ZERO:
                q = trailing_zeros(bfree)
                bfree &= bfree - ONE
                if cand[houses[box, q]] & barred == ZERO:
                    esrc[ne] = q
                    ne += 1
            elevel = 0
            eidx[0] = -1
            while elevel >= 0:
                eidx[elevel] += 1
                if eidx[elevel] >= ne:
                    elevel -= 1
                    continue
                q = esrc[eidx[elevel]]
                ve = eval_[elevel] | cand[houses[box, q]]
                e_box = eset[elevel] | (ONE << np.uint64(q))
                esize = elevel + 1
                eextra = popcount(ve & ~vc)
                if esize - eextra == left and ve & vc != ZERO and _sdc_hits(lpos, bpos, c_line, c_box, d_line, e_box, vc, vd, ve):
                    if found == target:
                        out[0] = vd
                        out[1] = ve
                        out[2] = d_line
                        out[3] = e_box
                        return -1
                    found += 1
                if esize - eextra <= left and eidx[elevel] + 1 < ne:
                    eval_[elevel + 1] = ve
                    eset[elevel + 1] = e_box
                    eidx[elevel + 1] = eidx[elevel]
                    elevel += 1
        nxt = didx[level] + 1
        if nxt < ns and size + 1 - popcount((vd | rest[nxt]) & ~vc) < plus:
            dval[level + 1] = vd
            dset[level + 1] = d_line
            dbox[level + 1] = d_box
            didx[level + 1] = didx[level]
            level += 1
    return found


@kernel
def _sdc_emit(st, geo, step, kind, line, box, lpos, bpos, l2b, c_line, vc, vd, ve, d_line, e_box):
    """Write the step: cells C, D (line order), E (box order), the line and the box."""
    cand = st[ST_CAND]
    houses = geo[GEO_HOUSES]
    n = geo[GEO_INFO][SIZE]
    c_box = _to_box(c_line, l2b)
    clear(step, kind)
    for part in range(3):
        m = c_line if part == 0 else (d_line if part == 1 else e_box)
        house = box if part == 2 else line
        while m != ZERO:
            j = trailing_zeros(m)
            m &= m - ONE
            add_cell(step, houses[house, j])
    add_house(step, line)
    add_house(step, box)
    em = np.zeros(cand.shape[0], dtype=np.uint64)
    shared = vd & ve & ~vc
    for side in range(2):
        house = box if side == 0 else line
        out = (((vc | ve) & ~vd) | shared) if side == 0 else (((vc | vd) & ~ve) | shared)
        keep = (c_box | e_box) if side == 0 else (c_line | d_line)
        pos = bpos if side == 0 else lpos
        m = out
        while m != ZERO:
            v = trailing_zeros(m)
            m &= m - ONE
            x = pos[v] & ~keep
            while x != ZERO:
                j = trailing_zeros(x)
                x &= x - ONE
                em[houses[house, j]] |= ONE << np.uint64(v)
    _write_elims(step, em, n)
    step[S_DIGS][DIGITS] = vc
    step[S_DIGS][EXTRA] = (vd | ve) & ~vc


@kernel
def sue_de_coq(st, geo, step, kind, nth):
    """Sue de Coq: the nth in HoDoKu's order (rows then columns, each box they cross, subsets
    of the crossing's empty cells of two cells or more, then line sets, then box sets)."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    n = geo[GEO_INFO][SIZE]
    width = houses.shape[1]
    target = max(nth, 0)
    found = 0
    inter = np.zeros(width, dtype=np.int64)
    cidx = np.zeros(width + 1, dtype=np.int64)
    cmask = np.zeros(width + 1, dtype=np.uint64)
    scratch = np.zeros((4, width + 1), dtype=np.int64)
    masks = np.zeros((6, width + 1), dtype=np.uint64)
    out = np.zeros(4, dtype=np.uint64)
    lpos = np.zeros(n, dtype=np.uint64)
    bpos = np.zeros((n, n), dtype=np.uint64)
    empty = np.zeros(houses.shape[0], dtype=np.uint64)
    for h in range(houses.shape[0]):
        for j in range(width):
            c = houses[h, j]
            if c >= 0 and values[c] == 0:
                empty[h] |= ONE << np.uint64(j)
    for b in range(n):
        _positions(values, cand, houses, 2 * n + b, n, bpos[b])
    l2b = np.zeros(width, dtype=np.int64)
    for line in range(2 * n):
        _positions(values, cand, houses, line, n, lpos)
        for box in range(2 * n, 3 * n):
            ni = 0
            for j in range(width):
                c = houses[line, j]
                l2b[j] = -1
                if c >= 0 and cell_houses[c, 2] == box:
                    for jj in range(width):
                        if houses[box, jj] == c:
                            l2b[j] = jj
                    if values[c] == 0:
                        inter[ni] = j
                        ni += 1
            if ni < 2:
                continue
            level = 0
            cidx[0] = -1
            cmask[0] = ZERO
            while level >= 0:
                cidx[level] += 1
                if cidx[level] >= ni:
                    level -= 1
                    continue
                vc = cmask[level] | cand[houses[line, inter[cidx[level]]]]
                size = level + 1
                plus = popcount(vc) - size
                if size >= 2 and plus >= 2:
                    c_line = ZERO
                    for q in range(size):
                        c_line |= ONE << np.uint64(inter[cidx[q]])
                    found = _sdc_search(cand, houses, line, box, lpos, bpos[box - 2 * n], empty[line], empty[box], l2b,
                                        c_line, _to_box(c_line, l2b), vc, plus, target, found, scratch, masks, out)
                    if found < 0:
                        _sdc_emit(st, geo, step, kind, line, box, lpos, bpos[box - 2 * n], l2b, c_line, vc,
                                  out[0], out[1], out[2], out[3])
                        return True
                if cidx[level] + 1 < ni:
                    cmask[level + 1] = vc
                    cidx[level + 1] = cidx[level]
                    level += 1
    return False
