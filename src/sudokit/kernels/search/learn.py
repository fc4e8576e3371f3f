"""Conflict-driven clause learning for big boards: the search that learns from its dead ends.

Depth-first search forgets why a branch failed and fails the same way under every later
choice; on the minimal 25x25 puzzles that costs millions of nodes even with the strongest
rules of ``general``, where probing the root finds almost nothing to remove. This kernel
remembers instead: every dead end is analysed back to a few of the choices that caused it,
and a clause forbidding that combination is kept, so no later branch repeats it (the method
of SAT solvers, here with Sudoku's own propagation on candidate bitmasks).

Glossary. A *variable* ``x = cell * n + v`` says "cell holds value v+1"; a *literal* is
``2x`` (x true) or ``2x + 1`` (x false). A *group* is a set of variables of which exactly one is
true: the values of a cell (group ``cell``), or the places of a value in a house (group
``cells + house * n + v``). Propagation is the two halves of every group, on bitmasks:

* a variable turned true turns every other variable of its groups false (the value leaves
  its peers, the cell loses its other values): naked and hidden singles' eliminations;
* a group left with one variable not false turns it true (a naked or hidden single); a group
  left with none is a dead end.

plus the learnt clauses, two watched literals each. Every assignment records its *reason*,
which conflict analysis walks back (first unique implication point, with local
minimisation, then the literals that one earlier placement made false merged into that
placement's negation, then each earlier level's literals shrunk to that level's first
unique implication point where the clause allows). Decisions set the most active variable
true (VSIDS); restarts follow the Luby sequence and drop the least useful half of the
learnt clauses (by literal block distance).

Counting: a solution is blocked by a kept clause "not all of these decisions", so the next
one found is another; when no decision is left the count is exact. Each solution costs a
clause, so this kernel serves ``limit`` 1 and 2 (solve, prove uniqueness), where depth-first
search is the better tool for counting many.

State lives in caller-owned arrays (see ``new_state``), so the search is resumable under
``protocol``: ``nodes`` counts propagations (after each decision and each learnt clause),
``guesses`` counts decisions. Array layout::

    assign[x]    0 undecided, 1 true, 2 false          level[x], reason[x]  (see _reason_*)
    trail[i]     variables in the order assigned       lim[d]  trail size when level d began
    mask[g]      bit i set: member i of group g is not false (cell groups: bit v;
                 house groups: bit j for the house's j-th cell)
    lits         the learnt clauses' literals, back to back; clause k is
                 lits[start[k] : start[k] + size[k]], its watched literals first
    whead[l]     the first watch node of literal l; wnext[node] the next one, wclause[node]
                 its clause, plus 2**32 times a *blocker*: a literal of that clause, which when
                 true spares looking at the clause (MiniSat's trick)
    st, fl       integer and float scalars (the S_* and F_* slots)

The slots, the state's maker and ``Learner`` are plain Python (``learner``), so that where this
kernel was compiled ahead of time the Python layer drives it without loading numba.
"""

from __future__ import annotations

import sys

import numpy as np

from . import learner
from . import protocol as P
from ..build.jit import kernel
from .bits import ONE, ZERO, full_mask, lowest_bit, popcount, trailing_zeros
from .matching import open_cells, perfect_matching, reach, value_components
from .learner import (  # noqa: F401 - the state's slots and makers (plain Python), for the kernels and callers
    F_SIZE, F_VAR_INC, S_BLOCK, S_CLAUSES, S_CONFLICT, S_CONFLICT2, S_CONFLICTS, S_GAC, S_HEAP, S_KEEP, S_LEARNT,
    S_LEVEL, S_LITS, S_MAX_LEARNT, S_QHEAD, S_RESTART_AT, S_RESTARTS, S_SHRUNK, S_SIZE, S_STARTED, S_TRAIL, S_UNIT,
    S_UNSAT, S_WATCHES, S_XTOP, STATE, cell_positions, grow, intersections, new_state,
)  # fmt: skip

UNDEF = 0
TRUE = 1
FALSE = 2

#: a reason code: -1 a decision (or a given); 0 <= r < V: false because variable r is true;
#: V + g: true because every other member of group g is false; V + G + k: learnt clause k
NO_REASON = -1

#: restarts follow the Luby sequence in units of this many conflicts: 1000 beat 100 on the
#: Frisch puzzles and their shuffled copies (figures in ``benchmarks/README.md``)
RESTART_UNIT = 1000
#: variable activities fade by this factor a conflict (VSIDS): the fastest of the factors
#: tried on the Frisch puzzles and their shuffled copies (``benchmarks/README.md``)
VAR_DECAY = 0.98
#: learnt clauses kept at first; the allowance grows by a tenth at every reduction
FIRST_MAX_LEARNT = 2000


# -- assignments ----------------------------------------------------------------------------


@kernel(inline="always")
def _set_true(x, reason_code, assign, level, reason, trail, st):
    assign[x] = TRUE
    level[x] = st[S_LEVEL]
    reason[x] = reason_code
    trail[st[S_TRAIL]] = x
    st[S_TRAIL] += 1


@kernel(inline="always")
def _magic(n):
    """The multiplier that divides a variable by ``n`` (see ``_split``)."""
    return (np.int64(1) << 40) // n + 1


@kernel(inline="always")
def _split(x, n, magic):
    """Variable x's cell and value, ``divmod(x, n)`` by a multiplication (``magic`` is
    ``_magic(n)``): exact below 2**40 / n, and a board has at most 2**18 variables. A
    division costs tens of cycles, and it ran at every assignment, its propagation and its
    undoing."""
    cell = (np.int64(x) * magic) >> 40
    return cell, x - cell * n


@kernel(inline="always")
def _set_false(x, cell, v, reason_code, n, cells, cell_houses, pos, assign, level, reason, trail,
               mask, st):
    """Variable x (cell ``cell``, value ``v``) false, with its groups' masks."""
    assign[x] = FALSE
    level[x] = st[S_LEVEL]
    reason[x] = reason_code
    trail[st[S_TRAIL]] = x
    st[S_TRAIL] += 1
    mask[cell] &= ~(ONE << np.uint64(v))
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        mask[cells + house * n + v] &= ~(ONE << np.uint64(pos[cell, k]))


@kernel(inline="always")
def _lit_value(lit, assign):
    """1 true, 2 false, 0 undecided."""
    a = assign[lit >> 1]
    if a == UNDEF:
        return UNDEF
    if (a == TRUE) == ((lit & 1) == 0):
        return TRUE
    return FALSE


# -- propagation ----------------------------------------------------------------------------


@kernel
def _propagate(n, cells, houses, cell_houses, pos, ix_house, ix_mask, ix_at, assign, level,
               reason, trail, mask, lits, start, csize, whead, wnext, wclause, hdirty, st):
    """Everything the trail implies. Returns False at a conflict (kept in st[S_CONFLICT])."""
    variables = assign.shape[0]
    groups = mask.shape[0]
    span = ix_house.shape[1]
    locks = variables + groups  # reason codes of locked candidates start here
    base = locks + groups * span  # and of clauses here
    magic = _magic(n)
    while st[S_QHEAD] < st[S_TRAIL]:
        x = trail[st[S_QHEAD]]
        st[S_QHEAD] += 1
        cell, v = _split(x, n, magic)
        if assign[x] == TRUE:
            # every other member of x's groups turns false
            others = mask[cell] & ~(ONE << np.uint64(v))
            while others:
                bit = lowest_bit(others)
                others ^= bit
                w = trailing_zeros(bit)
                y = cell * n + w
                if assign[y] == TRUE:
                    st[S_CONFLICT] = x
                    st[S_CONFLICT2] = y
                    return False
                _set_false(y, cell, w, x, n, cells, cell_houses, pos, assign, level, reason, trail,
                           mask, st)
            for k in range(cell_houses.shape[1]):
                house = cell_houses[cell, k]
                if house < 0:
                    break
                others = mask[cells + house * n + v] & ~(ONE << np.uint64(pos[cell, k]))
                while others:
                    bit = lowest_bit(others)
                    others ^= bit
                    peer = houses[house, trailing_zeros(bit)]
                    y = peer * n + v
                    if assign[y] == TRUE:
                        st[S_CONFLICT] = x
                        st[S_CONFLICT2] = y
                        return False
                    _set_false(y, peer, v, x, n, cells, cell_houses, pos, assign, level, reason,
                               trail, mask, st)
            false_lit = 2 * x + 1
        else:
            # a group of x with one member left turns it true; with none, a dead end
            for k in range(-1, cell_houses.shape[1]):
                if k < 0:
                    group = cell
                else:
                    house = cell_houses[cell, k]
                    if house < 0:
                        break
                    group = cells + house * n + v
                    hdirty[house] = 1
                left = mask[group]
                if left == ZERO:
                    st[S_CONFLICT] = variables + group
                    st[S_CONFLICT2] = -1
                    return False
                if (left & (left - ONE)) == ZERO:
                    if k < 0:
                        y = cell * n + trailing_zeros(left)
                    else:
                        y = houses[house, trailing_zeros(left)] * n + v
                    if assign[y] == UNDEF:
                        _set_true(y, variables + group, assign, level, reason, trail, st)
                    continue
                if k < 0 or ix_house[house, 0] < 0:
                    continue
                # locked candidates: every place left in this house lies in one other house,
                # so the value leaves the rest of that one
                first_place = trailing_zeros(left)
                for t in range(ix_at.shape[2]):  # only overlaps holding the first place
                    e = ix_at[house, first_place, t]
                    if e < 0:
                        break
                    if left & ~ix_mask[house, e, 0]:
                        continue
                    other = ix_house[house, e]
                    code = locks + group * span + e
                    targets = mask[cells + other * n + v] & ~ix_mask[house, e, 1]
                    while targets:
                        bit = lowest_bit(targets)
                        targets ^= bit
                        peer = houses[other, trailing_zeros(bit)]
                        y = peer * n + v
                        if assign[y] == TRUE:
                            st[S_CONFLICT] = code
                            st[S_CONFLICT2] = -2 - y
                            return False
                        _set_false(y, peer, v, code, n, cells, cell_houses, pos, assign, level,
                                   reason, trail, mask, st)
            false_lit = 2 * x
        # learnt clauses watching the literal that just turned false (helpers written out:
        # numba counts references on every array passed to a call, which cost more here
        # than the loop itself); literal l is true when assign[l >> 1] == 1 + (l & 1) and
        # false when it is 2 - (l & 1)
        prev = -1
        node = whead[false_lit]
        while node >= 0:
            following = wnext[node]
            packed = wclause[node]
            blocker = packed >> 32
            if assign[blocker >> 1] == 1 + (blocker & 1):  # satisfied: the clause stays cold
                prev = node
                node = following
                continue
            clause = packed & 0xFFFFFFFF
            s = start[clause]
            if lits[s] == false_lit:
                lits[s] = lits[s + 1]
                lits[s + 1] = false_lit
            first = lits[s]
            if assign[first >> 1] == 1 + (first & 1):  # satisfied: remember by what
                wclause[node] = (np.int64(first) << 32) | clause
                prev = node
                node = following
                continue
            moved = False
            for i in range(s + 2, s + csize[clause]):
                other = lits[i]
                if assign[other >> 1] != 2 - (other & 1):  # not false: watch it instead
                    lits[i] = false_lit
                    lits[s + 1] = other
                    if prev < 0:
                        whead[false_lit] = following
                    else:
                        wnext[prev] = following
                    wnext[node] = whead[other]
                    wclause[node] = (np.int64(first) << 32) | clause
                    whead[other] = node
                    moved = True
                    break
            if moved:
                node = following
                continue
            prev = node
            node = following
            if assign[first >> 1] == 2 - (first & 1):
                st[S_CONFLICT] = base + clause
                st[S_CONFLICT2] = -1
                return False
            y = first >> 1
            if first & 1:
                cell, v = _split(y, n, magic)
                _set_false(y, cell, v, base + clause, n, cells, cell_houses, pos, assign,
                           level, reason, trail, mask, st)
            else:
                _set_true(y, base + clause, assign, level, reason, trail, st)
    return True


@kernel(inline="always")
def _watch(lit, clause, blocker, whead, wnext, wclause, st):
    node = st[S_WATCHES]
    st[S_WATCHES] += 1
    wclause[node] = (np.int64(blocker) << 32) | clause
    wnext[node] = whead[lit]
    whead[lit] = node


# -- the all-different filter, with explanations ----------------------------------------------


@kernel(inline="always")
def _explain_cell(cell, values, n, level, xlits, at, size):
    """Append to the explanation at ``xlits[at]`` the variables "``cell`` holds v" for v in
    ``values`` that are false above level 0 (at level 0 they need no reason); returns the
    explanation's new size."""
    while values:
        bit = lowest_bit(values)
        values ^= bit
        y = cell * n + trailing_zeros(bit)
        if level[y] > 0:
            size += 1
            xlits[at + size] = y
    return size


@kernel
def _gac(n, cells, houses, cell_houses, pos, assign, level, reason, trail, mask, hdirty, xlits,
         st, work, iwork):
    """Regin's all-different filter (``matching.py``) on every house whose masks
    changed, at the fixpoint of unit propagation. Returns 1 when it removed a value (to
    propagate again), 0 when there was nothing to remove, -1 at a conflict (``st``), 2 when
    ``xlits`` has no room left for its explanations (the houses not filtered yet stay
    marked; grow it and call again before any decision, or a house's dead end could come to
    light levels below the choices that caused it, where conflict analysis cannot start).

    Each removal is explained as a clause kept in ``xlits`` (cleared on backtrack with the
    trail): value w leaves cell c because the cells matched to the values reachable from w
    (a Hall set: k cells whose candidates are k values, w among them) are false on every
    other value. A failed matching is explained the same way by the cells its last search
    reached, which have fewer candidate values than cells. Resolution alone needs
    exponentially many steps for such counting arguments (the pigeonhole principle), so the
    filter saves far more conflicts than it costs."""
    dom = work[0]
    adj = work[1]
    radj = work[2]
    comp = work[3]
    local = iwork[0]
    mate = iwork[1]
    owner = iwork[2]
    parent = iwork[3]
    bfs = iwork[4]
    every = full_mask(n)
    room = xlits.shape[0] - n * n - 1  # where an explanation might not fit any more
    pruned = 0
    for house in range(houses.shape[0]):
        if hdirty[house] == 0:
            continue
        hdirty[house] = 0
        empty, union = open_cells(mask, houses, house, local, dom)
        if empty < 2:
            continue
        missing = popcount(union)
        if missing > empty:
            continue  # not at rest (cannot happen after unit propagation)
        if missing < empty:
            failed = empty  # every empty cell, with too few values between them
            for i in range(empty):
                bfs[i] = i
            seen = union
        else:
            failed, seen = perfect_matching(dom, empty, union, mate, owner, parent, bfs)
        if failed >= 0:
            # conflict: these cells, on the values outside ``seen``, are all false
            if st[S_XTOP] >= room:
                hdirty[house] = 1
                return 2
            at = st[S_XTOP]
            size = 0
            for i in range(failed):
                size = _explain_cell(local[bfs[i]], every & ~seen, n, level, xlits, at, size)
            xlits[at] = size
            st[S_XTOP] = at + 1 + size
            st[S_CONFLICT] = -2 - at
            st[S_CONFLICT2] = -1
            return -1
        if value_components(dom, empty, mate, union, adj, radj, comp):
            continue  # one component: every candidate is in some matching
        for i in range(empty):
            drop = dom[i] & ~comp[mate[i]]
            cell = local[i]
            while drop:
                wbit = lowest_bit(drop)
                drop ^= wbit
                w = trailing_zeros(wbit)
                # the values reachable from w: a Hall set with the cells matched to them
                hall = reach(wbit, adj, every)
                if st[S_XTOP] >= room:
                    hdirty[house] = 1
                    return 2
                at = st[S_XTOP]
                size = 0
                members = hall
                while members:
                    bit = lowest_bit(members)
                    members ^= bit
                    other = local[owner[trailing_zeros(bit)]]
                    size = _explain_cell(other, every & ~hall, n, level, xlits, at, size)
                xlits[at] = size
                st[S_XTOP] = at + 1 + size
                _set_false(cell * n + w, cell, w, -2 - at, n, cells, cell_houses, pos, assign,
                           level, reason, trail, mask, st)
                pruned = 1
    return pruned


# -- the variable heap (VSIDS) ---------------------------------------------------------------


@kernel(inline="always")
def _heap_up(i, heap, where, activity):
    x = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        if activity[heap[parent]] >= activity[x]:
            break
        heap[i] = heap[parent]
        where[heap[i]] = i
        i = parent
    heap[i] = x
    where[x] = i


@kernel(inline="always")
def _heap_down(i, heap, where, activity, count):
    x = heap[i]
    while True:
        child = 2 * i + 1
        if child >= count:
            break
        if child + 1 < count and activity[heap[child + 1]] > activity[heap[child]]:
            child += 1
        if activity[heap[child]] <= activity[x]:
            break
        heap[i] = heap[child]
        where[heap[i]] = i
        i = child
    heap[i] = x
    where[x] = i


@kernel(inline="always")
def _heap_insert(x, heap, where, activity, st):
    if where[x] >= 0:
        return
    i = st[S_HEAP]
    st[S_HEAP] += 1
    heap[i] = x
    where[x] = i
    _heap_up(i, heap, where, activity)


@kernel(inline="always")
def _heap_pop(heap, where, activity, st):
    x = heap[0]
    where[x] = -1
    st[S_HEAP] -= 1
    count = st[S_HEAP]
    if count > 0:
        heap[0] = heap[count]
        where[heap[0]] = 0
        _heap_down(0, heap, where, activity, count)
    return x


# -- backtracking, analysis, clauses ---------------------------------------------------------


@kernel
def _backtrack(to_level, n, cells, cell_houses, pos, assign, trail, lim, xlim, mask, heap, where,
               activity, st):
    if st[S_LEVEL] <= to_level:
        return
    stop = lim[to_level + 1]
    st[S_XTOP] = xlim[to_level + 1]
    magic = _magic(n)
    for i in range(st[S_TRAIL] - 1, stop - 1, -1):
        x = trail[i]
        if assign[x] == FALSE:
            cell, v = _split(x, n, magic)
            mask[cell] |= ONE << np.uint64(v)
            for k in range(cell_houses.shape[1]):
                house = cell_houses[cell, k]
                if house < 0:
                    break
                mask[cells + house * n + v] |= ONE << np.uint64(pos[cell, k])
        assign[x] = UNDEF
        if where[x] < 0:  # back into the heap (written out: a call here costs more than this)
            i = st[S_HEAP]
            st[S_HEAP] += 1
            act = activity[x]
            while i > 0:
                parent = (i - 1) >> 1
                if activity[heap[parent]] >= act:
                    break
                heap[i] = heap[parent]
                where[heap[i]] = i
                i = parent
            heap[i] = x
            where[x] = i
    st[S_TRAIL] = stop
    st[S_QHEAD] = stop
    st[S_LEVEL] = to_level


@kernel
def _analyse(n, cells, houses, ix_house, ix_mask, assign, level, reason, trail, lim, seen,
             activity, heap, where, lits, start, csize, xlits, stamp, buffer, marks, learnt, st,
             fl):
    """First-UIP analysis of the conflict in ``st``. Fills ``learnt`` with the clause (its
    asserting literal first, a literal of the backjump level second); returns (size,
    backjump level, literal block distance).

    The antecedents of a reason are listed by the same few lines in two places below, written
    out rather than called: numba counts references on every array passed to a call, and
    that cost more than the analysis itself."""
    variables = assign.shape[0]
    groups = cells + houses.shape[0] * n
    span = ix_house.shape[1]
    groups_end = variables + groups
    locks_end = groups_end + groups * span
    current = st[S_LEVEL]
    size = 1
    pending = 0
    index = st[S_TRAIL] - 1
    p = -1
    code = st[S_CONFLICT]
    while True:
        # the antecedents of ``code`` (the conflict first, then the reason of p) into buffer
        count = 0
        if p < 0 and st[S_CONFLICT2] >= 0:  # two true members of one group
            buffer[0] = code
            buffer[1] = st[S_CONFLICT2]
            count = 2
        elif code <= -2:  # an all-different explanation: false variables kept in xlits
            at = -2 - code
            for i in range(at + 1, at + 1 + xlits[at]):
                y = xlits[i]
                if y != p:
                    buffer[count] = y
                    count += 1
        elif code < variables:
            buffer[0] = code
            count = 1
        elif code < groups_end:
            group = code - variables
            for bit in range(n):
                if group < cells:
                    y = group * n + bit
                else:
                    y = houses[(group - cells) // n, bit] * n + (group - cells) % n
                if y != p:
                    buffer[count] = y
                    count += 1
        elif code < locks_end:
            key = code - groups_end
            group = key // span
            outside = ~ix_mask[(group - cells) // n, key % span, 0]
            v = (group - cells) % n
            house = (group - cells) // n
            for j in range(n):
                if (outside >> np.uint64(j)) & ONE:
                    buffer[count] = houses[house, j] * n + v
                    count += 1
        else:
            s = start[code - locks_end]
            for i in range(s, s + csize[code - locks_end]):
                y = lits[i] >> 1
                if y != p:
                    buffer[count] = y
                    count += 1
        if p < 0 and st[S_CONFLICT2] <= -2:  # a locked candidate that was true
            buffer[count] = -2 - st[S_CONFLICT2]
            count += 1
        for i in range(count):
            y = buffer[i]
            if seen[y] or level[y] == 0:
                continue
            seen[y] = 1
            # bump its activity and move it up the heap
            activity[y] += fl[F_VAR_INC]
            if activity[y] > 1e100:
                _rescale(activity, fl)
            at = where[y]
            if at >= 0:
                act = activity[y]
                while at > 0:
                    parent = (at - 1) >> 1
                    if activity[heap[parent]] >= act:
                        break
                    heap[at] = heap[parent]
                    where[heap[at]] = at
                    at = parent
                heap[at] = y
                where[y] = at
            if level[y] >= current:
                pending += 1
            else:
                learnt[size] = 2 * y + (1 if assign[y] == TRUE else 0)
                size += 1
        while not seen[trail[index]]:
            index -= 1
        p = trail[index]
        index -= 1
        seen[p] = 0
        pending -= 1
        if pending == 0:
            break
        code = reason[p]
    learnt[0] = 2 * p + (1 if assign[p] == TRUE else 0)
    # local minimisation: drop a literal whose reason lies wholly inside the clause (marked
    # negative first: ``seen`` must stay as it is until every literal is judged)
    for i in range(1, size):
        y = learnt[i] >> 1
        code = reason[y]
        if code == NO_REASON:
            continue
        redundant = True
        if code <= -2:
            at = -2 - code
            for j in range(at + 1, at + 1 + xlits[at]):
                z = xlits[j]
                if z != y and not seen[z] and level[z] > 0:
                    redundant = False
                    break
        elif code < variables:
            redundant = seen[code] != 0 or level[code] == 0
        elif code < groups_end:
            group = code - variables
            for bit in range(n):
                if group < cells:
                    z = group * n + bit
                else:
                    z = houses[(group - cells) // n, bit] * n + (group - cells) % n
                if z != y and not seen[z] and level[z] > 0:
                    redundant = False
                    break
        elif code < locks_end:
            key = code - groups_end
            group = key // span
            outside = ~ix_mask[(group - cells) // n, key % span, 0]
            v = (group - cells) % n
            house = (group - cells) // n
            for j in range(n):
                if (outside >> np.uint64(j)) & ONE:
                    z = houses[house, j] * n + v
                    if not seen[z] and level[z] > 0:
                        redundant = False
                        break
        else:
            s = start[code - locks_end]
            for j in range(s, s + csize[code - locks_end]):
                z = lits[j] >> 1
                if z != y and not seen[z] and level[z] > 0:
                    redundant = False
                    break
        if redundant:
            learnt[i] = -1 - learnt[i]
    kept = 1
    for i in range(1, size):
        lit = learnt[i]
        if lit < 0:
            seen[(-1 - lit) >> 1] = 0
        else:
            seen[lit >> 1] = 0
            learnt[kept] = lit
            kept += 1
    size = kept
    # merging: two or more literals "y" of an earlier level, each y false because one same
    # variable z went true (a placement takes its value from the peers and the cell's other
    # values), become the one literal "not z", which resolving with the binary reasons
    # "z -> not y" gives. A placement shows up in a clause through many of its eliminations,
    # so clauses get much shorter, and conflicts cheaper and fewer (benchmarks/README.md)
    # (``seen`` counts the literals of each z, capped at 2, and marks a z once written)
    for i in range(1, size):
        lit = learnt[i]
        code = reason[lit >> 1]
        if (lit & 1) == 0 and 0 <= code < variables and seen[code] < 2:
            seen[code] += 1
    kept = 1
    for i in range(1, size):
        lit = learnt[i]
        code = reason[lit >> 1]
        if (lit & 1) == 0 and 0 <= code < variables and seen[code] >= 2:
            if seen[code] == 2:
                seen[code] = 3
                learnt[kept] = 2 * code + 1
                kept += 1
            continue
        learnt[kept] = lit
        kept += 1
    # every counter back to zero: a counted z is now a literal of the clause ("not z") or the
    # reason of the one literal it counted
    for i in range(1, kept):
        y = learnt[i] >> 1
        seen[y] = 0
        code = reason[y]
        if 0 <= code < variables:
            seen[code] = 0
    size = kept
    if size > 2:
        size = _shrink(n, cells, houses, ix_mask, span, assign, level, reason, trail, lim, seen,
                       lits, start, csize, xlits, buffer, marks, learnt, size, st)
    # backjump to the deepest level but the current one; it becomes the second watch
    back = 0
    if size > 1:
        best = 1
        for i in range(2, size):
            if level[learnt[i] >> 1] > level[learnt[best] >> 1]:
                best = i
        swap = learnt[1]
        learnt[1] = learnt[best]
        learnt[best] = swap
        back = level[learnt[1] >> 1]
    st[S_CONFLICTS] += 1
    mark = st[S_CONFLICTS]
    lbd = 0
    for i in range(size):
        lv = level[learnt[i] >> 1]
        if stamp[lv] != mark:
            stamp[lv] = mark
            lbd += 1
    fl[F_VAR_INC] /= VAR_DECAY
    return size, back, lbd


@kernel
def _shrink(n, cells, houses, ix_mask, span, assign, level, reason, trail, lim, seen, lits,
            start, csize, xlits, buffer, marks, learnt, size, st):
    """Shrink ``learnt[:size]`` (all-UIP shrinking, as CaDiCaL does): the two or more literals
    of one earlier level become that level's first unique implication point, when walking
    the level back from its last assignment to that point meets, outside the level, only
    literals the clause already holds (or level 0). Resolving with the reasons walked gives
    the shorter clause, with the same levels. Returns its size; ``seen`` is all zero before
    and after, ``buffer`` and ``marks`` are scratch.

    On shuffled copies of the Frisch puzzles it saves conflicts and time, though the original
    sixteen take a few more conflicts (figures in ``benchmarks/README.md``). The reasons'
    antecedents are listed as in ``_analyse``, written out for the same reason: one inline
    helper serving this walk and the analysis cost more a conflict."""
    variables = assign.shape[0]
    groups = cells + houses.shape[0] * n
    groups_end = variables + groups
    locks_end = groups_end + groups * span
    # literals by level (insertion sort: a few dozen at most), so that each level's block is
    # contiguous and the clause can be rewritten in place
    for i in range(2, size):
        lit = learnt[i]
        lv = level[lit >> 1]
        k = i - 1
        while k >= 1 and level[learnt[k] >> 1] > lv:
            learnt[k + 1] = learnt[k]
            k -= 1
        learnt[k + 1] = lit
    for i in range(1, size):
        seen[learnt[i] >> 1] = 1
    kept = 1
    i = 1
    while i < size:
        lv = level[learnt[i] >> 1]
        e = i
        while e < size and level[learnt[e] >> 1] == lv:
            e += 1
        count = e - i
        if count < 2:
            learnt[kept] = learnt[i]
            kept += 1
            i = e
            continue
        # walk the level back from its last assignment
        nmarks = 0
        for k in range(i, e):
            seen[learnt[k] >> 1] = 2
        pending = count
        uip = -1
        failed = False
        j = lim[lv + 1] - 1
        while j >= lim[lv]:
            p = trail[j]
            j -= 1
            if seen[p] != 2:
                continue
            pending -= 1
            if pending == 0:
                uip = p
                break
            code = reason[p]
            c = 0
            if code <= -2:
                at = -2 - code
                for t in range(at + 1, at + 1 + xlits[at]):
                    buffer[c] = xlits[t]
                    c += 1
            elif code < 0:  # a decision: the level's first assignment, where nothing is
                failed = True  # pending any more, so this is a guard only
                break
            elif code < variables:
                buffer[0] = code
                c = 1
            elif code < groups_end:
                group = code - variables
                for bit in range(n):
                    if group < cells:
                        buffer[c] = group * n + bit
                    else:
                        buffer[c] = houses[(group - cells) // n, bit] * n + (group - cells) % n
                    c += 1
            elif code < locks_end:
                key = code - groups_end
                group = key // span
                outside = ~ix_mask[(group - cells) // n, key % span, 0]
                v = (group - cells) % n
                house = (group - cells) // n
                for t in range(n):
                    if (outside >> np.uint64(t)) & ONE:
                        buffer[c] = houses[house, t] * n + v
                        c += 1
            else:
                cs = start[code - locks_end]
                for t in range(cs, cs + csize[code - locks_end]):
                    buffer[c] = lits[t] >> 1
                    c += 1
            for t in range(c):
                y = buffer[t]
                if y == p or level[y] == 0:
                    continue
                if level[y] == lv:
                    if seen[y] != 2:
                        seen[y] = 2
                        marks[nmarks] = y
                        nmarks += 1
                        pending += 1
                elif seen[y] == 0:
                    failed = True
                    break
            if failed:
                break
        # the marks go; ``seen`` stays 1 on what the clause now holds of this level, which
        # the walks of the levels above may meet
        for t in range(nmarks):
            seen[marks[t]] = 0
        if failed or uip < 0:
            for k in range(i, e):
                seen[learnt[k] >> 1] = 1
                learnt[kept] = learnt[k]
                kept += 1
        else:
            for k in range(i, e):
                seen[learnt[k] >> 1] = 0
            seen[uip] = 1
            learnt[kept] = 2 * uip + (1 if assign[uip] == TRUE else 0)
            kept += 1
            st[S_SHRUNK] += count - 1
        i = e
    for k in range(1, kept):
        seen[learnt[k] >> 1] = 0
    return kept


@kernel
def _rescale(activity, fl):
    """Scale every activity down (they only ever grow) before they overflow."""
    for y in range(activity.shape[0]):
        activity[y] *= 1e-100
    fl[F_VAR_INC] *= 1e-100


@kernel
def _add_clause(learnt, size, lbd, keep, lits, start, csize, flags, lbds, whead, wnext,
                wclause, st):
    """Store a clause of two or more literals and watch its first two. Returns its index."""
    clause = st[S_CLAUSES]
    st[S_CLAUSES] += 1
    s = st[S_LITS]
    st[S_LITS] += size
    for i in range(size):
        lits[s + i] = learnt[i]
    start[clause] = s
    csize[clause] = size
    lbds[clause] = lbd
    flags[clause] = 2 if keep else 0
    if not keep:
        st[S_LEARNT] += 1
    _watch(learnt[0], clause, learnt[1], whead, wnext, wclause, st)
    _watch(learnt[1], clause, learnt[0], whead, wnext, wclause, st)
    return clause


@kernel(inline="always")
def _assert_first(learnt, size, lbd, keep, clause_base, n, cells, cell_houses, pos, assign, level,
                  reason, trail, mask, lits, start, csize, flags, lbds, whead, wnext, wclause, st):
    """After the backjump, keep the clause ``learnt[:size]`` (a unit needs none) and make its
    first literal, the only one not false, true with the clause as its reason."""
    if size == 1:
        code = np.int64(NO_REASON)  # typed int64 here: the build's inliner types a bare literal apart
    else:
        code = clause_base + _add_clause(learnt, size, lbd, keep, lits, start, csize, flags,
                                         lbds, whead, wnext, wclause, st)
    y = learnt[0] >> 1
    if learnt[0] & 1:
        cell, v = _split(y, n, _magic(n))
        _set_false(y, cell, v, code, n, cells, cell_houses, pos, assign, level, reason, trail,
                   mask, st)
    else:
        _set_true(y, code, assign, level, reason, trail, st)


@kernel
def _reduce(assign, reason, lits, start, csize, flags, lbds, whead, wnext, wclause,
            buffer, st):
    """At level 0: drop the worse half of the learnt clauses (highest literal block distance,
    then least recent), drop clauses already satisfied and literals already false, and pack
    the pool and the watches again."""
    clauses = st[S_CLAUSES]
    # rank the learnt clauses that may go; keep the better half of them
    candidates = 0
    order = np.empty(clauses, dtype=np.int64)
    for k in range(clauses):
        if flags[k] == 0 and lbds[k] > 2:
            order[candidates] = k
            candidates += 1
    # clause numbers run in the order the clauses were learnt (packing keeps it), so among
    # equal distances the oldest rank last
    keys = np.empty(candidates, dtype=np.int64)
    for i in range(candidates):
        k = order[i]
        keys[i] = (np.int64(lbds[k]) << 32) - k
    ranked = np.argsort(keys[:candidates])
    for i in range(candidates // 2, candidates):
        flags[order[ranked[i]]] |= 1
    # level-0 assignments need no reasons any more: clause numbers are about to change
    for x in range(assign.shape[0]):
        if assign[x] != UNDEF:
            reason[x] = NO_REASON
    whead[:] = -1
    st[S_WATCHES] = 0
    kept = 0
    used = 0
    learnt_alive = 0
    for k in range(clauses):
        if flags[k] & 1:
            continue
        s = start[k]
        size = 0
        satisfied = False
        for i in range(s, s + csize[k]):
            value = _lit_value(lits[i], assign)
            if value == TRUE:
                satisfied = True
                break
            if value == UNDEF:
                lits[used + size] = lits[i]
                size += 1
        if satisfied:
            continue
        start[kept] = used
        csize[kept] = size
        lbds[kept] = lbds[k]
        flags[kept] = flags[k]
        if flags[k] == 0:
            learnt_alive += 1
        _watch(lits[used], kept, lits[used + 1], whead, wnext, wclause, st)
        _watch(lits[used + 1], kept, lits[used], whead, wnext, wclause, st)
        used += size
        kept += 1
    st[S_CLAUSES] = kept
    st[S_LITS] = used
    st[S_LEARNT] = learnt_alive


@kernel(inline="always")
def _luby(i):
    """The i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    size = 1
    seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


# -- the search ------------------------------------------------------------------------------


@kernel
def search(givens, board, ctl, limit, node_budget, record_at, out, state, pencil):
    """Run (or resume) the search until a protocol code is due (see ``protocol``). ``board``
    is the geometry, ``(houses, cell_houses, pos, ix_house, ix_mask, ix_at)`` (``Learner``
    makes it), ``state`` the arrays of ``new_state`` in ``STATE``'s order, ``pencil`` the
    candidates each cell starts from (a mask per cell: pencil marks, every value where there
    are none). STACK_FULL asks for ``grow``."""
    houses, cell_houses, pos, ix_house, ix_mask, ix_at = board
    (assign, level, reason, trail, lim, mask, seen, activity, heap, where, stamp, buffer,
     start, csize, lbds, flags, lits, whead, wnext, wclause, hdirty, xlits, xlim, st, fl) = state
    n = houses.shape[1]
    cells = givens.shape[0]
    variables = cells * n
    node_stop = ctl[P.NODES] + node_budget
    learnt = buffer  # the clause being learnt, or a blocking clause
    clause_base = variables + mask.shape[0] * (1 + ix_house.shape[1])
    scratch = np.empty(variables + 1, dtype=np.int32)
    marks = np.empty(variables + 1, dtype=np.int32)
    work = np.empty((5, 64), dtype=np.uint64)
    iwork = np.empty((5, 64), dtype=np.int64)
    if st[S_STARTED] == 0:
        st[S_STARTED] = 1
        if st[S_UNIT] == 0:
            st[S_UNIT] = RESTART_UNIT
        if st[S_KEEP] == 0:
            st[S_KEEP] = FIRST_MAX_LEARNT
        st[S_MAX_LEARNT] = st[S_KEEP]
        st[S_RESTART_AT] = st[S_UNIT]
        fl[F_VAR_INC] = 1.0
        for cell in range(cells):
            mask[cell] = full_mask(n)
        for group in range(cells, mask.shape[0]):
            mask[group] = full_mask(n)
        for x in range(variables):
            _heap_insert(x, heap, where, activity, st)
        full = full_mask(n)
        for cell in range(cells):  # values the marks leave out are false from the start
            if st[S_UNSAT] or pencil[cell] == full:
                continue
            for v in range(n):
                x = cell * n + v
                if (pencil[cell] >> np.uint64(v)) & ONE or assign[x] != UNDEF:
                    continue
                if mask[cell] == (ONE << np.uint64(v)):  # the cell's last value
                    st[S_UNSAT] = 1
                    break
                _set_false(x, cell, v, NO_REASON, n, cells, cell_houses, pos, assign, level,
                           reason, trail, mask, st)
                if not _propagate(n, cells, houses, cell_houses, pos, ix_house, ix_mask, ix_at,
                                  assign, level, reason, trail, mask, lits, start, csize, whead,
                                  wnext, wclause, hdirty, st):
                    st[S_UNSAT] = 1
                    break
        for cell in range(cells):
            if st[S_UNSAT]:
                break
            if givens[cell]:
                x = cell * n + np.int64(givens[cell]) - 1
                if assign[x] == FALSE:
                    st[S_UNSAT] = 1
                    break
                if assign[x] == UNDEF:
                    _set_true(x, NO_REASON, assign, level, reason, trail, st)
                    if not _propagate(n, cells, houses, cell_houses, pos, ix_house, ix_mask,
                                      ix_at, assign, level, reason, trail, mask, lits, start, csize,
                                      whead, wnext, wclause, hdirty, st):
                        st[S_UNSAT] = 1
                        break
        ctl[P.NODES] += 1
        if st[S_UNSAT] == 0:
            # first decisions in the tightest cells: activity 1 / candidates
            for x in range(variables):
                if assign[x] == UNDEF:
                    activity[x] = 1.0 / popcount(mask[x // n])
                    _heap_up(where[x], heap, where, activity)
    while True:
        if st[S_UNSAT]:
            return P.DONE
        if ctl[P.NODES] >= node_stop:
            return P.BUDGET
        if st[S_BLOCK]:
            # the last solution reported: forbid its decisions together, then go on
            st[S_BLOCK] = 0
            size = st[S_LEVEL]
            if size == 0:
                st[S_UNSAT] = 1
                continue
            for d in range(size):
                learnt[d] = 2 * trail[lim[size - d]] + 1  # not decision (deepest first)
            _backtrack(size - 1, n, cells, cell_houses, pos, assign, trail, lim, xlim, mask, heap,
                       where, activity, st)
            _assert_first(learnt, size, size, True, clause_base, n, cells, cell_houses, pos,
                          assign, level, reason, trail, mask, lits, start, csize, flags, lbds,
                          whead, wnext, wclause, st)
        if (st[S_LITS] + variables + 1 >= lits.shape[0] or st[S_CLAUSES] + 1 >= start.shape[0]
                or st[S_WATCHES] + 2 >= wnext.shape[0]):
            return P.STACK_FULL  # (the all-different filter asks for room itself)
        ok = _propagate(n, cells, houses, cell_houses, pos, ix_house, ix_mask, ix_at, assign, level,
                        reason, trail, mask, lits, start, csize, whead, wnext, wclause, hdirty,
                        st)
        if ok and st[S_GAC]:
            pruned = _gac(n, cells, houses, cell_houses, pos, assign, level, reason, trail, mask,
                          hdirty, xlits, st, work, iwork)
            if pruned == 2:
                return P.STACK_FULL
            if pruned > 0:
                continue
            ok = pruned == 0
        if not ok:
            if st[S_LEVEL] == 0:
                st[S_UNSAT] = 1
                continue
            size, back, lbd = _analyse(n, cells, houses, ix_house, ix_mask, assign, level,
                                       reason, trail, lim, seen, activity, heap, where, lits,
                                       start, csize, xlits, stamp, scratch, marks, learnt, st,
                                       fl)
            _backtrack(back, n, cells, cell_houses, pos, assign, trail, lim, xlim, mask, heap, where,
                       activity, st)
            _assert_first(learnt, size, lbd, False, clause_base, n, cells, cell_houses, pos,
                          assign, level, reason, trail, mask, lits, start, csize, flags, lbds,
                          whead, wnext, wclause, st)
            ctl[P.NODES] += 1
            continue
        if st[S_TRAIL] == variables:  # every variable assigned: a solution
            ctl[P.COUNT] += 1
            if ctl[P.COUNT] == record_at:
                for x in range(variables):
                    if assign[x] == TRUE:
                        out[x // n] = x % n + 1
            st[S_BLOCK] = 1
            if ctl[P.COUNT] >= limit:
                return P.LIMIT
            continue
        if st[S_CONFLICTS] >= st[S_RESTART_AT] and st[S_LEVEL] > 0:
            st[S_RESTARTS] += 1
            st[S_RESTART_AT] = st[S_CONFLICTS] + st[S_UNIT] * _luby(st[S_RESTARTS])
            _backtrack(0, n, cells, cell_houses, pos, assign, trail, lim, xlim, mask, heap, where,
                       activity, st)
            if st[S_LEARNT] > st[S_MAX_LEARNT]:
                _reduce(assign, reason, lits, start, csize, flags, lbds, whead, wnext,
                        wclause, scratch, st)
                st[S_XTOP] = 0  # level 0 has no reasons left to explain
                st[S_MAX_LEARNT] += st[S_MAX_LEARNT] // 10
            continue
        # decide: the most active undecided variable, true
        x = -1
        while st[S_HEAP] > 0:
            y = _heap_pop(heap, where, activity, st)
            if assign[y] == UNDEF:
                x = y
                break
        st[S_LEVEL] += 1
        lim[st[S_LEVEL]] = st[S_TRAIL]
        xlim[st[S_LEVEL]] = st[S_XTOP]
        _set_true(x, NO_REASON, assign, level, reason, trail, st)
        ctl[P.NODES] += 1
        ctl[P.GUESSES] += 1


def Learner(givens, houses, cell_houses, size, locked=False, alldiff=False, marks=None):
    """``learner.Learner`` with this module's kernels (compiled by numba on first use)."""
    return learner.Learner(sys.modules[__name__], givens, houses, cell_houses, size, locked, alldiff, marks)
