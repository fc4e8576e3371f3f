"""Sudoku Explainer's bigger patterns: chains of strong links on one value (Skyscraper, Kite,
Turbot Fish and their 3- and 4-link forms, grouped or not), unique loops, the bivalue universal
grave and aligned pair and triplet exclusion, rated as SukakuExplainer 1.18 rates them.

As in ``se_rules``, each finder leaves SE's hint in ``h`` and returns True, or returns False.
"""

from __future__ import annotations

import numpy as np

from . import ids as T
from ..build.jit import kernel
from .record import (
    GROUPED, G_CAND, G_POS, G_VALUES, H_DIFF, H_HDR, KIND, LINES, NE, REMOVED, RING, SUB, VALUE,
)  # fmt: skip
from ..search.bits import popcount
from .core import (
    CELL_MASK, CELL_REGION, LOW, MASKS, PEER_MASK, POP, REGION, REGION_MASK, SEES, add_cell,
    add_elim, changed_cells, clear_hint, digit_masks, empty_cells, found_nothing, same_cells,
)  # fmt: skip
from .rules import _copy, subsets

# -- strong links on one value ----------------------------------------------------------------
#
# A link is a strong link of one value: a region where the value has two places (a block's two
# places must not share a line: that is the line's link), or a grouped one, where the places in
# a block lie on one row and one column crossing in the block (an empty rectangle) or those of a
# line in two of its three block segments. Each end is a cell or a group of up to three cells.
# A pattern chains ``n`` links whose regions hold no place in common, each end of a link sharing
# a region with the start of the next (the weak link); the value goes from every cell that sees
# both ends of the chain, outside the links' regions and the weak links' regions. Where the two
# ends of the chain share a region it is a loop (an X-Loop), which also removes the value along
# every weak link. SE's rating: 4.0 for two links, 5.4 for three, 5.8 for four; +0.3 if a link is
# grouped; else +0.1 for a mix of blocks and lines or of rows and columns, +0.2 for all three.

MAXLINKS = 96
BASE_RATINGS = np.array([0.0, 4.0, 5.4, 5.8, 6.2, 6.6, 7.0, 7.4])


@kernel
def _add_link(links, n, r, t, grouped, a, b):
    """Append a link whose ends are the cell masks a and b of region r."""
    if n >= MAXLINKS:
        return n
    links[n, 0], links[n, 1], links[n, 2] = r, t, grouped
    _group(REGION, r, a, links, n, 3)
    _group(REGION, r, b, links, n, 6)
    return n + 1


@kernel
def _collect_links(g, v, links):
    """Links of value v: rows ``[region, type, grouped, a0, a1, a2, b0, b1, b2]`` (ends as up to
    three cells, -1 padded; ``type`` 0 block, 1 row, 2 column). Returns how many."""
    pos = g[G_POS]
    n = 0
    for r in range(27):
        m = pos[r, v]
        k = POP[m]
        t = r // 9
        if k == 2:
            i = LOW[m]
            j = LOW[m & (m - 1)]
            a, b = REGION[r, i], REGION[r, j]
            if t == 0 and (a // 9 == b // 9 or a % 9 == b % 9):
                continue
            n = _add_link(links, n, r, t, 0, 1 << i, 1 << j)
        elif 2 < k <= 6:
            if t == 0:
                # SE looks at the first cell whose row and column in the block hold every place
                # (an empty rectangle), then, with four places or more, at two rows or columns
                found = False
                for heart in range(9):
                    hr, hc = heart // 3, heart % 3
                    col_part = 0
                    row_part = 0
                    ok = True
                    mm = m
                    while mm:
                        i = LOW[mm & -mm]
                        mm &= mm - 1
                        if i == heart:
                            continue
                        if i % 3 == hc:
                            col_part |= 1 << i
                        elif i // 3 == hr:
                            row_part |= 1 << i
                        else:
                            ok = False
                            break
                    if not ok:
                        continue
                    found = True
                    if col_part and row_part:
                        hb = 1 << heart
                        if POP[col_part] == 1 or POP[row_part] == 1:
                            if POP[col_part] == 1:
                                n = _add_link(links, n, r, t, 1, col_part, row_part | hb)
                            if POP[row_part] == 1:
                                n = _add_link(links, n, r, t, 1, row_part, col_part | hb)
                        else:
                            n = _add_link(links, n, r, t, 1, col_part | (m & hb), row_part | (m & hb))
                    break
                if not found and k >= 4:
                    for e in range(6):
                        if e < 3:
                            empty = 0x7 << (3 * (2 - e))
                        else:
                            empty = 0x49 << (2 - (e - 3))
                        if m & empty:
                            continue
                        a = 0
                        b = 0
                        for q in range(3):
                            line = (0x7 << (3 * q)) if e < 3 else (0x49 << q)
                            part = m & line
                            if part:
                                if a == 0:
                                    a = part
                                else:
                                    b = part
                        if a and b:
                            n = _add_link(links, n, r, t, 1, a, b)
                        break
            else:
                segs = 0
                for s in range(3):
                    if m & (7 << (3 * s)):
                        segs |= 1 << s
                if POP[segs] == 2:
                    s1 = LOW[segs]
                    s2 = LOW[segs & (segs - 1)]
                    a = m & (7 << (3 * s1))
                    b = m & (7 << (3 * s2))
                    if POP[a] != 1 and POP[b] == 1:
                        a, b = b, a
                    n = _add_link(links, n, r, t, 1, a, b)
    return n


@kernel
def _group(region, r, mask, links, n, at):
    k = 0
    while mask and k < 3:
        links[n, at + k] = region[r, LOW[mask & -mask]]
        mask &= mask - 1
        k += 1
    while k < 3:
        links[n, at + k] = -1
        k += 1


@kernel
def _end_regions(links, n, end_regs, region_ends, nre):
    """For each end (2 * link + side): the regions holding all its cells, column first, then
    row, then block (SE's order for the weak link's region); and for each region the ends it
    holds."""
    nre[:] = 0
    for e in range(2 * n):
        li, x = e // 2, e % 2
        for t in range(3):
            end_regs[e, t] = -1
        k = 0
        for t in (2, 1, 0):
            r = -1
            ok = True
            for j in range(3):
                c = links[li, 3 + 3 * x + j]
                if c < 0:
                    continue
                rc = CELL_REGION[c, t]
                if r < 0:
                    r = rc
                elif rc != r:
                    ok = False
                    break
            if ok and r >= 0:
                end_regs[e, k] = r
                k += 1
                if nre[r] < region_ends.shape[1]:
                    region_ends[r, nre[r]] = e
                    nre[r] += 1


@kernel
def _common(end_regs, a, b):
    """The first region (in a's order) holding both ends, or -1."""
    for i in range(3):
        r = end_regs[a, i]
        if r < 0:
            break
        for j in range(3):
            if end_regs[b, j] == r:
                return r
    return -1


@kernel
def _end_mask(links, e):
    """The cells an end must all be seen from, as two words."""
    li, x = e // 2, e % 2
    lo = np.uint64(0)
    hi = np.uint64(0)
    for j in range(3):
        c = links[li, 3 + 3 * x + j]
        if c >= 0:
            lo |= MASKS[CELL_MASK + c, 0]
            hi |= MASKS[CELL_MASK + c, 1]
    return lo, hi


@kernel
def _seen_by(links, e):
    """Cells seeing every cell of end e (the end's own cells excluded)."""
    li, x = e // 2, e % 2
    lo = ~np.uint64(0)
    hi = ~np.uint64(0)
    for j in range(3):
        c = links[li, 3 + 3 * x + j]
        if c >= 0:
            lo &= MASKS[PEER_MASK + c, 0]
            hi &= MASKS[PEER_MASK + c, 1]
    return lo, hi


@kernel
def strong_links(g, degree, scratch, best, masks, cache, ok):
    """The easiest pattern of ``degree`` strong links (then the one removing most), left in
    ``best``; True if any. Depth-first over chains: a link, the side it is entered by, then a
    link with an end in a region holding the exit end, no place in common with the links so
    far. A pattern is about one value's cells only: a value whose cells (``masks``) are those
    of a search that found nothing (``cache``, ``ok``) is skipped."""
    best[H_HDR][KIND] = 0
    digit_masks(g, masks)
    links = np.zeros((MAXLINKS, 9), dtype=np.int64)
    lmask = np.zeros((MAXLINKS, 2), dtype=np.uint64)
    end_regs = np.zeros((2 * MAXLINKS, 3), dtype=np.int64)
    region_ends = np.zeros((27, 2 * MAXLINKS), dtype=np.int64)
    nre = np.zeros(27, dtype=np.int64)
    chain = np.zeros(8, dtype=np.int64)
    ends = np.zeros(8, dtype=np.int64)
    shares = np.zeros(8, dtype=np.int64)
    used = np.zeros((9, 2), dtype=np.uint64)
    it_r = np.zeros(8, dtype=np.int64)
    it_k = np.zeros(8, dtype=np.int64)
    vmask = np.zeros(2, dtype=np.uint64)
    touched = np.zeros(1, dtype=np.int64)
    for v in range(1, 10):
        if same_cells(masks, cache, ok, v):
            continue
        touched[0] = 0
        n = _collect_links(g, v, links)
        if n >= degree:
            _links_value(g, v, degree, n, links, lmask, end_regs, region_ends, nre, chain, ends, shares, used,
                         it_r, it_k, vmask, touched, scratch, best)
        if touched[0] == 0:
            ok[v] = 1
            cache[v, 0] = masks[v, 0]
            cache[v, 1] = masks[v, 1]
    return best[H_HDR][KIND] != 0


@kernel
def _links_value(g, v, degree, n, links, lmask, end_regs, region_ends, nre, chain, ends, shares, used, it_r, it_k,
                 vmask, touched, scratch, best):
    """The chains of one value (``strong_links``); ``touched[0]`` set when one removes
    something or is cut short by the best so far (then the value's search is not a "nothing")."""
    cand, pos = g[G_CAND], g[G_POS]
    if True:
        for li in range(n):
            r = links[li, 0]
            m = pos[r, v]
            lo = np.uint64(0)
            hi = np.uint64(0)
            while m:
                c = REGION[r, LOW[m & -m]]
                m &= m - 1
                lo |= MASKS[CELL_MASK + c, 0]
                hi |= MASKS[CELL_MASK + c, 1]
            lmask[li, 0] = lo
            lmask[li, 1] = hi
        _end_regions(links, n, end_regs, region_ends, nre)
        vmask[0] = 0
        vmask[1] = 0
        for c in range(81):
            if (cand[c] >> v) & 1:
                vmask[0] |= MASKS[CELL_MASK + c, 0]
                vmask[1] |= MASKS[CELL_MASK + c, 1]
        for start in range(2 * n):
            chain[0] = start // 2
            ends[0] = start % 2
            used[1, 0] = lmask[chain[0], 0]
            used[1, 1] = lmask[chain[0], 1]
            depth = 1
            it_r[1] = 0
            it_k[1] = 0
            while depth >= 1:
                # the next end in a region of the exit end of link depth - 1
                x = 2 * chain[depth - 1] + 1 - ends[depth - 1]
                y = -1
                while it_r[depth] < 3:
                    r = end_regs[x, it_r[depth]]
                    if r < 0:
                        it_r[depth] = 3
                        break
                    if it_k[depth] >= nre[r]:
                        it_r[depth] += 1
                        it_k[depth] = 0
                        continue
                    cand_end = region_ends[r, it_k[depth]]
                    it_k[depth] += 1
                    if _common(end_regs, x, cand_end) != r:
                        continue  # met under an earlier region of x
                    lj = cand_end // 2
                    if lmask[lj, 0] & used[depth, 0] or lmask[lj, 1] & used[depth, 1]:
                        continue
                    y = cand_end
                    shares[depth - 1] = r
                    break
                if y < 0:
                    depth -= 1
                    continue
                chain[depth] = y // 2
                ends[depth] = y % 2
                if best[H_HDR][KIND] != 0 and _partial_rating(links, chain, depth + 1, degree) > best[H_DIFF][0]:
                    touched[0] = 1
                    continue
                if depth + 1 == degree:
                    if _links_hint(g, v, vmask, links, end_regs, chain, ends, shares, degree, scratch, best):
                        touched[0] = 1
                    continue
                used[depth + 1, 0] = used[depth, 0] | lmask[y // 2, 0]
                used[depth + 1, 1] = used[depth, 1] | lmask[y // 2, 1]
                depth += 1
                it_r[depth] = 0
                it_k[depth] = 0


@kernel
def _links_hint(g, v, vmask, links, end_regs, chain, ends, shares, degree, scratch, best):
    first, last = chain[0], chain[degree - 1]
    e0 = 2 * first + ends[0]
    e1 = 2 * last + 1 - ends[degree - 1]
    ring = _common(end_regs, e0, e1)
    grouped = 0
    block = False
    rows = False
    cols = False
    low_region = links[first, 0]
    base_lo = np.uint64(0)
    base_hi = np.uint64(0)
    for d in range(degree):
        li = chain[d]
        grouped += links[li, 2]
        t = links[li, 1]
        block |= t == 0
        rows |= t == 1
        cols |= t == 2
        low_region = min(low_region, links[li, 0])
        base_lo |= MASKS[REGION_MASK + links[li, 0], 0]
        base_hi |= MASKS[REGION_MASK + links[li, 0], 1]
    if ring >= 0 and (links[first, 0] != low_region or ends[0] != 0):
        return False
    diff = BASE_RATINGS[degree - 1]
    if grouped > 0:
        diff += 0.3
    elif block and rows and cols:
        diff += 0.2
    elif block or (rows and cols):
        diff += 0.1
    if best[H_HDR][KIND] != 0 and diff > best[H_DIFF][0]:
        return True
    val_lo, val_hi = vmask[0], vmask[1]
    a_lo, a_hi = _seen_by(links, e0)
    b_lo, b_hi = _seen_by(links, e1)
    vic_lo = a_lo & b_lo & val_lo & ~base_lo
    vic_hi = a_hi & b_hi & val_hi & ~base_hi
    if ring < 0:
        for d in range(degree - 1):
            vic_lo &= ~MASKS[REGION_MASK + shares[d], 0]
            vic_hi &= ~MASKS[REGION_MASK + shares[d], 1]
    removed = _popcount2(vic_lo, vic_hi)
    if ring >= 0:
        for d in range(degree - 1):
            xa = 2 * chain[d] + 1 - ends[d]
            xb = 2 * chain[d + 1] + ends[d + 1]
            p_lo, p_hi = _seen_by(links, xa)
            q_lo, q_hi = _seen_by(links, xb)
            w_lo = p_lo & q_lo & val_lo & ~base_lo
            w_hi = p_hi & q_hi & val_hi & ~base_hi
            removed += _popcount2(w_lo, w_hi)
            vic_lo |= w_lo
            vic_hi |= w_hi
    if vic_lo == 0 and vic_hi == 0:
        return False
    if best[H_HDR][KIND] == 0 or diff < best[H_DIFF][0] or (diff == best[H_DIFF][0] and removed > best[H_HDR][REMOVED]):
        clear_hint(scratch, T.STRONG_LINKS, diff)
        for c in range(81):
            if c < 64:
                hit = (vic_lo >> np.uint64(c)) & np.uint64(1)
            else:
                hit = (vic_hi >> np.uint64(c - 64)) & np.uint64(1)
            if hit:
                add_elim(scratch, c, v)
        scratch[H_HDR][VALUE] = v
        scratch[H_HDR][SUB] = degree
        scratch[H_HDR][GROUPED] = grouped
        scratch[H_HDR][RING] = 1 if ring >= 0 else 0
        scratch[H_HDR][LINES] = (1 if block else 0) | (2 if rows else 0) | (4 if cols else 0)
        scratch[H_HDR][REMOVED] = removed
        for d in range(degree):
            for x in range(2):
                for k in range(3):
                    c = links[chain[d], 3 + 3 * x + k]
                    if c >= 0:
                        add_cell(scratch, c)
        _copy(scratch, best)
    return True


@kernel
def _partial_rating(links, chain, n, degree):
    """The least rating a pattern starting with these n links can have."""
    grouped = 0
    block = False
    rows = False
    cols = False
    for d in range(n):
        li = chain[d]
        grouped += links[li, 2]
        t = links[li, 1]
        block |= t == 0
        rows |= t == 1
        cols |= t == 2
    diff = BASE_RATINGS[degree - 1]
    if grouped > 0:
        diff += 0.3
    elif block and rows and cols:
        diff += 0.2
    elif block or (rows and cols):
        diff += 0.1
    return diff


@kernel(inline="always")
def _popcount2(lo, hi):
    return popcount(lo) + popcount(hi)


# -- unique loops -------------------------------------------------------------------------------


@kernel
def _valid_loop(loop, n):
    """Every region a loop cell is in holds exactly two loop cells, one at an odd place and
    one at an even place."""
    odd = np.zeros(27, dtype=np.int64)
    even = np.zeros(27, dtype=np.int64)
    for k in range(n):
        for t in range(3):
            r = CELL_REGION[loop[k], t]
            if k % 2:
                if odd[r]:
                    return False
                odd[r] = 1
            else:
                if even[r]:
                    return False
                even[r] = 1
    for r in range(27):
        if odd[r] != even[r]:
            return False
    return True


@kernel
def _loop_bonus(n):
    bonus = 0.0
    if n >= 10:
        bonus += 0.3
    if n >= 8:
        bonus += 0.2
    elif n >= 6:
        bonus += 0.1
    return bonus


@kernel
def unique_loops(g, scratch, best):
    """Unique rectangles and loops, types 1 to 4 (4.5 for a rectangle, 4.6 a loop of 6, 4.7 of
    8, 5.0 longer; type 3 adds 0.1 per value of its naked or hidden set past the first). SE
    takes the easiest, then the lowest type; left in ``best``, True if any."""
    cand = g[G_CAND]
    best[H_HDR][KIND] = 0
    loop = np.zeros(32, dtype=np.int64)
    allowed = np.zeros(32, dtype=np.int64)
    extra = np.zeros(32, dtype=np.int64)
    last = np.zeros(32, dtype=np.int64)
    it = np.zeros(32, dtype=np.int64)
    inloop = np.zeros(81, dtype=np.int64)
    for start in range(81):
        m = cand[start]
        if POP[m] != 2:
            continue
        v1 = LOW[m]
        v2 = LOW[m & (m - 1)]
        both = (1 << v1) | (1 << v2)
        depth = 0
        loop[0] = start
        allowed[0] = 2
        extra[0] = 0
        last[0] = -1
        it[0] = 0
        inloop[start] = 1
        while depth >= 0:
            if it[depth] >= 27:
                inloop[loop[depth]] = 0
                depth -= 1
                continue
            t = it[depth] // 9
            i = it[depth] % 9
            it[depth] += 1
            if t == last[depth]:
                continue
            cell = loop[depth]
            nxt = REGION[CELL_REGION[cell, t], i]
            if nxt == start and depth + 1 >= 4:
                _loop_found(g, loop, depth + 1, v1, v2, scratch, best)
                continue
            if inloop[nxt] or cand[nxt] & both != both or depth + 1 >= 31:
                continue
            ex = (extra[depth] | cand[nxt]) & ~both
            k = POP[cand[nxt]]
            if k == 2 or POP[ex] == 1 or allowed[depth] > 0:
                depth += 1
                loop[depth] = nxt
                allowed[depth] = allowed[depth - 1] - (1 if k > 2 else 0)
                extra[depth] = ex
                last[depth] = t
                it[depth] = 0
                inloop[nxt] = 1
        inloop[start] = 0
    return best[H_HDR][KIND] != 0


@kernel
def _ul_offer(scratch, best, loop, n, kind_type):
    if scratch[H_HDR][NE] == 0:
        return
    diff = scratch[H_DIFF][0]
    if best[H_HDR][KIND] == 0 or diff < best[H_DIFF][0] or (diff == best[H_DIFF][0] and kind_type < best[H_HDR][SUB]):
        scratch[H_HDR][SUB] = kind_type
        for k in range(n):
            add_cell(scratch, loop[k])
        _copy(scratch, best)


@kernel
def _loop_found(g, loop, n, v1, v2, scratch, best):
    cand = g[G_CAND]
    if not _valid_loop(loop, n):
        return
    both = (1 << v1) | (1 << v2)
    base = 4.5 + _loop_bonus(n)
    extras = np.zeros(32, dtype=np.int64)
    ne = 0
    for k in range(n):
        if POP[cand[loop[k]]] > 2:
            extras[ne] = loop[k]
            ne += 1
    if ne == 1:
        clear_hint(scratch, T.UNIQUE_LOOP, base)
        add_elim(scratch, extras[0], v1)
        add_elim(scratch, extras[0], v2)
        _ul_offer(scratch, best, loop, n, 1)
        return
    if ne > 2:
        _ul_type2(g, loop, n, extras, ne, both, base, scratch, best)
        return
    if ne != 2:
        return
    c1, c2 = extras[0], extras[1]
    rest = (cand[c1] | cand[c2]) & ~both
    if POP[rest] == 1:
        _ul_type2(g, loop, n, extras, ne, both, base, scratch, best)
    elif POP[rest] >= 2:
        _ul_type3(g, loop, n, c1, c2, v1, v2, rest, base, scratch, best)
    # type 4: a region of both extra cells where one loop value has no other place
    lock = -1
    for t in range(3):
        r = CELL_REGION[c1, t]
        if CELL_REGION[c2, t] != r:
            continue
        has1 = False
        has2 = False
        for i in range(9):
            c = REGION[r, i]
            if c != c1 and c != c2:
                has1 |= (cand[c] >> v1) & 1 != 0
                has2 |= (cand[c] >> v2) & 1 != 0
        if not has1:
            lock = 1
        if not has2 and lock != 1:
            lock = 2 if lock < 0 else lock
    if lock > 0:
        gone = v2 if lock == 1 else v1
        clear_hint(scratch, T.UNIQUE_LOOP, base)
        add_elim(scratch, c1, gone)
        add_elim(scratch, c2, gone)
        _ul_offer(scratch, best, loop, n, 4)


@kernel
def _ul_type2(g, loop, n, extras, ne, both, base, scratch, best):
    cand = g[G_CAND]
    value = LOW[cand[extras[0]] & ~both]
    clear_hint(scratch, T.UNIQUE_LOOP, base)
    for c in range(81):
        if not (cand[c] >> value) & 1:
            continue
        ok = True
        for k in range(ne):
            if extras[k] == c or not SEES[c, extras[k]]:
                ok = False
                break
        if ok:
            add_elim(scratch, c, value)
    _ul_offer(scratch, best, loop, n, 2)


@kernel
def _ul_type3(g, loop, n, c1, c2, v1, v2, rest, base, scratch, best):
    cand, pos = g[G_CAND], g[G_POS]
    both = (1 << v1) | (1 << v2)
    for degree in range(2, 8):
        for t in range(3):
            r = CELL_REGION[c1, t]
            if CELL_REGION[c2, t] != r:
                continue
            free = empty_cells(g, r)
            i1 = -1
            i2 = -1
            for i in range(9):
                if REGION[r, i] == c1:
                    i1 = i
                if REGION[r, i] == c2:
                    i2 = i
            if degree * 2 <= free and degree >= POP[rest]:
                tuples = subsets(degree)
                for q in range(tuples.shape[0]):
                    tm = tuples[q]
                    if not (tm >> i1) & 1 or (tm >> i2) & 1:
                        continue
                    naked = rest & cand[c1] & cand[c2]
                    union = 0
                    ok = True
                    mm = tm
                    while mm:
                        i = LOW[mm & -mm]
                        mm &= mm - 1
                        p = rest if i == i1 else cand[REGION[r, i]]
                        if i != i1:
                            naked |= p
                        if POP[p] <= 1:
                            ok = False
                        union |= p
                    if not ok or POP[naked] != degree or POP[union] != degree:
                        continue
                    clear_hint(scratch, T.UNIQUE_LOOP, base + (degree - 1) * 0.1)
                    for i in range(9):
                        c = REGION[r, i]
                        if (tm >> i) & 1 or c == c2:
                            continue
                        common = cand[c] & union
                        for v in range(1, 10):
                            if (common >> v) & 1:
                                add_elim(scratch, c, v)
                    _ul_offer(scratch, best, loop, n, 3)
            if degree * 2 < free:
                others = 0x3FE & ~both & ~rest
                nrem = POP[others]
                if degree - 2 <= nrem:
                    tuples = subsets(degree - 2)
                    for q in range(tuples.shape[0]):
                        pick = tuples[q]
                        if pick >> nrem:
                            continue
                        hidden = both
                        k = 0
                        for v in range(1, 10):
                            if (others >> v) & 1:
                                if (pick >> k) & 1:
                                    hidden |= 1 << v
                                k += 1
                        union = 0
                        ok = True
                        for v in range(1, 10):
                            if (hidden >> v) & 1:
                                p = pos[r, v] & ~(1 << i2)
                                if p == 0:
                                    ok = False
                                union |= p
                        if not ok or POP[union] != degree:
                            continue
                        places = union & ~(1 << i1) & ~(1 << i2)
                        clear_hint(scratch, T.UNIQUE_LOOP, base + (POP[places] - 1) * 0.1)
                        mm = places
                        while mm:
                            c = REGION[r, LOW[mm & -mm]]
                            mm &= mm - 1
                            gone = cand[c] & ~hidden
                            for v in range(1, 10):
                                if (gone >> v) & 1:
                                    add_elim(scratch, c, v)
                        _ul_offer(scratch, best, loop, n, 3)


# -- bivalue universal grave ----------------------------------------------------------------------


@kernel
def bug(g, h):
    """BUG types 1 (5.6), 2 and 4 (5.7) and 3 (5.7 + 0.1 per value past the first of its naked
    set), found as SukakuExplainer finds them (with lkSudoku's fix)."""
    values, cand, pos = g[G_VALUES], g[G_CAND], g[G_POS]
    temp = cand.copy()
    bug_cells = np.zeros(81, dtype=np.int64)
    bug_vals = np.zeros(81, dtype=np.int64)
    nb = 0
    all_bug = 0
    common = np.ones(81, dtype=np.bool_)
    have_common = False
    extra_cells = np.zeros(81, dtype=np.bool_)
    have_extra = False
    only_value = 0
    one_value = True
    for t in range(3):
        for i in range(9):
            r = t * 9 + i
            for v in range(1, 10):
                m = pos[r, v]
                k = POP[m]
                if k == 0 or k == 2:
                    continue
                newcells = np.zeros(9, dtype=np.int64)
                nn = 0
                mm = m
                while mm:
                    c = REGION[r, LOW[mm & -mm]]
                    mm &= mm - 1
                    if POP[cand[c]] >= 3:
                        newcells[nn] = c
                        nn += 1
                if not have_extra:
                    have_extra = True
                    for q in range(nn):
                        extra_cells[newcells[q]] = True
                    only_value = v
                elif one_value:
                    if only_value == v:
                        for q in range(nn):
                            extra_cells[newcells[q]] = True
                    else:
                        one_value = False
                if nn == 1:
                    c = newcells[0]
                    known = False
                    for q in range(nb):
                        if bug_cells[q] == c:
                            known = True
                    if not known:
                        bug_cells[nb] = c
                        nb += 1
                    bug_vals[c] |= 1 << v
                    all_bug |= 1 << v
                    temp[c] &= ~(1 << v)
                    _narrow(common, c, bug_cells, nb, have_common)
                    have_common = True
                    if nb > 1 and POP[all_bug] > 1 and not common.any():
                        return False
                if nn == 0:
                    return False
    if one_value and have_extra:
        n_extra = 0
        for c in range(81):
            if extra_cells[c]:
                n_extra += 1
        if n_extra > nb:
            for c in range(81):
                if not extra_cells[c]:
                    continue
                known = False
                for q in range(nb):
                    if bug_cells[q] == c:
                        known = True
                if known:
                    continue
                bug_cells[nb] = c
                nb += 1
                bug_vals[c] = 1 << only_value
                temp[c] &= ~(1 << only_value)
                _narrow(common, c, bug_cells, nb, have_common)
                have_common = True
                if nb > 1 and POP[all_bug] > 1 and not common.any():
                    return False
    for c in range(81):
        if values[c] == 0 and POP[temp[c]] != 2:
            return False
    for r in range(27):
        for v in range(1, 10):
            k = 0
            for i in range(9):
                if (temp[REGION[r, i]] >> v) & 1:
                    k += 1
            if k != 0 and k != 2:
                return False
    if nb == 0:
        return False
    if nb == 1:
        c = bug_cells[0]
        clear_hint(h, T.BUG, 5.6)
        h[H_HDR][SUB] = 1
        gone = cand[c] & ~all_bug
        for v in range(1, 10):
            if (gone >> v) & 1:
                add_elim(h, c, v)
        add_cell(h, c)
        return h[H_HDR][NE] > 0
    if POP[all_bug] == 1:
        v = LOW[all_bug]
        if have_common:
            clear_hint(h, T.BUG, 5.7)
            h[H_HDR][SUB] = 2
            for c in range(81):
                if common[c] and (cand[c] >> v) & 1:
                    add_elim(h, c, v)
            if h[H_HDR][NE] > 0:
                for q in range(nb):
                    add_cell(h, bug_cells[q])
                return True
        if nb == 2 and _bug4(g, h, bug_cells, bug_vals, all_bug):
            return True
        return False
    if have_common and common.any():
        if nb == 2 and _bug4(g, h, bug_cells, bug_vals, all_bug):
            return True
        return _bug3(g, h, bug_cells, nb, all_bug, common)
    return False


@kernel
def _narrow(common, c, bug_cells, nb, have_common):
    for o in range(81):
        if have_common:
            common[o] = common[o] and SEES[c, o]
        else:
            common[o] = SEES[c, o]
    for q in range(nb):
        common[bug_cells[q]] = False


@kernel
def _bug4(g, h, bug_cells, bug_vals, all_bug):
    cand = g[G_CAND]
    c1, c2 = bug_cells[0], bug_cells[1]
    common = cand[c1] & cand[c2] & ~all_bug
    if POP[common] != 1:
        return False
    value = LOW[common]
    for t in range(3):
        if CELL_REGION[c1, t] != CELL_REGION[c2, t]:
            continue
        clear_hint(h, T.BUG, 5.7)
        h[H_HDR][SUB] = 4
        for x in range(2):
            c = c1 if x == 0 else c2
            gone = cand[c] & ~bug_vals[c] & ~(1 << value)
            for v in range(1, 10):
                if (gone >> v) & 1:
                    add_elim(h, c, v)
        add_cell(h, c1)
        add_cell(h, c2)
        return h[H_HDR][NE] > 0
    return False


@kernel
def _bug3(g, h, bug_cells, nb, all_bug, common):
    cand = g[G_CAND]
    cells = np.zeros(81, dtype=np.int64)
    for degree in range(2, 7):
        for t in range(3):
            r = CELL_REGION[bug_cells[0], t]
            same = True
            for q in range(nb):
                if CELL_REGION[bug_cells[q], t] != r:
                    same = False
            if not same:
                continue
            nr = 0
            for c in range(81):
                if common[c] and CELL_REGION[c, t] == r:
                    cells[nr] = c
                    nr += 1
            if nr < degree:
                continue
            tuples = subsets(degree - 1)
            for q in range(tuples.shape[0]):
                tm = tuples[q]
                if tm >> nr:
                    break
                union = 0
                ok = POP[all_bug] > 1
                mm = tm
                while mm:
                    c = cells[LOW[mm & -mm]]
                    mm &= mm - 1
                    if POP[cand[c]] <= 1:
                        ok = False
                    union |= cand[c]
                if not ok or POP[union] != degree or POP[union | all_bug] != degree:
                    continue
                clear_hint(h, T.BUG, 5.7 + (degree - 1) * 0.1)
                h[H_HDR][SUB] = 3
                for k in range(nr):
                    c = cells[k]
                    if (tm >> k) & 1:
                        continue
                    gone = cand[c] & union
                    for v in range(1, 10):
                        if (gone >> v) & 1:
                            add_elim(h, c, v)
                if h[H_HDR][NE] > 0:
                    for k in range(nb):
                        add_cell(h, bug_cells[k])
                    return True
    return False


# -- aligned exclusion ------------------------------------------------------------------------------


@kernel
def aligned_exclusion(g, h, degree, masks, cache, ok):
    """Aligned Pair (6.2) and Triplet (7.5) Exclusion: for two (three) cells, each combination of
    their values that leaves a cell seeing them all without a candidate (or puts one value twice
    in a region) is impossible; a value of a cell in no possible combination goes.

    Where the search found nothing in a grid (its values' cells in ``cache``, ``ok[0]`` set) of
    which this one is a part, only the cells whose candidates changed since can make an
    exclusion: a group whose cells and common excluders all kept their candidates has at most
    the excluders it had there, so no fewer possible combinations, and is not tried again."""
    cand = g[G_CAND]
    changed = np.zeros(2, dtype=np.uint64)
    changed_cells(g, masks, cache, ok, changed)
    ncand = np.zeros(81, dtype=np.int64)
    excl = np.zeros((81, 20), dtype=np.int64)
    nex = np.zeros(81, dtype=np.int64)
    nc = 0
    any_single = False
    for c in range(81):
        if POP[cand[c]] < 2:
            any_single = any_single or POP[cand[c]] == 1
            continue
        single = False
        k = 0
        for o in range(81):
            if o == c or not SEES[c, o]:
                continue
            p = POP[cand[o]]
            if p == 1:
                single = True
            elif p >= 2 and p <= degree:
                excl[c, k] = o
                k += 1
        if not single and k > 0:
            ncand[nc] = c
            nex[c] = k
            nc += 1
    if nc < degree:
        return found_nothing(masks, cache, ok, not any_single)  # a naked single made a cell sit out: it may not later
    # each candidate cell's excluders as a cell set, to drop pairs with fewer than two in common
    exm = np.zeros((81, 2), dtype=np.uint64)
    for q in range(nc):
        c = ncand[q]
        for k in range(nex[c]):
            e = excl[c, k]
            exm[c, 0] |= MASKS[CELL_MASK + e, 0]
            exm[c, 1] |= MASKS[CELL_MASK + e, 1]
    cells = np.zeros(3, dtype=np.int64)
    is_cand = np.zeros(81, dtype=np.bool_)
    for q in range(nc):
        is_cand[ncand[q]] = True
    for a in range(nc):
        for b in range(a + 1, nc):
            c0, c1 = ncand[a], ncand[b]
            lo = exm[c0, 0] & exm[c1, 0]
            hi = exm[c0, 1] & exm[c1, 1]
            if degree == 2 and _popcount2(lo, hi) < 2:
                continue
            if degree == 2:
                if not _changes(changed, lo, hi, c0, c1, c1):
                    continue
                cells[0], cells[1] = c0, c1
                if _exclusion(g, h, cells, 2, excl, nex):
                    return True
                continue
            # the third cell: a candidate cell excluded by either of the first two
            area = np.zeros(81, dtype=np.bool_)
            for k in range(nex[c0]):
                area[excl[c0, k]] = True
            for k in range(nex[c1]):
                area[excl[c1, k]] = True
            for c2 in range(81):
                if not area[c2] or not is_cand[c2] or c2 == c0 or c2 == c1:
                    continue
                if _popcount2(lo & exm[c2, 0], hi & exm[c2, 1]) < 2:
                    continue
                if not _changes(changed, lo & exm[c2, 0], hi & exm[c2, 1], c0, c1, c2):
                    continue
                cells[0], cells[1], cells[2] = c0, c1, c2
                if _exclusion(g, h, cells, 3, excl, nex):
                    return True
    return found_nothing(masks, cache, ok, not any_single)


@kernel(inline="always")
def _changes(changed, lo, hi, c0, c1, c2):
    """Whether a group's cells or its common excluders (``lo``, ``hi``) changed."""
    lo |= MASKS[CELL_MASK + c0, 0] | MASKS[CELL_MASK + c1, 0] | MASKS[CELL_MASK + c2, 0]
    hi |= MASKS[CELL_MASK + c0, 1] | MASKS[CELL_MASK + c1, 1] | MASKS[CELL_MASK + c2, 1]
    return (lo & changed[0]) != 0 or (hi & changed[1]) != 0


@kernel
def _exclusion(g, h, cells, degree, excl, nex):
    cand = g[G_CAND]
    common = np.zeros(20, dtype=np.int64)
    nco = 0
    c0 = cells[0]
    for k in range(nex[c0]):
        e = excl[c0, k]
        ok = True
        for j in range(1, degree):
            found = False
            cj = cells[j]
            for q in range(nex[cj]):
                if excl[cj, q] == e:
                    found = True
                    break
            if not found:
                ok = False
                break
        if ok:
            common[nco] = e
            nco += 1
    if nco < 2:
        return False
    allowed = np.zeros((3, 10), dtype=np.bool_)
    vals = np.zeros(3, dtype=np.int64)
    # every combination of the cells' values
    m0 = cand[cells[0]]
    while m0:
        vals[0] = LOW[m0 & -m0]
        m0 &= m0 - 1
        m1 = cand[cells[1]]
        while m1:
            vals[1] = LOW[m1 & -m1]
            m1 &= m1 - 1
            if degree == 2:
                if _combo_ok(cand, cells, vals, 2, common, nco):
                    allowed[0, vals[0]] = True
                    allowed[1, vals[1]] = True
                continue
            m2 = cand[cells[2]]
            while m2:
                vals[2] = LOW[m2 & -m2]
                m2 &= m2 - 1
                if _combo_ok(cand, cells, vals, 3, common, nco):
                    allowed[0, vals[0]] = True
                    allowed[1, vals[1]] = True
                    allowed[2, vals[2]] = True
    clear_hint(h, T.ALIGNED_PAIR if degree == 2 else T.ALIGNED_TRIPLE, 6.2 if degree == 2 else 7.5)
    for i in range(degree):
        m = cand[cells[i]]
        for v in range(1, 10):
            if (m >> v) & 1 and not allowed[i, v]:
                add_elim(h, cells[i], v)
    if h[H_HDR][NE] == 0:
        return False
    for i in range(degree):
        add_cell(h, cells[i])
    return True


@kernel
def _combo_ok(cand, cells, vals, degree, common, nco):
    for i in range(degree):
        for j in range(i + 1, degree):
            if vals[i] == vals[j] and SEES[cells[i], cells[j]]:
                return False
    for k in range(nco):
        rest = cand[common[k]]
        for i in range(degree):
            rest &= ~(1 << vals[i])
        if rest == 0:
            return False
    return True
