"""Canonical (minlex) forms of 9x9 boards, compiled.

The *minlex form* of a board is the smallest 81-value string, read row by row, over every
transformation that keeps a Sudoku a Sudoku: transposition, the order of the three bands, the
order of the rows inside each band, the same for stacks and columns (2 * 6**8 = 3,359,232 of
them), with the digits then relabelled in order of first appearance and an empty cell (0)
smaller than any digit.

Trying them all costs a second a board, so the search goes row by row instead. A *candidate*
is a partial transformation whose output so far equals the smallest one found; all candidates
at a step share that prefix, and each step keeps only those tied for the smallest next value.
A candidate fixes nothing it does not have to:

- the rows are chosen one output row at a time (9 first rows, then the band's two others in
  2 orders, then 6 rows of the other bands, ...);
- the first output row with a given only counts its givens per stack: its digits are all new,
  so their labels are their places' order and the row's smallest form depends on where the
  givens stand, not on which digits they are. It sorts the stacks by their number of givens
  and, inside each stack, puts the empty columns first; every order that agrees is still open;
- later rows are read cell by cell. A cell whose column is still open takes an empty column
  if one is free (which one stays open), else branches over the free columns; a digit met
  earlier only in that first row gets the label of the place its column would take, and the
  earliest free place gives the smallest label, so that place is taken for it (no branch).

A full first row (every full grid) opens every place, and the search would then branch on
every first column of every (first row, second row) pair, 324 ways; ``_band_start`` instead
works out each pair's smallest start of the second row from how its stacks spread over the
first row's, keeps only the (pair, stack, first column) ways that reach the smallest, and
when that start is 4 5 6 (the band a cycle of three stacks, every column then forced) writes
the whole second row at once.

A row that reads one way only for every candidate (``_determined``: its givens stand where
stack and column are chosen, what is open is empty there or, in a block, leaves one column with
a given) is read whole, not cell by cell: from the second band on for most sparse puzzles, and
for a full grid once every digit is labelled.

What is still open is kept as blocks: ``stacks[S]`` is a bit mask of the board's stacks that
output stack S may still be, and ``cols[X, i]`` one of the columns of stack X that may stand
at place i inside it. Masks of one block are equal and as wide as the block; blocks are
disjoint and contiguous, so choosing one member clears its bit from the rest.

The kernels trust their input: a 9x9 board whose givens break no rule (a digit twice in a row
would make the first row's labels wrong), checked once by ``sudokit.canon``.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel

# -- a candidate: two int64 words ------------------------------------------------------------
#
#   word 0   bits  0-35  rows     4 bits per output row k: the row (of the board as read) it
#                                 comes from
#            bit   36    T        1 when the board is read transposed
#            bits 37-45  STACKS   3 bits per output stack S: the board's stacks it may be
#            bits 46-49  NEXT     the label the next new digit takes
#   word 1   bits  0-26  cols     3 bits per stack X and place i, at 3 * (3X + i): the
#                                 columns 3X + b (bit b) that may stand there
#            bits 27-62  LABELS   4 bits per digit d, at 27 + 4 * (d - 1): its label, 0 while
#                                 it has not been read
#
# Words, not rows of an array: numba counts the references to every array a helper is handed,
# and that took three quarters of the time.
T_BIT = 36
STACKS = 37
NEXT = 46
LABELS = 27
#: one bit in each of three 3-bit fields
SPREAD = 1 | 1 << 3 | 1 << 6
#: the two words of a candidate before anything is chosen
OPEN = ((SPREAD * 7) << STACKS | 1 << NEXT, (1 << 27) - 1)

#: candidates held at first; a very symmetric board makes the buffers grow
START = 64

#: ``how``: the transformation of one smallest candidate: [T, the 9 rows, the 9 columns]
HOW_SIZE = 19


@kernel(inline="always")
def _low(mask):
    """The lowest set bit of a 3-bit mask, as an index."""
    return 0 if mask & 1 else (1 if mask & 2 else 2)


@kernel(inline="always")
def _bits(mask):
    """The number of set bits of a 3-bit mask."""
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1)


@kernel(inline="always")
def _row_of(w0, k):
    """The board row output row k comes from."""
    return (w0 >> (4 * k)) & 15


@kernel(inline="always")
def _stacks(w0, S):
    """The mask of the board's stacks output stack S may be."""
    return (w0 >> (STACKS + 3 * S)) & 7


@kernel(inline="always")
def _cols(w1, X, i):
    """The mask of the columns of stack X that may stand at its place i."""
    return (w1 >> (3 * (3 * X + i))) & 7


@kernel(inline="always")
def _label_of(w1, d):
    """The label digit d took, 0 if none yet."""
    return (w1 >> (LABELS + 4 * d - 4)) & 15


@kernel(inline="always")
def _choose_stack(w0, S, X):
    """Word 0 once output stack S is the board's stack X."""
    w0 &= ~((SPREAD << X) << STACKS)
    w0 &= ~(7 << (STACKS + 3 * S))
    return w0 | (1 << X) << (STACKS + 3 * S)


@kernel(inline="always")
def _pin(w1, X, i, b):
    """Word 1 once column 3X+b stands at place i of stack X."""
    w1 &= ~((SPREAD << b) << (9 * X))
    w1 &= ~(7 << (3 * (3 * X + i)))
    return w1 | (1 << b) << (3 * (3 * X + i))


@kernel(inline="always")
def _earliest(w0, w1, c):
    """The earliest output place still open to column c."""
    Y = c // 3
    b = c - 3 * Y
    S = 0
    while not (_stacks(w0, S) >> Y) & 1:
        S += 1
    i = 0
    while not (_cols(w1, Y, i) >> b) & 1:
        i += 1
    return 3 * S + i


@kernel(inline="always")
def _read(w0, w1, d, c, firstlab):
    """Read digit d (0: an empty cell) in the output: returns (its label, the candidate's
    words after). A digit read before keeps its label; one the first row holds (at column
    ``c``, else -1) takes the label ``firstlab`` (that row's labels, 4 bits a place) gives the
    earliest place its column may take, and the column settles there; any other takes the
    next new label."""
    if d == 0:
        return 0, w0, w1
    label = _label_of(w1, d)
    if label:
        return label, w0, w1
    if c < 0:
        label = (w0 >> NEXT) & 15
        w0 += 1 << NEXT
    else:
        p = _earliest(w0, w1, c)
        Y = c // 3
        S = p // 3
        if _stacks(w0, S) != 1 << Y:
            w0 = _choose_stack(w0, S, Y)
        if _cols(w1, Y, p - 3 * S) != 1 << (c - 3 * Y):
            w1 = _pin(w1, Y, p - 3 * S, c - 3 * Y)
        label = (firstlab >> (4 * p)) & 15
    return label, w0, w1 | label << (LABELS + 4 * d - 4)


@kernel(inline="always")
def _cell(src, n, dst, k, q, first, grid, place, filled, firstlab):
    """Output row k's cell q for every candidate of ``src[:n]``: the ways tied for its
    smallest value go to ``dst``; returns (their number, the value). A number over
    ``len(dst)`` means dst was too small (only its rows were written): grow it, ask again."""
    S = q // 3
    i = q - 3 * S
    cap = dst.shape[0]
    m = 0
    best = 127
    for j in range(n):
        w0 = src[j, 0]
        w1 = src[j, 1]
        t = (w0 >> T_BIT) & 1
        r = _row_of(w0, k)
        r0 = _row_of(w0, first)
        allowed = _stacks(w0, S)
        if allowed & (allowed - 1):
            busy = False
            for X in range(3):
                if (allowed >> X) & 1 and (filled[t, r] >> (3 * X)) & 7:
                    busy = True
            if not busy:  # every stack it may be is empty in this row: choose later
                if best:
                    best = 0
                    m = 0
                if m < cap:
                    dst[m, 0] = w0
                    dst[m, 1] = w1
                m += 1
                continue
        for X in range(3):
            if not (allowed >> X) & 1:
                continue
            x0 = w0 if allowed == 1 << X else _choose_stack(w0, S, X)
            mask = _cols(w1, X, i)
            empty = 0
            for b in range(3):
                if (mask >> b) & 1 and grid[t, r, 3 * X + b] == 0:
                    empty |= 1 << b
            if empty:
                x1 = w1
                if empty != mask:  # the block's empty columns first, then the others
                    split = i + _bits(empty)
                    for p in range(i, i + _bits(mask)):
                        shift = 3 * (3 * X + p)
                        x1 = (x1 & ~(7 << shift)) | (empty if p < split else mask ^ empty) << shift
                if best:
                    best = 0
                    m = 0
                if m < cap:
                    dst[m, 0] = x0
                    dst[m, 1] = x1
                m += 1
                continue
            for b in range(3):
                if not (mask >> b) & 1:
                    continue
                # int(): as plain Python (NUMBA_DISABLE_JIT) an int8 would overflow in shifts
                d = int(grid[t, r, 3 * X + b])
                c = int(place[t, r0, d])
                value, y0, y1 = _read(x0, w1 if mask == 1 << b else _pin(w1, X, i, b), d, c, firstlab)
                if value > best:
                    continue
                if value < best:
                    best = value
                    m = 0
                if m < cap:
                    dst[m, 0] = y0
                    dst[m, 1] = y1
                m += 1
    return m, best


@kernel(inline="always")
def _pattern_key(row):
    """The smallest pattern of a row with givens at the 9 bits of ``row``, as a number that
    orders like the pattern read left to right (empty before given): its stacks sorted by
    their number of givens, empty places first in each."""
    c0 = _bits(row & 7)
    c1 = _bits((row >> 3) & 7)
    c2 = _bits((row >> 6) & 7)
    lo = min(c0, c1, c2)
    hi = max(c0, c1, c2)
    key = 0
    for S in range(3):
        count = lo if S == 0 else (c0 + c1 + c2 - lo - hi if S == 1 else hi)
        for i in range(3 - count, 3):
            key |= 1 << (8 - 3 * S - i)
    return key


@kernel(inline="always")
def _first_row(w0, w1, row, key):
    """The words of a candidate whose first row with givens has them at the bits of ``row``
    (its smallest pattern is ``key``), its blocks opened: stacks by number of givens, then
    inside each stack its empty columns, then the others."""
    total = 0
    w0 &= ~((SPREAD * 7) << STACKS)
    for S in range(3):
        wanted = _bits((key >> (6 - 3 * S)) & 7)
        for X in range(3):
            if _bits((row >> (3 * X)) & 7) == wanted:
                w0 |= (1 << X) << (STACKS + 3 * S)
    w1 &= ~((1 << 27) - 1)
    for X in range(3):
        given = (row >> (3 * X)) & 7
        count = _bits(given)
        for i in range(3):
            w1 |= ((7 ^ given) if i < 3 - count else given) << (3 * (3 * X + i))
        total += count
    w0 &= ~(15 << NEXT)
    return w0 | (total + 1) << NEXT, w1


@kernel(inline="always")
def _options(w0, k):
    """The board rows output row k may come from, as a 9-bit mask, given the rows taken
    before it."""
    if k % 3 == 0:
        used = 0
        for j in range(k):
            used |= 7 << (3 * (_row_of(w0, j) // 3))
        return 511 ^ used
    band = _row_of(w0, k - 1) // 3
    options = 7 << (3 * band)
    for j in range(k - k % 3, k):
        options &= ~(1 << _row_of(w0, j))
    return options


@kernel(inline="always")
def _band_start(a, n, b, k, filled, place, grid):
    """The ``n`` candidates ``a`` just given output row k, the band's next row after a full
    first row (output row k - 1), narrowed to those that can start smallest in row k's first
    four cells, as (a, b, n, tail) after (the buffers swapped, maybe grown; tail: see
    ``_band_456``, 0 here). Every place is still open after a full first row, and each digit
    of row k is labelled by the place of its column in the first row, a column of another
    stack (same band): sigma(c), row k's digit at column c found in the first row. Once output
    stack 0 is board stack X0 and its first two places columns c0 and c1 (c2 the third), the
    smallest start is forced: sigma(c0) takes place 3 (label 4) and makes its stack Y output
    stack 1, the third stack Z output stack 2, each later sigma(c) the earliest free place of
    its stack, and cell 3 reads sigma(sigma(c0)), one of c0, c1, c2 (labels 1-3) or in Z. Row
    k's stacks spread over the first row's alike (a stack's digits all in one other stack, or
    two and one, the same for every stack), so the start is 4 5 6 7 for every X0, c0, c1 when
    they fill, else 4 5 7 and cell 3 when c0 and c1 are the two digits in Y (more otherwise).
    Every (X0, c0) that gives the smallest start over all candidates stays, as a candidate
    of its own with X0 and c0 chosen; any other transformation reads more within these
    cells, and the search would drop it there. A row with an empty cell could read 0 there:
    then all stay."""
    for j in range(n):
        w0 = a[j, 0]
        if filled[(w0 >> T_BIT) & 1, _row_of(w0, k)] != 511:
            return a, b, n, np.int64(0)
    keys = np.empty((n, 9), dtype=np.int64)  # keys[j, 3 * X0 + u]: the best start with c0 = 3 * X0 + u
    least = np.int64(1 << 20)
    for j in range(n):
        w0 = a[j, 0]
        t = (w0 >> T_BIT) & 1
        r0 = _row_of(w0, k - 1)
        r1 = _row_of(w0, k)
        sig = _sigma(place, grid, t, r0, r1)
        split = 0  # how many of stack 0's digits stand in stack 1 of the first row
        for u in range(3):
            split += ((sig >> (4 * u)) & 15) // 3 == 1
        for X0 in range(3):
            if split == 0 or split == 3:
                # each stack's digits fill another stack: 4 5 6, and cell 3 reads the first
                # place of stack 2, 7, whatever X0, c0 and c1
                for u in range(3):
                    keys[j, 3 * X0 + u] = 5 << 8 | 6 << 4 | 7
                least = min(least, 5 << 8 | 6 << 4 | 7)
                continue
            # two of X0's digits stand in one stack (Y) of the first row, one in the other:
            # only c0 and c1 those two read 4 5 (then 7); which of the two is c0 tells cell 3
            y0 = ((sig >> (12 * X0)) & 15) // 3
            y1 = ((sig >> (12 * X0 + 4)) & 15) // 3
            y2 = ((sig >> (12 * X0 + 8)) & 15) // 3
            lone = 0 if y1 == y2 else (1 if y0 == y2 else 2)
            for u in range(3):
                c0 = 3 * X0 + u
                if u == lone:
                    keys[j, c0] = 1 << 20
                    continue
                c1 = 3 * X0 + 3 - u - lone
                c2 = 3 * X0 + lone
                x = (sig >> (4 * ((sig >> (4 * c0)) & 15))) & 15
                label = 1 if x == c0 else (2 if x == c1 else (3 if x == c2 else (7 if x == (sig >> (4 * c2)) & 15 else 8)))
                keys[j, c0] = 5 << 8 | 7 << 4 | label
                least = min(least, keys[j, c0])
    if least >> 4 == 5 << 4 | 6:
        return _band_456(a, n, b, k, keys, least, place, grid)
    m = 0
    for j in range(n):
        for c0 in range(9):
            m += keys[j, c0] == least
    if m > b.shape[0]:
        b = np.empty((2 * m, 2), dtype=np.int64)
    m = 0
    for j in range(n):
        for c0 in range(9):
            if keys[j, c0] == least:
                X0 = c0 // 3
                b[m, 0] = _choose_stack(a[j, 0], 0, X0)
                b[m, 1] = _pin(a[j, 1], X0, 0, c0 - 3 * X0)
                m += 1
    return b, a, m, np.int64(0)


@kernel(inline="always")
def _sigma(place, grid, t, r0, r1):
    """sigma of ``_band_start``, 4 bits a column: for each column c, the column of the first
    row (r0) that holds row r1's digit at c."""
    sig = np.int64(0)
    for c in range(9):
        sig |= np.int64(place[t, r0, grid[t, r1, c]]) << (4 * c)
    return sig


@kernel(inline="always")
def _band_456(a, n, b, k, keys, least, place, grid):
    """``_band_start`` when row k can start 4 5 6: then the three digits of row k's stack X0
    fill one stack Y of the first row, and (the stacks' digit counts agree) those of Y fill
    the third stack Z, those of Z fill X0. With c0, c1, c2 the order of X0, everything is
    forced: sigma(ci) takes place 3 + i, sigma(sigma(ci)) place 6 + i, and row k reads
    4 5 6 7 8 9 and then the labels of sigma(sigma(sigma(ci))), back in X0 at c0, c1 or c2
    (labels 1-3). The candidates, every (X0, c0, c1) whose last three are smallest, come out
    with every stack and column chosen and every digit labelled; returns (a, b, n, row k's
    last three, 4 bits each) and row k is not read again."""
    tail = np.int64(1 << 12)
    for rnd in range(2):
        m = 0
        for j in range(n):
            if keys[j, 0] != least:  # a pair starts 4 5 6 for every c0 or for none
                continue
            w0 = a[j, 0]
            t = (w0 >> T_BIT) & 1
            sig = _sigma(place, grid, t, _row_of(w0, k - 1), _row_of(w0, k))
            for c0 in range(9):
                X0 = c0 // 3
                u = c0 - 3 * X0
                for v in range(1, 3):
                    c1 = 3 * X0 + (u + v) % 3
                    c2 = 3 * X0 + (u + 3 - v) % 3
                    last = np.int64(0)
                    for c in (c0, c1, c2):
                        back = (sig >> (4 * ((sig >> (4 * ((sig >> (4 * c)) & 15))) & 15))) & 15
                        last = last << 4 | (1 if back == c0 else (2 if back == c1 else 3))
                    if rnd == 0:
                        tail = min(tail, last)
                        continue
                    if last != tail:
                        continue
                    if m >= b.shape[0]:
                        grown = np.empty((2 * b.shape[0], 2), dtype=np.int64)
                        grown[:m] = b[:m]
                        b = grown
                    # output stack i holds sigma^i(c0, c1, c2) at its places, and the first
                    # row's digit at each of those columns takes that place's label
                    r0 = _row_of(w0, k - 1)
                    stacks = np.int64(0)
                    x1 = np.int64(0)
                    for h in range(3):
                        cc = c0 if h == 0 else (c1 if h == 1 else c2)
                        for i in range(3):
                            X = cc // 3
                            if h == 0:
                                stacks |= np.int64(1 << X) << (3 * i)
                            x1 |= np.int64(1 << (cc - 3 * X)) << (3 * (3 * X + h))
                            x1 |= np.int64(3 * i + h + 1) << (LABELS + 4 * int(grid[t, r0, cc]) - 4)
                            cc = (sig >> (4 * cc)) & 15
                    x0 = w0 & ~((np.int64(SPREAD * 7) << STACKS) | (np.int64(15) << NEXT))
                    x0 |= stacks << STACKS | np.int64(10) << NEXT
                    b[m, 0] = x0
                    b[m, 1] = x1
                    m += 1
    return b, a, m, tail


@kernel(inline="always")
def _pinned(a, n):
    """Whether every candidate of ``a[:n]`` has chosen every stack and column and labelled every
    digit (a full grid past its first band, mostly): then each reads a whole row at once. (A
    grid's rows read whole before its digits are labelled again took 6-10% longer than read
    cell by cell, measured.)"""
    for j in range(n):
        w0 = a[j, 0]
        w1 = a[j, 1]
        for S in range(3):
            mask = _stacks(w0, S)
            if mask & (mask - 1):
                return False
        for g in range(9):
            mask = (w1 >> (3 * g)) & 7
            if mask & (mask - 1):
                return False
        for d in range(1, 10):  # (a digit of the first row has no label until read again)
            if not _label_of(w1, d):
                return False
    return True


@kernel(inline="always")
def _determined(a, n, k, filled):
    """Whether output row k reads one way only for every candidate of ``a[:n]``: every open
    stack is empty in this row (it reads 0 and stays open, as ``_cell`` keeps it), and every
    open block of columns has at most one given in this row, not in all its columns (its empty
    columns read 0 first, and the one with the given is then forced)."""
    for j in range(n):
        w0 = a[j, 0]
        w1 = a[j, 1]
        row = filled[(w0 >> T_BIT) & 1, _row_of(w0, k)]
        for S in range(3):
            mask = _stacks(w0, S)
            if mask & (mask - 1):
                for X in range(3):
                    if (mask >> X) & 1 and (row >> (3 * X)) & 7:
                        return False
                continue
            X = _low(mask)
            for i in range(3):
                cols = _cols(w1, X, i)
                given = (row >> (3 * X)) & cols
                if cols & (cols - 1) and given and (given == cols or given & (given - 1)):
                    return False
    return True


@kernel(inline="always")
def _whole_row(a, n, k, first, grid, place, filled, firstlab, labelled):
    """Output row k of every candidate of ``a[:n]`` read at once, all ``_pinned`` (``labelled``,
    a constant at each call) or all ``_determined`` (new digits labelled as ``_read`` labels
    them, open blocks split as ``_cell`` splits them): those tied for the smallest stay, in
    place; returns (their number, the row, 4 bits a cell). The same candidates and words as
    nine ``_cell`` calls, in a ninth of the passes."""
    best = np.int64(1) << 40
    m = 0
    for j in range(n):
        w0 = a[j, 0]
        w1 = a[j, 1]
        t = (w0 >> T_BIT) & 1
        r = _row_of(w0, k)
        r0 = _row_of(w0, first)
        key = np.int64(0)
        over = False
        for q in range(9):
            if labelled:
                X = _low(_stacks(w0, q // 3))
                d = grid[t, r, 3 * X + _low(_cols(w1, X, q % 3))]
                key = key << 4 | (_label_of(w1, d) if d else 0)
            else:
                i = q % 3
                stacks = _stacks(w0, q // 3)
                X = _low(stacks)
                cols = _cols(w1, X, i)
                value = 0
                if not (stacks & (stacks - 1) or cols & (cols - 1)):
                    d = int(grid[t, r, 3 * X + _low(cols)])
                    value = _label_of(w1, d) if d else 0
                    if d and not value:
                        value, w0, w1 = _read(w0, w1, d, int(place[t, r0, d]), firstlab)
                elif not stacks & (stacks - 1):  # (an open stack is empty here: ``_determined``)
                    given = (filled[t, r] >> (3 * X)) & cols
                    if given:  # the block's empty columns first, then the one with a given
                        empty = cols ^ given
                        split = i + _bits(empty)
                        for p in range(i, i + _bits(cols)):
                            shift = 3 * (3 * X + p)
                            w1 = (w1 & ~(7 << shift)) | (empty if p < split else given) << shift
                key = key << 4 | value
            if key > best >> (32 - 4 * q):  # already past the smallest row so far
                over = True
                break
        if over:
            continue
        if key < best:
            best = key
            m = 0
        a[m, 0] = w0
        a[m, 1] = w1
        m += 1
    return m, best


@kernel(inline="always")
def _scratch():
    """The work arrays of ``_minlex``, made once for a batch (what each board needs, it resets):
    ``grid[t, r, c]`` the board (t = 0) and transposed (t = 1), ``place[t, r, d]`` the column
    of digit d in row r (-1: none), ``filled[t, r]`` 9-bit masks of each row's givens."""
    return np.zeros((2, 9, 9), dtype=np.int8), np.empty((2, 9, 10), dtype=np.int8), np.empty((2, 9), dtype=np.int64)


@kernel(inline="always")
def _minlex(cells, out, how, a, b, grid, place, filled):
    """The minlex form of the 81 ``cells`` (0 empty) into ``out`` and one transformation that
    gives it into ``how``, with candidate buffers ``a`` and ``b`` (returned, maybe grown) and
    the work arrays of ``_scratch``. Inlined: numba would count references to each array
    handed to a call, once a board."""
    place[:] = -1
    filled[:] = 0
    for r in range(9):
        for c in range(9):
            d = cells[9 * r + c]
            grid[0, r, c] = d
            grid[1, c, r] = d
            if d:
                place[0, r, d] = c
                place[1, c, d] = r
                filled[0, r] |= 1 << c
                filled[1, c] |= 1 << r
    for t in range(2):
        a[t, 0] = OPEN[0] | t << T_BIT
        a[t, 1] = OPEN[1]
    # np.int64, not literals: numba would compile the callees once more for the literals
    n = np.int64(2)
    first = np.int64(-1)  # the first output row with a given, once there is one
    firstlab = np.int64(0)  # its labels, 4 bits a place
    firstkey = np.int64(0)  # its pattern
    for k in range(9):
        # each candidate with each row it may take next: those of the smallest pattern
        # before the first given, the empty rows (if any) after it
        while True:
            m = np.int64(0)
            best = 1 << 10
            for j in range(n):
                w0 = a[j, 0]
                options = _options(w0, k)
                for r in range(9):
                    if not (options >> r) & 1:
                        continue
                    row = filled[(w0 >> T_BIT) & 1, r]
                    key = _pattern_key(row) if first < 0 else min(row, 1)
                    if key > best:
                        continue
                    if key < best:
                        best = key
                        m = 0
                    if m < b.shape[0]:
                        b[m, 0] = w0 | r << (4 * k)
                        b[m, 1] = a[j, 1]
                    m += 1
            if m <= b.shape[0]:
                break
            b = np.empty((2 * m, 2), dtype=np.int64)
        a, b = b, a
        n = m
        if best == 0:
            for q in range(9):
                out[9 * k + q] = 0
            continue
        if k == first + 1 and k % 3 and firstkey == 511:
            a, b, n, tail = _band_start(a, n, b, k, filled, place, grid)
            if tail:  # row k is known: 4 5 6 7 8 9 and then tail
                for q in range(6):
                    out[9 * k + q] = q + 4
                for q in range(6, 9):
                    out[9 * k + q] = (tail >> (4 * (8 - q))) & 15
                continue
        if first < 0:
            first = k
            firstkey = best
            for j in range(n):
                w0 = a[j, 0]
                row = filled[(w0 >> T_BIT) & 1, _row_of(w0, k)]
                a[j, 0], a[j, 1] = _first_row(w0, a[j, 1], row, best)
            label = 0
            for q in range(9):
                if (best >> (8 - q)) & 1:
                    label += 1
                    out[9 * k + q] = label
                    firstlab |= label << (4 * q)
                else:
                    out[9 * k + q] = 0
            continue
        whole = False
        if _pinned(a, n):
            n, key = _whole_row(a, n, k, first, grid, place, filled, firstlab, True)
            whole = True
        elif firstkey != 511 and _determined(a, n, k, filled):  # (a grid's rows: see _pinned)
            n, key = _whole_row(a, n, k, first, grid, place, filled, firstlab, False)
            whole = True
        if whole:
            for q in range(9):
                out[9 * k + q] = (key >> (4 * (8 - q))) & 15
            continue
        for q in range(9):
            m, value = _cell(a, n, b, k, q, first, grid, place, filled, firstlab)
            if m > b.shape[0]:
                b = np.empty((2 * m, 2), dtype=np.int64)
                m, value = _cell(a, n, b, k, q, first, grid, place, filled, firstlab)
            out[9 * k + q] = value
            a, b = b, a
            n = m
    # one smallest candidate, its open choices taken in order
    w0 = a[0, 0]
    w1 = a[0, 1]
    how[0] = (w0 >> T_BIT) & 1
    for k in range(9):
        how[1 + k] = _row_of(w0, k)
    for S in range(3):
        X = _low(_stacks(w0, S))
        w0 = _choose_stack(w0, S, X)
        for i in range(3):
            b_ = _low(_cols(w1, X, i))
            w1 = _pin(w1, X, i, b_)
            how[10 + 3 * S + i] = 3 * X + b_
    return a, b


@kernel
def minlex(boards, out, how):
    """The minlex form of every row of ``boards`` ((N, 81), 0 empty) into the rows of ``out``
    (0 empty, 1-9 the labels), and into the rows of ``how`` (``HOW_SIZE``) one transformation
    that gives it: transposed or not, then the source row of each output row, then the source
    column of each output column, both in the board as read after transposing. One entry, for
    one board too: each entry compiles on its own."""
    a = np.empty((START, 2), dtype=np.int64)
    b = np.empty((START, 2), dtype=np.int64)
    grid, place, filled = _scratch()
    for k in range(boards.shape[0]):
        a, b = _minlex(boards[k], out[k], how[k], a, b, grid, place, filled)


@kernel
def minlex_line(text, out):
    """The minlex form of one board written as 81 ASCII bytes (``.`` or ``0`` empty, ``1``-``9``;
    ``bytes`` or an array) into ``out`` (81 bytes, a ``bytearray`` or an array: ``.`` and the
    labels as ASCII digits): the one-board road, which checks its input itself. Returns 0, or
    1 for a byte that is none of those, 2 for a digit twice in a house (``out`` then
    unwritten): the caller reads such a board the long way."""
    cells = np.empty(81, dtype=np.uint8)
    seen = np.zeros(27, dtype=np.int64)  # the digits of each row, column (9 +) and box (18 +)
    for i in range(81):
        ch = text[i]
        if ch == 46 or ch == 48:
            cells[i] = 0
            continue
        if ch < 49 or ch > 57:
            return 1
        d = ch - 48
        cells[i] = d
        r = i // 9
        c = i - 9 * r
        x = 18 + 3 * (r // 3) + c // 3
        bit = 1 << d
        if (seen[r] | seen[9 + c] | seen[x]) & bit:
            return 2
        seen[r] |= bit
        seen[9 + c] |= bit
        seen[x] |= bit
    how = np.empty(HOW_SIZE, dtype=np.int8)
    a = np.empty((START, 2), dtype=np.int64)
    b = np.empty((START, 2), dtype=np.int64)
    grid, place, filled = _scratch()
    form = np.empty(81, dtype=np.uint8)
    _minlex(cells, form, how, a, b, grid, place, filled)
    for i in range(81):
        out[i] = 46 if form[i] == 0 else form[i] + 48
    return 0
