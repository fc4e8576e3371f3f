"""The 16x16 kernel: boards with 4x4 boxes, candidates held as per-value bitboards.

The general kernel keeps one mask of values per cell and finds hidden singles by scanning a
house's sixteen cells; after a placement nearly every house is scanned again, so a chain of
singles costs about one scan of the board per link. Here the board is turned around, as the
classic kernel does for 9x9: for each value, the cells that may still hold it, as four 64-bit
words, one per *band* (four rows of boxes). A 16x16 band is exactly 64 cells, so every house
is a fixed bit pattern of one word (a row, a box) or of the four words (a column), and a
rule is a few word operations for a whole value at once:

- *hidden singles in rows*: per 16-bit lane, ``x & (x - 1)`` (one subtraction for the four
  rows of a word) and a zero-lane test;
- *hidden singles in boxes*: the four rows of a word folded into "seen once" / "seen twice"
  column sets, then the same test on 4-bit lanes (one box each);
- *hidden singles in columns*: the four words and then their four lanes folded the same way;
- *naked singles*: "in at least one value" / "in at least two" counts over the sixteen
  values of a word, 64 cells at a time.

Propagation sweeps the values in order, placing each value's singles at once (its peers lose
it, its cells leave the other values); a value is looked at again only when one of its
words changed. At the end of a sweep, naked singles; sweeps repeat until nothing changes.
The fixpoint is the one the general kernel reaches with the same rules (naked and hidden
singles in every house). With the general kernel's branching (``CELL``: the first cell with
the fewest candidates, values in increasing order) both kernels walk the same search tree:
same nodes, same guesses, solutions in the same order (``tests/test_hexa.py`` checks that);
on the same tree this kernel is faster on every shared 16x16 set (figures in
``benchmarks/README.md``).

*Locked candidates* (``LOCKED``, on by default) run at the singles' fixpoint, for the values
changed since they last ran: per band word, a bit per (row, box) meeting that holds a place
(a carry trick on 4-bit lanes), then a row with one meeting clears the box's other rows, a
box with one meeting clears the row's other boxes; down the columns, a box confined to one
column clears it from the other bands, a column confined to one band clears the rest of its
box there. Two meetings claiming one house are a dead end at once, so the fixpoint is again
the general kernel's (its ``LOCKED``; the tests compare the trees).

The default branching is dom/wdeg (``WDEG``): the cell with the fewest candidates per
conflict weight, where every dead end adds one to the weight of the house that showed it
(the three houses of an emptied cell). Dead ends here name their house at no cost (the rule
that fails knows it), and a band-wide bit-sliced count gives every cell's candidates at
once. With locked candidates it takes the fewest nodes and the most boards a second on
every shared 16x16 set but misc_16x16_multi, where nodes rarely fail and the rule costs more
than it saves; the per-set figures are in ``benchmarks/README.md``.

State of one search level, one row of ``stack``: ``SLOTS`` uint64 words::

    word 4 * v + b    (v = value - 1 in 0..15, b = band in 0..3): where value v may go
                      bit 16 * r + c: row 4 * b + r, column c
    words 64..67      the placed cells of band b (one value left, its peers cleared)

A placed cell stays in its value's word (the only one of its row, column and box there), so
a house that has lost every place for a value, placed or not, shows as an empty pattern.

Kernels never validate: the Python layer hands over 256 values 0..16, givens free of repeats.
"""

from __future__ import annotations

import numpy as np

from . import protocol as P
from ..build.jit import kernel
from .bits import trailing_zeros
from .driver import grown, pause, record, resume, retreat, solution, start

SIZE = 16
CELLS = 256
VALUES = 16
BANDS = 4
#: words of one level: 16 values x 4 bands, then 4 words of placed cells
SLOTS = VALUES * BANDS + BANDS
SOLVED_AT = VALUES * BANDS
#: levels of a fresh stack; it grows (``STACK_FULL``) on the rare search that goes deeper
LEVELS = 64

#: every value, as a bit set
ALL_VALUES = (1 << VALUES) - 1

#: ``propagate`` results besides a dead end, which returns what showed it (>= 0): a house
#: (rows 0-15, columns 16-31, boxes 32-47, as ``shape.py`` numbers them) or ``EMPTY_CELL +
#: cell``, a cell with no value left
OPEN = -1
SOLVED = -2
EMPTY_CELL = 3 * SIZE

#: rules beyond singles (``rules`` argument): locked candidates, pointing and claiming
LOCKED = 1

#: branching: the first cell with the fewest candidates (the general kernel's ``CELL``), or
#: the fewest candidates per conflict weight of the cell's houses (dom/wdeg, its ``WDEG``)
CELL = 0
WDEG = 1

#: what the Python layer runs by default: the fewest nodes and the most boards a second on
#: every shared 16x16 set but misc_16x16_multi (figures in ``benchmarks/README.md``)
DEFAULT_RULES = LOCKED
DEFAULT_BRANCHING = WDEG

# Every bit constant is a uint64: numba types a bare integer as int64, and uint64 mixed with
# int64 gives float64.
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
LANE = np.uint64(0xFFFF)
#: the lowest bit of each 16-bit lane (one row of a band word), the highest, the rest
LANE_LOW = np.uint64(0x0001000100010001)
LANE_HIGH = np.uint64(0x8000800080008000)
LANE_REST = np.uint64(0x7FFF7FFF7FFF7FFF)
#: the highest bit of each 4-bit lane of a band word (a row of a box), the rest
NIBBLES_HIGH = np.uint64(0x8888888888888888)
NIBBLES_REST = np.uint64(0x7777777777777777)
#: the lowest and highest bit of the four 4-bit lanes of a 16-bit row (one box each)
NIBBLE_LOW = np.uint64(0x1111)
NIBBLE_HIGH = np.uint64(0x8888)
NIBBLE = np.uint64(0xF)
U15 = np.uint64(15)
U16 = np.uint64(16)
U32 = np.uint64(32)
U48 = np.uint64(48)
U3 = np.uint64(3)
U1 = np.uint64(1)
U0 = np.uint64(0)


def _peer_table() -> np.ndarray:
    """``PEERS[p]``: the cells of a band word in the row, column or box of bit ``p``."""
    peers = np.zeros(64, dtype=np.uint64)
    for pos in range(64):
        row, col = divmod(pos, 16)
        mask = 0xFFFF << (16 * row)
        mask |= 0x0001000100010001 << col
        mask |= 0x000F000F000F000F << (4 * (col // 4))
        peers[pos] = mask
    return peers


PEERS = _peer_table()


def _house_table() -> np.ndarray:
    """``HOUSE_CELLS[h]``: the cells of house h (``shape.py``'s order for 4x4 boxes)."""
    cells = np.arange(CELLS).reshape(SIZE, SIZE)
    boxes = cells.reshape(4, 4, 4, 4).transpose(0, 2, 1, 3).reshape(SIZE, SIZE)
    return np.concatenate([cells, cells.T, boxes]).astype(np.int64)


HOUSE_CELLS = _house_table()


@kernel(inline="always")
def _nonzero_lanes(x):
    """The top bit of every 16-bit lane of ``x`` that is not zero."""
    return (((x & LANE_REST) + LANE_REST) | x) & LANE_HIGH


@kernel(inline="always")
def _nonzero_nibbles(x):
    """The top bit of every 4-bit lane of ``x`` that is not zero (a 16-bit ``x`` gets its
    four lanes' bits only)."""
    return (((x & NIBBLES_REST) + NIBBLES_REST) | x) & NIBBLES_HIGH


@kernel(inline="always")
def _fold_lanes(x):
    """The four 16-bit lanes of ``x`` folded: (columns seen at least once, at least twice)."""
    a = x & LANE
    b = (x >> U16) & LANE
    c = (x >> U32) & LANE
    d = x >> U48
    once = a | b | c | d
    twice = (a & b) | (c & d) | ((a | b) & (c | d))
    return once, twice


@kernel(inline="always")
def _singles_of_word(x):
    """Hidden singles of one value in the rows and boxes of one band word ``x``: the cells
    alone in their row or box, or ``ALL`` when a row or a box has no place left."""
    if _nonzero_lanes(x) != LANE_HIGH:
        return ALL
    # rows: with no lane zero, one subtraction is ``lane & (lane - 1)`` for all four
    many = x & (x - LANE_LOW)
    alone = ~_nonzero_lanes(many) & LANE_HIGH
    found = x & ((alone >> U15) * LANE)
    # boxes: the four rows folded, then one 4-bit lane per box
    once, twice = _fold_lanes(x)
    if _nonzero_nibbles(once) != NIBBLE_HIGH:
        return ALL
    crowded = (once & (once - NIBBLE_LOW)) | twice
    lone = ~_nonzero_nibbles(crowded) & NIBBLE_HIGH
    return found | (x & (((lone >> U3) * NIBBLE) * LANE_LOW))


@kernel(inline="always")
def _place(stack, base, value, cells):
    """Place ``value`` on the cells ``cells[0..3]`` (one band word each): their peers lose the
    value, the other values lose the cells. Returns the bit set of values whose words
    changed (``value``'s own included), or ``-1 - house`` when two of the cells share that
    house."""
    first = base + BANDS * value
    for band in range(BANDS):
        new = cells[band]
        while new:
            pos = trailing_zeros(new)
            bit = U1 << np.uint64(pos)
            new &= new - U1
            stack[first + band] &= ~PEERS[pos] | bit
            column = LANE_LOW << np.uint64(pos & 15)
            for other in range(BANDS):
                if other != band:
                    stack[first + other] &= ~column
    changed = 1 << value
    for band in range(BANDS):
        lost = cells[band] & ~stack[first + band]
        if lost:
            return -1 - _clash_house(cells, band, trailing_zeros(lost))
        stack[base + SOLVED_AT + band] |= cells[band]
    for other in range(VALUES):
        if other == value:
            continue
        at = base + BANDS * other
        for band in range(BANDS):
            old = stack[at + band]
            word = old & ~cells[band]
            if word != old:
                stack[at + band] = word
                changed |= 1 << other
    return changed


@kernel(inline="always")
def _clash_house(cells, band, pos):
    """The house where cell ``pos`` of ``band``, one of ``cells``, met another of them."""
    bit = U1 << np.uint64(pos)
    row = pos >> 4
    col = pos & 15
    if cells[band] & (LANE << np.uint64(16 * row)) & ~bit:
        return 4 * band + row
    column = LANE_LOW << np.uint64(col)
    for other in range(BANDS):
        if cells[other] & column & ~(bit if other == band else U0):
            return SIZE + col
    return 2 * SIZE + 4 * band + col // 4


@kernel
def _empty_house(word, band):
    """A row or a box of the band word ``word`` with no place left (a rule just found one)."""
    rows = ~_nonzero_lanes(word) & LANE_HIGH
    if rows:
        return 4 * band + trailing_zeros(rows) // 16
    once, _ = _fold_lanes(word)
    boxes = ~_nonzero_nibbles(once) & NIBBLE_HIGH
    return 2 * SIZE + 4 * band + trailing_zeros(boxes) // 4


@kernel(inline="always")
def _locked(stack, at):
    """Locked candidates for the value whose four band words start at ``stack[at]`` (every
    row, column and box of it still has a place): where a box meets a row or a column and
    the value's places in one of the two all lie in the meeting cells, it leaves the rest of
    the other. Returns 1 when it removed places, 0 when not, ``-1 - house`` when two meetings
    claim one house (the value would sit there twice)."""
    changed = 0
    column_once = U0
    column_twice = U0
    pointing = U0  # columns a box confines the value to
    for band in range(BANDS):
        x = stack[at + band]
        # one bit per (row, box) meeting that holds a place: bit 16 * row + 4 * box
        meet = _nonzero_nibbles(x) >> U3
        # a row whose places lie in one box: the box's other rows lose the value
        lone_box = ~_nonzero_lanes(meet & (meet - LANE_LOW)) & LANE_HIGH
        claim = meet & ((lone_box >> U15) * LANE)
        claimed, claimed_twice = _fold_lanes(claim)
        if claimed_twice:
            return -1 - (2 * SIZE + 4 * band + trailing_zeros(claimed_twice) // 4)
        kill = ((claimed * NIBBLE) * LANE_LOW) & ~(claim * NIBBLE)
        # a box whose places lie in one row: the row's other boxes lose the value
        once, twice = _fold_lanes(meet)
        point = meet & ((once & ~twice) * LANE_LOW)
        rows = _lane_fill(point)
        padded = point | (~rows & LANE_LOW)  # an empty lane counts as one bit: no borrow
        several = padded & (padded - LANE_LOW)
        if several:
            return -1 - (4 * band + trailing_zeros(several) // 16)
        kill |= rows & ~(point * NIBBLE)
        word = x & ~kill
        if word != x:
            stack[at + band] = word
            changed = 1
        columns, _ = _fold_lanes(word)
        confined = _lone_in_box(columns)
        if pointing & confined:
            return -1 - (SIZE + trailing_zeros(pointing & confined))
        pointing |= confined
        column_twice |= column_once & columns
        column_once |= columns
    # down the columns: a box confining the value to one column takes it from the column's
    # other bands; a column whose places lie in one band takes it from the rest of its box
    alone = column_once & ~column_twice
    for band in range(BANDS):
        x = stack[at + band]
        columns, _ = _fold_lanes(x)
        claimed = columns & alone
        boxes = (_nonzero_nibbles(claimed) >> U3) * NIBBLE
        padded = claimed | (~boxes & NIBBLE_LOW)
        several = padded & (padded - NIBBLE_LOW)
        if several:
            return -1 - (2 * SIZE + 4 * band + trailing_zeros(several) // 4)
        kill = ((pointing & ~_lone_in_box(columns)) | (boxes & ~claimed)) * LANE_LOW
        word = x & ~kill
        if word != x:
            stack[at + band] = word
            changed = 1
    return changed


@kernel(inline="always")
def _lone_in_box(columns):
    """The columns of the 16-bit ``columns`` alone in their 4-bit lane (box)."""
    padded = columns | (~((_nonzero_nibbles(columns) >> U3) * NIBBLE) & NIBBLE_LOW)
    return columns & (((~_nonzero_nibbles(padded & (padded - NIBBLE_LOW)) & NIBBLE_HIGH) >> U3) * NIBBLE)


@kernel(inline="always")
def _lane_fill(x):
    """Every 16-bit lane of ``x`` that is not zero, filled with ones."""
    return (_nonzero_lanes(x) >> U15) * LANE


@kernel
def propagate(stack, base, cells, now, rules):
    """Naked and hidden singles (and with ``rules & LOCKED`` locked candidates, run at the
    singles' fixpoint on the values changed since their last run) to a fixpoint on the
    level at ``stack[base:base + SLOTS]``, starting with the values of the bit set ``now``
    (the ones whose words changed).
    Returns ``SOLVED`` when every cell is placed, ``OPEN``, or at a dead end what showed it
    (a house or ``EMPTY_CELL + cell``, >= 0). ``cells`` is four words of scratch."""
    later = 0  # values to look at in the next one
    stale = now  # values changed since locked candidates last looked at them
    while True:
        while now:
            value = trailing_zeros(np.uint64(now))
            now &= now - 1
            at = base + BANDS * value
            w0 = stack[at]
            w1 = stack[at + 1]
            w2 = stack[at + 2]
            w3 = stack[at + 3]
            # columns: the four words, then their four lanes, folded into once / twice
            low = w0 | w1
            high = w2 | w3
            once, twice = _fold_lanes(low | high)
            more, _ = _fold_lanes((w0 & w1) | (w2 & w3) | (low & high))
            twice |= more
            if once != LANE:
                return SIZE + trailing_zeros(~once & LANE)
            column = (once & ~twice) * LANE_LOW
            any_new = U0
            for band in range(BANDS):
                word = stack[at + band]
                found = _singles_of_word(word)
                if found == ALL:
                    return _empty_house(word, band)
                new = ((word & column) | found) & ~stack[base + SOLVED_AT + band]
                cells[band] = new
                any_new |= new
            if any_new:
                changed = _place(stack, base, value, cells)
                if changed < 0:
                    return -1 - changed
                done = (2 << value) - 1  # this value and the ones before: next sweep
                now |= changed & ~done
                later |= changed & done
                stale |= changed

        # naked singles and empty cells, 64 cells at a time
        placed_all = ALL
        naked_any = U0
        for band in range(BANDS):
            once = U0
            twice = U0
            for value in range(VALUES):
                word = stack[base + BANDS * value + band]
                twice |= once & word
                once |= word
            if once != ALL:
                return EMPTY_CELL + 64 * band + trailing_zeros(~once)
            placed = stack[base + SOLVED_AT + band]
            placed_all &= placed
            naked = once & ~twice & ~placed
            cells[band] = naked
            naked_any |= naked
        if naked_any:
            naked0 = cells[0]
            naked1 = cells[1]
            naked2 = cells[2]
            naked3 = cells[3]
            for value in range(VALUES):
                at = base + BANDS * value
                c0 = stack[at] & naked0
                c1 = stack[at + 1] & naked1
                c2 = stack[at + 2] & naked2
                c3 = stack[at + 3] & naked3
                if c0 | c1 | c2 | c3:
                    cells[0] = c0
                    cells[1] = c1
                    cells[2] = c2
                    cells[3] = c3
                    changed = _place(stack, base, value, cells)
                    if changed < 0:
                        return -1 - changed
                    later |= changed
                    stale |= changed
        elif later == 0:
            if placed_all == ALL:
                return SOLVED
            if rules & LOCKED:  # at the singles' fixpoint: the costlier rule
                while stale:
                    value = trailing_zeros(np.uint64(stale))
                    stale &= stale - 1
                    removed = _locked(stack, base + BANDS * value)
                    if removed < 0:
                        return -1 - removed
                    later |= removed << value
                stale = later  # a value that lost places may have more to lose
            if later == 0:
                return OPEN
        now = later
        later = 0


@kernel
def load_givens(givens, stack):
    """Fill level 0: every value everywhere, then each given's cell left with its value only.
    Propagation places them (as naked singles) and does the rest."""
    for slot in range(VALUES * BANDS):
        stack[slot] = ALL
    for band in range(BANDS):
        stack[SOLVED_AT + band] = U0
    for cell in range(CELLS):
        value = int(givens[cell])
        if value:
            band = cell >> 6
            bit = U1 << np.uint64(cell & 63)
            for other in range(VALUES):
                if other != value - 1:
                    stack[BANDS * other + band] &= ~bit


@kernel(inline="always")
def _candidate_counts(stack, base, band):
    """Every cell's candidates in ``band``, 64 cells at a time: a bit-sliced counter over
    the values, bit ``pos`` of plane k being bit k of cell ``pos``'s count (16 needs five)."""
    c0 = U0
    c1 = U0
    c2 = U0
    c3 = U0
    c4 = U0
    for value in range(VALUES):
        word = stack[base + BANDS * value + band]
        carry = c0 & word
        c0 ^= word
        next_carry = c1 & carry
        c1 ^= carry
        carry = c2 & next_carry
        c2 ^= next_carry
        c4 |= c3 & carry
        c3 ^= carry
    return c0, c1, c2, c3, c4


@kernel(inline="always")
def _count_at(c0, c1, c2, c3, c4, pos):
    """Cell ``pos``'s count from the planes of ``_candidate_counts``."""
    at = np.uint64(pos)
    return np.int64(
        ((c0 >> at) & U1)
        | (((c1 >> at) & U1) << U1)
        | (((c2 >> at) & U1) << np.uint64(2))
        | (((c3 >> at) & U1) << U3)
        | (((c4 >> at) & U1) << np.uint64(4))
    )


@kernel
def choose_cell(stack, base):
    """The first open cell (row by row) with the fewest candidates: ``(cell, values)``, the
    cell as ``64 * band + bit`` and its values one bit each (bit v: value v + 1). A cell with
    two candidates cannot be beaten, so the scan stops at the first."""
    best = VALUES + 1
    best_cell = -1
    for band in range(BANDS):
        c0, c1, c2, c3, c4 = _candidate_counts(stack, base, band)
        open_cells = ~stack[base + SOLVED_AT + band]
        pair = c1 & ~(c0 | c2 | c3 | c4) & open_cells
        if pair:
            best_cell = 64 * band + trailing_zeros(pair)
            break
        while open_cells:
            pos = trailing_zeros(open_cells)
            open_cells &= open_cells - U1
            count = _count_at(c0, c1, c2, c3, c4, pos)
            if count < best:
                best = count
                best_cell = 64 * band + pos
    return best_cell, _values_of(stack, base, best_cell >> 6, best_cell & 63)


@kernel
def choose_wdeg(stack, base, weight):
    """The open cell with the fewest candidates per conflict weight (``weight[cell]``: the
    dead ends its houses showed, plus 3), the first such: ``(cell, values)`` as
    ``choose_cell`` gives them. Houses that failed before are the ones to settle first."""
    best_count = 1
    best_weight = 0
    best_cell = -1
    for band in range(BANDS):
        c0, c1, c2, c3, c4 = _candidate_counts(stack, base, band)
        open_cells = ~stack[base + SOLVED_AT + band]
        while open_cells:
            pos = trailing_zeros(open_cells)
            open_cells &= open_cells - U1
            count = _count_at(c0, c1, c2, c3, c4, pos)
            cell = 64 * band + pos
            w = weight[cell]
            if best_cell < 0 or count * best_weight < best_count * w:
                best_count = count
                best_weight = w
                best_cell = cell
    return best_cell, _values_of(stack, base, best_cell >> 6, best_cell & 63)


@kernel
def _blame(dead_end, weight):
    """A dead end adds one to the weight of every cell of the house that showed it (of the
    three houses of an empty cell)."""
    if dead_end < EMPTY_CELL:
        for j in range(SIZE):
            weight[HOUSE_CELLS[dead_end, j]] += 1
    else:
        cell = dead_end - EMPTY_CELL
        row = cell >> 4
        col = cell & 15
        for j in range(SIZE):
            weight[HOUSE_CELLS[row, j]] += 1
            weight[HOUSE_CELLS[SIZE + col, j]] += 1
            weight[HOUSE_CELLS[2 * SIZE + 4 * (row >> 2) + (col >> 2), j]] += 1


@kernel(inline="always")
def _values_of(stack, base, band, pos):
    values = 0
    for value in range(VALUES):
        values |= int((stack[base + BANDS * value + band] >> np.uint64(pos)) & U1) << value
    return values


@kernel
def write_solution(stack, base, out):
    """The placed values of a finished level, as 256 values 1..16."""
    for value in range(VALUES):
        for band in range(BANDS):
            word = stack[base + BANDS * value + band]
            while word:
                pos = trailing_zeros(word)
                word &= word - U1
                out[64 * band + pos] = value + 1


@kernel
def search(givens, arrays, rules, mode, ctl, limit, node_budget, record_at, out):
    """Run (or resume) the search until a protocol code is due; see ``protocol``.

    ``arrays`` is what the search keeps between calls, ``(stack, branch_cell, branch_rest,
    weight)``: ``stack`` is ``levels * SLOTS`` uint64 words; ``branch_cell[level]`` is the cell a level
    branched on and ``branch_rest[level]`` its values still to try there; ``weight`` holds
    the 256 cells' conflict weights; ``rules`` is 0 or ``LOCKED``, ``mode`` ``CELL`` or
    ``WDEG``.
    """
    stack, branch_cell, branch_rest, weight = arrays
    levels = stack.shape[0] // SLOTS
    cells = np.zeros(BANDS, dtype=np.uint64)
    # the values a branch changed: the next propagation looks at them only (after a resume,
    # at all of them: the same fixpoint, a little later)
    changed = np.int64(ALL_VALUES)
    node_stop = ctl[P.NODES] + node_budget
    depth, phase, fresh = resume(ctl)
    if fresh:
        load_givens(givens, stack)
        weight[:] = 3
    while True:
        if phase == P.PROPAGATE:
            if ctl[P.NODES] >= node_stop:
                return pause(ctl, depth, phase, P.BUDGET)
            ctl[P.NODES] += 1
            base = depth * SLOTS
            state = propagate(stack, base, cells, changed, rules)
            changed = np.int64(ALL_VALUES)
            if state >= 0:
                _blame(state, weight)
                phase = P.BACKTRACK
                continue
            if state == SOLVED:
                keep, outcome = solution(ctl, depth, limit, record_at)
                if keep:
                    write_solution(stack, base, out)
                if outcome != P.GOING:
                    return outcome
                phase = P.BACKTRACK
                continue
            if mode == WDEG:
                cell, values = choose_wdeg(stack, base, weight)
            else:
                cell, values = choose_cell(stack, base)
            ctl[P.GUESSES] += 1
            branch_cell[depth] = cell
            branch_rest[depth] = values
            phase = P.NEXT_BRANCH
        elif phase == P.NEXT_BRANCH:
            rest = branch_rest[depth]
            last = rest & (rest - 1) == 0
            if not last and depth + 1 >= levels:
                return pause(ctl, depth, phase, P.STACK_FULL)
            value = trailing_zeros(np.uint64(rest))
            branch_rest[depth] = rest & (rest - 1)
            cell = branch_cell[depth]
            base = depth * SLOTS
            if not last:  # the level stays for the other values; work on a copy above it
                depth += 1
                for word in range(SLOTS):  # a loop: numba's slice copy compiles a shape check's
                    stack[base + SLOTS + word] = stack[base + word]  # message (2 s)
                base += SLOTS
                branch_rest[depth] = 0
            # place the value: its peers lose it, the cell loses the other values (it is a
            # candidate, the level is at rest: no clash)
            cells[:] = U0
            cells[cell >> 6] = U1 << np.uint64(cell & 63)
            changed = _place(stack, base, value, cells)
            phase = P.PROPAGATE
        else:  # BACKTRACK
            depth, outcome = retreat(ctl, branch_rest, depth)
            if outcome != P.GOING:
                return outcome
            phase = P.NEXT_BRANCH


@kernel
def solve_many(puzzles, rules, mode, limit, node_budget, solutions, counts, nodes, guesses, exhausted):
    """Search every row of ``puzzles`` (``(N, 256)`` values, 0 empty) for up to ``limit``
    solutions and at most ``node_budget`` nodes: the first solution into ``solutions[k]``, the
    count, nodes and guesses, and whether the search space was exhausted. Rows with
    ``counts[k] < 0`` on entry are skipped (the caller's mark for records it set aside)."""
    levels = np.int64(LEVELS)
    stack = np.zeros(levels * SLOTS, dtype=np.uint64)
    branch_cell = np.zeros(levels, dtype=np.int64)
    branch_rest = np.zeros(levels, dtype=np.int64)
    weight = np.zeros(CELLS, dtype=np.int64)
    ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
    for k in range(puzzles.shape[0]):
        if counts[k] < 0:
            continue
        start(ctl)
        while True:
            code = search(
                puzzles[k], (stack, branch_cell, branch_rest, weight), rules, mode, ctl, limit, node_budget - ctl[P.NODES],
                1, solutions[k],
            )
            if code != P.STACK_FULL:
                break
            levels *= 2
            stack = grown(stack, levels * SLOTS)
            branch_cell = grown(branch_cell, levels)
            branch_rest = grown(branch_rest, levels)
        record(ctl, code, k, counts, nodes, guesses, exhausted)
