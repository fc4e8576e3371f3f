"""The classic kernel: 9x9 boards with 3x3 boxes, candidates held as band bitboards.

The general kernel keeps one mask of values per cell and walks houses cell by cell. Here the
board is turned around, as in the fastest native solvers (JCZSolve, fsss2, tdoku): for each
digit, the cells that may still hold it, as three 27-bit sets, one per *band* (three rows of
boxes). The 27 band words of a search level sit in the lanes of one 32-lane vector
(``lanes.py``, LLVM's ``<32 x i32>``: two AVX-512 registers), and every rule is written once,
for all 27 words at a time, as a short run of whole-vector operations with no branch on the
data. Propagation *sweeps*: each pass applies the row and column rules to every word, and
passes repeat until nothing changes; the costlier rules run only at that fixpoint.

A sweep:

- *Band rule* (locked candidates along rows, pointing and claiming both ways, hidden singles in
  boxes): in a band a digit sits once in each of the three rows and once in each of the three
  boxes, so the row/box pairs that still hold it (nine *triads*, 3 cells each) must contain a
  3x3 permutation. With one bit per triad, a triad lies on a permutation when the two triads
  completing it (next row and next box, and the row after with the box after, or the other
  way round) are both present: row and box rotations of the word, two ANDs, an OR.
- *Placing*: a row of a band word with one cell left is that digit's cell in that row. Such
  cells leave the other digits' words of the band (an OR over the nine digit lanes of the
  band, by lane rotations) and their columns leave the digit's other bands (lane shuffles).
- *Locked candidates along columns* and *hidden singles in columns*: the same permutation test
  for each stack (column of boxes), on the column occupancy of a digit's three band words; a
  column left with one cell in all three bands places the digit there.

At the fixpoint: *naked singles* and *empty cells* (bit-parallel counts over the nine digits
of each band: cells in at least one word, in at least two), then the *triad rules*: the three
cells of a triad hold three different digits, so a triad only three digits can reach holds
all three, and a triad that three digits must use (on each of their configurations) holds no
other; saturating counts to four over the digits of a band give both. The same rules hold
for the vertical triads (a column's three cells in a band), counted the same way; as in
tdoku's propagation, they save guesses on the hard sets.

The search branches as tdoku does, on a digit's *configuration* in a band (which box each of
the band's rows holds it in: 6 at most): the band with the fewest configurations over all
digits, the digit in it with the fewest. On the hard sets that takes fewer guesses and less
time than branching on the first cell with two candidates (JCZSolve's choice); figures in
``benchmarks/README.md``. Branching copies one 128-byte level (two vector moves); the last
alternative of a choice reuses the level in place.

The sweeps are written on explicit 32-bit lanes because numba types integer operations at
64 bits: its own loops over arrays stayed at 64-bit lanes and ran no faster than a scalar
kernel, which the vector sweeps beat on the same search tree. Those figures, and the other
variants tried, are in ``benchmarks/README.md``.

Kernels never validate: the Python layer hands over 81 values 0..9, givens free of repeats.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import protocol as P
from ..build.jit import kernel
from .bits import popcount, trailing_zeros
from .driver import pause, record, resume, retreat, solution, start
from .lanes import (
    WIDE,
    bytes_equal,
    shuffle,
    store_digits,
    veq0,
    vlane,
    vload,
    vnz,
    vor_all,
    vpopcnt,
    vstore,
    vumin_all,
)

#: one band of one digit: 27 cells, bit ``9 * row_in_band + column``
FULL = (1 << 27) - 1
#: the nine cells of the band's first, second, third row
ROW = 0x1FF
ROW1 = ROW << 9
ROW2 = ROW << 18
#: the first cell of each row
ROW_LOW = 1 | (1 << 9) | (1 << 18)
#: one bit per triad (row of a box in the band), its first cell: bit ``9 * row + 3 * box``
TRIADS = 0x1249249
TRIAD_ROW0 = 0x49
TRIAD_ROW1 = TRIAD_ROW0 << 9
TRIAD_ROW2 = TRIAD_ROW0 << 18
#: triad bits of the first, second, third box of the band
BOX0 = 0x1 | (0x1 << 9) | (0x1 << 18)
BOX1 = BOX0 << 3
BOX2 = BOX0 << 6
#: nine columns, three stacks of three: the columns that are first or second in their stack,
#: second or third, first, third
FIRST_TWO = 0b011011011
LAST_TWO = 0b110110110
FIRST_OF_STACK = 0b001001001
LAST_OF_STACK = 0b100100100

# The state of one search level, one row of ``stack`` (``SLOTS`` int32 words, 128 bytes,
# loaded and stored as one 32-lane vector), the thing a branch copies: for each digit d
# (0..8) and band b (0..2) the word ``stack[LANE[3 * d + b]]``, where digit d may still go
#
#        bit 26 ........... 18 | 17 ............ 9 | 8 ............. 0
#            row 3b+2          |     row 3b+1      |     row 3b
#            c8 c7 ....... c0  |  c8 c7 ...... c0  |  c8 c7 ....... c0
#            box 3b+2 |3b+1|3b |  (three cells, a triad, per box and row)
#
# and lanes 27..31 zero. The lanes are laid out for the registers numba compiles for:
#
#   digit-major (AVX-512: two registers), lane 3 d + b:
#   lane:  0    1    2    3    4    5   ...  24   25   26  | 27 .. 31
#         d1b0 d1b1 d1b2 d2b0 d2b1 d2b2 ... d9b0 d9b1 d9b2 |  0 ..  0
#   a band's nine digits are rotations by 3 lanes apart, which one shuffle across the two
#   registers makes;
#
#   band-major (AVX2 and others: four registers), lane 8 b + d, and digit 9 in lane 24 + b:
#   lane:  0 .. 7      8 .. 15     16 .. 23     24   25   26  | 27 .. 31
#         d1..d8 b0   d1..d8 b1   d1..d8 b2    d9b0 d9b1 d9b2 |  0 ..  0
#   a band's first eight digits fill one register, so its sums are shuffles within that
#   register (pairs, fours, halves), and a digit's other bands are the other registers (no
#   shuffle at all); on four registers the rotations across all of them cost more than the
#   rest of a sweep's shuffles together.
#
# Either way 27 of the 32 lanes hold words (bands 16 lanes apart would waste 7 of 16), and the
# search tree is the same (ties are broken in digit-major order). A cell is *placed* when it
# is the only cell of its row in one digit's word. Invariants at rest (after a propagation that
# did not fail): a placed cell is in no other digit's word and its column in no other band of
# its digit; every word passes the band rule.
SLOTS = 32
BAND_MAJOR = not WIDE
#: the layout's name, for the benchmarks
LAYOUT = (
    "32 x int32 lanes, band-major (for AVX2: a band's digits in one register)"
    if BAND_MAJOR
    else "32 x int32 lanes, digit-major (for AVX-512: two registers)"
)


def _lane_of(digit: int, band: int) -> int:
    if BAND_MAJOR:
        return 8 * band + digit if digit < 8 else 24 + band
    return 3 * digit + band


#: ``LANE[3 * d + b]``: the lane of digit d's word for band b
LANE = np.array([_lane_of(d, b) for d in range(9) for b in range(3)], dtype=np.int64)
#: levels enough for any search: a path branches at most 27 times on configurations (each
#: leaves a digit word with one) and 81 times on cells (each places one), plus the root
LEVELS = 110

#: ``propagate`` results
FAILED = 0
OPEN = 1
SOLVED = 2

#: ``branch_cell`` values from here up name a digit word (``CONFIG_BRANCH + lane``) whose
#: configurations are tried, below it a cell (``27 * band + bit``) whose digits are tried
CONFIG_BRANCH = 100

_ORDERS = list(itertools.permutations(range(3)))
#: the six configurations of a digit in a band (row -> box), as the cells they keep
CONFIG_CELLS = np.array(
    [sum(7 << (9 * row + 3 * order[row]) for row in range(3)) for order in _ORDERS], dtype=np.int64
)
_ONES = 0xFFFFFFFF
_OWNER = {int(LANE[index]): index for index in range(27)}  # lane -> 3 * digit + band
#: all ones in the 27 word lanes / in the lanes of band b
WORD_LANES = np.array([_ONES if lane < 27 else 0 for lane in range(32)], dtype=np.uint32)
BAND_LANES = np.array(
    [_ONES if lane in _OWNER and _OWNER[lane] % 3 == band else 0 for band in range(3) for lane in range(32)],
    dtype=np.uint32,
)
#: each lane's word in digit-major order (ties are broken in that order on either layout)
LANE_INDEX = np.array([_OWNER.get(lane, lane) for lane in range(32)], dtype=np.uint32)


def _moved(source) -> list[int]:
    """A shuffle mask: each word lane takes the lane of ``source(digit, band)``."""
    mask = [-1] * 32
    for index in range(27):
        digit, band = divmod(index, 3)
        mask[int(LANE[index])] = _lane_of(*source(digit, band))
    return mask


#: the same digit's next / previous band
next_band = shuffle(_moved(lambda d, b: (d, (b + 1) % 3)))
prev_band = shuffle(_moved(lambda d, b: (d, (b + 2) % 3)))

# The sums of a band's nine digit words, every lane getting its band's sum, are trees of four
# steps, each joining disjoint sets of the band's digits: ``_band_step(k)`` moves each lane
# the partial result of k other digits, step 8 the original words (the ninth digit), and
# ``_band_fixed`` puts the sums where the tree left lanes unsummed.
if BAND_MAJOR:
    # pairs, fours and halves of each register's eight lanes, then digit 9 beside them; the
    # lanes of digit 9 (whose register mixes bands) take their band's sum at the end
    def _step_mask(k: int) -> list[int]:
        if k == 8:
            return [24 + lane // 8 if lane < 24 else (lane if lane < 27 else -1) for lane in range(32)]
        return [8 * (lane // 8) + ((lane % 8) ^ k) for lane in range(32)]

    _FIXED = [lane if lane < 24 else (8 * (lane - 24) if lane < 27 else -1) for lane in range(32)]
else:
    # rotations by k digits (3 k lanes), cyclically over the band's nine
    def _step_mask(k: int) -> list[int]:
        return _moved(lambda d, b: ((d + k) % 9, b))

    _FIXED = list(range(32))  # nothing to put right: LLVM drops the identity

digits_on_1 = shuffle(_step_mask(1))
digits_on_2 = shuffle(_step_mask(2))
digits_on_4 = shuffle(_step_mask(4))
digits_on_8 = shuffle(_step_mask(8))
_band_fixed = shuffle(_FIXED)


@kernel(inline="always")
def _tz(mask):
    return trailing_zeros(np.uint64(mask))


# -- lane helpers: each takes and returns lanes (or ints, lane by lane the same code) --------


@kernel(inline="always")
def _triads(w):
    """The triads of each word that still hold a candidate, as triad bits."""
    return (w | (w >> 1) | (w >> 2)) & TRIADS


@kernel(inline="always")
def _next_box(x):
    """Triad bits: each box takes the next box's bit (cyclically), within each row."""
    return ((x >> 3) & (BOX0 | BOX1)) | ((x << 6) & BOX2)


@kernel(inline="always")
def _prev_box(x):
    return ((x << 3) & (BOX1 | BOX2)) | ((x >> 6) & BOX0)


@kernel(inline="always")
def _next_row(x):
    """Each row of the band takes the next row (cyclically)."""
    return (x >> 9) | ((x << 18) & FULL)


@kernel(inline="always")
def _prev_row(x):
    return ((x << 9) & FULL) | (x >> 18)


@kernel(inline="always")
def _on_permutation(x):
    """The triads of ``x`` that lie on a row/box permutation within ``x``: triad (r, b) with
    (r+1, b+1) and (r+2, b+2), or with (r+1, b+2) and (r+2, b+1)."""
    a = _next_box(x)
    b = _prev_box(x)
    return x & ((_next_row(a) & _prev_row(b)) | (_next_row(b) & _prev_row(a)))


@kernel(inline="always")
def _configurations(w):
    """The configurations each word still allows, bit k for ``CONFIG_CELLS[k]``."""
    x = _triads(w)
    a = _next_box(x)
    b = _prev_box(x)
    # first-row triads starting a permutation that shifts boxes up / down row by row
    up = x & _next_row(a) & _prev_row(b) & TRIAD_ROW0
    down = x & _next_row(b) & _prev_row(a) & TRIAD_ROW0
    # (0,1,2) (1,2,0) (2,0,1) are up from box 0, 1, 2; (0,2,1) (1,0,2) (2,1,0) down
    return (up & 9) | ((up >> 2) & 16) | ((down & 1) << 1) | ((down >> 1) & 36)


@kernel(inline="always")
def _single_rows(w):
    """The rows of each word down to one cell, as those cells, for words with a cell in every
    row or none (as the band rule leaves them): subtracting one from all three rows at once
    then borrows within each row only."""
    several = w & (w - ROW_LOW)
    return w & ((veq0(several & ROW) & ROW) | (veq0(several & ROW1) & ROW1) | (veq0(several & ROW2) & ROW2))


@kernel(inline="always")
def _alone_in_row(x):
    """Triad bits alone in their row of triads: the triads every configuration uses (once
    the band rule holds)."""
    p0 = x & TRIAD_ROW0
    p1 = x & TRIAD_ROW1
    p2 = x & TRIAD_ROW2
    return (p0 & veq0(p0 & (p0 - 1))) | (p1 & veq0(p1 & (p1 - 1))) | (p2 & veq0(p2 & (p2 - 1)))


@kernel(inline="always")
def _columns(w):
    return (w | (w >> 9) | (w >> 18)) & ROW


@kernel(inline="always")
def _spread(c):
    """Nine column (or triad-row) bits to the same bits in all three rows."""
    return c | (c << 9) | (c << 18)


@kernel(inline="always")
def _next_column(c):
    """Column bits: each column takes the next column of its stack (cyclically)."""
    return ((c >> 1) & FIRST_TWO) | ((c << 2) & LAST_OF_STACK)


@kernel(inline="always")
def _prev_column(c):
    return ((c << 1) & LAST_TWO) | ((c >> 2) & FIRST_OF_STACK)


@kernel(inline="always")
def _claim(w, cells):
    """Each row of ``w`` that meets ``cells`` cut down to those cells; and, nonzero in a lane
    where a row met two of them (a contradiction), the second value."""
    c0 = cells & ROW
    c1 = cells & ROW1
    c2 = cells & ROW2
    rows = (vnz(c0) & ROW) | (vnz(c1) & ROW1) | (vnz(c2) & ROW2)
    clash = (c0 & (c0 - 1)) | (c1 & (c1 - 1)) | (c2 & (c2 - 1))
    return w & ~(rows & ~cells), clash


@kernel(inline="always")
def _band_or(v):
    """Every lane: the OR of its band's nine digit lanes."""
    r = v | digits_on_1(v)
    r = r | digits_on_2(r)
    r = r | digits_on_4(r)
    return _band_fixed(r | digits_on_8(v))


@kernel(inline="always")
def _band_or_twice(v):
    """``_band_or``, and nonzero bits in some lane where two of a band's nine digit lanes
    share a bit (each lane's tree of ORs joins disjoint halves: the AND of the halves)."""
    a = digits_on_1(v)
    r = v | a
    t = v & a
    b = digits_on_2(r)
    t = t | (r & b)
    r = r | b
    c = digits_on_4(r)
    t = t | (r & c)
    r = r | c
    d = digits_on_8(v)
    return _band_fixed(r | d), _band_fixed(t | (r & d))


@kernel(inline="always")
def _band_sum(v):
    r = v + digits_on_1(v)
    r = r + digits_on_2(r)
    r = r + digits_on_4(r)
    return _band_fixed(r + digits_on_8(v))


@kernel(inline="always")
def _band_twice(v):
    """Every lane: the bits set in at least one, and in at least two, of its band's nine."""
    o = v | digits_on_1(v)
    t = v & digits_on_1(v)
    o2 = digits_on_2(o)
    t = t | digits_on_2(t) | (o & o2)
    o = o | o2
    o2 = digits_on_4(o)
    t = t | digits_on_4(t) | (o & o2)
    o = o | o2
    o2 = digits_on_8(v)
    return _band_fixed(o | o2), _band_fixed(t | (o & o2))


@kernel(inline="always")
def _band_four(v):
    """Every lane: the bits set in at least 1, 2, 3 and 4 of its band's nine (saturating
    counters, added pairwise: at least k of a+b when at least i of a and k-i of b)."""
    b1 = digits_on_1(v)
    c1 = v | b1
    c2 = v & b1
    b1 = digits_on_2(c1)
    b2 = digits_on_2(c2)
    n1 = c1 | b1
    n2 = c2 | b2 | (c1 & b1)
    n3 = (c2 & b1) | (c1 & b2)
    n4 = c2 & b2
    b1 = digits_on_4(n1)
    b2 = digits_on_4(n2)
    b3 = digits_on_4(n3)
    b4 = digits_on_4(n4)
    m1 = n1 | b1
    m2 = n2 | b2 | (n1 & b1)
    m3 = n3 | b3 | (n2 & b1) | (n1 & b2)
    m4 = n4 | b4 | (n3 & b1) | (n2 & b2) | (n1 & b3)
    y = digits_on_8(v)
    return (
        _band_fixed(m1 | y), _band_fixed(m2 | (m1 & y)), _band_fixed(m3 | (m2 & y)), _band_fixed(m4 | (m3 & y))
    )


# -- scalar helpers ---------------------------------------------------------------------------


@kernel(inline="always")
def _single_rows_of(w):
    """``_single_rows`` for one word as an int."""
    p0 = w & ROW
    p1 = w & ROW1
    p2 = w & ROW2
    s0 = p0 if (p0 & (p0 - 1)) == 0 else 0
    s1 = p1 if (p1 & (p1 - 1)) == 0 else 0
    s2 = p2 if (p2 & (p2 - 1)) == 0 else 0
    return s0 | s1 | s2


# -- kernels ----------------------------------------------------------------------------------


@kernel(inline="always")
def _givens_words(givens, stack):
    """Each digit's givens into its three band words of level 0 (other lanes zero): a byte
    compare per 32 cells (cells 0-31, 32-63 and 49-80) and shifts, no loop over cells."""
    for lane in range(27, SLOTS):
        stack[lane] = 0
    for digit in range(9):
        a = bytes_equal(givens, 0, digit + 1)
        b = bytes_equal(givens, 32, digit + 1)
        c = bytes_equal(givens, 49, digit + 1) >> 15  # cells 64-80
        stack[LANE[3 * digit]] = a & FULL
        stack[LANE[3 * digit + 1]] = ((a >> 27) | (b << 5)) & FULL
        stack[LANE[3 * digit + 2]] = ((b >> 22) | (c << 10)) & FULL


@kernel(inline="always")
def strike(stack, cell, value):
    """Take ``value`` (1..9) from ``cell``'s candidates in level 0 (after ``load_givens``,
    before the level's first propagation)."""
    row = cell // 9
    lane = LANE[3 * (value - 1) + row // 3]
    stack[lane] = int(stack[lane]) & ~(1 << ((row % 3) * 9 + cell % 9))


@kernel(inline="always")
def load_givens(givens, stack):
    """Fill level 0: every digit everywhere, then each given alone in its row of its digit's
    word and gone from the other digits' words. The rules do the rest."""
    _givens_words(givens, stack)
    mine = vload(stack, 0)
    words = (~(_band_or(mine) & ~mine) & FULL) & vload(WORD_LANES, 0)
    words, clash = _claim(words, mine)  # no clash: the givens repeat no digit in a row
    vstore(stack, 0, words)


@kernel(inline="always")
def propagate(stack, base):
    """Apply the rules to the level at ``stack[base:base + SLOTS]`` until nothing changes.
    Returns ``FAILED`` at a contradiction, ``SOLVED`` when every cell is placed, else ``OPEN``."""
    state, level = settle(vload(stack, base))
    vstore(stack, base, level)
    return state


@kernel
def settle(level):
    """``propagate`` on a level held as a lanes value: ``(state, level)``, the level as the
    rules leave it (meaningless at ``FAILED``). A value, not the stack: a call that passes
    arrays costs numba two atomic reference counts, a fifth of an easy board's time."""
    words = vload(WORD_LANES, 0)
    old = level
    while True:
        # band rule, then the rows down to one cell
        on = _on_permutation(_triads(old))
        w = old & (on | (on << 1) | (on << 2))  # triad bits to their three cells
        if vor_all(veq0(w) & words):
            return FAILED, old
        placed = _single_rows(w)
        band_placed, placed_twice = _band_or_twice(placed)
        # placed cells leave the other digits (their columns leave the digit's other bands
        # by the stack rule below: the band rule left the placed cell alone in its box)
        gone = band_placed & ~placed
        # locked candidates along stacks: a digit's 3x3 band/column table in each stack must
        # hold a permutation (read from the band rule's result, beside the placing above)
        k = _columns(w)
        k1 = next_band(k)
        k2 = prev_band(k)
        k = k & ((_next_column(k1) & _prev_column(k2)) | (_prev_column(k1) & _next_column(k2)))
        kept = w & _spread(k)
        # hidden singles in columns: a column with one band and in it one cell
        several = ((kept & (kept >> 9)) | (kept & (kept >> 18)) | ((kept >> 9) & (kept >> 18))) & ROW
        k1 = next_band(k)
        k2 = prev_band(k)
        several = several | next_band(several) | prev_band(several) | (k & k1) | (k & k2) | (k1 & k2)
        lone = ~several & k
        new = kept & ~gone
        # naked singles and empty cells, counted over the band's digits
        once, twice = _band_twice(new)
        new, clash = _claim(new, new & (_spread(lone) | (once & ~twice)))
        # one cell placed for two digits, a cell with none (tested here, late: the
        # reductions stay off the path to the next sweep)
        if vor_all(clash | placed_twice | (~once & words & FULL)):
            return FAILED, old
        if vor_all(new ^ old):
            old = new
            continue
        if (vlane(band_placed, LANE[0]) & vlane(band_placed, LANE[1]) & vlane(band_placed, LANE[2])) == FULL:
            return SOLVED, new
        # triad rules, with the triads each word must use one bit up
        x = _triads(new)
        required = _alone_in_row(x)
        c1, c2, c3, c4 = _band_four(x | (required << 1))
        if vor_all(((~c3 & TRIADS) | ((c4 >> 1) & TRIADS)) & words):
            return FAILED, old  # a triad three digits cannot fill, or four digits must
        reached = c3 & ~c4 & TRIADS  # by exactly three digits: each of them is there
        filled = (c3 >> 1) & TRIADS  # three digits must use it: no other digit is
        forced = x & reached
        rows = (
            (vnz(forced & TRIAD_ROW0) & TRIAD_ROW0)
            | (vnz(forced & TRIAD_ROW1) & TRIAD_ROW1)
            | (vnz(forced & TRIAD_ROW2) & TRIAD_ROW2)
        )
        boxes = _spread((forced | (forced >> 9) | (forced >> 18)) & TRIAD_ROW0)
        cut = (((rows | boxes) & ~forced) | (filled & ~required)) & TRIADS
        # the same down the columns: the triad of column c in band b (its three cells in the
        # band) holds three digits; a digit must use it when c is its one column of c's
        # stack in the band (the stack rule holds here, as the band rule does above)
        col = _columns(new)
        g0 = col & 0x7
        g1 = col & 0x38
        g2 = col & 0x1C0
        col_required = (g0 & veq0(g0 & (g0 - 1))) | (g1 & veq0(g1 & (g1 - 1))) | (g2 & veq0(g2 & (g2 - 1)))
        v1, v2, v3, v4 = _band_four(col | (col_required << 9))
        if vor_all(((~v3 & ROW) | ((v4 >> 9) & ROW)) & words):
            return FAILED, old
        col_forced = col & v3 & ~v4 & ROW  # its column in the band: not the stack's others,
        col_filled = (v3 >> 9) & ROW  #       and not that column in its other bands
        stacks = col_forced | _next_column(col_forced) | _prev_column(col_forced)
        col_cut = (
            (stacks & ~col_forced)
            | (col_filled & ~col_required)
            | next_band(col_forced)
            | prev_band(col_forced)
        )
        final = new & ~(cut * 7) & ~_spread(col_cut)
        if vor_all(final ^ new) == 0:
            return OPEN, new
        old = final


@kernel(inline="always")
def choose(stack, base):
    """What to branch on, as tdoku does: the band with the fewest digit configurations left
    (and some digit still open), and in it the digit with the fewest, the first such.
    Returns ``(CONFIG_BRANCH + lane, configurations)``. Where every digit word is down to one
    configuration but cells are still open, falls back to a cell: ``(27 * band + bit, digits)``
    for the first cell with the fewest candidates."""
    configs = _configurations(vload(stack, base))
    count = vpopcnt(configs)
    totals = _band_sum(count)
    best_total = 1000
    best_band = -1
    for band in range(3):
        total = vlane(totals, LANE[band])
        if 9 < total < best_total:
            best_total = total
            best_band = band
    if best_band >= 0:
        # fewest configurations (more than one) in the band, then the lowest lane
        key = (count << 5) + vload(LANE_INDEX, 0)
        key = key | ((veq0(count & 6) | ~vload(BAND_LANES, 32 * best_band)) & 0x1000)
        lane = LANE[vumin_all(key) & 31]
        return CONFIG_BRANCH + lane, vlane(configs, lane)
    return _choose_cell(stack, base)


@kernel
def _choose_cell(stack, base):
    best = 10
    best_cell = -1
    best_digits = 0
    for band in range(3):
        placed = 0
        for digit in range(9):
            placed |= _single_rows_of(int(stack[base + LANE[3 * digit + band]]))
        open_cells = FULL & ~placed
        while open_cells:
            pos = _tz(open_cells)
            open_cells &= open_cells - 1
            digits = 0
            for digit in range(9):
                digits |= ((int(stack[base + LANE[3 * digit + band]]) >> pos) & 1) << digit
            count = popcount(np.uint64(digits))
            if count < best:
                best = count
                best_cell = 27 * band + pos
                best_digits = digits
                if count == 2:
                    return best_cell, best_digits
    return best_cell, best_digits


@kernel(inline="always")
def write_solution(stack, base, out):
    """The placed digits of a finished level, as 81 values 1..9 (27 bytes a band)."""
    for band in range(3):
        store_digits(
            out, 27 * band,
            int(stack[base + LANE[band]]), int(stack[base + LANE[3 + band]]), int(stack[base + LANE[6 + band]]),
            int(stack[base + LANE[9 + band]]), int(stack[base + LANE[12 + band]]), int(stack[base + LANE[15 + band]]),
            int(stack[base + LANE[18 + band]]), int(stack[base + LANE[21 + band]]), int(stack[base + LANE[24 + band]]),
        )  # fmt: skip


@kernel
def search(givens, stack, branch_cell, branch_rest, ctl, limit, node_budget, record_at, out):
    """Run (or resume) the search until a protocol code is due; see ``protocol``.

    ``stack`` is ``levels * SLOTS`` int32 words; ``branch_cell[level]`` is what a level
    branched on and ``branch_rest[level]`` the alternatives still to try there.
    """
    return _search(givens, stack, branch_cell, branch_rest, ctl, limit, node_budget, record_at, out)


@kernel(_nrt=False)
def _search(givens, stack, branch_cell, branch_rest, ctl, limit, node_budget, record_at, out):
    """``search``, compiled without numba's reference counts: it allocates nothing, and the
    counts it took on its arrays (atomic, at entry, exit and every inlined call) cost an
    easy board a fifth of its time."""
    levels = stack.shape[0] // SLOTS
    node_stop = ctl[P.NODES] + node_budget
    depth, phase, fresh = resume(ctl)
    if fresh:
        load_givens(givens, stack)
    while True:
        if phase == P.PROPAGATE:
            if ctl[P.NODES] >= node_stop:
                return pause(ctl, depth, phase, P.BUDGET)
            ctl[P.NODES] += 1
            base = depth * SLOTS
            state = propagate(stack, base)
            if state == FAILED:
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
            cell, digits = choose(stack, base)
            ctl[P.GUESSES] += 1
            branch_cell[depth] = cell
            branch_rest[depth] = digits
            phase = P.NEXT_BRANCH
        elif phase == P.NEXT_BRANCH:
            rest = branch_rest[depth]
            last = rest & (rest - 1) == 0
            if not last and depth + 1 >= levels:
                return pause(ctl, depth, phase, P.STACK_FULL)
            digit = _tz(rest)
            branch_rest[depth] = rest & (rest - 1)
            cell = branch_cell[depth]
            base = depth * SLOTS
            if not last:  # the level stays for the other alternatives; work on a copy above it
                depth += 1
                vstore(stack, base + SLOTS, vload(stack, base))
                base += SLOTS
                branch_rest[depth] = 0
            if cell >= CONFIG_BRANCH:  # "digit" numbers a configuration of a digit word
                lane = cell - CONFIG_BRANCH
                stack[base + lane] = int(stack[base + lane]) & CONFIG_CELLS[digit]
            else:
                band = cell // 27
                pos = cell % 27
                lane = LANE[3 * digit + band]
                stack[base + lane] = int(stack[base + lane]) & ~((ROW << (9 * (pos // 9))) ^ (1 << pos))
            phase = P.PROPAGATE
        else:  # BACKTRACK
            depth, outcome = retreat(ctl, branch_rest, depth)
            if outcome != P.GOING:
                return outcome
            phase = P.NEXT_BRANCH


#: the cells of a band word's first box
BOX_CELLS0 = 0x7 | (0x7 << 9) | (0x7 << 18)


@kernel
def repeats(puzzles, found):
    """Mark in ``found`` the boards (rows of ``puzzles``, ``(N, 81)`` values) whose givens
    repeat a digit in a row, column or box: the givens as band words (``_givens_words``),
    then a word with two cells in a row or a box, or two in a column within its band or
    across bands, a few whole-vector operations a board."""
    words = np.zeros(SLOTS, dtype=np.int32)
    for k in range(puzzles.shape[0]):
        _givens_words(puzzles[k], words)
        w = vload(words, 0)
        r0 = w & ROW
        r1 = w & ROW1
        r2 = w & ROW2
        b0 = w & BOX_CELLS0
        b1 = w & (BOX_CELLS0 << 3)
        b2 = w & (BOX_CELLS0 << 6)
        columns = _columns(w)
        twice = (
            (r0 & (r0 - 1)) | (r1 & (r1 - 1)) | (r2 & (r2 - 1))
            | (b0 & (b0 - 1)) | (b1 & (b1 - 1)) | (b2 & (b2 - 1))
            | (w & (w >> 9)) | (w & (w >> 18)) | (columns & next_band(columns))
        )  # fmt: skip
        if vor_all(twice):
            found[k] = True


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
        start(ctl)
        code = _search(
            puzzles[k], stack, branch_cell, branch_rest, ctl, limit, node_budget, 1, solutions[k]
        )
        record(ctl, code, k, counts, nodes, guesses, exhausted)
