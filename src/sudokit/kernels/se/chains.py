"""Sudoku Explainer's chains: SE's chaining (doChaining, every tier of nesting), bidirectional
cycles and forcing X- and XY-chains, rated with SE's length penalty. The multiple-chain
techniques built on the chaining (Nishio, cell and region forcing chains, their dynamic and
nested forms) are ``forcing``'s.

A chain grows from one potential (a candidate assumed true, "on", or false, "off") by SE's two
implications: an "on" candidate turns off the cell's other candidates and the value's other
places in its block, row and column (the weak links, in that order); an "off" candidate turns on
the cell's last candidate (a Y-link) and the value's last place in each of its block, row and
column (X-links). Every implied potential keeps the potential that implied it as its parent;
in the dynamic forms the grid also loses each "off" candidate as it is processed, and an "on"
potential found in the reduced grid lists the removed candidates that made it one as parents
too. A hint's complexity is the number of distinct potentials behind its conclusions (its
ancestors), and its rating is the technique's base plus ``core.length_difficulty`` of that.

How a chain grows decides its ancestors, so the order is SE's: unary chains (cycles and forcing
X/XY-chains) grow in layers (all "on" potentials of one layer, then all "off"); the others
(``do_chaining``) always take the next pending "on" potential before any "off" one. Of all the
hints of a technique SE takes the one with the lowest rating, then the lowest complexity, then
its kind's sort key, then the first found; the finders keep just that one.

A *frame* is one chaining's result (SE's pair of sets ``toOn``/``toOff``): ``ws`` holds
``FRAMES`` of them side by side (a cell's chainings for every value stay alive until its cell
forcing chains are read), each a membership stamp per potential, its parents (a slice of the
frame's pool), its cause and its order of arrival.
"""

from __future__ import annotations

import numpy as np

from . import ids as T
from ..build.jit import instantiate, kernel
from .record import CPLX, G_CAND, G_POS, H_DIFF, H_HDR, NE, NP, SORT, SRC, SUB, TARGET
from ..search.bits import borrowed
from .advanced import basic
from .distance import adjacency, forcing_distance, number_candidates
from .memo import memo_find, memo_keep
from .record import FRAMES, FS, POOL, QUEUE, new_workspace  # noqa: F401 - nested chains, the Python layer
from .record import (
    WS_ADV, WS_ADV_COUNT, WS_ADV_CPLX, WS_ADV_ID, WS_ADV_PARENTS, WS_ADV_START, WS_ADV_TOTALS, WS_BFS,
    WS_CAUSE, WS_COUNTERS, WS_CYCLE_NODES, WS_CYCLE_NODE_OF, WS_CYCLE_QUEUE, WS_CYCLE_STAMP, WS_DEPTH,
    WS_DIGIT_CELLS, WS_FRAME, WS_HIDDEN, WS_HIDDEN_COUNT, WS_HIDDEN_START, WS_MEM, WS_NEST_CPLX,
    WS_NEST_ID, WS_NOTHING_CELLS, WS_NOTHING_FOUND, WS_ORDER, WS_OUT, WS_OUT_CAUSE, WS_PARENT_COUNT,
    WS_PARENT_START, WS_POOL, WS_QUEUE_OFF, WS_QUEUE_ON, WS_SOURCE_CAND, WS_SOURCE_POS, WS_UNDO,
    WS_VISIT, WS_KEPT_AT, WS_KEPT_DATA, WS_KEPT_STATE, W_BUDGET, W_CYCLE_STEPS, W_OVER, W_STAMP, W_WORK,
)  # fmt: skip
from .core import (
    digit_masks, same_cells, CELL_POS, CELL_REGION, LOW, POP, REGION, SEES, add_cell, add_elim, clear_hint,
    length_difficulty, remove, restore, set_place,
)  # fmt: skip


# causes (what made a potential: SE's Potential.Cause)
C_NONE = 0
C_CELL = 1  #: the cell's other candidate / only remaining value
C_BLOCK = 2
C_ROW = 3
C_COL = 4
C_ADVANCED = 5

# frame scalars (fs[f, k])
F_STAMP = 0
F_NON = 1  #: "on" potentials in the frame
F_NOFF = 2
F_POOL = 3  #: parents written
F_ABSURD = 4  #: 1 if the chaining ended in a contradiction
F_AB_ON = 5  #: the contradiction: the potential found both on ...
F_AB_OFF = 6  #: ... and off
F_AB_VIRTUAL = 7  #: which of the two is not in the frame: 0 the off one, 1 the on one
F_V_START = 8  #: the parents of that one, in the pool
F_V_N = 9
F_V_CAUSE = 10  #: the cause of that one


@kernel(inline="always")
def borrow_workspace(ws):
    return (
        borrowed(ws[0]), borrowed(ws[1]), borrowed(ws[2]), borrowed(ws[3]), borrowed(ws[4]),
        borrowed(ws[5]), borrowed(ws[6]), borrowed(ws[7]), borrowed(ws[8]), borrowed(ws[9]),
        borrowed(ws[10]), borrowed(ws[11]), borrowed(ws[12]), borrowed(ws[13]), borrowed(ws[14]),
        borrowed(ws[15]), borrowed(ws[16]), borrowed(ws[17]), borrowed(ws[18]), borrowed(ws[19]),
        borrowed(ws[20]), borrowed(ws[21]), borrowed(ws[22]), borrowed(ws[23]), borrowed(ws[24]),
        borrowed(ws[25]), borrowed(ws[26]), borrowed(ws[27]), borrowed(ws[28]), borrowed(ws[29]),
        borrowed(ws[30]), borrowed(ws[31]), borrowed(ws[32]), borrowed(ws[33]), borrowed(ws[34]),
        borrowed(ws[35]), borrowed(ws[36]), borrowed(ws[37]), borrowed(ws[38]), borrowed(ws[39]),
        borrowed(ws[40]), borrowed(ws[41]), borrowed(ws[42]), borrowed(ws[43]), borrowed(ws[44]),
        borrowed(ws[45]),
    )


#: the per-value caches (``ws[WS_NOTHING_CELLS]``, ``ws[WS_NOTHING_FOUND]``): which rule each row serves
X_CACHE = 0
LINKS_CACHE = 1  #: 1, 2, 3: two, three, four strong links
ALIGNED_CACHE = 4  #: 4, 5: aligned pair and triplet exclusion (the whole grid's cells, ``ok[0]``)
NISHIO_CACHE = 6  #: 6, 7: Nishio (the values' cells, and its sources, when it found nothing)
WING_CACHE = 8  #: 8 to 11: the WXYZ- to TUVWXYZ-Wings (the whole grid's cells, ``ok[0]``)

@kernel(inline="always")
def over_budget(ws):
    """Whether the work budget is spent (then flagged: the search must give up)."""
    ctr = ws[WS_COUNTERS]
    if ctr[W_BUDGET] > 0 and ctr[W_WORK] > ctr[W_BUDGET]:
        ctr[W_OVER] = 1
        return True
    return False


@kernel(inline="always")
def pcell(p):
    return p // 18


@kernel(inline="always")
def pvalue(p):
    return (p // 2) % 9 + 1


@kernel(inline="always")
def pot(cell, value, on):
    return (cell * 9 + value - 1) * 2 + on


# -- the two implications -------------------------------------------------------------------------


@kernel
def on_to_off(g, p, y_links, out, causes):
    """What ``p`` being on turns off, in SE's order: the cell's other values (Y-links), then the
    value's other places in the block, the row, the column (a cell once)."""
    cand, pos = g[G_CAND], g[G_POS]
    cell, v = pcell(p), pvalue(p)
    n = 0
    if y_links:
        m = cand[cell] & ~(1 << v)
        while m:
            u = LOW[m & -m]
            m &= m - 1
            out[n] = pot(cell, u, 0)
            causes[n] = C_CELL
            n += 1
    block = CELL_REGION[cell, 0]
    for t in range(3):
        r = CELL_REGION[cell, t]
        m = pos[r, v] & ~(1 << CELL_POS[cell, t])
        while m:
            c = REGION[r, LOW[m & -m]]
            m &= m - 1
            if t > 0 and CELL_REGION[c, 0] == block:
                continue
            out[n] = pot(c, v, 0)
            causes[n] = C_BLOCK + t
            n += 1
    return n


@kernel
def static_on(cand, pos, p, y_links, x_links, out, causes):
    """``off_to_on`` of a static chaining (no hidden parents) into ``out`` and ``causes``, for
    the hot loops that grow short chains: handed the whole workspace, the call cost more than
    the implication."""
    cell, v = pcell(p), pvalue(p)
    n = 0
    if y_links:
        m = cand[cell]
        if POP[m] == 2:
            out[n] = pot(cell, LOW[m & ~(1 << v)], 1)
            causes[n] = C_CELL
            n += 1
    if not x_links:
        return n
    for t in range(3):
        r = CELL_REGION[cell, t]
        m = pos[r, v] & ~(1 << CELL_POS[cell, t])
        if m != 0 and m & (m - 1) == 0:
            out[n] = pot(REGION[r, LOW[m]], v, 1)
            causes[n] = C_BLOCK + t
            n += 1
    return n


@kernel
def off_to_on(g, ws, p, y_links, x_links, dynamic):
    """What ``p`` being off turns on: the cell's last value (Y), the value's last place in the
    block, row, column (X) (``static_on``). In a dynamic chaining each result also lists the
    candidates removed since the chaining began that made it the last (its hidden parents).
    Results go to the implication buffer; returns how many."""
    cand, pos = g[G_CAND], g[G_POS]
    out, causes, hstart, hn, hpool = ws[WS_OUT], ws[WS_OUT_CAUSE], ws[WS_HIDDEN_START], ws[WS_HIDDEN_COUNT], ws[WS_HIDDEN]
    src_cand, src_pos = ws[WS_SOURCE_CAND], ws[WS_SOURCE_POS]
    n = static_on(cand, pos, p, y_links, x_links, out, causes)
    k = 0
    for i in range(n):
        hstart[i] = k
        if dynamic:
            cell, v = pcell(out[i]), pvalue(out[i])
            if causes[i] == C_CELL:
                gone = src_cand[cell] & ~cand[cell]
                while gone:
                    hpool[k] = pot(cell, LOW[gone & -gone], 0)
                    gone &= gone - 1
                    k += 1
            else:
                r = CELL_REGION[cell, causes[i] - C_BLOCK]
                gone = src_pos[r, v] & ~pos[r, v]
                while gone:
                    hpool[k] = pot(REGION[r, LOW[gone & -gone]], v, 0)
                    gone &= gone - 1
                    k += 1
        hn[i] = k - hstart[i]
    return n


# -- frames ---------------------------------------------------------------------------------------


@kernel
def frame_reset(ws, f):
    fs = ws[WS_FRAME]
    fs[f, F_STAMP] += 1
    fs[f, F_NON] = 0
    fs[f, F_NOFF] = 0
    fs[f, F_POOL] = 0
    fs[f, F_ABSURD] = 0


@kernel(inline="always")
def in_frame(ws, f, p):
    return ws[WS_MEM][f, p] == ws[WS_FRAME][f, F_STAMP]


@kernel
def frame_add(ws, f, p, cause):
    """Add p to frame f with no parents yet (the caller appends them with ``frame_parent``)."""
    mem, pstart, pn, cz, order, fs = ws[WS_MEM], ws[WS_PARENT_START], ws[WS_PARENT_COUNT], ws[WS_CAUSE], ws[WS_ORDER], ws[WS_FRAME]
    mem[f, p] = fs[f, F_STAMP]
    pstart[f, p] = fs[f, F_POOL]
    pn[f, p] = 0
    cz[f, p] = cause
    if p & 1:
        order[f, fs[f, F_NON]] = p
        fs[f, F_NON] += 1
    else:
        order[f, NP - 1 - fs[f, F_NOFF]] = p
        fs[f, F_NOFF] += 1


@kernel(inline="always")
def frame_parent(ws, f, p, parent):
    pool, fs = ws[WS_POOL], ws[WS_FRAME]
    k = fs[f, F_POOL]
    if k < POOL:
        pool[f, k] = parent
        fs[f, F_POOL] = k + 1
        ws[WS_PARENT_COUNT][f, p] += 1


@kernel(inline="always")
def frame_on(ws, f, k):
    """The k-th "on" potential of frame f, in order of arrival."""
    return ws[WS_ORDER][f, k]


@kernel(inline="always")
def frame_off(ws, f, k):
    return ws[WS_ORDER][f, NP - 1 - k]


@kernel
def ancestors(ws, f, p, virtual):
    """SE's ``getAncestorCount``: p and every potential behind it, each once. ``virtual``: p is
    the frame's contradiction potential that is not in the frame (its parents are the frame's
    ``F_V_*`` slice)."""
    seen, queue, ctr = ws[WS_VISIT], ws[WS_BFS], ws[WS_COUNTERS]
    pool, pstart, pn, fs = ws[WS_POOL], ws[WS_PARENT_START], ws[WS_PARENT_COUNT], ws[WS_FRAME]
    ctr[W_STAMP] += 1
    stamp = ctr[W_STAMP]
    seen[p] = stamp
    count = 1
    head = 0
    tail = 0
    if virtual:
        s, n = fs[f, F_V_START], fs[f, F_V_N]
    else:
        s, n = pstart[f, p], pn[f, p]
    for k in range(n):
        q = pool[f, s + k]
        if seen[q] != stamp:
            seen[q] = stamp
            count += 1
            queue[tail] = q
            tail += 1
    while head < tail:
        q = queue[head]
        head += 1
        s, n = pstart[f, q], pn[f, q]
        for k in range(n):
            r = pool[f, s + k]
            if seen[r] != stamp:
                seen[r] = stamp
                count += 1
                queue[tail] = r
                tail += 1
    return count


# -- SE's doChaining ------------------------------------------------------------------------------


def chaining(g, ws, f, y_links, dynamic, level, nl, inner):
    """SE's doChaining, for every tier of nesting: complete frame f (its first potentials
    already in it and queued by ``seed``) with every implied potential, taking pending "on"
    potentials first; at ``level`` 1 and up, once nothing is pending, also the potentials the
    tier's ``ADVANCED`` finds in the reduced grid (the simple rules, ``se_advanced``; nested
    tiers add the hints of inner chains, searched at nesting level ``nl`` in the workspaces and
    hint lists of ``inner``), with the complexity and identity of the inner hint behind each.
    Returns True on a contradiction (a potential implied both on and off; the frame's
    ``F_AB_*`` slots say which). The grid is as it was on return; the frame holds what was
    found until then.

    A plain function: ``instantiate`` compiles one copy a tier (``do_chaining`` below, the
    nested tiers in ``nested``), ``ADVANCED`` bound to that tier's advanced implications."""
    cand, pos = g[G_CAND], g[G_POS]
    qon, qoff, undo = ws[WS_QUEUE_ON], ws[WS_QUEUE_OFF], ws[WS_UNDO]
    out, causes = ws[WS_OUT], ws[WS_OUT_CAUSE]
    hstart, hn, hpool = ws[WS_HIDDEN_START], ws[WS_HIDDEN_COUNT], ws[WS_HIDDEN]
    fs, pool = ws[WS_FRAME], ws[WS_POOL]
    ctr = ws[WS_COUNTERS]
    ws[WS_SOURCE_CAND][:] = cand
    ws[WS_SOURCE_POS][:, :] = pos
    # the queues: the frame's potentials so far, in order
    non, noff = 0, 0
    for k in range(fs[f, F_NON]):
        qon[non] = frame_on(ws, f, k)
        non += 1
    for k in range(fs[f, F_NOFF]):
        qoff[noff] = frame_off(ws, f, k)
        noff += 1
    hon, hoff = 0, 0
    nundo = 0
    absurd = False
    buf = np.zeros(32, dtype=np.int64)
    bufc = np.zeros(32, dtype=np.int64)
    while True:
        if hon < non:
            p = qon[hon]
            hon += 1
            ctr[W_WORK] += 1
            n = on_to_off(g, p, y_links, buf, bufc)
            for k in range(n):
                q = buf[k]
                if in_frame(ws, f, q | 1):
                    fs[f, F_ABSURD] = 1
                    fs[f, F_AB_ON] = q | 1
                    fs[f, F_AB_OFF] = q
                    fs[f, F_AB_VIRTUAL] = 0
                    fs[f, F_V_START] = fs[f, F_POOL]
                    fs[f, F_V_N] = 1
                    fs[f, F_V_CAUSE] = bufc[k]
                    if fs[f, F_POOL] < POOL:
                        pool[f, fs[f, F_POOL]] = p
                        fs[f, F_POOL] += 1
                    absurd = True
                    break
                if not in_frame(ws, f, q):
                    frame_add(ws, f, q, bufc[k])
                    frame_parent(ws, f, q, p)
                    qoff[noff] = q
                    noff += 1
            if absurd:
                break
            continue
        if hoff < noff:
            p = qoff[hoff]
            hoff += 1
            ctr[W_WORK] += 1
            n = off_to_on(g, ws, p, y_links, True, dynamic)
            if dynamic:
                if remove(g, pcell(p), pvalue(p)):
                    undo[nundo, 0] = pcell(p)
                    undo[nundo, 1] = pvalue(p)
                    nundo += 1
            for k in range(n):
                q = out[k]
                if in_frame(ws, f, q & ~1):
                    fs[f, F_ABSURD] = 1
                    fs[f, F_AB_ON] = q
                    fs[f, F_AB_OFF] = q & ~1
                    fs[f, F_AB_VIRTUAL] = 1
                    fs[f, F_V_START] = fs[f, F_POOL]
                    fs[f, F_V_CAUSE] = causes[k]
                    start = fs[f, F_POOL]
                    if start + 1 + hn[k] <= POOL:
                        pool[f, start] = p
                        for j in range(hn[k]):
                            pool[f, start + 1 + j] = hpool[hstart[k] + j]
                        fs[f, F_POOL] = start + 1 + hn[k]
                        fs[f, F_V_N] = 1 + hn[k]
                    absurd = True
                    break
                if not in_frame(ws, f, q):
                    frame_add(ws, f, q, causes[k])
                    frame_parent(ws, f, q, p)
                    for j in range(hn[k]):
                        frame_parent(ws, f, q, hpool[hstart[k] + j])
                    qon[non] = q
                    non += 1
            if absurd:
                break
            continue
        if level > 0 and not over_budget(ws):
            # nested rules: two chains of a step often reach the same grid (``memo``)
            n = memo_find(g, ws, level, nl) if level >= 2 else -1
            if n < 0:
                n = ADVANCED(g, ws, level, nl, inner)  # noqa: F821 - bound per tier by ``instantiate``
                if level >= 2 and not over_budget(ws):  # a search the budget cut short is not the answer
                    memo_keep(g, ws, level, nl, n)
            added = False
            adv, adv_start, adv_count, adv_parents = ws[WS_ADV], ws[WS_ADV_START], ws[WS_ADV_COUNT], ws[WS_ADV_PARENTS]
            for k in range(n):
                q = adv[k]
                if not in_frame(ws, f, q):
                    frame_add(ws, f, q, C_ADVANCED)
                    for j in range(adv_count[k]):
                        parent = adv_parents[adv_start[k] + j]
                        if in_frame(ws, f, parent):
                            frame_parent(ws, f, q, parent)
                    ws[WS_NEST_CPLX][f, q] = ws[WS_ADV_CPLX][k]
                    ws[WS_NEST_ID][f, q] = ws[WS_ADV_ID][k]
                    qoff[noff] = q
                    noff += 1
                    added = True
            if added:
                continue
        break
    for k in range(nundo - 1, -1, -1):
        restore(g, undo[k, 0], undo[k, 1])
    return absurd


@kernel
def simple_rules(g, ws, level, nl, inner):
    """The advanced implications of dynamic forcing chains (+), and of the first nested tier:
    what SE's simple rules remove from the reduced grid, as advanced potentials with no inner
    chain behind them (complexity and identity 0); how many."""
    n = basic(g, ws[WS_SOURCE_CAND], (ws[WS_ADV], ws[WS_ADV_START], ws[WS_ADV_COUNT], ws[WS_ADV_PARENTS], ws[WS_ADV_TOTALS]))
    for k in range(n):
        ws[WS_ADV_CPLX][k] = 0
        ws[WS_ADV_ID][k] = 0
    return n


#: SE's doChaining with the simple rules as its advanced implications (level 1): dynamic
#: forcing chains (+), and what the first nested tier runs; called with ``nl`` 0 and no
#: ``inner`` workspaces from this module
do_chaining = instantiate(chaining, "do_chaining", ADVANCED=simple_rules)


@kernel
def seed(ws, f, p):
    """Start frame f from the one potential p."""
    frame_reset(ws, f)
    frame_add(ws, f, p, C_NONE)


# -- chainings kept while a multiple-chain search lasts -------------------------------------------
#
# A multiple-chain search grows the chaining of a candidate "on" once for its cell and again for
# each region where it is not the value's first place (``forcing._multiple``): 2.5 times on
# average over diabolical_se's static searches. The chaining is a function of the grid, the
# potential and the search's mode, so the search keeps each one (its frame, packed) and copies
# it back when asked again. An entry: the frame's scalars, then per member (in arrival order,
# "on" then "off") the potential, its parents' start and count, its cause (and, nested, its
# inner hint's complexity and identity), then the parent pool.

_KEPT_HEAD = 10  #: F_NON, F_NOFF, F_POOL, then F_ABSURD to F_V_CAUSE


@kernel
def kept_reset(ws):
    """A search begins: what the last one kept is stale."""
    state = ws[WS_KEPT_STATE]
    state[0] += 1
    state[1] = 0


@kernel
def frame_keep(ws, f, p, nested):
    """Keep frame f, grown from potential p, for the rest of the search (if it fits)."""
    at, data, state = ws[WS_KEPT_AT], ws[WS_KEPT_DATA], ws[WS_KEPT_STATE]
    fs = ws[WS_FRAME]
    non, noff, npool = fs[f, F_NON], fs[f, F_NOFF], fs[f, F_POOL]
    each = 6 if nested else 4
    o = state[1]
    if o + _KEPT_HEAD + (non + noff) * each + npool > data.shape[0]:
        return
    mem_start, mem_count, cause, order, pool = ws[WS_PARENT_START], ws[WS_PARENT_COUNT], ws[WS_CAUSE], ws[WS_ORDER], ws[WS_POOL]
    nest_c, ids = ws[WS_NEST_CPLX], data.view(np.uint64)
    data[o] = non
    data[o + 1] = noff
    data[o + 2] = npool
    for j in range(7):
        data[o + 3 + j] = fs[f, F_ABSURD + j]
    e = o + _KEPT_HEAD
    for k in range(non + noff):
        q = order[f, k] if k < non else order[f, NP - 1 - (k - non)]
        data[e] = q
        data[e + 1] = mem_start[f, q]
        data[e + 2] = mem_count[f, q]
        data[e + 3] = cause[f, q]
        if nested:
            data[e + 4] = nest_c[f, q]
            ids[e + 5] = ws[WS_NEST_ID][f, q]
        e += each
    for j in range(npool):
        data[e + j] = pool[f, j]
    at[p, 0] = state[0]
    at[p, 1] = o
    state[1] = e + npool


@kernel
def frame_recall(ws, f, p, nested):
    """Frame f as the chaining from p left it earlier in this search: 1 if it ended in a
    contradiction, 0 if not, -1 if it was not kept (then f is untouched)."""
    at, data, state = ws[WS_KEPT_AT], ws[WS_KEPT_DATA], ws[WS_KEPT_STATE]
    if at[p, 0] != state[0]:
        state[3] += 1
        return -1
    o = at[p, 1]
    frame_reset(ws, f)
    fs = ws[WS_FRAME]
    stamp = fs[f, F_STAMP]
    non, noff, npool = data[o], data[o + 1], data[o + 2]
    fs[f, F_NON] = non
    fs[f, F_NOFF] = noff
    fs[f, F_POOL] = npool
    for j in range(7):
        fs[f, F_ABSURD + j] = data[o + 3 + j]
    mem, mem_start, mem_count, cause, order, pool = (
        ws[WS_MEM], ws[WS_PARENT_START], ws[WS_PARENT_COUNT], ws[WS_CAUSE], ws[WS_ORDER], ws[WS_POOL])
    nest_c, ids = ws[WS_NEST_CPLX], data.view(np.uint64)
    each = 6 if nested else 4
    e = o + _KEPT_HEAD
    for k in range(non + noff):
        q = data[e]
        if k < non:
            order[f, k] = q
        else:
            order[f, NP - 1 - (k - non)] = q
        mem[f, q] = stamp
        mem_start[f, q] = data[e + 1]
        mem_count[f, q] = data[e + 2]
        cause[f, q] = data[e + 3]
        if nested:
            nest_c[f, q] = data[e + 4]
            ws[WS_NEST_ID][f, q] = ids[e + 5]
        e += each
    for j in range(npool):
        pool[f, j] = data[e + j]
    state[2] += 1
    return fs[f, F_ABSURD]


# -- the best hint -----------------------------------------------------------------------------------


@kernel(inline="always")
def better(h, found, diff, cplx, sort):
    """Whether a hint rated (diff, cplx, sort) goes before the best so far (SE's order)."""
    if not found:
        return True
    hdr = h[H_HDR]
    best = h[H_DIFF][0]
    if diff != best:
        return diff < best
    if cplx != hdr[CPLX]:
        return cplx < hdr[CPLX]
    return sort < hdr[SORT]


@kernel
def most_complex(h, found, base, sort, least):
    """The largest complexity (from ``least`` on) at which a hint of base rating ``base`` and
    sort key ``sort`` would still go before the best so far; ``least - 1`` if none would. The
    chain searches stop growing past it: a longer chain can not be taken (the result is the
    same, the work is not)."""
    if not found:
        return 1 << 40
    c = least
    if not better(h, found, base + length_difficulty(c), c, sort):
        return least - 1
    while better(h, found, base + length_difficulty(c + 1), c + 1, sort):
        c += 1
    return c


@kernel
def _set_target(g, h, target, place_on):
    """Write a conclusion: an "on" target places its value (every other candidate of the cell
    goes, SE's removable set), an "off" one removes the candidate. Returns whether it removes
    anything (SE's ``isWorth``)."""
    cand = g[G_CAND]
    cell, v = pcell(target), pvalue(target)
    if target & 1:
        m = cand[cell] & ~(1 << v)
        while m:
            add_elim(h, cell, LOW[m & -m])
            m &= m - 1
        if place_on:
            set_place(h, cell, v)
    else:
        if (cand[cell] >> v) & 1:
            add_elim(h, cell, v)
    return h[H_HDR][NE] > 0


@kernel(inline="always")
def worth(g, target):
    cand = g[G_CAND]
    cell, v = pcell(target), pvalue(target)
    if target & 1:
        return cand[cell] & ~(1 << v) != 0
    return (cand[cell] >> v) & 1 != 0


@kernel
def offer(g, h, found, kind, sub, diff, cplx, sort, src, target, place_on):
    """Take the hint if it goes before the best so far and removes something; True if taken."""
    if not worth(g, target) or not better(h, found, diff, cplx, sort):
        return False
    clear_hint(h, kind, diff)
    _set_target(g, h, target, place_on)
    hdr = h[H_HDR]
    hdr[CPLX] = cplx
    hdr[SORT] = sort
    hdr[SRC] = src
    hdr[TARGET] = target
    hdr[SUB] = sub
    return True


# -- unary chains: cycles and forcing X- and XY-chains ---------------------------------------------------


@kernel
def unary_chains(g, ws, h):
    """SE's "Forcing Chains & Cycles": bidirectional X-cycles (6.5), Y-cycles (6.5) and cycles
    of both (7.0), forcing X-chains (6.6) and forcing chains (7.0), plus the length penalty;
    the best of them in ``h``.

    SE grows a forcing chain from each candidate until it meets the candidate's opposite; its
    length is the distance between the two in the implication graph, which is symmetric
    (a implies b exactly when not-b implies not-a), so the distance is also the least
    d(s, x) + d(s, not-x) over potentials x, found by growing only half as far (``distance.forcing_distance``).
    Each pass first measures every candidate's forcing chains that way; the cycles, which need
    SE's own growth, are then searched no longer than the best of them."""
    cand = g[G_CAND]
    found = False
    pend_on = np.zeros(NP, dtype=np.int64)
    fc = np.full(NP, -1, dtype=np.int64)
    # the X-links pass depends on each value's cells only: a value whose cells are those of a
    # pass that found nothing is skipped (``X_CACHE`` of the per-value caches)
    masks, cache, ok = ws[WS_DIGIT_CELLS], ws[WS_NOTHING_CELLS][X_CACHE], ws[WS_NOTHING_FOUND][X_CACHE]
    digit_masks(g, masks)
    skip = np.zeros(10, dtype=np.bool_)
    touched = np.zeros(10, dtype=np.bool_)
    info = np.zeros(2, dtype=np.int64)
    for v in range(1, 10):
        skip[v] = same_cells(masks, cache, ok, v)
    # the forcing chains' lengths are measured on bit sets of the candidates' potentials
    index = np.empty(729, dtype=np.int64)
    npot = 2 * number_candidates(g, index)
    adj = np.empty((npot, (npot + 63) // 64), dtype=np.uint64)
    depth = ws[WS_DEPTH]
    bits = np.empty((3, adj.shape[1]), dtype=np.uint64)
    ctr = ws[WS_COUNTERS]
    for mode in range(3):
        # SE's three passes: X-links only, Y-links only, both
        x_links = mode != 1
        y_links = mode != 0
        fbase = 7.0 if y_links else 6.6
        fsort = 4 if y_links else 2
        pre = False
        pre_d = 0.0
        pre_c = 0
        if x_links:
            adjacency(g, y_links, index, adj)
            for cell in range(81):
                if POP[cand[cell]] < 2:
                    continue
                if over_budget(ws):
                    return found
                m = cand[cell]
                while m:
                    v = LOW[m & -m]
                    m &= m - 1
                    for on in (1, 0):
                        src = pot(cell, v, on)
                        fc[src] = -1
                        if mode == 0 and skip[v]:
                            continue
                        cm = most_complex(h, found, fbase, fsort, 3)
                        if pre:
                            cm = min(cm, _most_within(pre_d, pre_c, fbase, 3))
                        if cm < 1 << 39:
                            touched[v] = True
                        if cm < 3:
                            continue
                        t = forcing_distance(adj, 2 * index[cell * 9 + v - 1] + on, cm - 1, depth, bits, ctr)
                        if t < 0:
                            continue
                        touched[v] = True
                        fc[src] = t + 1
                        d = fbase + length_difficulty(t + 1)
                        if not pre or d < pre_d or (d == pre_d and t + 1 < pre_c):
                            pre = True
                            pre_d = d
                            pre_c = t + 1
        for cell in range(81):
            card = POP[cand[cell]]
            if card < 2:
                continue
            if not x_links and card > 2:
                continue
            if over_budget(ws):
                return found
            m = cand[cell]
            while m:
                v = LOW[m & -m]
                m &= m - 1
                p_on = pot(cell, v, 1)
                if mode == 0 and skip[v]:
                    continue
                info[:] = 0
                found = _cycles(g, ws, h, found, p_on, y_links, x_links, pend_on, pre, pre_d, pre_c, fsort, info)
                if info[0] or info[1]:
                    touched[v] = True
                if x_links:
                    for on in (1, 0):
                        src = pot(cell, v, on)
                        c = fc[src]
                        if c > 0:
                            d = fbase + length_difficulty(c)
                            kind = T.FORCING_CHAIN if y_links else T.FORCING_X_CHAIN
                            if offer(g, h, found, kind, 3 if y_links else 1, d, c, fsort, src, src ^ 1, True):
                                found = True
        if mode == 0:
            for v in range(1, 10):
                if not skip[v] and not touched[v]:
                    ok[v] = 1
                    cache[v, 0] = masks[v, 0]
                    cache[v, 1] = masks[v, 1]
    return found


@kernel
def _most_within(bound_d, bound_c, base, least):
    """The largest complexity (from ``least`` on) of a hint of rating ``base`` + penalty that does
    not come after (bound_d, bound_c) of the same sort key."""
    c = least
    d = base + length_difficulty(c)
    if d > bound_d or (d == bound_d and c > bound_c):
        return least - 1
    while True:
        d = base + length_difficulty(c + 1)
        if d > bound_d or (d == bound_d and c + 1 > bound_c):
            return c
        c += 1


@kernel
def _is_parent(nodes, child, p):
    """Whether potential p is an ancestor of node ``child`` along first parents (SE's
    ``isParent``)."""
    k = nodes[child, 1]
    while k >= 0:
        if nodes[k, 0] == p:
            return True
        k = nodes[k, 1]
    return False


@kernel
def _partners(g, source, y_links, x_links, out):
    """The "off" potentials that turn ``source`` on (its strong links): the cell's other value
    if it has two (Y), the value's other place in each region where it has two (X)."""
    cand, pos = g[G_CAND], g[G_POS]
    cell, v = pcell(source), pvalue(source)
    n = 0
    if y_links and POP[cand[cell]] == 2:
        out[n] = pot(cell, LOW[cand[cell] & ~(1 << v)], 0)
        n += 1
    if x_links:
        for t in range(3):
            r = CELL_REGION[cell, t]
            m = pos[r, v] & ~(1 << CELL_POS[cell, t])
            if m != 0 and m & (m - 1) == 0:
                out[n] = pot(REGION[r, LOW[m]], v, 0)
                n += 1
    return n


@kernel
def _cycles(g, ws, h, found, source, y_links, x_links, pend_on, pre, pre_d, pre_c, pre_sort, info):
    """SE's doCycles from an "on" potential, in layers: a cycle closes where an "on" potential
    of the third layer or later turns off one of the source's strong partners (which turns the
    source back on), the partner not already on its path. SE keeps every path to an "off"
    potential; the paths to "on" potentials, and so the cycles and the order they are met in,
    are those of a search that keeps the first (``nodes``), so this one does, and looks for
    the closing partner among each "on" potential's implications instead."""
    xy = y_links and x_links
    base = 7.0 if xy else 6.5
    sort = 4 if xy else (3 if y_links else 2)
    cmax = most_complex(h, found, base, sort, 4)
    if pre and sort == pre_sort:
        cmax = min(cmax, _most_within(pre_d, pre_c, base, 4))
    if cmax < 1 << 39:
        info[1] = 1  # bounded: what it finds is not all there is
    if cmax < 4:
        return found
    partners = np.zeros(4, dtype=np.int64)
    npart = _partners(g, source, y_links, x_links, partners)
    if npart == 0:
        return found
    nodes, pend_off, node_of, seen = ws[WS_CYCLE_NODES], ws[WS_CYCLE_QUEUE], ws[WS_CYCLE_NODE_OF], ws[WS_CYCLE_STAMP]
    out, causes = ws[WS_OUT], ws[WS_OUT_CAUSE]
    ctr = ws[WS_COUNTERS]
    ctr[W_STAMP] += 1
    st = ctr[W_STAMP]
    buf = np.zeros(32, dtype=np.int64)
    bufc = np.zeros(32, dtype=np.int64)
    cap = nodes.shape[0] - 1
    nodes[0, 0] = source
    nodes[0, 1] = -1
    nodes[0, 2] = 0
    nn = 1
    seen[source] = st
    node_of[source] = 0
    pend_on[0] = 0
    non = 1
    while non > 0:
        noff = 0
        for i in range(non):
            un = pend_on[i]
            d = nodes[un, 2]
            if d + 2 > cmax:
                break
            p = nodes[un, 0]
            ctr[W_WORK] += 1
            ctr[W_CYCLE_STEPS] += 1
            n = on_to_off(g, p, y_links, buf, bufc)
            for k in range(n):
                q = buf[k]
                if d >= 2:
                    for j in range(npart):
                        if partners[j] == q and not _is_parent(nodes, un, q):
                            # the closing "off" potential, on this path only
                            nodes[cap, 0] = q
                            nodes[cap, 1] = un
                            nodes[cap, 2] = d + 1
                            info[0] = 1
                            found = _cycle_hint(g, h, found, nodes, cap, source, y_links, x_links)
                if seen[q] != st and d + 4 <= cmax and nn < cap:
                    seen[q] = st
                    nodes[nn, 0] = q
                    nodes[nn, 1] = un
                    nodes[nn, 2] = d + 1
                    node_of[q] = nn
                    pend_off[noff] = nn
                    noff += 1
                    nn += 1
        non = 0
        for i in range(noff):
            xn = pend_off[i]
            p = nodes[xn, 0]
            ctr[W_WORK] += 1
            ctr[W_CYCLE_STEPS] += 1
            n = static_on(g[G_CAND], g[G_POS], p, y_links, x_links, out, causes)
            for k in range(n):
                q = out[k]
                if seen[q] != st and nn < cap:
                    seen[q] = st
                    nodes[nn, 0] = q
                    nodes[nn, 1] = xn
                    nodes[nn, 2] = nodes[xn, 2] + 1
                    node_of[q] = nn
                    pend_on[non] = nn
                    non += 1
                    nn += 1
    return found


@kernel
def _cycle_hint(g, h, found, nodes, last, source, y_links, x_links):
    """The cycle closed from node ``last`` back to ``source``: remove each value from the cells
    outside the cycle that see one of its "on" and one of its "off" potentials."""
    cand = g[G_CAND]
    incycle = np.zeros(81, dtype=np.bool_)
    forw = np.zeros((81, 10), dtype=np.bool_)
    back = np.zeros((81, 10), dtype=np.bool_)
    incycle[pcell(source)] = True
    length = 1  # the closing "on" potential, which is the source
    k = last
    while nodes[k, 1] >= 0:
        incycle[pcell(nodes[k, 0])] = True
        length += 1
        k = nodes[k, 1]
    # every potential of the cycle but the source once more: the closing one, then back
    kind_diff = 7.0 if (y_links and x_links) else 6.5
    d = kind_diff + length_difficulty(length)
    sort = 4 if (y_links and x_links) else (3 if y_links else 2)
    if not better(h, found, d, length, sort):
        return found
    k = -1
    while True:
        if k == -1:
            p = source
            k = last
        else:
            p = nodes[k, 0]
            if nodes[k, 1] < 0:
                break
            k = nodes[k, 1]
        c, v = pcell(p), pvalue(p)
        for o in range(81):
            if SEES[c, o] and not incycle[o] and (cand[o] >> v) & 1:
                if p & 1:
                    forw[o, v] = True
                else:
                    back[o, v] = True
    any_elim = False
    for o in range(81):
        for v in range(1, 10):
            if forw[o, v] and back[o, v]:
                any_elim = True
    if not any_elim:
        return found
    clear_hint(h, T.CYCLE, d)
    for o in range(81):
        for v in range(1, 10):
            if forw[o, v] and back[o, v]:
                add_elim(h, o, v)
    hdr = h[H_HDR]
    hdr[CPLX] = length
    hdr[SORT] = sort
    hdr[SRC] = source
    hdr[SUB] = (1 if x_links else 0) + (2 if y_links else 0)
    k = last
    while k >= 0:
        add_cell(h, pcell(nodes[k, 0]))
        k = nodes[k, 1]
    return True
