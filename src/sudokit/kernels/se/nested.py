"""Sudoku Explainer's nested forcing chains: dynamic chains whose "advanced" implications are
whole hints of other chain techniques, found in the grid the outer chain has reduced.

SE's levels (``Chaining(..., level, nestingLimit)``): at level 2 (rated 9.5 + penalty) a
dynamic chain that has nothing left to process runs the simple rules and then SE's "forcing
chains and cycles" on the reduced grid, at level 3 (10.0) also its static cell and region
forcing chains, at level 4 (10.5, SE's "experimental" nesting) dynamic forcing chains of their
own, themselves at level 0 to 3. Every hint the inner search finds turns the candidates it
removes off, their parents being the candidates the hint needed gone (SE's rule parents: for
each "on" potential of the hint's chains, the candidates removed from its cell or region that
made it one), and carries its own complexity: an outer hint's complexity adds, once each, the
complexities of the inner hints behind it.

Inner searches need every hint, sorted as SE sorts them, where the outer searches keep the
best: one generic search (``forcing._multiple``, with ``chains.chaining`` for SE's doChaining)
serves both, a ``collect`` flag telling which, and serves SE's unnested rules too (tier 0,
``forcing.multiple_chains``). Nesting is three deep at most (level 4 over level 3 over static
chains); numba compiles no recursion into a cached kernel, so the generic functions are
instantiated once per tier (``instantiate``), each tier's copy calling the tier below (``G1``
basic advanced rules, ``G2`` levels 2 and 3, ``G3`` level 4). Each tier works in its own
workspace (frames, queues) and hint list, sharing the outer one's work counters.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import instantiate, kernel
from .advanced import ADV_MAX
from .chains import (
    borrow_workspace,
    chaining,
    do_chaining,
    simple_rules,
    C_BLOCK,
    C_CELL,
    C_NONE,
    F_ABSURD,
    F_NOFF,
    F_NON,
    F_POOL,
    F_STAMP,
    F_V_CAUSE,
    F_V_N,
    F_V_START,
    POOL,
    _is_parent,
    _partners,
    on_to_off,
    over_budget,
    static_on,
    pcell,
    pot,
    pvalue,
    worth,
)
from .forcing import DYNAMIC, MULTIPLE, _cause_parents, _frame_walk, _hint, _list, _mix, _multiple
from .memo import memo_step
from . import record as R  # the workspace's slots and counters, by name: R.WS_FRAME
from .record import (  # noqa: F401 - new_hints: the Python layer's maker, here too
    G_CAND,
    G_VALUES,
    G_POS,
    H_HDR,
    NP,
    REGION_SLOT,
    HL,
    HL_REM,
    HL_PAR,
    HL_D,
    HL_I,
    HL_RS,
    HL_RN,
    HL_REMS,
    HL_PS,
    HL_PN,
    HL_PARS,
    HL_HASH,
    HL_COUNT,
    HL_SORTED,
    new_hints,
)
from .core import CELL_POS, CELL_REGION, LOW, POP, REGION, SEES, borrow_grid, borrow_hint, length_difficulty
from ..search.bits import borrowed

@kernel
def emit(hl, ws):
    """The listed hints' removals as advanced potentials, in SE's order (its hint list sorted by
    rating, complexity, sort key, first found), each once; hints without rule parents skipped
    (they apply without the outer chain). Into ``ws``'s advanced buffer; how many."""
    counts = hl[HL_COUNT]
    n = counts[0]
    keys = np.zeros(n, dtype=np.int64)
    for k in range(n):
        dk = np.int64(hl[HL_D][k] * 1000.0 + 0.5)
        keys[k] = (dk << 40) | (min(hl[HL_I][k, 0], (1 << 20) - 1) << 20) | (hl[HL_I][k, 1] << 16) | k
    idx = np.argsort(keys)
    pots, pstart, pn, pool, acount = ws[R.WS_ADV], ws[R.WS_ADV_START], ws[R.WS_ADV_COUNT], ws[R.WS_ADV_PARENTS], ws[R.WS_ADV_TOTALS]
    nest_c, nest_h = ws[R.WS_ADV_CPLX], ws[R.WS_ADV_ID]
    acount[0] = 0
    acount[1] = 0
    stamp = ws[R.WS_COUNTERS][R.W_STAMP] + 1
    ws[R.WS_COUNTERS][R.W_STAMP] = stamp
    seen = ws[R.WS_VISIT]
    rems, pars = hl[HL_REMS], hl[HL_PARS]
    for j in range(n):
        k = idx[j]
        np_ = hl[HL_PN][k]
        if np_ == 0:
            continue
        for r in range(hl[HL_RN][k]):
            q = rems[hl[HL_RS][k] + r]
            if seen[q] == stamp or acount[0] >= ADV_MAX or acount[1] + np_ > pool.shape[0]:
                continue
            seen[q] = stamp
            a = acount[0]
            pots[a] = q
            pstart[a] = acount[1]
            pn[a] = np_
            for i in range(np_):
                pool[acount[1] + i] = pars[hl[HL_PS][k] + i]
            acount[1] += np_
            nest_c[a] = hl[HL_I][k, 0]
            nest_h[a] = hl[HL_HASH][k]
            acount[0] = a + 1
    return acount[0]


@kernel
def clear_hints(hl):
    hl[HL_COUNT][:] = 0


# -- the inner unary search (SE's "forcing chains and cycles", every hint, with paths) ----------------


@kernel
def unary_all(g, ws, hl, src_cand, src_pos):
    """Every hint of SE's unary chains on the grid (three passes: X, Y, both links), listed
    with their removals and rule parents against the outer chain's grid (``src_*``).

    A forcing chain or cycle search that reads no cell and no value's region that the outer
    chain changed grows as it grows in the outer chain's grid: its hints have no rule parents,
    and ``emit`` drops them. What each search reads there is measured once per outer grid
    (``_reads``), and the searches that read nothing changed are not run again: an inner
    search costs what the outer chain changed, not the whole grid."""
    cand = g[G_CAND]
    pend = np.zeros(NP, dtype=np.int64)
    none = np.zeros(0, dtype=np.uint64)
    # a workspace made without them (``new_workspace(reads=False)``) searches from every source
    reads = _reads(g, ws, hl, src_cand, src_pos)
    skipping = reads.shape[0] > 0
    dirty = np.zeros(6, dtype=np.uint64)
    _changed(cand, src_cand, dirty)
    frame, queues = _forcing_frame(ws)
    ctr = ws[R.WS_COUNTERS]
    for mode in range(3):
        x_links = mode != 1
        y_links = mode != 0
        for cell in range(81):
            card = POP[cand[cell]]
            if card < 2 or (not x_links and card > 2):
                continue
            if over_budget(ws):
                return
            m = cand[cell]
            while m:
                v = LOW[m & -m]
                m &= m - 1
                p_on = pot(cell, v, 1)
                if not skipping or _touches(reads[2 + mode, p_on], dirty):
                    _cycles_all(g, ws, hl, p_on, y_links, x_links, pend, src_cand, src_pos, none)
                if x_links:
                    for p in (p_on, p_on - 1):
                        if not skipping or _touches(reads[mode // 2, p], dirty):
                            tparent, tcause = _grow_forcing(g, p, y_links, frame, queues, ctr, none)
                            if tparent >= 0:
                                _forcing_hint(g, ws, hl, p, y_links, tparent, tcause, src_cand, src_pos)


@kernel(inline="always")
def _touches(read, dirty):
    for k in range(6):
        if read[k] & dirty[k]:
            return True
    return False


@kernel(inline="always")
def _note_read(read, p, y_links):
    """Potential p is processed: its value's three regions are read, and its cell where the
    chain has Y-links (without them neither implication looks at the cell's other values)."""
    cell, v = pcell(p), pvalue(p)
    if y_links:
        read[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
    for t in range(3):
        k = CELL_REGION[cell, t] * 9 + v - 1
        read[2 + (k >> 6)] |= np.uint64(1) << np.uint64(k & 63)


@kernel
def _changed(cand, other, dirty):
    """The cells whose candidates differ between two grids, and the values' regions that
    differ with them (``_note_read``'s bits), into ``dirty``."""
    dirty[:] = 0
    for cell in range(81):
        gone = cand[cell] ^ other[cell]
        while gone:
            _note_read(dirty, pot(cell, LOW[gone & -gone], 0), True)
            gone &= gone - 1


@kernel
def _reads(g, ws, hl, src_cand, src_pos):
    """What every search of ``unary_all`` reads in the outer chain's grid (``src_*``): rows 0
    and 1 the forcing chains of its X passes (X links, both), 2 to 4 the cycles of its three
    passes, per source; measured again when that grid changes. (Measuring again only the
    searches that read what changed was tried: no faster, the searches here being short.)"""
    reads, key = ws[R.WS_READS], ws[R.WS_READS_KEY]
    if reads.shape[0] == 0:
        return reads
    same = key[0] == 1
    for c in range(81):
        if key[1 + c] != src_cand[c]:
            same = False
            key[1 + c] = src_cand[c]
    if same:
        return reads
    key[0] = 1
    outer = (g[G_VALUES], src_cand, src_pos)  # the outer chain's grid
    frame, queues = _forcing_frame(ws)
    for half in range(2):
        for p in range(NP):
            row = reads[half, p]
            row[:] = 0
            _note_read(row, p, half == 1)  # a source not searched here is searched once it changes
            cell = pcell(p)
            if POP[src_cand[cell]] < 2 or not (src_cand[cell] >> pvalue(p)) & 1:
                continue
            _grow_forcing(outer, p, half == 1, frame, queues, ws[R.WS_COUNTERS], row)
    pend = np.zeros(NP, dtype=np.int64)
    for mode in range(3):
        for p in range(1, NP, 2):
            row = reads[2 + mode, p]
            row[:] = 0
            _note_read(row, p, mode != 0)
            card = POP[src_cand[pcell(p)]]
            if card < 2 or (mode == 1 and card > 2) or not (src_cand[pcell(p)] >> pvalue(p)) & 1:
                continue
            _cycles_all(outer, ws, hl, p, mode != 0, mode != 1, pend, src_cand, src_pos, row)
    return reads


_FORCING_FRAME = 19  #: the frame the inner forcing chains grow in


@kernel
def _forcing_frame(ws):
    """The few arrays an inner forcing chain grows in: a call handing ``_grow_forcing`` the
    whole workspace (46 arrays) cost more than the growth itself, a chain here being a dozen
    potentials. (Its frame's rows: membership, parents' start and count, cause, order,
    scalars, pool; then the queues and the implication buffer.)"""
    f = _FORCING_FRAME
    frame = (ws[R.WS_MEM][f], ws[R.WS_PARENT_START][f], ws[R.WS_PARENT_COUNT][f], ws[R.WS_CAUSE][f],
             ws[R.WS_ORDER][f], ws[R.WS_FRAME][f], ws[R.WS_POOL][f])
    return frame, (ws[R.WS_QUEUE_ON], ws[R.WS_QUEUE_OFF], ws[R.WS_OUT], ws[R.WS_OUT_CAUSE])


@kernel
def _forcing_hint(g, ws, hl, source, y_links, tparent, tcause, src_cand, src_pos):
    """List SE's forcing chain from ``source`` just grown (``_grow_forcing``), whose opposite
    ``tparent`` implied with cause ``tcause``."""
    f = _FORCING_FRAME
    fs = ws[R.WS_FRAME]
    target = source ^ 1
    if not worth(g, target):
        return
    # the target as SE's frame would hold it: a potential with one parent, not in the frame
    fs[f, F_V_START] = fs[f, F_POOL]
    if fs[f, F_POOL] < POOL:
        ws[R.WS_POOL][f, fs[f, F_POOL]] = tparent
        fs[f, F_POOL] += 1
    fs[f, F_V_N] = 1
    fs[f, F_V_CAUSE] = tcause
    counts = hl[HL_COUNT]
    p0 = counts[2]
    c, hs = _frame_walk(g, ws, f, target, True, C_NONE, src_cand, src_pos, hl, True)
    base = 7.0 if y_links else 6.6
    d = base + length_difficulty(c)
    _list(g, hl, d, c, 4 if y_links else 2, target, p0, hs)


@kernel(inline="always")
def _take(frame, st, q, cause, parent, at, npool):
    """Potential q joins the frame (``_grow_forcing``'s) at ``order[at]``, implied by ``parent``
    with ``cause``; the parents written after it."""
    mem, pstart, pn, cz, order, fsr, pool = frame
    mem[q] = st
    pstart[q] = npool
    pn[q] = 0
    cz[q] = cause
    order[at] = q
    if npool < POOL:
        pool[npool] = parent
        pn[q] = 1
        return npool + 1
    return npool


@kernel
def _grow_forcing(g, source, y_links, frame, queues, ctr, read):
    """Grow SE's forcing chain from ``source`` in layers (all "on" potentials of a layer, then
    all "off"), into ``frame`` (one frame's rows: membership, parents' start and count, cause,
    order, scalars, pool) until a layer implies its opposite; (the potential that did, its
    cause), or (-1, C_NONE). With a ``read`` row, what it reads is noted there."""
    mem, pstart, pn, cz, order, fsr, pool = frame
    qa, qb, out, causes = queues
    cand, pos = g[G_CAND], g[G_POS]
    noting = read.shape[0] > 0
    fsr[F_STAMP] += 1
    st = fsr[F_STAMP]
    fsr[F_ABSURD] = 0
    non, noff, npool = 0, 0, 0
    mem[source] = st
    pstart[source] = 0
    pn[source] = 0
    cz[source] = C_NONE
    na, nb = 0, 0
    if source & 1:
        order[non] = source
        non += 1
        qa[0] = source
        na = 1
    else:
        order[NP - 1 - noff] = source
        noff += 1
        qb[0] = source
        nb = 1
    tparent = -1
    tcause = C_NONE
    while na > 0 or nb > 0:
        nb2 = nb
        for i in range(na):
            p = qa[i]
            ctr[R.W_WORK] += 1
            ctr[R.W_FORCING_STEPS] += 1
            if noting:
                _note_read(read, p, y_links)
            n = on_to_off(g, p, y_links, out, causes)
            for k in range(n):
                q = out[k]
                if q | 1 == source and tparent < 0:
                    tparent = p
                    tcause = causes[k]
                if mem[q] != st:
                    npool = _take(frame, st, q, causes[k], p, NP - 1 - noff, npool)
                    noff += 1
                    qb[nb2] = q
                    nb2 += 1
        na2 = 0
        for i in range(nb2):
            p = qb[i]
            ctr[R.W_WORK] += 1
            ctr[R.W_FORCING_STEPS] += 1
            if noting:
                _note_read(read, p, y_links)
            n = static_on(cand, pos, p, y_links, True, out, causes)
            for k in range(n):
                q = out[k]
                if q & ~1 == source and tparent < 0:
                    tparent = p
                    tcause = causes[k]
                if mem[q] != st:
                    npool = _take(frame, st, q, causes[k], p, non, npool)
                    non += 1
                    qa[na2] = q
                    na2 += 1
        na = na2
        nb = 0
        if tparent >= 0:
            break
    fsr[F_NON] = non
    fsr[F_NOFF] = noff
    fsr[F_POOL] = npool
    return tparent, tcause


@kernel
def _cycles_all(g, ws, hl, source, y_links, x_links, pend_on, src_cand, src_pos, read):
    """SE's cycles from ``source`` (see ``chains._cycles``), every one listed; with a ``read``
    row, what the search reads noted there instead, nothing listed."""
    noting = read.shape[0] > 0
    if noting:
        _note_read(read, source, y_links)  # its strong links: new ones may close cycles
    partners = np.zeros(4, dtype=np.int64)
    npart = _partners(g, source, y_links, x_links, partners)
    if npart == 0:
        return
    nodes, pend_off, seen, ncause = ws[R.WS_CYCLE_NODES], ws[R.WS_CYCLE_QUEUE], ws[R.WS_CYCLE_STAMP], ws[R.WS_CYCLE_CAUSE]
    out, causes = ws[R.WS_OUT], ws[R.WS_OUT_CAUSE]
    ctr = ws[R.WS_COUNTERS]
    ctr[R.W_STAMP] += 1
    st = ctr[R.W_STAMP]
    buf = np.zeros(32, dtype=np.int64)
    bufc = np.zeros(32, dtype=np.int64)
    cap = nodes.shape[0] - 1
    nodes[0, 0] = source
    nodes[0, 1] = -1
    nodes[0, 2] = 0
    ncause[0] = C_NONE
    nn = 1
    seen[source] = st
    pend_on[0] = 0
    non = 1
    while non > 0:
        noff = 0
        for i in range(non):
            un = pend_on[i]
            d = nodes[un, 2]
            p = nodes[un, 0]
            ctr[R.W_WORK] += 1
            ctr[R.W_DISTANCE_STEPS] += 1
            if noting:
                _note_read(read, p, y_links)
            n = on_to_off(g, p, y_links, buf, bufc)
            for k in range(n):
                q = buf[k]
                if d >= 2 and not noting:
                    for j in range(npart):
                        if partners[j] == q and not _is_parent(nodes, un, q):
                            ctr[R.W_CYCLE_STEPS] += 1
                            nodes[cap, 0] = q
                            nodes[cap, 1] = un
                            nodes[cap, 2] = d + 1
                            ncause[cap] = bufc[k]
                            _cycle_list(g, ws, hl, nodes, ncause, cap, source, y_links, x_links, j, npart,
                                        src_cand, src_pos)
                if seen[q] != st and nn < cap:
                    seen[q] = st
                    nodes[nn, 0] = q
                    nodes[nn, 1] = un
                    nodes[nn, 2] = d + 1
                    ncause[nn] = bufc[k]
                    pend_off[noff] = nn
                    noff += 1
                    nn += 1
        non = 0
        for i in range(noff):
            xn = pend_off[i]
            p = nodes[xn, 0]
            ctr[R.W_WORK] += 1
            if noting:
                _note_read(read, p, y_links)
            n = static_on(g[G_CAND], g[G_POS], p, y_links, x_links, out, causes)
            for k in range(n):
                q = out[k]
                if seen[q] != st and nn < cap:
                    seen[q] = st
                    nodes[nn, 0] = q
                    nodes[nn, 1] = xn
                    nodes[nn, 2] = nodes[xn, 2] + 1
                    ncause[nn] = causes[k]
                    pend_on[non] = nn
                    non += 1
                    nn += 1


@kernel
def _closing_cause(g, source, partner, y_links, x_links):
    """The cause of the implication partner (off) => source (on) that closes a cycle."""
    pos = g[G_POS]
    if y_links and pcell(partner) == pcell(source):
        return C_CELL
    cell, v = pcell(source), pvalue(source)
    for t in range(3):
        r = CELL_REGION[cell, t]
        m = pos[r, v] & ~(1 << CELL_POS[cell, t])
        if m != 0 and m & (m - 1) == 0 and REGION[r, LOW[m]] == pcell(partner):
            return C_BLOCK + t
    return C_NONE


@kernel
def _cycle_list(g, ws, hl, nodes, ncause, last, source, y_links, x_links, j, npart, src_cand, src_pos):
    """List the cycle closed at node ``last``: removals in SE's order (the cells outside the
    cycle seeing one of its "on" and one of its "off" potentials of a value, in the order its
    walk meets them, then as a Java HashMap of cells iterates), rule parents from every
    potential but the source (SE collects them from the cycle and its reverse)."""
    cand = g[G_CAND]
    incycle = np.zeros(81, dtype=np.bool_)
    forw = np.zeros((81, 10), dtype=np.bool_)
    back = np.zeros((81, 10), dtype=np.bool_)
    incycle[pcell(source)] = True
    length = 1
    k = last
    while nodes[k, 1] >= 0:
        incycle[pcell(nodes[k, 0])] = True
        length += 1
        k = nodes[k, 1]
    # the walk: the closing "on" potential (the source again), then back along the path
    walk = np.zeros(length + 1, dtype=np.int64)
    nw = 0
    walk[nw] = source
    nw += 1
    k = last
    while nodes[k, 1] >= 0:
        walk[nw] = nodes[k, 0]
        nw += 1
        k = nodes[k, 1]
    order_c = np.zeros(810, dtype=np.int64)
    order_v = np.zeros(810, dtype=np.int64)
    no = 0
    for i in range(nw):
        p = walk[i]
        c, v = pcell(p), pvalue(p)
        for o in range(81):
            if SEES[c, o] and not incycle[o] and (cand[o] >> v) & 1:
                if p & 1:
                    if not forw[o, v]:
                        forw[o, v] = True
                        order_c[no] = o
                        order_v[no] = v
                        no += 1
                else:
                    back[o, v] = True
    cells = np.zeros(81, dtype=np.int64)
    vals = np.zeros(81, dtype=np.int64)
    slot = np.full(81, -1, dtype=np.int64)
    ncells = 0
    for i in range(no):
        o, v = order_c[i], order_v[i]
        if not back[o, v]:
            continue
        if slot[o] < 0:
            slot[o] = ncells
            cells[ncells] = o
            ncells += 1
        vals[slot[o]] |= 1 << v
    if ncells == 0:
        return
    counts = hl[HL_COUNT]
    k0 = counts[0]
    if k0 >= HL:
        counts[3] = 1
        return
    p0 = counts[2]
    # an identity in walk order from the source: SE's FullChain tells the same loop from another
    # start apart, and the outer chain adds its complexity again
    hsum = _mix(source + 1)
    # rule parents: the closing "on", every node but the source, each with its cause
    _cause_parents(g, src_cand, src_pos, source, _closing_cause(g, source, nodes[last, 0], y_links, x_links), hl)
    k = last
    while nodes[k, 1] >= 0:
        p = nodes[k, 0]
        hsum = hsum * np.uint64(0x100000001B3) + _mix(p + 1)
        _cause_parents(g, src_cand, src_pos, p | 1, ncause[k], hl)
        k = nodes[k, 1]
    xy = x_links and y_links
    d = (7.0 if xy else 6.5) + length_difficulty(length)
    hl[HL_D][k0] = d
    hl[HL_I][k0, 0] = length
    hl[HL_I][k0, 1] = 4 if xy else (3 if y_links else 2)
    hl[HL_I][k0, 2] = k0
    hl[HL_PS][k0] = p0
    hl[HL_PN][k0] = counts[2] - p0
    hl[HL_HASH][k0] = hsum
    cap = 16
    while ncells > cap * 3 // 4:
        cap *= 2
    hl[HL_RS][k0] = counts[1]
    nr = 0
    rems = hl[HL_REMS]
    for bucket in range(cap):
        for i in range(ncells):
            if cells[i] & (cap - 1) == bucket:
                m = vals[i]
                for v in range(1, 10):
                    if (m >> v) & 1 and counts[1] < HL_REM:
                        rems[counts[1]] = pot(cells[i], v, 0)
                        counts[1] += 1
                        nr += 1
    hl[HL_RN][k0] = nr
    counts[0] = k0 + 1


# -- the generic chaining: SE's doChaining (``chains.chaining``) and getMultipleChainsHintList, one
# copy per tier ---------------------------------------------------------------------------------
#
# Plain functions: ``instantiate`` compiles a copy of each for every tier, with the names in
# capitals (DC, ADVANCED, MC_STATIC, ...) bound to that tier's functions. ``inner`` is the tier
# below's workspaces and hint lists, ``(wsn, wsn2, hln, hln2)``; ``source`` the grid's candidates
# and positions before the outer chain reduced it.


def _adv_g2(g, ws, level, nl, inner):
    """Levels 2 and 3: the simple rules, then SE's forcing chains and cycles, then (level 3)
    its static cell and region forcing chains, each on the reduced grid."""
    wsn, wsn2, hln, hln2 = inner
    n = simple_rules(g, ws, level, nl, inner)
    if n == 0 and level >= 2:
        clear_hints(hln)
        unary_all(g, wsn, hln, ws[R.WS_SOURCE_CAND], ws[R.WS_SOURCE_POS])
        n = emit(hln, ws)
    if n == 0 and level >= 3:
        clear_hints(hln)
        MC_STATIC(g, wsn, HDUMMY(), MULTIPLE, 0, 0, True, hln, (ws[R.WS_SOURCE_CAND], ws[R.WS_SOURCE_POS]), (wsn2, wsn2, hln2, hln2))  # noqa: F821 - bound per tier
        n = emit(hln, ws)
    return n


def _adv_g3(g, ws, level, nl, inner):
    """Level 4: the simple rules, then SE's dynamic forcing chains at level ``nl`` (0 to 3)."""
    wsn, wsn2, hln, hln2 = inner
    n = simple_rules(g, ws, level, nl, inner)
    if n == 0:
        clear_hints(hln)
        if nl <= 1:
            MC_LOW(g, wsn, HDUMMY(), DYNAMIC, nl, 0, True, hln, (ws[R.WS_SOURCE_CAND], ws[R.WS_SOURCE_POS]), (wsn2, wsn2, hln2, hln2))  # noqa: F821 - bound per tier
        else:
            MC_MID(g, wsn, HDUMMY(), DYNAMIC, nl, 0, True, hln, (ws[R.WS_SOURCE_CAND], ws[R.WS_SOURCE_POS]), (wsn2, wsn2, hln2, hln2))  # noqa: F821 - bound per tier
        n = emit(hln, ws)
    return n




def _hdummy():
    return (np.zeros(16, dtype=np.int64), np.zeros(1, dtype=np.float64), np.zeros((729, 2), dtype=np.int64),
            np.zeros(81, dtype=np.int64))


HDUMMY = kernel(_hdummy)


# tier 1: dynamic chains with the simple rules (``chains.do_chaining``), and static ones; what
# levels 3 and 4 nest
MC_G1 = instantiate(_multiple, "mc_g1", DC=do_chaining, HINT=_hint)
# tier 2: levels 2 and 3, nesting forcing chains and cycles, and static multiple chains
ADV_G2 = instantiate(_adv_g2, "adv_g2", MC_STATIC=MC_G1)
DC_G2 = instantiate(chaining, "dc_g2", ADVANCED=ADV_G2)
MC_G2 = instantiate(_multiple, "mc_g2", DC=DC_G2, HINT=_hint)
# tier 3: level 4, nesting dynamic chains of levels 0 to 3
ADV_G3 = instantiate(_adv_g3, "adv_g3", MC_LOW=MC_G1, MC_MID=MC_G2)
DC_G3 = instantiate(chaining, "dc_g3", ADVANCED=ADV_G3)
MC_G3 = instantiate(_multiple, "mc_g3", DC=DC_G3, HINT=_hint)


@kernel
def nested_chains(g, ws, h, level, nl, ws1, ws2, hl1, hl2):
    """The best hint of SE's nested dynamic forcing chains: ``level`` 2 (9.5), 3 (10.0), or 4
    (10.5, nesting dynamic chains of level ``nl``); ``ws1``, ``ws2``, ``hl1``, ``hl2`` hold the
    inner searches."""
    src_cand, src_pos = ws[R.WS_SOURCE_CAND], ws[R.WS_SOURCE_POS]
    if level <= 3:
        return MC_G2(g, ws, h, DYNAMIC, level, 0, False, hl1, (src_cand, src_pos), (ws1, ws2, hl1, hl2))
    return MC_G3(g, ws, h, DYNAMIC, 4, nl, False, hl1, (src_cand, src_pos), (ws1, ws2, hl1, hl2))


#: SE's nested rules, in its order: (level, nesting level of the inner dynamic chains); their
#: numbers follow ``se.BASE_RULES`` in ``se.RULE_NAMES``
NESTED_RULES = ((2, 0), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3))


@kernel(inline="always")
def borrow_hints(hl):
    return (
        borrowed(hl[0]), borrowed(hl[1]), borrowed(hl[2]), borrowed(hl[3]), borrowed(hl[4]), borrowed(hl[5]),
        borrowed(hl[6]), borrowed(hl[7]), borrowed(hl[8]), borrowed(hl[9]), borrowed(hl[10]),
    )


@kernel
def nested_step(g, ws, h, ws1, ws2, hl1, hl2, first_rule):
    """The next step when no rule before them applies: the first nested rule with a hint (in
    ``h``), numbered from ``first_rule`` (its number in ``ws[R.WS_COUNTERS][R.W_RULE]`` while it searches);
    -1 if none applies, -2 if the work budget ran out."""
    # borrowed: the inner searches pass these records down millions of times, and each pass
    # counted a reference to each of their 60 arrays (58% of a level-4 rating's time)
    g, ws, h = borrow_grid(g), borrow_workspace(ws), borrow_hint(h)
    ws1, ws2, hl1, hl2 = borrow_workspace(ws1), borrow_workspace(ws2), borrow_hints(hl1), borrow_hints(hl2)
    memo_step(ws, g)
    memo_step(ws1, g)
    for k in range(len(NESTED_RULES)):
        ws[R.WS_COUNTERS][R.W_RULE] = first_rule + k
        level, nl = NESTED_RULES[k]
        found = nested_chains(g, ws, h, level, nl, ws1, ws2, hl1, hl2)
        if ws[R.WS_COUNTERS][R.W_OVER]:
            return -2
        if found:
            return first_rule + k
    return -1
