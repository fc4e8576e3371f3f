"""The general search kernel: any shape up to 64x64 (and any extra houses).

Depth-first search over candidate bitmasks, as in the seeds, with what makes it finish on hard
and big boards: naked and hidden singles in every house to a fixpoint after every decision,
dead ends cut as soon as a cell or a house runs out of candidates, and, switchable through
``options`` (see ``options_for``), two stronger rules and four ways to branch:

* *locked candidates* (``LOCKED``): where a box meets a row or column, a value whose places in
  one of the two houses all lie in the intersection is removed from the rest of the other
  (pointing and claiming);
* *all-different filter* (``SUBSETS``): per house, every candidate that no complete matching
  of the house's empty cells to its missing values uses is removed (Regin's filter). This is
  every naked and hidden subset at once (pairs, triples, ... of any size), in time about
  quadratic in the house's empty cells, where enumerating subsets is exponential; it skips
  houses more than two thirds open, where it almost never removes anything;
* branching on the most constrained cell (``CELL``, ``CELL_DEGREE``), on the (house, value)
  with the fewest places (``PLACE``), or on whichever is smaller (``BEST``).

Every rule only removes candidates no solution uses, and every branching splits the search
space into disjoint parts, so counts never depend on the options: only nodes and time do.
The stack is explicit and the search resumable (see ``protocol``).

State of one search level, one row of ``stack``, one 64-bit word per cell::

    stack[level, cell]    bit 63 ............................. bit 1    bit 0
                          [value 64] [value 63] ... [value 2] [value 1]

    a set bit is a candidate; one bit alone means the cell is decided, and at rest (between
    propagations) every decided value is already removed from all of its peers.

    stack[level, cells + k]   on a board with cages, what cage k's cells held when it was
                              last filtered on this path (``cages.py``), copied with the
                              level so that a branch filters only the cages it changed

A branch copies the whole level (``n*n`` words: 648 bytes at 9x9, 32 KiB at 64x64) and fixes one
cell in the copy; backtracking is then free: drop the copy. The alternative, a trail of undone
changes, saves memory on big boards but costs on every elimination; copying won on the data.

Geometry arrives as tables, so one compiled kernel serves every shape:
``houses[h, j]`` is the j-th cell of house h; ``cell_houses[c, k]`` the k-th house of cell c
(-1 padded, for shapes with extra houses). Rows are houses ``0..n-1``, columns ``n..2n-1``
and boxes ``2n..3n-1`` (``shape.py``); locked candidates read the box shape from ``options``
and stay off where houses ``2n..3n-1`` are not boxes (jigsaw regions). Killer cages and
starting candidates (pencil marks) arrive as one more tuple of arrays, ``variant``, whose
filter runs after singles (``cages.py``).

``dirty[h]`` holds one bit per rule that has to look at house h again (``HIDDEN``,
``LOCKED_DIRTY``, ``SUBSETS_DIRTY``); a rule clears its bit when it scans the house, and every
removed candidate sets all bits on the houses of its cell. ``propagate`` (singles only, kept
for the optimisation kernel) uses only the ``HIDDEN`` bit.
"""

from __future__ import annotations

import sys

import numpy as np

from . import cages as V
from . import protocol as P
from ..build.jit import kernel
from .bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros
from .driver import pause, resume, retreat, solution
from .matching import open_cells, perfect_matching, value_components
from .options import options_for as options_for_with

# -- options: one small int64 array, so benchmarks switch rules without recompiling ----------

RULES = 0  #: options slot: bit flags of the rules run after singles (LOCKED | SUBSETS)
BRANCH = 1  #: options slot: how the next choice point is picked (CELL ... BEST)
BOX_HEIGHT = 2  #: options slot: the box shape, for locked candidates
BOX_WIDTH = 3
RESTART = 4  #: options slot: failures before the first restart (0: never restart)
SEED = 5  #: options slot: 0 tries values in the ``VALUES`` order; else the seed of a random order
LAZY = 6  #: options slot: dead ends met on singles alone before the rules come on (0: at once)
VALUES = 7  #: options slot: the order a cell's values are tried in (unless ``SEED`` draws them)
#: options slot: ``cell * 64 + value``, a candidate struck from the root before it propagates,
#: or -1 for none (a generator asks for a solution other than the one it knows)
STRIKE = 8
OPTIONS_SIZE = 9

LOCKED = 1  #: rule: locked candidates (pointing and claiming)
SUBSETS = 2  #: rule: all-different filter per house (naked and hidden subsets of every size)

CELL = 0  #: branch on the first cell with the fewest candidates
CELL_DEGREE = 1  #: the same, ties to the cell with the most empty cells in its houses
PLACE = 2  #: branch on the (house, value) with the fewest places, ties to the tightest places
BEST = 3  #: whichever of CELL and PLACE has fewer alternatives (the cell on a tie)
WDEG = 4  #: the cell with the fewest candidates per conflict its houses have shown (dom/wdeg)
WDEG_PLACE = 5  #: WDEG, or a (house, value) whose places per conflict of its house are fewer

IN_ORDER = 0  #: values: increasing
LEAST_CONSTRAINING = 1  #: values: the one the fewest cells of the branched cell's houses still have first

# dirty bits: which rules still have to look at a house
HIDDEN = 1
LOCKED_DIRTY = 2
SUBSETS_DIRTY = 4
ALL_DIRTY = 7

#: dead ends met on singles alone before the rules come on, by default from 17x17 up
LAZY_START = 100

#: a resume point of ``search`` besides the protocol's: choose a branch at the top level, which
#: is already propagated (after a restart)
_CHOOSE = 3

#: a (house, value) branch is stored in ``branch_cell`` as -1 - ((house * 64 + value) * 64 +
#: position): negative, so it never reads as a cell; the position is the place tried last
_KEY = 64


def options_for(shape, rules=None, branch=None, restart=None, seed=None, lazy=None,
                values=None, variant=False) -> np.ndarray:
    """``options.options_for`` with this module's kernels (compiled by numba on first use)."""
    return options_for_with(sys.modules[__name__], shape, rules, branch, restart, seed, lazy, values, variant)


@kernel
def variant_options(houses, options):
    """``default_options`` for a board with variant rules (killer cages, pencil marks, extra
    houses, jigsaw regions) up to 16x16: locked candidates (where the regions are boxes), the
    all-different filter and dom/wdeg from the root. Killer and pencil-mark puzzles without
    givens keep failing on singles alone (the hard killers of the shared data: 9.6 million
    nodes to prove one unique, 131,000 with the killer's 45-rule sums, 16,000 with these
    rules; figures in benchmarks/README.md)."""
    default_options(houses, options)
    if houses.shape[1] <= 16:
        options[RULES] = SUBSETS
        if _boxed(houses, options[BOX_HEIGHT], options[BOX_WIDTH]):
            options[RULES] |= LOCKED
        options[BRANCH] = WDEG
        options[LAZY] = 0


@kernel
def default_options(houses, options):
    """Fill ``options`` for the shape ``houses`` describes.

    Up to 12x12, singles and the most constrained cell: it is free to find, and dom/wdeg
    changes nothing there but costs. From 13x13 to 16x16 (the 16x16 boards with 4x4 boxes go
    to ``hexa.py``) singles and dom/wdeg: the puzzles need a few dozen nodes at most, so the
    stronger rules save fewer nodes than they cost, while dom/wdeg cuts the heavy tails. From
    17x17 up, locked candidates, the all-different filter and dom/wdeg: by far the fewest
    nodes on the 25x25 and 36x36 sets. There the rules wait for ``LAZY_START`` dead ends below the root: a puzzle
    with many solutions dives to one on singles, cheaper a node, and one that keeps failing
    starts again from the root with the rules and fresh conflict weights, the search it
    would have made without the wait. A cell's values go least constraining first (the one
    its houses' other cells hold least); increasing order wins only on the Frisch variants.
    ``benchmarks/big.py --switches`` measures each choice; the figures are in
    ``benchmarks/README.md``.
    """
    size = houses.shape[1]
    options[STRIKE] = -1
    width = 0  # the cells of box 0 (house 2n) in row 0
    for j in range(size):
        if houses[2 * size, j] < size:
            width += 1
    options[BOX_WIDTH] = width
    options[BOX_HEIGHT] = size // width
    if size <= 12:
        options[RULES] = 0
        options[BRANCH] = CELL
    elif size <= 16:
        options[RULES] = 0
        options[BRANCH] = WDEG
    else:
        options[RULES] = LOCKED | SUBSETS
        options[BRANCH] = WDEG
        options[LAZY] = LAZY_START
        options[VALUES] = LEAST_CONSTRAINING
    if not _boxed(houses, options[BOX_HEIGHT], width):
        options[RULES] &= ~LOCKED  # locked candidates compute boxes: jigsaw regions are not


@kernel
def _boxed(houses, height, width):
    """Whether houses ``2n..3n-1`` are the ``height x width`` boxes (locked candidates work
    out segments from the box shape, so irregular regions must not get them)."""
    size = houses.shape[1]
    if height * width != size or houses.shape[0] < 3 * size:
        return False
    for box in range(size):
        for j in range(size):
            cell = houses[2 * size + box, j]
            row = cell // size
            col = cell % size
            if (row // height) * height + col // width != box:
                return False
    return True


# -- loading and singles ---------------------------------------------------------------------


@kernel
def load_givens(givens, cell_houses, full, cand, queue, dirty):
    """Fill the root level: one bit per given, every value elsewhere. Returns how many cells
    ``queue`` holds (the givens, whose values are still to be removed from their peers)."""
    count = 0
    for cell in range(givens.shape[0]):
        value = givens[cell]
        if value:
            cand[cell] = ONE << np.uint64(value - 1)
            queue[count] = cell
            count += 1
        else:
            cand[cell] = full
    dirty[:] = 1
    return count


@kernel(inline="always")
def _load_root(givens, cell_houses, full, row, queue, dirty, options, variant):
    """``load_givens`` into the root level ``row``, every house dirty, the starting
    candidates of ``variant`` kept, every cage to filter, and the candidate
    ``options[STRIKE]`` names struck out (a cell left with one value joins the queue)."""
    cells = givens.shape[0]
    cand = row[:cells]
    queued = load_givens(givens, cell_houses, full, cand, queue, dirty)
    queued = V.load(cand, givens, full, variant, queue, queued)
    row[cells:] = V.UNSEEN
    dirty[:] = ALL_DIRTY
    strike = options[STRIKE]
    if strike >= 0:
        cell = strike // 64
        cand[cell] &= ~(ONE << np.uint64(strike % 64 - 1))
        if cand[cell] != ZERO and cand[cell] & (cand[cell] - ONE) == ZERO:
            queue[queued] = cell
            queued += 1
    return queued


@kernel
def propagate(cand, houses, cell_houses, full, queue, queued, dirty):
    """Naked and hidden singles to a fixpoint. Returns False at a contradiction.

    ``queue[:queued]`` holds decided cells whose value is still to be removed from their peers;
    ``dirty[h] != 0`` marks the houses to scan for hidden singles (a value with one place left).
    """
    return _singles(cand, houses, cell_houses, full, queue, queued, dirty, HIDDEN) < 0


@kernel
def propagate_variant(cand, houses, cell_houses, full, queue, queued, dirty, variant, seen):
    """``propagate`` and the cages of ``variant`` to a common fixpoint (what the
    optimisation kernel runs; ``seen`` as in ``propagate_rules``). Returns False at a
    contradiction."""
    caged = variant[V.CELLS].shape[0] > 0
    while True:
        if _singles(cand, houses, cell_houses, full, queue, queued, dirty, HIDDEN) >= 0:
            return False
        if not caged:
            return True
        queued, changed, failed = V.propagate(cand, houses, cell_houses, queue, dirty, HIDDEN,
                                              variant, seen)
        if failed >= 0:
            return False
        if not changed:
            return True


@kernel
def _singles(cand, houses, cell_houses, full, queue, queued, dirty, mark):
    """``propagate``, setting the dirty bits ``mark`` on every house it changes. Returns -1,
    or at a contradiction the house that showed it."""
    size = houses.shape[1]
    per_cell = cell_houses.shape[1]
    head = 0
    tail = queued
    while True:
        # naked singles: remove each decided value from the peers; a peer left with one
        # candidate is decided in turn, a peer left with none is a dead end
        while head < tail:
            cell = queue[head]
            head += 1
            bit = cand[cell]
            if bit == ZERO:  # its starting candidates left it none
                return cell_houses[cell, 0]
            for k in range(per_cell):
                house = cell_houses[cell, k]
                if house < 0:
                    break
                for j in range(size):
                    peer = houses[house, j]
                    mask = cand[peer]
                    if peer == cell or (mask & bit) == ZERO:
                        continue
                    mask ^= bit
                    cand[peer] = mask
                    if mask == ZERO:
                        return house
                    if (mask & (mask - ONE)) == ZERO:
                        queue[tail] = peer
                        tail += 1
                    for k2 in range(per_cell):
                        other = cell_houses[peer, k2]
                        if other < 0:
                            break
                        dirty[other] |= mark
        # hidden singles: per house, count each value's places with two bit-parallel counters
        found = False
        for house in range(houses.shape[0]):
            if (dirty[house] & HIDDEN) == 0:
                continue
            dirty[house] &= ALL_DIRTY ^ HIDDEN
            once = ZERO
            twice = ZERO
            decided = ZERO
            for j in range(size):
                mask = cand[houses[house, j]]
                twice |= once & mask
                once |= mask
                if (mask & (mask - ONE)) == ZERO:
                    decided |= mask
            if once != full:
                return house  # some value has no place left in this house
            hidden = once & ~twice & ~decided
            while hidden != ZERO:
                bit = lowest_bit(hidden)
                hidden ^= bit
                target = -1
                for j in range(size):
                    if cand[houses[house, j]] & bit:
                        target = houses[house, j]
                        break
                if target < 0:
                    return house  # its only place was taken by another hidden single
                cand[target] = bit
                queue[tail] = target
                tail += 1
                found = True
                for k in range(per_cell):
                    other = cell_houses[target, k]
                    if other < 0:
                        break
                    dirty[other] |= mark
        if not found:
            return -1


# -- the stronger rules ----------------------------------------------------------------------


@kernel
def propagate_rules(cand, houses, cell_houses, full, queue, queued, dirty, options, rules, work,
                    iwork, variant, seen):
    """Singles, the cages of ``variant`` (if any; ``seen``, what each had when last filtered,
    see ``cages.py``), then the ``rules`` (bit flags, ``LOCKED | SUBSETS``), cheapest first,
    to a common fixpoint: whenever a rule removes a candidate, singles run again before the
    next rule. Returns -1, or at a contradiction the house that showed it (for the conflict
    weights of ``WDEG``). ``work`` and ``iwork`` are scratch (see ``scratch``)."""
    caged = variant[V.CELLS].shape[0] > 0
    while True:
        failed = _singles(cand, houses, cell_houses, full, queue, queued, dirty, ALL_DIRTY)
        if failed >= 0:
            return failed
        queued = 0
        if caged:
            queued, changed, failed = V.propagate(cand, houses, cell_houses, queue, dirty, ALL_DIRTY,
                                                  variant, seen)
            if failed >= 0:
                return failed
            if changed:
                continue
        if rules & LOCKED:
            queued = _locked(cand, cell_houses, options[BOX_HEIGHT], options[BOX_WIDTH],
                             queue, dirty, work)
            if queued < 0:
                return np.int64(work[_W_FLAG, 1])
            if queued > 0 or work[_W_FLAG, 0] != ZERO:
                continue
        if rules & SUBSETS:
            queued = _subsets(cand, houses, cell_houses, queue, dirty, work, iwork)
            if queued < 0:
                return iwork[_I_BLAME, 0]
            if queued > 0 or work[_W_FLAG, 0] != ZERO:
                continue
        return -1


@kernel(inline="always")
def _blame(work, house):
    """Note ``house`` as the one that showed a contradiction; returns -1."""
    work[_W_FLAG, 1] = np.uint64(house)
    return -1


@kernel
def _locked(cand, cell_houses, height, width, queue, dirty, work):
    """Locked candidates over every box-line intersection (a *segment*). Returns how many
    newly decided cells it queued, or -1 at a contradiction; ``work[_W_FLAG, 0]`` says
    whether it removed anything.

    Row segment ``r * height + k`` is row r's cells in box column k (``width`` cells); column
    segment ``c * width + k`` is column c's cells in box row k (``height`` cells). Over the
    segments of each line and of each box, two bit-parallel counters give ``twice``: the
    values with undecided places in two or more of them. A value of segment s that is in one
    segment of its line (not in the line's ``twice``) but in two of its box (in the box's
    ``twice``) has places to remove in the rest of the box (claiming), and the other way
    round (pointing). So each pass touches only cells that do lose a candidate. Removals
    during the pass leave the masks stale supersets, which weakens the rule, never breaks it.
    """
    size = height * width
    seg = work[_W_SEG]
    n_rows = size * height  # row segments: size rows x height box columns
    any_dirty = False
    for house in range(3 * size):
        if dirty[house] & LOCKED_DIRTY:
            any_dirty = True
            dirty[house] &= ALL_DIRTY ^ LOCKED_DIRTY
    work[_W_FLAG, 0] = ZERO
    if not any_dirty or height == 1 or width == 1:
        return 0  # nothing changed since the last pass, or every line is a box
    # the undecided candidates of every segment
    for r in range(size):
        for k in range(height):
            acc = ZERO
            base = r * size + k * width
            for t in range(width):
                mask = cand[base + t]
                if mask & (mask - ONE):
                    acc |= mask
            seg[r * height + k] = acc
    for c in range(size):
        for k in range(width):
            acc = ZERO
            base = k * height * size + c
            for t in range(height):
                mask = cand[base + t * size]
                if mask & (mask - ONE):
                    acc |= mask
            seg[n_rows + c * width + k] = acc
    # twice[house]: over the segments of a line, or of a box split by rows (``by_rows``) or
    # by columns (``by_cols``)
    line_twice = work[_W_TWICE]  # rows 0..n-1, columns n..2n-1
    box_twice = work[_W_TWICE2]  # boxes split by rows 0..n-1, by columns n..2n-1
    for r in range(size):
        once = ZERO
        twice = ZERO
        for k in range(height):
            mask = seg[r * height + k]
            twice |= once & mask
            once |= mask
        line_twice[r] = twice
    for c in range(size):
        once = ZERO
        twice = ZERO
        for k in range(width):
            mask = seg[n_rows + c * width + k]
            twice |= once & mask
            once |= mask
        line_twice[size + c] = twice
    for band in range(width):
        for stack in range(height):
            box = band * height + stack
            once = ZERO
            twice = ZERO
            for i in range(height):
                mask = seg[(band * height + i) * height + stack]
                twice |= once & mask
                once |= mask
            box_twice[box] = twice
            once = ZERO
            twice = ZERO
            for i in range(width):
                mask = seg[n_rows + (stack * width + i) * width + band]
                twice |= once & mask
                once |= mask
            box_twice[size + box] = twice
    # then each segment's removals, written out once here: an inlined helper that takes
    # arrays and loops costs numba an atomic reference count per array and call; the loops
    # count bands and stacks rather than divide, which costs as much (benchmarks/README.md)
    tail = 0
    changed = ZERO
    s = 0  # the segment: the row segments in order, then the column segments
    for columns in range(2):
        along = width if columns else height  # a line's segments, and a band's (stack's) lines
        first = 0  # the first line of the band (stack)
        group = 0  # the band (stack)
        for line in range(size):
            if line - first == along:
                first = line
                group += 1
            for k in range(along):
                if columns:  # column c = line, box row k
                    box = k * height + group
                    line_house = size + line
                    line_has = line_twice[line_house]
                    box_has = box_twice[size + box]
                    span = height  # the cells of a segment, along its line
                    step = size
                    claim_start = k * height * size + first  # the box's columns but this one
                    claim_stride = 1
                    point_start = line  # the column's box rows but this one
                    point_stride = height * size
                else:  # row r = line, box column k
                    box = group * height + k
                    line_house = line
                    line_has = line_twice[line_house]
                    box_has = box_twice[box]
                    span = width
                    step = 1
                    claim_start = first * size + k * width  # the box's rows but this one
                    claim_stride = size
                    point_start = line * size  # the row's box columns but this one
                    point_stride = width
                mask = seg[s]
                s += 1
                for pointing in range(2):
                    if pointing:  # in one box of its line: leave the line's other boxes
                        values = mask & ~box_has & line_has
                        begin, stride, own, blame = point_start, point_stride, k, line_house
                    else:  # in one line of its box: leave the box's other lines
                        values = mask & ~line_has & box_has
                        begin, stride, own = claim_start, claim_stride, line - first
                        blame = 2 * size + box
                    if values == ZERO:
                        continue
                    for part in range(along):
                        if part == own:
                            continue
                        for t in range(span):
                            cell = begin + part * stride + t * step
                            old = cand[cell]
                            if (old & values) == ZERO:
                                continue
                            old &= ~values
                            cand[cell] = old
                            if old == ZERO:
                                return _blame(work, blame)
                            if (old & (old - ONE)) == ZERO:
                                queue[tail] = cell
                                tail += 1
                            for e in range(cell_houses.shape[1]):
                                house = cell_houses[cell, e]
                                if house < 0:
                                    break
                                dirty[house] |= ALL_DIRTY
                            changed = ONE
    work[_W_FLAG, 0] = changed
    return tail


# scratch rows of ``work`` (uint64) and ``iwork`` (int64), each at least 64 wide
_W_SEG = 0  # work[0, s]: the undecided candidates of segment s (``_locked``)
_W_FLAG = 1  # work[1, 0]: set when a rule removed a candidate (read by propagate_rules)
_W_DOM = 2  # work[2, i]: domain of the i-th empty cell of the house
_W_ADJ = 3  # work[3, v]: values reachable in one step from value v (v's cell's other values)
_W_RADJ = 4  # work[4, v]: values with an edge into v
_W_COMP = 5  # work[5, v]: the strongly connected component of value v
_W_TWICE = 6  # work[6, h]: values in two or more segments of line h (``_locked``)
_W_TWICE2 = 7  # work[7, b], work[7, n + b]: the same over box b's row / column segments
_I_CELL = 0  # iwork[0, i]: the i-th empty cell of the house
_I_MATE = 1  # iwork[1, i]: the value (index) matched to it
_I_OWNER = 2  # iwork[2, v]: the empty cell (index) matched to value v, -1 if none
_I_PARENT = 3  # iwork[3, v]: breadth-first search tree while augmenting
_I_QUEUE = 4  # iwork[4, :]: breadth-first search queue; empty cells per house (``choose``)
_I_WEIGHT = 5  # iwork[5, h]: conflicts house h has shown so far, plus one (``WDEG``)
_I_BLAME = 6  # iwork[6, 0]: the house a rule found a contradiction in
_I_RUN = 6  # iwork[6, 1]: failures in this run; iwork[6, 2]: failures allowed before a restart
_I_RNG = 6  # iwork[6, 3]: the random state (``SEED``)
_I_LAZY = 6  # iwork[6, 4]: dead ends met on singles alone; iwork[6, 5]: the rules run from
#             this depth down (and at the root; cells + 1 while they wait, see ``LAZY``)
_I_CELL_WEIGHT = 7  # iwork[7, c]: the weights of cell c's houses, summed (kept with them)


@kernel
def scratch(houses):
    """The scratch arrays ``search`` needs (``work``, ``iwork``) for the shape ``houses``
    describes: rows of at least 64 words, and room for every segment, house and cell."""
    size = houses.shape[1]
    work = np.zeros((8, max(64, 2 * size * size)), dtype=np.uint64)
    iwork = np.zeros((8, max(64, houses.shape[0], size * size)), dtype=np.int64)
    return work, iwork


@kernel
def _subsets(cand, houses, cell_houses, queue, dirty, work, iwork):
    """Regin's all-different filter on every house marked ``SUBSETS_DIRTY``, at rest (decided
    values already removed). Returns how many newly decided cells it queued (it stops at the
    first house that decides one, so singles run before the next house is filtered on stale
    masks), or -1 at a contradiction (the house in ``iwork[_I_BLAME, 0]``).

    The empty cells of a house must take its missing values one each: a perfect matching.
    Match them (greedy, then augmenting paths), and point each value ``u`` at the other
    values of the cell matched to it. Cell c (matched to u) can take value w in some perfect
    matching exactly when u and w lie on a cycle of that graph, i.e. in one strongly
    connected component; every other candidate goes. Values are bits, so the graph is one
    word per value and reachability is word-parallel. One function for every house: numba
    counts references on each array passed to a call, which cost as much as the filter."""
    dom = work[_W_DOM]
    adj = work[_W_ADJ]
    radj = work[_W_RADJ]
    comp = work[_W_COMP]
    local = iwork[_I_CELL]
    mate = iwork[_I_MATE]
    owner = iwork[_I_OWNER]
    parent = iwork[_I_PARENT]
    bfs = iwork[_I_QUEUE]
    work[_W_FLAG, 0] = ZERO
    for house in range(houses.shape[0]):
        if (dirty[house] & SUBSETS_DIRTY) == 0:
            continue
        dirty[house] &= ALL_DIRTY ^ SUBSETS_DIRTY
        empty, union = open_cells(cand, houses, house, local, dom)
        if empty < 2 or 3 * empty > 2 * houses.shape[1]:
            # a house more than two thirds open: the filter costs most there and almost
            # never removes anything (skipping it saves time at about the same nodes:
            # figures in benchmarks/README.md)
            continue
        missing = popcount(union)
        if missing < empty:  # more empty cells than values left for them
            iwork[_I_BLAME, 0] = house
            return -1
        if missing > empty:
            continue  # not at rest: leave it to singles
        failed, _ = perfect_matching(dom, empty, union, mate, owner, parent, bfs)
        if failed >= 0:  # no perfect matching: some k cells share fewer than k values
            iwork[_I_BLAME, 0] = house
            return -1
        if value_components(dom, empty, mate, union, adj, radj, comp):
            continue  # one component: every candidate is in some matching
        # keep, in each cell, the values of its matched value's component
        tail = 0
        for i in range(empty):
            cell = local[i]
            drop = dom[i] & ~comp[mate[i]]
            if drop == ZERO:
                continue
            mask = dom[i] & ~drop
            cand[cell] = mask
            work[_W_FLAG, 0] = ONE
            if (mask & (mask - ONE)) == ZERO:
                queue[tail] = cell
                tail += 1
            for k in range(cell_houses.shape[1]):
                other = cell_houses[cell, k]
                if other < 0:
                    break
                if other == house:
                    dirty[other] |= HIDDEN | LOCKED_DIRTY  # this house is now filtered
                else:
                    dirty[other] |= ALL_DIRTY
        if tail:
            return tail
    return 0


# -- branching -------------------------------------------------------------------------------


@kernel
def choose_cell(cand, size):
    """The undecided cell with the fewest candidates (the first such), or -1 when all are
    decided. A cell with two candidates cannot be beaten, so the scan stops there."""
    best = size + 1
    best_cell = -1
    for cell in range(cand.shape[0]):
        count = popcount(cand[cell])
        if 1 < count < best:
            best = count
            best_cell = cell
            if count == 2:
                break
    return best_cell


@kernel
def _choose_cell_degree(cand, houses, cell_houses, empty_in):
    """The cell with the fewest candidates; among those, the one whose houses hold the most
    empty cells (the most constraints still open). -1 when every cell is decided."""
    size = houses.shape[1]
    for house in range(houses.shape[0]):
        count = 0
        for j in range(size):
            mask = cand[houses[house, j]]
            if mask & (mask - ONE):
                count += 1
        empty_in[house] = count
    best = size + 1
    best_degree = -1
    best_cell = -1
    for cell in range(cand.shape[0]):
        count = popcount(cand[cell])
        if count < 2 or count > best:
            continue
        degree = 0
        for k in range(cell_houses.shape[1]):
            house = cell_houses[cell, k]
            if house < 0:
                break
            degree += empty_in[house]
        if count < best or degree > best_degree:
            best = count
            best_degree = degree
            best_cell = cell
    return best_cell


@kernel
def _choose_cell_wdeg(cand, cell_weights):
    """The cell with the fewest candidates per conflict weight of its houses (dom/wdeg: the
    houses that failed before are the ones to settle first). -1 when all are decided.
    ``cell_weights`` holds each cell's sum, kept up to date as weights change: cheaper than
    summing its houses' weights for every cell at every choice (benchmarks/README.md)."""
    best_count = 1
    best_weight = 0
    best_cell = -1
    for cell in range(cand.shape[0]):
        count = popcount(cand[cell])
        if count < 2:
            continue
        weight = cell_weights[cell]
        if best_cell < 0 or count * best_weight < best_count * weight:
            best_count = count
            best_weight = weight
            best_cell = cell
    return best_cell


@kernel(inline="always")
def _house_places(cand, houses, house, places):
    """The values still open in ``house`` (a mask: candidates of its undecided cells), and
    for each of them ``places[v]``, the positions j in the house where v may still go."""
    size = houses.shape[1]
    union = ZERO
    for j in range(size):
        mask = cand[houses[house, j]]
        if mask & (mask - ONE):
            union |= mask
    rest = union
    while rest:
        bit = lowest_bit(rest)
        rest ^= bit
        places[trailing_zeros(bit)] = ZERO
    for j in range(size):
        mask = cand[houses[house, j]]
        if mask & (mask - ONE):
            spot = ONE << np.uint64(j)
            while mask:
                bit = lowest_bit(mask)
                mask ^= bit
                places[trailing_zeros(bit)] |= spot
    return union


@kernel
def _choose_place_wdeg(cand, houses, cell_houses, cell, weights, places):
    """``cell`` (from ``_choose_cell_wdeg``), or a (house, value) whose places per weight of
    its house, times three (a cell counts three houses' weights), are fewer."""
    best_count = popcount(cand[cell])
    best_weight = 0
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        best_weight += weights[house]
    best_house = -1
    best_value = -1
    best_places = ZERO
    for house in range(houses.shape[0]):
        union = _house_places(cand, houses, house, places)
        if union == ZERO:
            continue
        weight = 3 * weights[house]
        while union:
            bit = lowest_bit(union)
            union ^= bit
            value = trailing_zeros(bit)
            count = popcount(places[value])
            if count * best_weight < best_count * weight:
                best_count = count
                best_weight = weight
                best_house = house
                best_value = value
                best_places = places[value]
    if best_house < 0:
        return cell, cand[cell]
    return _place_code(best_house, best_value, 0), best_places


@kernel
def _choose_place(cand, houses, limit, places):
    """The (house, value) with the fewest places, fewer than ``limit``; among equals, the one
    whose places hold the fewest candidates in all. Returns (house, value index, places mask),
    house -1 when none has fewer than ``limit`` places. ``places`` is scratch, 64 wide."""
    best = limit
    best_weight = 1 << 30
    best_house = -1
    best_value = -1
    best_places = ZERO
    for house in range(houses.shape[0]):
        union = _house_places(cand, houses, house, places)
        if union == ZERO:
            continue
        while union:
            bit = lowest_bit(union)
            union ^= bit
            value = trailing_zeros(bit)
            spots = places[value]
            count = popcount(spots)
            if count > best or count >= limit:
                continue
            weight = 0
            rest = spots
            while rest:
                spot = lowest_bit(rest)
                rest ^= spot
                weight += popcount(cand[houses[house, trailing_zeros(spot)]])
            if count < best or weight < best_weight:
                best = count
                best_weight = weight
                best_house = house
                best_value = value
                best_places = spots
    return best_house, best_value, best_places


@kernel
def choose(cand, houses, cell_houses, mode, empty_in, places, weights, cell_weights):
    """The next choice point as (code, alternatives): a cell and its candidates, or a
    (house, value) as ``_place_code`` (negative) and its places (bit j: ``houses[house, j]``).
    ``(cells, 0)``, a code past the last cell, when every cell is decided."""
    size = houses.shape[1]
    cells = cand.shape[0]
    if mode == CELL_DEGREE:
        cell = _choose_cell_degree(cand, houses, cell_houses, empty_in)
    elif mode == WDEG or mode == WDEG_PLACE:
        cell = _choose_cell_wdeg(cand, cell_weights)
        if cell < 0:
            return cells, ZERO
        if mode == WDEG:
            return cell, cand[cell]
        return _choose_place_wdeg(cand, houses, cell_houses, cell, weights, places)
    else:
        cell = choose_cell(cand, size)
    if cell < 0:
        return cells, ZERO
    if mode == CELL or mode == CELL_DEGREE:
        return cell, cand[cell]
    count = popcount(cand[cell])
    if mode == BEST and count == 2:
        return cell, cand[cell]
    house, value, spots = _choose_place(cand, houses, count if mode == BEST else size + 1, places)
    if house < 0:
        return cell, cand[cell]
    return _place_code(house, value, 0), spots


@kernel(inline="always")
def _place_code(house, value, position):
    return -1 - ((house * _KEY + value) * _KEY + position)


@kernel(inline="always")
def _branched_cell(houses, code):
    """The cell the choice point ``code`` fixed last."""
    if code >= 0:
        return code
    key = -1 - code
    return houses[key // (_KEY * _KEY), key % _KEY]


# -- the search ------------------------------------------------------------------------------


@kernel
def search(givens, geometry, state, ctl, limit, node_budget, record_at, out, options, variant):
    """Run (or resume) the search until a protocol code is due; see ``protocol``.

    ``geometry`` is the board's ``(houses, cell_houses, full)``; ``state`` the arrays the
    search keeps between calls, ``(stack, branch_cell, branch_rest, queue, dirty, work,
    iwork)`` (``work`` and ``iwork`` are scratch for the rules, ``scratch(houses)``, kept by
    the caller only so that no call allocates). ``options`` (see ``options_for``) picks the
    rules and the branching; ``variant`` holds the board's cages and starting candidates
    (``cages.py``; ``cages.plain`` for a board without them). A choice point is a cell
    (``branch_cell[d] >= 0``, ``branch_rest[d]`` its values left to try) or a (house, value)
    (negative, see ``_place_code``; ``branch_rest[d]`` its places left to try)."""
    houses, cell_houses, full = geometry
    stack, branch_cell, branch_rest, queue, dirty, work, iwork = state
    cells = givens.shape[0]
    mode = options[BRANCH]
    node_stop = ctl[P.NODES] + node_budget
    depth, phase, fresh = resume(ctl)
    empty_in = iwork[_I_QUEUE]
    weights = iwork[_I_WEIGHT]
    cell_weights = iwork[_I_CELL_WEIGHT]
    if fresh:
        queued = _load_root(givens, cell_houses, full, stack[0], queue, dirty, options, variant)
        _reset_weights(cell_houses, weights, cell_weights)
        iwork[_I_RUN, 1] = 0
        iwork[_I_RUN, 2] = options[RESTART]
        iwork[_I_RNG, 3] = options[SEED]
        iwork[_I_LAZY, 4] = 0
        iwork[_I_LAZY, 5] = cells + 1 if options[LAZY] > 0 and options[RULES] != 0 else 0
    else:
        queued = -1  # set below, where the phase needs it
    while True:
        if phase == P.PROPAGATE:
            if ctl[P.NODES] >= node_stop:
                return pause(ctl, depth, phase, P.BUDGET)
            if queued < 0:  # resuming a propagation: redo it from the branched cell
                if depth == 0:
                    queued = _load_root(givens, cell_houses, full, stack[0], queue, dirty, options, variant)
                else:
                    queue[0] = _branched_cell(houses, branch_cell[depth - 1])
                    queued = 1
                    _mark_houses(cell_houses, queue[0], dirty)
            ctl[P.NODES] += 1
            cand = stack[depth, :cells]
            rules = options[RULES] if depth >= iwork[_I_LAZY, 5] or depth == 0 else 0
            failed = propagate_rules(cand, houses, cell_houses, full, queue, queued, dirty,
                                     options, rules, work, iwork, variant, stack[depth, cells:])
            queued = -1
            if failed >= 0:
                weights[failed] += 1
                for j in range(houses.shape[1]):
                    cell_weights[houses[failed, j]] += 1
                phase = P.BACKTRACK
                if iwork[_I_LAZY, 5] > cells and depth > 0:
                    # singles alone serve a puzzle that dives to a solution; one that keeps
                    # failing needs the rules, and from the root: a tree grown without them
                    # keeps early guesses they would have refuted at once
                    iwork[_I_LAZY, 4] += 1
                    if iwork[_I_LAZY, 4] >= options[LAZY]:
                        dirty[:] = ALL_DIRTY
                        if ctl[P.COUNT] == 0:  # nothing reported, nothing to count twice
                            iwork[_I_LAZY, 5] = 0
                            # the search the rules would have made alone
                            _reset_weights(cell_houses, weights, cell_weights)
                            depth = 0
                            phase = np.int64(_CHOOSE)  # typed: the ahead-of-time compiler kept the literal 3
                            continue
                        iwork[_I_LAZY, 5] = depth  # here and below; above, when branched again
                if options[RESTART] > 0 and ctl[P.COUNT] == 0 and depth > 0:
                    # before the first solution, a run that fails too often starts again from
                    # the root, where the conflict weights now lead elsewhere; no solution is
                    # lost (none was found) and the cutoff grows, so some run is complete
                    iwork[_I_RUN, 1] += 1
                    if iwork[_I_RUN, 1] >= iwork[_I_RUN, 2]:
                        iwork[_I_RUN, 1] = 0
                        iwork[_I_RUN, 2] += iwork[_I_RUN, 2] // 2 + 1
                        depth = 0
                        phase = np.int64(_CHOOSE)
                continue
            phase = np.int64(_CHOOSE)
        if phase == _CHOOSE:
            cand = stack[depth, :cells]
            code, rest = choose(cand, houses, cell_houses, mode, empty_in, work[_W_DOM], weights,
                                cell_weights)
            if code >= cells:  # every cell decided: a solution
                keep, outcome = solution(ctl, depth, limit, record_at)
                if keep:
                    for c in range(cells):
                        out[c] = trailing_zeros(cand[c]) + 1
                if outcome != P.GOING:
                    return outcome
                phase = P.BACKTRACK
                continue
            ctl[P.GUESSES] += 1
            branch_cell[depth] = code
            branch_rest[depth] = rest
            phase = P.NEXT_BRANCH
        if phase == P.NEXT_BRANCH:
            if depth + 1 >= stack.shape[0]:
                return pause(ctl, depth, phase, P.STACK_FULL)
            rest = branch_rest[depth]
            if options[SEED] != 0:
                bit = _random_bit(rest, iwork)
            elif options[VALUES] == LEAST_CONSTRAINING and branch_cell[depth] >= 0:
                bit = _least_constraining(stack[depth, :cells], houses, cell_houses, branch_cell[depth], rest)
            else:
                bit = lowest_bit(rest)
            branch_rest[depth] = rest ^ bit
            code = branch_cell[depth]
            if code >= 0:
                cell = code
                value = bit
            else:  # a (house, value): try its next place
                key = (-1 - code) // _KEY
                position = trailing_zeros(bit)
                branch_cell[depth] = -1 - (key * _KEY + position)
                cell = houses[key // _KEY, position]
                value = ONE << np.uint64(key % _KEY)
            if depth < iwork[_I_LAZY, 5] <= cells:
                iwork[_I_LAZY, 5] = depth  # a level the rules never saw: they start afresh
                dirty[:] = ALL_DIRTY
            stack[depth + 1, :] = stack[depth]
            depth += 1
            stack[depth, cell] = value
            queue[0] = cell
            queued = 1
            _mark_houses(cell_houses, cell, dirty)
            phase = P.PROPAGATE
        elif phase == P.BACKTRACK:
            depth, outcome = retreat(ctl, branch_rest, depth)
            if outcome != P.GOING:
                return outcome
            phase = P.NEXT_BRANCH


@kernel(inline="always")
def _least_constraining(cand, houses, cell_houses, cell, values):
    """The value of ``values`` (one bit) that the fewest cells of ``cell``'s houses still
    have (a cell in two of them counts twice; ties to the lowest): putting it in the cell
    takes the fewest candidates away."""
    best = ZERO
    best_score = -1
    while values:
        bit = lowest_bit(values)
        values ^= bit
        score = 0
        for k in range(cell_houses.shape[1]):
            house = cell_houses[cell, k]
            if house < 0:
                break
            for j in range(houses.shape[1]):
                if cand[houses[house, j]] & bit:
                    score += 1
        if best_score < 0 or score < best_score:
            best_score = score
            best = bit
    return best


@kernel
def _random_bit(mask, iwork):
    """One set bit of ``mask``, drawn with the xorshift state in ``iwork``."""
    state = np.uint64(iwork[_I_RNG, 3])
    state ^= state << np.uint64(13)
    state ^= state >> np.uint64(7)
    state ^= state << np.uint64(17)
    iwork[_I_RNG, 3] = np.int64(state)
    skip = np.int64((state >> np.uint64(11)) % np.uint64(popcount(mask)))
    for _ in range(skip):
        mask &= mask - ONE
    return lowest_bit(mask)


@kernel(inline="always")
def _reset_weights(cell_houses, weights, cell_weights):
    """Every house's conflict weight back to one, and each cell's sum to its house count."""
    weights[:] = 1
    for cell in range(cell_houses.shape[0]):
        count = 0
        for k in range(cell_houses.shape[1]):
            if cell_houses[cell, k] >= 0:
                count += 1
        cell_weights[cell] = count


@kernel(inline="always")
def _mark_houses(cell_houses, cell, dirty):
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        dirty[house] = ALL_DIRTY
