"""The classic kernel: 9x9 boards with 3x3 boxes, candidates held as band bitboards.

The general kernel keeps one mask of values per cell and walks houses cell by cell. Here the
board is turned around, as in the fastest native solvers (JCZSolve, fsss2, tdoku): for each
digit, the cells that may still hold it, as three 27-bit sets, one per *band* (three rows of
boxes). Every rule then becomes a handful of whole-word operations:

- *Locked candidates along rows* (pointing and claiming, both ways): in one band a digit sits
  once in each of the band's three rows and once in each of its three boxes, so the row/box
  pairs that still hold it (nine *triads*, 3 cells each) must contain a 3x3 permutation.
  A table maps the 9-bit triad occupancy to the cells of every triad that lies on such a
  permutation; one AND removes the rest, and a zero word is a contradiction. Hidden singles in
  boxes fall out of the same step.
- *Placing a digit*: a row of a band word with one cell left is a hidden single in that row;
  the cell leaves the other eight digits' words and its column leaves the digit's other bands.
- *Locked candidates along columns* and *hidden singles in columns*: the same permutation
  table applied to each stack (column of boxes), built from the column occupancy of the
  digit's three band words.
- *Naked singles* and *empty cells*: bit-parallel counters over the nine digit words of a band
  give the cells with one candidate, two, and three or more, and the cells with none.

The search branches as tdoku does, on a digit's *configuration* in a band (which box each of
the band's rows holds it in: 6 at most): the band with the fewest configurations over all
digits, the digit in it with the fewest. On the hard sets that guesses about 40% less than
branching on the first cell with two candidates (JCZSolve's choice) and runs about 25% faster.
Branching copies one 128-byte level; the last alternative of a choice reuses the level in
place, so a two-way branch costs one copy.

Roads not taken (measured on the hard sets): tdoku's SIMD box/band vectors need byte shuffles
numba cannot express; branching on stack configurations as well as band ones (as tdoku does)
guesses 7% less but costs as much in ``choose``; counting triads with shifts instead of tables
changed nothing; placing cells with no early exit when a row has no new single was slower; a
trail of undone changes instead of copies loses on a 128-byte level. Dropping the column rules
costs 50% more guesses, dropping the triad rules makes sparse boards explode (the empty board
never finishes: eight digits fit the same configuration until cells run out).

Kernels never validate: the Python layer hands over 81 values 0..9, givens free of repeats.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import protocol as P
from ._jit import kernel
from .bits import popcount, trailing_zeros

#: one band of one digit: 27 cells, bit ``9 * row_in_band + column``
FULL = (1 << 27) - 1
#: the nine cells of the band's first row
ROW = 0x1FF

# The state of one search level, one row of ``stack`` (``SLOTS`` int32 words, 128 bytes),
# the thing a branch copies:
#
#   slot 3*d + b   (d = digit - 1 in 0..8, b = band in 0..2): where digit d may still go
#
#        bit 26 ........... 18 | 17 ............ 9 | 8 ............. 0
#            row 3b+2          |     row 3b+1      |     row 3b
#            c8 c7 ....... c0  |  c8 c7 ...... c0  |  c8 c7 ....... c0
#            box 3b+2 |3b+1|3b |  (three cells, a triad, per box and row)
#
#   slot 27 + b    cells of band b not placed yet (same layout)
#   slot 30        dirty: bit 3*d + b set when slot 3*d + b changed since the band rules ran on it
#   slot 31        padding
#
# Invariants at rest (after a propagation that did not fail): every placed cell keeps its
# digit's bit and no other digit's; a row of a digit word with a placed cell has no other bit;
# every digit word passes the permutation test.
SLOTS = 32
#: levels enough for any search: a path branches at most 27 times on configurations (each
#: leaves a digit word with one) and 81 times on cells (each places one), plus the root
LEVELS = 110
UNPLACED = 27
DIRTY = 30
ALL_DIRTY = (1 << 27) - 1
#: the slots of band 0's nine digit words (shift left by b for band b)
BAND_SLOTS = sum(1 << (3 * digit) for digit in range(9))


def _tables():
    """The triad tables, computed once at import."""
    shrink = np.zeros(512, dtype=np.int32)  # 9 cells of a row -> which of its 3 triads are live
    for cells in range(512):
        shrink[cells] = sum(1 << k for k in range(3) if (cells >> (3 * k)) & 7)
    perm_triads = np.zeros(512, dtype=np.int32)  # triad occupancy -> triads on a permutation
    for occupancy in range(512):
        allowed = 0
        for order in itertools.permutations(range(3)):
            triads = sum(1 << (3 * row + order[row]) for row in range(3))
            if occupancy & triads == triads:
                allowed |= triads
        perm_triads[occupancy] = allowed
    perm_cells = np.zeros(512, dtype=np.int32)  # the same, as the 27 cells of those triads
    for occupancy in range(512):
        allowed = int(perm_triads[occupancy])
        perm_cells[occupancy] = sum(7 << (9 * (t // 3) + 3 * (t % 3)) for t in range(9) if allowed >> t & 1)
    orders = list(itertools.permutations(range(3)))
    # the six configurations of a digit in a band (row -> box), as the cells they keep
    config_cells = np.array(
        [sum(7 << (9 * row + 3 * order[row]) for row in range(3)) for order in orders], dtype=np.int32
    )
    configs = np.zeros(512, dtype=np.int32)  # triad occupancy -> configurations it still allows
    for occupancy in range(512):
        for number, order in enumerate(orders):
            triads = sum(1 << (3 * row + order[row]) for row in range(3))
            if occupancy & triads == triads:
                configs[occupancy] |= 1 << number
    spread = np.zeros(512, dtype=np.int32)  # 9 columns -> the 27 cells of those columns
    for columns in range(512):
        spread[columns] = columns | (columns << 9) | (columns << 18)
    required = np.zeros(512, dtype=np.int32)  # triad occupancy -> triads on every configuration
    for occupancy in range(512):
        common = 0x1FF
        for number, order in enumerate(orders):
            if configs[occupancy] >> number & 1:
                common &= sum(1 << (3 * row + order[row]) for row in range(3))
        required[occupancy] = common if configs[occupancy] else 0
    triad_cells = np.zeros(512, dtype=np.int32)  # a set of triads -> their cells
    force_keep = np.zeros(512, dtype=np.int32)  # triads a digit must use -> the cells it keeps
    for triads in range(512):
        cells = 0
        keep = FULL
        for t in range(9):
            if triads >> t & 1:
                row, box = divmod(t, 3)
                mine = 7 << (9 * row + 3 * box)
                cells |= mine
                row_cells = ROW << (9 * row)
                box_cells = sum(7 << (9 * r + 3 * box) for r in range(3))
                keep &= ~((row_cells | box_cells) & ~mine)
        triad_cells[triads] = cells
        force_keep[triads] = keep
    return shrink, perm_triads, perm_cells, spread, config_cells, configs, required, triad_cells, force_keep


(SHRINK, PERM_TRIADS, PERM_CELLS, SPREAD, CONFIG_CELLS, CONFIGS, REQUIRED, TRIAD_CELLS,
 FORCE_KEEP) = _tables()

#: ``branch_cell`` values from here up name a digit word (``CONFIG_BRANCH + slot``) whose
#: configurations are tried, below it a cell (``27 * band + bit``) whose digits are tried
CONFIG_BRANCH = 100
@kernel(inline="always")
def _tz(mask):
    return trailing_zeros(np.uint64(mask))


@kernel
def load_givens(givens, stack):
    """Fill level 0: every digit everywhere, then each given alone in its row of its digit's
    word and gone from the other digits' words. The band rules do the rest."""
    for i in range(27):
        stack[i] = FULL
    for band in range(3):
        stack[UNPLACED + band] = FULL
    for cell in range(81):
        value = givens[cell]
        if value == 0:
            continue
        row = cell // 9
        band = row // 3
        pos = (row % 3) * 9 + cell % 9
        bit = 1 << pos
        slot = 3 * (value - 1) + band
        stack[slot] = stack[slot] & ~((ROW << (9 * (row % 3))) ^ bit)
        for digit in range(9):
            other = 3 * digit + band
            if other != slot:
                stack[other] = stack[other] & ~bit
    stack[DIRTY] = ALL_DIRTY


@kernel
def propagate(stack, base):
    """Apply the rules to level ``stack[base:base + SLOTS]`` until nothing changes.
    Returns False at a contradiction."""
    dirty = int(stack[base + DIRTY])
    stack[base + DIRTY] = 0
    # the slower rules below depend on one band or one digit only: each runs again only
    # where some word changed since it last ran (``touched``: every word marked dirty)
    touched = dirty
    cell_todo = 0
    triad_todo = 0
    column_todo = 0
    while True:
        # band rules on every changed digit word, to a fixpoint
        while dirty:
            slot = _tz(dirty)
            dirty &= dirty - 1
            word = int(stack[base + slot])
            occupancy = (
                SHRINK[word & ROW] | (SHRINK[(word >> 9) & ROW] << 3) | (SHRINK[word >> 18] << 6)
            )
            word &= PERM_CELLS[occupancy]
            if word == 0:
                return False
            stack[base + slot] = word
            # rows down to one cell: hidden singles, placed now unless placed before
            singles = 0
            part = word & ROW
            if part & (part - 1) == 0:
                singles |= part
            part = word & (ROW << 9)
            if part & (part - 1) == 0:
                singles |= part
            part = word & (ROW << 18)
            if part & (part - 1) == 0:
                singles |= part
            band = slot % 3
            fresh = singles & int(stack[base + UNPLACED + band])
            if fresh == 0:
                continue
            stack[base + UNPLACED + band] = stack[base + UNPLACED + band] ^ fresh
            # the cells leave the other digits, their columns the digit's other bands:
            # written without branches (which of the words change is data, so unpredictable)
            # and the word itself put back afterwards
            keep = ~fresh
            marks = 0
            for digit in range(9):  # a fixed trip count, so the loop unrolls
                other = 3 * digit + band
                old = int(stack[base + other])
                new = old & keep
                stack[base + other] = new
                marks |= int(new != old) << other
            keep = ~SPREAD[(fresh | (fresh >> 9) | (fresh >> 18)) & ROW]
            first = slot - band
            for other_band in range(3):
                other = first + other_band
                old = int(stack[base + other])
                new = old & keep
                stack[base + other] = new
                marks |= int(new != old) << other
            stack[base + slot] = word
            marks &= ~(1 << slot)
            dirty |= marks
            touched |= marks
        if (stack[base + UNPLACED] | stack[base + UNPLACED + 1] | stack[base + UNPLACED + 2]) == 0:
            return True
        cell_todo |= touched
        triad_todo |= touched
        column_todo |= touched
        touched = 0
        # cell rules: empty cells fail, naked singles are placed in their digit's word
        for band in range(3):
            if cell_todo & (BAND_SLOTS << band) == 0:
                continue
            once = 0
            twice = 0
            for digit in range(9):
                slot = 3 * digit + band
                word = int(stack[base + slot])
                twice |= once & word
                once |= word
            if once != FULL:
                return False
            naked = once & ~twice & int(stack[base + UNPLACED + band])
            if naked == 0:
                continue
            for digit in range(9):
                slot = 3 * digit + band
                word = int(stack[base + slot])
                mine = word & naked
                if mine == 0:
                    continue
                for row in range(3):
                    row_mask = ROW << (9 * row)
                    cell = mine & row_mask
                    if cell:
                        if cell & (cell - 1):
                            return False  # two cells of one row can hold only this digit
                        word &= ~(row_mask ^ cell)
                stack[base + slot] = word
                dirty |= 1 << slot
        cell_todo = 0
        if dirty:
            touched |= dirty
            continue
        # triad rules: the three cells of a row within a box hold three different digits, so
        # a triad that only three digits can reach holds all three, and a triad that three
        # digits must use (on each of their configurations) holds no other
        for band in range(3):
            if triad_todo & (BAND_SLOTS << band) == 0:
                continue
            p1 = p2 = p3 = p4 = 0
            q1 = q2 = q3 = q4 = 0
            for digit in range(9):
                slot = 3 * digit + band
                occupancy = _occupancy(int(stack[base + slot]))
                req = REQUIRED[occupancy]
                p4 |= p3 & occupancy
                p3 |= p2 & occupancy
                p2 |= p1 & occupancy
                p1 |= occupancy
                q4 |= q3 & req
                q3 |= q2 & req
                q2 |= q1 & req
                q1 |= req
            if (~p3 & ROW) or q4:
                return False
            reached = p3 & ~p4
            filled = q3
            if (reached | filled) == 0:
                continue
            for digit in range(9):
                slot = 3 * digit + band
                word = int(stack[base + slot])
                occupancy = _occupancy(word)
                new = word & FORCE_KEEP[occupancy & reached] & ~TRIAD_CELLS[filled & ~REQUIRED[occupancy]]
                if new != word:
                    stack[base + slot] = new
                    dirty |= 1 << slot
        triad_todo = 0
        if dirty:
            touched |= dirty
            continue
        # column rules, digit by digit: locked candidates along stacks, hidden singles
        for first in range(0, 27, 3):
            if column_todo & (7 << first) == 0:
                continue
            w0 = int(stack[base + first])
            w1 = int(stack[base + first + 1])
            w2 = int(stack[base + first + 2])
            c0 = (w0 | (w0 >> 9) | (w0 >> 18)) & ROW
            c1 = (w1 | (w1 >> 9) | (w1 >> 18)) & ROW
            c2 = (w2 | (w2 >> 9) | (w2 >> 18)) & ROW
            keep0 = 0
            keep1 = 0
            keep2 = 0
            for stk in range(3):
                shift = 3 * stk
                allowed = PERM_TRIADS[
                    ((c0 >> shift) & 7) | (((c1 >> shift) & 7) << 3) | (((c2 >> shift) & 7) << 6)
                ]
                if allowed == 0:
                    return False
                keep0 |= (allowed & 7) << shift
                keep1 |= ((allowed >> 3) & 7) << shift
                keep2 |= ((allowed >> 6) & 7) << shift
            n0 = w0 & SPREAD[keep0]
            n1 = w1 & SPREAD[keep1]
            n2 = w2 & SPREAD[keep2]
            # a column with one cell left for the digit: that cell holds it
            m0 = (n0 & (n0 >> 9)) | (n0 & (n0 >> 18)) | ((n0 >> 9) & (n0 >> 18))
            m1 = (n1 & (n1 >> 9)) | (n1 & (n1 >> 18)) | ((n1 >> 9) & (n1 >> 18))
            m2 = (n2 & (n2 >> 9)) | (n2 & (n2 >> 18)) | ((n2 >> 9) & (n2 >> 18))
            lone = ~((keep0 & keep1) | (keep0 & keep2) | (keep1 & keep2) | m0 | m1 | m2) & ROW
            if lone:
                n0 = _claim_rows(n0 & SPREAD[lone & keep0], n0)
                n1 = _claim_rows(n1 & SPREAD[lone & keep1], n1)
                n2 = _claim_rows(n2 & SPREAD[lone & keep2], n2)
                if n0 < 0 or n1 < 0 or n2 < 0:
                    return False
            if n0 != w0:
                stack[base + first] = n0
                dirty |= 1 << first
            if n1 != w1:
                stack[base + first + 1] = n1
                dirty |= 1 << (first + 1)
            if n2 != w2:
                stack[base + first + 2] = n2
                dirty |= 1 << (first + 2)
        column_todo = 0
        if dirty == 0:
            return True
        touched |= dirty


@kernel(inline="always")
def _claim_rows(cells, word):
    """``word`` with each cell of ``cells`` made the only one of its row; -1 when two of them
    share a row."""
    for row in range(3):
        row_mask = ROW << (9 * row)
        cell = cells & row_mask
        if cell:
            if cell & (cell - 1):
                return -1
            word &= ~(row_mask ^ cell)
    return word


@kernel(inline="always")
def _occupancy(word):
    """The 9 triads of a band word that still hold a candidate, bit ``3 * row + box``."""
    return SHRINK[word & ROW] | (SHRINK[(word >> 9) & ROW] << 3) | (SHRINK[word >> 18] << 6)


@kernel
def choose(stack, base):
    """What to branch on, as tdoku does: the band with the fewest digit configurations left
    (and some digit still open), and in it the digit with the fewest, two when there is one.
    Returns ``(CONFIG_BRANCH + slot, configurations)``. Where every digit word is down to one
    configuration but cells are still open, falls back to a cell: ``(27 * band + bit, digits)``
    for the first cell with the fewest candidates."""
    best_total = 1000
    best_band = -1
    for band in range(3):
        total = 0
        for digit in range(9):
            slot = 3 * digit + band
            total += popcount(np.uint64(CONFIGS[_occupancy(int(stack[base + slot]))]))
        if 9 < total < best_total:
            best_total = total
            best_band = band
    if best_band >= 0:
        best = 7
        best_slot = -1
        best_configs = 0
        for digit in range(9):
            slot = 3 * digit + best_band
            configs = CONFIGS[_occupancy(int(stack[base + slot]))]
            count = popcount(np.uint64(configs))
            if 1 < count < best:
                best = count
                best_slot = slot
                best_configs = configs
                if count == 2:
                    break
        return CONFIG_BRANCH + best_slot, best_configs
    return _choose_cell(stack, base)


@kernel
def _choose_cell(stack, base):
    best = 10
    best_cell = -1
    best_digits = 0
    for band in range(3):
        open_cells = int(stack[base + UNPLACED + band])
        while open_cells:
            pos = _tz(open_cells)
            open_cells &= open_cells - 1
            digits = 0
            for digit in range(9):
                digits |= ((int(stack[base + 3 * digit + band]) >> pos) & 1) << digit
            count = popcount(np.uint64(digits))
            if count < best:
                best = count
                best_cell = 27 * band + pos
                best_digits = digits
                if count == 2:
                    return best_cell, best_digits
    return best_cell, best_digits


@kernel
def write_solution(stack, base, out):
    """The placed digits of a finished level, as 81 values 1..9."""
    for slot in range(27):
        word = int(stack[base + slot])
        digit = slot // 3 + 1
        band = slot % 3
        while word:
            pos = _tz(word)
            word &= word - 1
            out[(3 * band + pos // 9) * 9 + pos % 9] = digit


@kernel
def search(givens, stack, branch_cell, branch_rest, ctl, limit, node_budget, record_at, out):
    """Run (or resume) the search until a protocol code is due; see ``protocol``.

    ``stack`` is ``levels * SLOTS`` int32 words; ``branch_cell[level]`` is the cell a level
    branched on and ``branch_rest[level]`` the digits still to try there.
    """
    levels = stack.shape[0] // SLOTS
    node_stop = ctl[P.NODES] + node_budget
    depth = ctl[P.DEPTH]
    phase = ctl[P.PHASE]
    if depth < 0:
        depth = 0
        phase = P.PROPAGATE
        load_givens(givens, stack)
    while True:
        if phase == P.PROPAGATE:
            if ctl[P.NODES] >= node_stop:
                ctl[P.DEPTH] = depth
                ctl[P.PHASE] = phase
                return P.BUDGET
            ctl[P.NODES] += 1
            base = depth * SLOTS
            if not propagate(stack, base):
                phase = P.BACKTRACK
                continue
            if (stack[base + UNPLACED] | stack[base + UNPLACED + 1] | stack[base + UNPLACED + 2]) == 0:
                ctl[P.COUNT] += 1
                if ctl[P.COUNT] == record_at:
                    write_solution(stack, base, out)
                phase = P.BACKTRACK
                if ctl[P.COUNT] >= limit:
                    ctl[P.DEPTH] = depth
                    ctl[P.PHASE] = phase
                    return P.LIMIT
                continue
            cell, digits = choose(stack, base)
            ctl[P.GUESSES] += 1
            branch_cell[depth] = cell
            branch_rest[depth] = digits
            phase = P.NEXT_BRANCH
        elif phase == P.NEXT_BRANCH:
            rest = branch_rest[depth]
            last = rest & (rest - 1) == 0
            if not last and depth + 1 >= levels:
                ctl[P.DEPTH] = depth
                ctl[P.PHASE] = phase
                return P.STACK_FULL
            digit = _tz(rest)
            branch_rest[depth] = rest & (rest - 1)
            cell = branch_cell[depth]
            base = depth * SLOTS
            if not last:  # the level stays for the other digits; work on a copy above it
                depth += 1
                target = base + SLOTS
                for i in range(SLOTS):
                    stack[target + i] = stack[base + i]
                base = target
                branch_rest[depth] = 0
            if cell >= CONFIG_BRANCH:  # "digit" numbers a configuration of a digit word
                slot = cell - CONFIG_BRANCH
                stack[base + slot] = stack[base + slot] & CONFIG_CELLS[digit]
            else:
                band = cell // 27
                pos = cell % 27
                slot = 3 * digit + band
                stack[base + slot] = stack[base + slot] & ~((ROW << (9 * (pos // 9))) ^ (1 << pos))
            stack[base + DIRTY] = 1 << slot
            phase = P.PROPAGATE
        else:  # BACKTRACK
            depth -= 1
            while depth >= 0 and branch_rest[depth] == 0:
                depth -= 1
            if depth < 0:
                ctl[P.DEPTH] = 0
                ctl[P.PHASE] = P.BACKTRACK
                branch_rest[0] = 0
                return P.DONE
            phase = P.NEXT_BRANCH


@kernel
def solve_many(puzzles, limit, node_budget, solutions, counts, nodes, guesses, exhausted):
    """Search every row of ``puzzles`` (``(N, 81)`` values, 0 empty) for up to ``limit``
    solutions and at most ``node_budget`` nodes: the first solution into ``solutions[k]``, the
    count, nodes and guesses, and whether the search space was exhausted. Rows with
    ``counts[k] < 0`` on entry are skipped (the caller's mark for records it set aside)."""
    stack = np.zeros(LEVELS * SLOTS, dtype=np.int32)
    branch_cell = np.zeros(LEVELS, dtype=np.int64)
    branch_rest = np.zeros(LEVELS, dtype=np.int64)
    ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
    for k in range(puzzles.shape[0]):
        if counts[k] < 0:
            continue
        ctl[:] = 0
        ctl[P.DEPTH] = -1
        code = search(
            puzzles[k], stack, branch_cell, branch_rest, ctl, limit, node_budget, 1, solutions[k]
        )
        counts[k] = ctl[P.COUNT]
        nodes[k] = ctl[P.NODES]
        guesses[k] = ctl[P.GUESSES]
        exhausted[k] = code == P.DONE
