"""Sudoku Explainer's multiple-chain techniques, one code for every tier of nesting: Nishio
(7.5), cell and region forcing chains (8.0), dynamic forcing chains (8.5) and (+) (9.0), and,
with inner searches behind their chains (``nested``), the nested forcing chains (9.5 to 11.0).

From every candidate of a cell with two or more (three or more for the static form) SE grows a
chain with the candidate on and one with it off (``chains.chaining``): a chain that meets a
contradiction proves its start false; a potential both chains imply holds either way (double
implications); what every value of a cell, or every place of a value in a region, implies
holds too (cell and region forcing chains). A hint's complexity is the number of distinct
potentials behind its conclusion, plus the complexities of the inner hints behind them once
each; its rating is the technique's base plus ``core.length_difficulty`` of that.

The search (``_multiple``) is a plain function that ``instantiate`` compiles once a tier, with
two names bound: ``DC``, the tier's chaining, and ``HINT``, the tier's hint writer. Tier 0
(``multiple_chains``, SE's rules 29 to 32) has no inner hints and keeps the best hint only
(``_best_hint``); the nested tiers (``nested.MC_G1`` ...) rate a hint with the inner hints behind
it and either keep the best or, as an inner search, list every hint with its rule parents
(``_hint``).
"""

from __future__ import annotations

import numpy as np

from . import ids as T
from ..build.jit import instantiate, kernel
from .chains import (
    C_BLOCK,
    C_CELL,
    C_ADVANCED,
    C_NONE,
    F_AB_OFF,
    F_AB_ON,
    F_AB_VIRTUAL,
    F_NOFF,
    F_NON,
    F_V_CAUSE,
    F_V_N,
    F_V_START,
    NISHIO_CACHE,
    ancestors,
    do_chaining,
    frame_keep,
    frame_off,
    frame_recall,
    frame_on,
    in_frame,
    kept_reset,
    offer,
    over_budget,
    pcell,
    pot,
    pvalue,
    seed,
    worth,
)
from . import record as R  # the workspace's slots and counters, by name: R.WS_FRAME
from .record import (
    G_CAND,
    G_POS,
    H_HDR,
    REGION_SLOT,
    HL,
    HL_COUNT,
    HL_D,
    HL_HASH,
    HL_I,
    HL_PARS,
    HL_PN,
    HL_PS,
    HL_REM,
    HL_REMS,
    HL_RN,
    HL_RS,
    HL_PAR,
)
from .core import CELL_MASK, CELL_REGION, LOW, MASKS, POP, REGION, digit_masks, length_difficulty, same_cells

#: the modes of ``_multiple``, SE's ``Chaining(isMultiple, isDynamic, isNishio, level)``;
#: ``DYNAMIC_PLUS`` is the dynamic mode at level 1 (``multiple_chains`` maps it)
NISHIO = 0
MULTIPLE = 1
DYNAMIC = 2
DYNAMIC_PLUS = 3

# -- rule parents, identities, complexity -----------------------------------------------------------


@kernel(inline="always")
def _mix(x):
    z = np.uint64(x) * np.uint64(0x9E3779B97F4A7C15)
    z ^= z >> np.uint64(29)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    return z ^ (z >> np.uint64(32))


@kernel
def _cause_parents(g, src_cand, src_pos, p, cause, hl):
    """The candidates gone since the outer chain began that made the "on" potential p (SE's
    ``collectRuleParents`` for one potential), appended to the hint list's parent pool."""
    cand, pos = g[G_CAND], g[G_POS]
    par, counts = hl[HL_PARS], hl[HL_COUNT]
    cell, v = pcell(p), pvalue(p)
    if cause == C_CELL:
        gone = src_cand[cell] & ~cand[cell]
        while gone:
            u = LOW[gone & -gone]
            gone &= gone - 1
            if counts[2] < HL_PAR:
                par[counts[2]] = pot(cell, u, 0)
                counts[2] += 1
    elif cause >= C_BLOCK and cause < C_ADVANCED:
        r = CELL_REGION[cell, cause - C_BLOCK]
        gone = src_pos[r, v] & ~pos[r, v]
        while gone:
            c = REGION[r, LOW[gone & -gone]]
            gone &= gone - 1
            if counts[2] < HL_PAR:
                par[counts[2]] = pot(c, v, 0)
                counts[2] += 1


@kernel
def _frame_walk(g, ws, f, p, virtual, initial_cause, src_cand, src_pos, hl, collect_parents):
    """Walk p's ancestors in frame f: their number, a hash of them, the nested complexity met
    (appending new identities to ``ws[R.WS_VISIT]``-stamped set in ``ws[R.WS_BFS]``... see ``_complexity``),
    and, if asked, SE's rule parents of the "on" ones. Returns (count, hash)."""
    seen, queue, ctr = ws[R.WS_VISIT], ws[R.WS_BFS], ws[R.WS_COUNTERS]
    pool, pstart, pn, cz, fs = ws[R.WS_POOL], ws[R.WS_PARENT_START], ws[R.WS_PARENT_COUNT], ws[R.WS_CAUSE], ws[R.WS_FRAME]
    ctr[R.W_STAMP] += 1
    stamp = ctr[R.W_STAMP]
    seen[p] = stamp
    count = 1
    hsum = _mix(p + 1)
    queue[0] = p
    head = 0
    tail = 1
    while head < tail:
        q = queue[head]
        # a virtual p (the contradiction's half not in the frame) keeps its parents and
        # cause in the frame's F_V_* slots
        first_virtual = head == 0 and virtual != 0
        head += 1
        s = fs[f, F_V_START] if first_virtual else pstart[f, q]
        n = fs[f, F_V_N] if first_virtual else pn[f, q]
        if collect_parents and q & 1:
            c = fs[f, F_V_CAUSE] if first_virtual else cz[f, q]
            if c == C_NONE:
                c = initial_cause
            _cause_parents(g, src_cand, src_pos, q, c, hl)
        for k in range(n):
            r = pool[f, s + k]
            if seen[r] != stamp:
                seen[r] = stamp
                count += 1
                hsum += _mix(r + 1)
                queue[tail] = r
                tail += 1
    return count, hsum


@kernel
def _nested(ws, f, p, virtual, ids, nids):
    """Add to ``ids`` (``nids[0]`` used) the identities of the inner hints behind p in frame f,
    once each; returns the complexity they add."""
    seen, queue, ctr = ws[R.WS_VISIT], ws[R.WS_BFS], ws[R.WS_COUNTERS]
    pool, pstart, pn, cz, fs = ws[R.WS_POOL], ws[R.WS_PARENT_START], ws[R.WS_PARENT_COUNT], ws[R.WS_CAUSE], ws[R.WS_FRAME]
    nc, nh = ws[R.WS_NEST_CPLX], ws[R.WS_NEST_ID]
    ctr[R.W_STAMP] += 1
    stamp = ctr[R.W_STAMP]
    seen[p] = stamp
    added = 0
    head = 0
    tail = 0
    if virtual:
        s, n = fs[f, F_V_START], fs[f, F_V_N]
    else:
        s, n = pstart[f, p], pn[f, p]
        queue[tail] = p
        tail += 1
        head = 0
    if virtual:
        for k in range(n):
            q = pool[f, s + k]
            if seen[q] != stamp:
                seen[q] = stamp
                queue[tail] = q
                tail += 1
    while head < tail:
        q = queue[head]
        head += 1
        if cz[f, q] == C_ADVANCED and nc[f, q] > 0:
            known = False
            for i in range(nids[0]):
                if ids[i] == nh[f, q]:
                    known = True
                    break
            if not known and nids[0] < ids.shape[0]:
                ids[nids[0]] = nh[f, q]
                nids[0] += 1
                added += nc[f, q]
        s, n = pstart[f, q], pn[f, q]
        for k in range(n):
            r = pool[f, s + k]
            if seen[r] != stamp:
                seen[r] = stamp
                queue[tail] = r
                tail += 1
    return added


@kernel
def _hint(g, ws, h, found, collect, hl, kind, sub, base, sort, src, target, nt, tf, tp, tv, initial_cause, source,
          nested):
    """A hint of the multiple-chain techniques with ``nt`` chains (frame tf[i], target tp[i],
    virtual tv[i]): its complexity (ancestors per chain, plus the inner hints behind them once
    each), then either offered as the best (``collect`` False) or listed with its removals and
    rule parents. Returns whether it was taken or listed."""
    if not worth(g, target):
        return False
    src_cand, src_pos = source
    ids = np.zeros(256, dtype=np.uint64)
    nids = np.zeros(1, dtype=np.int64)
    flat = 0
    ident = np.uint64(0)
    hl_counts = hl[HL_COUNT]
    p0 = hl_counts[2]
    for i in range(nt):
        c, hs = _frame_walk(g, ws, tf[i], tp[i], tv[i], initial_cause, src_cand, src_pos, hl, collect)
        flat += c
        ident = ident * np.uint64(1000003) + hs
    extra = 0
    if nested:
        for i in range(nt):
            extra += _nested(ws, tf[i], tp[i], tv[i], ids, nids)
    cplx = flat + extra
    d = base + length_difficulty(cplx)
    if not collect:
        hl_counts[2] = p0
        return offer(g, h, found, kind, sub, d, cplx, sort, src, target, True)
    return _list(g, hl, d, cplx, sort, target, p0, ident)


@kernel
def _list(g, hl, d, cplx, sort, target, p0, ident):
    """Append a hint whose conclusion is ``target`` to the list (its parents already written
    from ``p0`` on)."""
    cand = g[G_CAND]
    counts = hl[HL_COUNT]
    k = counts[0]
    if k >= HL:
        counts[3] = 1
        counts[2] = p0
        return False
    hl[HL_D][k] = d
    hl[HL_I][k, 0] = cplx
    hl[HL_I][k, 1] = sort
    hl[HL_I][k, 2] = k
    hl[HL_PS][k] = p0
    hl[HL_PN][k] = counts[2] - p0
    hl[HL_HASH][k] = ident
    hl[HL_RS][k] = counts[1]
    cell, v = pcell(target), pvalue(target)
    rems = hl[HL_REMS]
    n = 0
    if target & 1:
        m = cand[cell] & ~(1 << v)
        while m and counts[1] < HL_REM:
            rems[counts[1]] = pot(cell, LOW[m & -m], 0)
            m &= m - 1
            counts[1] += 1
            n += 1
    elif counts[1] < HL_REM:
        rems[counts[1]] = pot(cell, v, 0)
        counts[1] += 1
        n += 1
    hl[HL_RN][k] = n
    counts[0] = k + 1
    return True



# -- the search, every tier -------------------------------------------------------------------------


def _multiple(g, ws, h, mode, level, nl, collect, hl, source, inner):
    """SE's multiple-chain techniques in one ``mode``: ``NISHIO`` (7.5: X-links only,
    contradictions only), ``MULTIPLE`` (8.0: static cell and region forcing chains) or
    ``DYNAMIC`` (8.5 + 0.5 ``level``: also contradictions and double implications, in a grid
    that loses each "off" candidate; level 1 adds the simple rules (+), 2 and 3 nest forcing
    chains, 4 nests dynamic ones at level ``nl``). Each hint goes to the tier's ``HINT``: the
    best into ``h``, or with ``collect`` every hint listed in ``hl``; ``source`` is the outer
    grid's candidates and positions, ``inner`` the tier below's workspaces and hint lists.
    Returns whether a hint was found.

    A plain function: ``instantiate`` compiles one copy a tier, with ``DC`` (the tier's
    chaining) and ``HINT`` (its hint writer) bound."""
    found = False
    cand = g[G_CAND]
    pos = g[G_POS]
    nishio = mode == NISHIO
    dynamic = mode != MULTIPLE
    y_links = not nishio
    if nishio:
        base, sub, kind = 7.5, 0, T.NISHIO
    elif dynamic:
        base, sub, kind = 8.5 + 0.5 * level, 2 + level + nl, T.CONTRADICTION_FORCING
    else:
        base, sub, kind = 8.0, 1, T.CONTRADICTION_FORCING
    nested = level >= 2
    values = np.zeros(10, dtype=np.int64)
    tf = np.zeros(9, dtype=np.int64)
    tp = np.zeros(9, dtype=np.int64)
    tv = np.zeros(9, dtype=np.bool_)
    frames = np.zeros(9, dtype=np.int64)
    fs = ws[R.WS_FRAME]
    kept_reset(ws)
    # Nishio's chains have X-links only, so each stays within its value: a value whose chains
    # found no contradiction, on the same cells from no fewer sources, is not searched again
    skip = np.zeros(10, dtype=np.bool_)
    hit = np.zeros(10, dtype=np.bool_)
    now = np.zeros((2, 10, 2), dtype=np.uint64)
    if nishio:
        _nishio_skips(g, ws, skip, now)
    for cell in range(81):
        card = POP[cand[cell]]
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        if over_budget(ws):
            return found
        nv = 0
        m = cand[cell]
        while m:
            values[nv] = LOW[m & -m]
            m &= m - 1
            nv += 1
        for k in range(nv):
            v = values[k]
            if skip[v]:
                continue
            p_on = pot(cell, v, 1)
            p_off = p_on - 1
            fon = k
            foff = 9
            # the value on, then off (the static form needs only "on": no contradictions
            # there, no double implications); "on" chainings kept for the regions' turn
            absurd = frame_recall(ws, fon, p_on, nested)
            if absurd < 0:
                seed(ws, fon, p_on)
                absurd = 1 if DC(g, ws, fon, y_links, dynamic, level, nl, inner) else 0  # noqa: F821 - bound per tier
                if not nishio and not over_budget(ws):
                    frame_keep(ws, fon, p_on, nested)
            if absurd == 1 and dynamic:
                hit[v] = True
                tf[0], tp[0], tv[0] = fon, fs[fon, F_AB_ON], fs[fon, F_AB_VIRTUAL] == 1
                tf[1], tp[1], tv[1] = fon, fs[fon, F_AB_OFF], fs[fon, F_AB_VIRTUAL] == 0
                if HINT(g, ws, h, found, collect, hl, kind, sub, base, 7, p_on, p_off, 2, tf, tp, tv,  # noqa: F821
                        C_NONE, source, nested):
                    found = True
            if dynamic:
                seed(ws, foff, p_off)
                if DC(g, ws, foff, y_links, dynamic, level, nl, inner):  # noqa: F821
                    hit[v] = True
                    tf[0], tp[0], tv[0] = foff, fs[foff, F_AB_ON], fs[foff, F_AB_VIRTUAL] == 1
                    tf[1], tp[1], tv[1] = foff, fs[foff, F_AB_OFF], fs[foff, F_AB_VIRTUAL] == 0
                    if HINT(g, ws, h, found, collect, hl, kind, sub, base, 7, p_off, p_on, 2, tf, tp, tv,  # noqa: F821
                            C_NONE, source, nested):
                        found = True
                if card >= 3 and not nishio:
                    # double implications: on in both chains (placed), off in both (removed)
                    for state in (1, 0):
                        count = fs[fon, F_NON] if state == 1 else fs[fon, F_NOFF]
                        for j in range(count):
                            q = frame_on(ws, fon, j) if state == 1 else frame_off(ws, fon, j)
                            if in_frame(ws, foff, q) and worth(g, q):
                                tf[0], tp[0], tv[0] = fon, q, False
                                tf[1], tp[1], tv[1] = foff, q, False
                                if HINT(g, ws, h, found, collect, hl, T.DOUBLE_FORCING, sub, base, 1, p_on, q,  # noqa: F821
                                        2, tf, tp, tv, C_NONE, source, nested):
                                    found = True
            if nishio:
                continue
            # region forcing chains from the regions where this cell is the value's first place:
            # what every place of the value in the region implies
            for t in range(3):
                r = CELL_REGION[cell, t]
                pm = pos[r, v]
                if POP[pm] < 2 or REGION[r, LOW[pm]] != cell:
                    continue
                nf = 0
                mm = pm
                nxt = 10
                while mm:
                    c = REGION[r, LOW[mm & -mm]]
                    mm &= mm - 1
                    if c == cell:
                        frames[nf] = fon
                    else:
                        fr = nxt
                        nxt += 1
                        c_on = pot(c, v, 1)
                        if frame_recall(ws, fr, c_on, nested) < 0:
                            seed(ws, fr, c_on)
                            DC(g, ws, fr, y_links, dynamic, level, nl, inner)  # noqa: F821
                            if not over_budget(ws):
                                frame_keep(ws, fr, c_on, nested)
                        frames[nf] = fr
                    nf += 1
                f0 = frames[0]
                for state in range(2):
                    count = fs[f0, F_NON] if state == 1 else fs[f0, F_NOFF]
                    for j in range(count):
                        q = frame_on(ws, f0, j) if state == 1 else frame_off(ws, f0, j)
                        every = True
                        for x in range(1, nf):
                            if not in_frame(ws, frames[x], q):
                                every = False
                                break
                        if not every or not worth(g, q):
                            continue
                        for x in range(nf):
                            tf[x], tp[x], tv[x] = frames[x], q, False
                        if HINT(g, ws, h, found, collect, hl, T.REGION_FORCING, sub, base, 6, pot(cell, v, 1), q,  # noqa: F821
                                nf, tf, tp, tv, C_BLOCK + t, source, nested):
                            if not collect:
                                h[H_HDR][REGION_SLOT] = r
                            found = True
        if nishio:
            continue
        # cell forcing chains: what every value of the cell implies (frames 0 to nv - 1)
        for state in (1, 0):
            count = fs[0, F_NON] if state == 1 else fs[0, F_NOFF]
            for j in range(count):
                q = frame_on(ws, 0, j) if state == 1 else frame_off(ws, 0, j)
                every = True
                for x in range(1, nv):
                    if not in_frame(ws, x, q):
                        every = False
                        break
                if not every or not worth(g, q):
                    continue
                for x in range(nv):
                    tf[x], tp[x], tv[x] = x, q, False
                if HINT(g, ws, h, found, collect, hl, T.CELL_FORCING, sub, base, 5, cell, q, nv, tf, tp, tv,  # noqa: F821
                        C_CELL, source, nested):
                    found = True
    if nishio and not over_budget(ws):
        _nishio_remember(ws, skip, hit, now)
    return found


@kernel
def _nishio_skips(g, ws, skip, now):
    """The values Nishio need not search: their cells as when their chains found nothing
    (``NISHIO_CACHE``), their sources (cells with two or more candidates) no more than then.
    ``now`` gets each value's cells and sources in this grid."""
    cand = g[G_CAND]
    masks, sources = now[0], now[1]
    digit_masks(g, masks)
    sources[:, :] = 0
    for c in range(81):
        if POP[cand[c]] > 1:
            m = cand[c]
            while m:
                v = LOW[m & -m]
                m &= m - 1
                sources[v, 0] |= MASKS[CELL_MASK + c, 0]
                sources[v, 1] |= MASKS[CELL_MASK + c, 1]
    cells, starts = ws[R.WS_NOTHING_CELLS][NISHIO_CACHE], ws[R.WS_NOTHING_CELLS][NISHIO_CACHE + 1]
    ok = ws[R.WS_NOTHING_FOUND][NISHIO_CACHE]
    for v in range(1, 10):
        skip[v] = (same_cells(masks, cells, ok, v)
                   and sources[v, 0] & ~starts[v, 0] == 0 and sources[v, 1] & ~starts[v, 1] == 0)


@kernel
def _nishio_remember(ws, skip, hit, now):
    """After a whole Nishio search: the values searched without a contradiction remembered,
    those with one forgotten."""
    cells, starts = ws[R.WS_NOTHING_CELLS][NISHIO_CACHE], ws[R.WS_NOTHING_CELLS][NISHIO_CACHE + 1]
    ok = ws[R.WS_NOTHING_FOUND][NISHIO_CACHE]
    for v in range(1, 10):
        if skip[v]:
            continue
        ok[v] = 0 if hit[v] else 1
        cells[v, :] = now[0, v]
        starts[v, :] = now[1, v]


# -- tier 0: SE's rules 29 to 32 ------------------------------------------------------------------------


@kernel
def _best_hint(g, ws, h, found, collect, hl, kind, sub, base, sort, src, target, nt, tf, tp, tv, initial_cause, source,
               nested):
    """Tier 0's hint writer (``_hint``'s parameters; no inner hints, nothing listed): the
    complexity is the chains' ancestors; the hint offered as the best. Returns whether taken."""
    if not worth(g, target):
        return False
    cplx = 0
    for i in range(nt):
        cplx += ancestors(ws, tf[i], tp[i], tv[i])
    return offer(g, h, found, kind, sub, base + length_difficulty(cplx), cplx, sort, src, target, True)


MC_G0 = instantiate(_multiple, "mc_g0", DC=do_chaining, HINT=_best_hint)


@kernel
def multiple_chains(g, ws, h, mode):
    """The best hint of SE's multiple-chain techniques in one mode: ``NISHIO`` (7.5),
    ``MULTIPLE`` (cell and region forcing chains, 8.0), ``DYNAMIC`` (8.5) or ``DYNAMIC_PLUS``
    (9.0: the simple rules join in, ``se_advanced``), into ``h``; whether found."""
    if mode == DYNAMIC_PLUS:
        return MC_G0(g, ws, h, DYNAMIC, 1, 0, False, None, None, ())
    return MC_G0(g, ws, h, mode, 0, 0, False, None, None, ())
