"""What a nested chaining's advanced implications were, remembered while a step lasts.

A nested dynamic chain (9.5 and up) asks its inner searches, each time its queues run dry, what
they find in the grid it has reduced so far (``chains.chaining``'s ``ADVANCED``); nearly all of a
nested rating's time is there. Two chains of one step often reach the same reduced grid: the
chain from a candidate on and the one from its strong partner off imply each other, so they
reduce the grid alike and ask the same questions. The answer is a function of the reduced grid,
the grid the chain started from (its rule parents) and the rule (level, nesting level), so a
workspace made with ``new_workspace(memo=True)`` keeps each answer (the advanced buffer: the
potentials, their parents, the complexity and identity of the inner hint behind each) with that
key written out in full and compared in full, never by hash alone. Answers live while the
values placed stay the same (``memo_step``): for one step, however many times a budget cuts it
short. They fill a ring of words that later answers overwrite, and a hash of the key finds
their slot. A workspace with no memo arrays (``memo=False``) remembers nothing.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    G_CAND,
    G_VALUES,
    MEMO_VALUES,
    WS_ADV,
    WS_ADV_COUNT,
    WS_ADV_CPLX,
    WS_ADV_ID,
    WS_ADV_PARENTS,
    WS_ADV_START,
    WS_ADV_TOTALS,
    WS_MEMO_DATA,
    WS_MEMO_SLOTS,
    WS_MEMO_STATE,
    WS_SOURCE_CAND,
)

M_GEN = 0  #: the state's generation: slots of another one are stale
M_HEAD = 1  #: words written since the memo was made (the ring's write position, unwrapped)
M_HITS = 2
M_MISSES = 3
M_VALUES = MEMO_VALUES  #: the values placed on the grid the answers were found in (81 slots)

_HEAD = 4  #: an entry's first words: level, nesting level, potentials, parents
_KEY = _HEAD + 162  #: then the reduced grid's candidates and the source grid's
_EACH = 5  #: then per potential: potential, parents' start, their count, complexity, identity


@kernel
def memo_step(ws, g):
    """A step begins on grid ``g``: the answers remembered stand if its values are the ones
    they were found with (the same step again, after a budget cut it short), else they go."""
    state, values = ws[WS_MEMO_STATE], g[G_VALUES]
    same = True
    for c in range(81):
        if state[M_VALUES + c] != values[c]:
            same = False
            state[M_VALUES + c] = values[c]
    if not same:
        state[M_GEN] += 1


@kernel
def _slot(cand, src, level, nl, slots):
    z = np.uint64(level * 8 + nl + 1)
    for c in range(81):
        z = (z ^ np.uint64(cand[c] + 1024 * src[c])) * np.uint64(0x9E3779B97F4A7C15)
        z ^= z >> np.uint64(31)
    return np.int64(z & np.uint64(slots - 1))


@kernel
def memo_find(g, ws, level, nl):
    """The advanced buffer as the same rule last left it for this grid and source, if this
    step remembers it: the number of potentials, or -1 (nothing remembered)."""
    slots, data, state = ws[WS_MEMO_SLOTS], ws[WS_MEMO_DATA], ws[WS_MEMO_STATE]
    if slots.shape[0] == 0:
        return -1
    cand, src = g[G_CAND], ws[WS_SOURCE_CAND]
    s = _slot(cand, src, level, nl, slots.shape[0])
    where, words = slots[s, 1], slots[s, 2]
    size = data.shape[0]
    if slots[s, 0] != state[M_GEN] or words == 0 or state[M_HEAD] > where + size:
        state[M_MISSES] += 1
        return -1
    o = where % size
    if data[o] != level or data[o + 1] != nl:
        state[M_MISSES] += 1
        return -1
    for c in range(81):
        if data[o + _HEAD + c] != cand[c] or data[o + _HEAD + 81 + c] != src[c]:
            state[M_MISSES] += 1
            return -1
    n, total = data[o + 2], data[o + 3]
    pots, pstart, pn, pool = ws[WS_ADV], ws[WS_ADV_START], ws[WS_ADV_COUNT], ws[WS_ADV_PARENTS]
    nest_c, nest_h, acount = ws[WS_ADV_CPLX], ws[WS_ADV_ID], ws[WS_ADV_TOTALS]
    ids = data.view(np.uint64)
    e = o + _KEY
    for k in range(n):
        pots[k] = data[e]
        pstart[k] = data[e + 1]
        pn[k] = data[e + 2]
        nest_c[k] = data[e + 3]
        nest_h[k] = ids[e + 4]
        e += _EACH
    for j in range(total):
        pool[j] = data[e + j]
    acount[0] = n
    acount[1] = total
    state[M_HITS] += 1
    return n


@kernel
def memo_keep(g, ws, level, nl, n):
    """Remember the advanced buffer's ``n`` potentials (just found by the rule at ``level``,
    ``nl``) for this grid and source, for the rest of the step."""
    slots, data, state = ws[WS_MEMO_SLOTS], ws[WS_MEMO_DATA], ws[WS_MEMO_STATE]
    if slots.shape[0] == 0:
        return
    total = ws[WS_ADV_TOTALS][1]
    words = _KEY + _EACH * n + total
    size = data.shape[0]
    if words > size:
        return
    head = state[M_HEAD]
    if head % size + words > size:  # an entry is never split: start the ring again
        head += size - head % size
    o = head % size
    cand, src = g[G_CAND], ws[WS_SOURCE_CAND]
    data[o] = level
    data[o + 1] = nl
    data[o + 2] = n
    data[o + 3] = total
    for c in range(81):
        data[o + _HEAD + c] = cand[c]
        data[o + _HEAD + 81 + c] = src[c]
    pots, pstart, pn, pool = ws[WS_ADV], ws[WS_ADV_START], ws[WS_ADV_COUNT], ws[WS_ADV_PARENTS]
    nest_c, nest_h = ws[WS_ADV_CPLX], ws[WS_ADV_ID]
    ids = data.view(np.uint64)
    e = o + _KEY
    for k in range(n):
        data[e] = pots[k]
        data[e + 1] = pstart[k]
        data[e + 2] = pn[k]
        data[e + 3] = nest_c[k]
        ids[e + 4] = nest_h[k]
        e += _EACH
    for j in range(total):
        data[e + j] = pool[j]
    s = _slot(cand, src, level, nl, slots.shape[0])
    slots[s, 0] = state[M_GEN]
    slots[s, 1] = head
    slots[s, 2] = words
    state[M_HEAD] = head + words
