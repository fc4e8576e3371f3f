"""The arrays of Sudoku Explainer's kernels (the grid, a hint, the chains' workspace; see
``core`` and ``chains`` for their layout), made in plain Python with numpy only: the Python
layer makes them without loading numba where the kernels were compiled ahead of time
(``kernels/build/ahead.py``)."""

from __future__ import annotations

import numpy as np

ALL = 0x3FE  #: every candidate, bits 1..9
NP = 81 * 9 * 2  #: potentials
HDR = 16  #: a hint's header slots (named below)
FRAMES = 20  #: chainings kept side by side in a workspace
POOL = 40000  #: parents per frame
QUEUE = NP + 8
FS = 16  #: a frame's scalars (``chains`` names them)
ADV_MAX = 729  #: advanced potentials (dynamic (+))
ADV_POOL = 729 * 24
MEMO_SLOTS = 4096  #: a nested workspace's remembered advanced implications (``memo``): slots
MEMO_DATA = 1 << 22  #: ... and the words they may fill (32 MB, touched only as used)
KEPT_DATA = 1 << 21  #: the words a multiple-chain search may keep its "on" chainings in (``chains.frame_keep``)


#: the grid's arrays (``new_grid`` makes them in this order): kernels read ``g[G_CAND]``
G_VALUES = 0  #: each cell's value, 0 for empty
G_CAND = 1  #: each cell's candidates, bits 1..9
G_POS = 2  #: per region and value, the region's positions that can still take it

#: a hint's arrays (``new_hint`` makes them in this order)
H_HDR = 0  #: the header, in the slots below
H_DIFF = 1  #: its difficulty (one float)
H_ELIM = 2  #: eliminations (cell, value)
H_CELLS = 3  #: the pattern's cells
#: ``h[H_HDR]`` slots
KIND = 0  #: technique id (``ids``)
NE = 1  #: eliminations written
PCELL = 2  #: the cell a value is placed in, -1 for none
PVALUE = 3  #: the value placed
NC = 4  #: pattern cells written
CPLX = 5  #: a chain's complexity (SE's number of nodes; the length penalty reads it)
SORT = 6  #: a chain's sort key (SE's tie-break after difficulty and complexity)
VALUE = 7  #: the value or values (mask) the pattern is about
SRC = 8  #: a chain's first potential, or -1
TARGET = 9  #: a chain's conclusion potential, or -1
SUB = 10  #: a technique's variant (a forcing chain's kind, a link pattern's code, ...)
REGION_SLOT = 11  #: a region the pattern stands on, -1 for none
GROUPED = 12  #: strong links: 1 where a link is grouped
RING = 13  #: strong links: 1 for a closed loop
LINES = 14  #: strong links: the kinds of region linked (1 block, 2 row, 4 column)
REMOVED = 15  #: candidates the hint removes (a tie-break between equal hints)

#: the workspace's slots (``new_workspace`` lists them in this order, with what each holds):
#: kernels read ``ws[WS_FRAME]``, never a bare number
WS_MEM = 0
WS_PARENT_START = 1
WS_PARENT_COUNT = 2
WS_POOL = 3
WS_CAUSE = 4
WS_ORDER = 5
WS_FRAME = 6
WS_QUEUE_ON = 7
WS_QUEUE_OFF = 8
WS_UNDO = 9
WS_SOURCE_CAND = 10
WS_SOURCE_POS = 11
WS_VISIT = 12
WS_COUNTERS = 13
WS_OUT = 14
WS_OUT_CAUSE = 15
WS_HIDDEN_START = 16
WS_HIDDEN_COUNT = 17
WS_HIDDEN = 18
WS_BFS = 19
WS_CYCLE_NODES = 20
WS_CYCLE_QUEUE = 21
WS_CYCLE_NODE_OF = 22
WS_CYCLE_STAMP = 23
WS_DEPTH = 24
WS_ADV = 25
WS_ADV_START = 26
WS_ADV_COUNT = 27
WS_ADV_PARENTS = 28
WS_ADV_TOTALS = 29
WS_NOTHING_CELLS = 30
WS_NOTHING_FOUND = 31
WS_DIGIT_CELLS = 32
WS_NEST_CPLX = 33
WS_NEST_ID = 34
WS_ADV_CPLX = 35
WS_ADV_ID = 36
WS_CYCLE_CAUSE = 37
WS_MEMO_SLOTS = 38
WS_MEMO_DATA = 39
WS_MEMO_STATE = 40
MEMO_VALUES = 4  #: ``ws[WS_MEMO_STATE]``'s slot where the values the answers were found with begin
WS_KEPT_AT = 41
WS_KEPT_DATA = 42
WS_KEPT_STATE = 43
WS_READS = 44
WS_READS_KEY = 45
#: the counters (``ws[WS_COUNTERS]``), shared by a workspace and its nested ones
W_STAMP = 0  #: the last visit stamp handed out (only grows)
W_WORK = 1  #: work done (potentials processed), what the budget counts
W_BUDGET = 2  #: the work at which the search gives up; 0 for none
W_OVER = 3  #: set when the work budget ran out mid-search
W_CYCLE_STEPS = 4  #: work spent growing cycles
W_DISTANCE_STEPS = 5  #: work spent measuring forcing chains
W_RULE = 6  #: the rule being searched (the Python layer reads it when a search gives up)
W_FORCING_STEPS = 7  #: work spent in inner forcing chains (nested)


def new_grid():
    """``(values, cand, pos)`` of an empty board (every candidate everywhere)."""
    values = np.zeros(81, dtype=np.int64)
    cand = np.full(81, ALL, dtype=np.int64)
    pos = np.zeros((27, 10), dtype=np.int64)
    pos[:, 1:] = 0x1FF
    return values, cand, pos


def new_hint():
    return (
        np.zeros(HDR, dtype=np.int64),
        np.zeros(1, dtype=np.float64),
        np.zeros((729, 2), dtype=np.int64),
        np.zeros(81, dtype=np.int64),
    )


def new_workspace(counters=None, memo=False, keep=True, reads=True):
    """Frames, queues, grid undo log and scratch for the chain finders. Nested chains run in
    workspaces of their own that share the outer one's ``counters`` (work done, budget); with
    ``memo`` a workspace remembers its nested chains' advanced implications (``memo``); with
    ``keep`` its multiple-chain searches keep their "on" chainings (``chains.frame_keep``);
    with ``reads`` its inner unary searches skip the chains that read nothing the outer chain
    changed (``nested.unary_all``)."""
    slots, words = (MEMO_SLOTS, MEMO_DATA) if memo else (0, 0)
    return (
        np.zeros((FRAMES, NP), dtype=np.int64),  # 0 mem: stamp when the potential is in the frame
        np.zeros((FRAMES, NP), dtype=np.int64),  # 1 parent start
        np.zeros((FRAMES, NP), dtype=np.int64),  # 2 parent count
        np.zeros((FRAMES, POOL), dtype=np.int64),  # 3 parent pool
        np.zeros((FRAMES, NP), dtype=np.int64),  # 4 cause
        np.zeros((FRAMES, NP), dtype=np.int64),  # 5 order: on list then off list (two halves)
        np.zeros((FRAMES, FS), dtype=np.int64),  # 6 frame scalars
        np.zeros(QUEUE, dtype=np.int64),  # 7 queue of on potentials
        np.zeros(QUEUE, dtype=np.int64),  # 8 queue of off potentials
        np.zeros((NP, 2), dtype=np.int64),  # 9 undo log (cell, value)
        np.zeros(81, dtype=np.int64),  # 10 source candidates
        np.zeros((27, 10), dtype=np.int64),  # 11 source positions
        np.zeros(NP, dtype=np.int64),  # 12 visit stamps (ancestor counts)
        np.zeros(8, dtype=np.int64) if counters is None else counters,  # 13 counters: visit stamp, work, budget, flags
        np.zeros(64, dtype=np.int64),  # 14 implication buffer: potentials
        np.zeros(64, dtype=np.int64),  # 15 implication buffer: causes
        np.zeros(64, dtype=np.int64),  # 16 implication buffer: hidden parents start
        np.zeros(64, dtype=np.int64),  # 17 implication buffer: hidden parents count
        np.zeros(512, dtype=np.int64),  # 18 implication buffer: hidden parents
        np.zeros(NP, dtype=np.int64),  # 19 BFS queue (ancestor counts)
        np.zeros((NP * 24, 3), dtype=np.int64),  # 20 cycle nodes (potential, parent node, depth)
        np.zeros(NP * 24, dtype=np.int64),  # 21 cycle queue
        np.zeros(NP, dtype=np.int64),  # 22 cycle: node of each on potential (stamped)
        np.zeros(NP, dtype=np.int64),  # 23 cycle: stamp
        np.zeros(NP, dtype=np.int64),  # 24 forcing chains: depth of each potential (its bit, ``distance``)
        np.zeros(ADV_MAX, dtype=np.int64),  # 25 advanced potentials (dynamic (+))
        np.zeros(ADV_MAX, dtype=np.int64),  # 26 ... their parents' start
        np.zeros(ADV_MAX, dtype=np.int64),  # 27 ... and count
        np.zeros(ADV_POOL, dtype=np.int64),  # 28 ... the parents
        np.zeros(2, dtype=np.int64),  # 29 ... counts
        np.zeros((12, 10, 2), dtype=np.uint64),  # 30 per-value "nothing" caches: the value's cells (``chains.X_CACHE`` ...)
        np.zeros((12, 10), dtype=np.int64),  # 31 ... 1 where that rule found nothing for them
        np.zeros((10, 2), dtype=np.uint64),  # 32 the values' cells now (``digit_masks``)
        np.zeros((FRAMES, NP), dtype=np.int64),  # 33 nested chains: complexity behind an advanced potential
        np.zeros((FRAMES, NP), dtype=np.uint64),  # 34 ... and its identity (a hash of the chain)
        np.zeros(ADV_MAX, dtype=np.int64),  # 35 advanced potentials: their nested chain's complexity
        np.zeros(ADV_MAX, dtype=np.uint64),  # 36 ... and identity
        np.zeros(NP * 24, dtype=np.int64),  # 37 cycle nodes: cause
        np.zeros((slots, 3), dtype=np.int64),  # 38 memo slots: generation, where, words
        np.zeros(words, dtype=np.int64),  # 39 memo entries, a ring
        np.zeros(4 + 81, dtype=np.int64),  # 40 memo state: generation, words written, hits, misses, values
        np.zeros((NP, 2), dtype=np.int64),  # 41 kept chainings: per potential, the search's generation and where
        np.zeros(KEPT_DATA if keep else 0, dtype=np.int64),  # 42 ... the frames, written one after the other (calloc'd)
        np.zeros(4, dtype=np.int64),  # 43 ... state: generation, words written, hits, misses
        np.zeros((5 if reads else 0, NP, 6), dtype=np.uint64),  # 44 inner unary chains: what each reads (``nested.unary_all``)
        np.zeros(82, dtype=np.int64),  # 45 ... 1 once made, and the candidates of the grid they were read in
    )


#: an inner search's hint list (nested chains, ``nested``): its sizes and slots
HL = 4096  #: hints an inner search may list
HL_REM = 16384
HL_PAR = 262144

# hint list slots
HL_D = 0
HL_I = 1  #: per hint: complexity, sort key, order found, 0
HL_RS = 2
HL_RN = 3
HL_REMS = 4
HL_PS = 5
HL_PN = 6
HL_PARS = 7
HL_HASH = 8
HL_COUNT = 9  #: hints, removals, parents, overflow
HL_SORTED = 10


def new_hints():
    """A list of an inner search's hints: ratings, removals (SE's order), rule parents."""
    return (
        np.zeros(HL, dtype=np.float64),
        np.zeros((HL, 4), dtype=np.int64),
        np.zeros(HL, dtype=np.int64),
        np.zeros(HL, dtype=np.int64),
        np.zeros(HL_REM, dtype=np.int64),
        np.zeros(HL, dtype=np.int64),
        np.zeros(HL, dtype=np.int64),
        np.zeros(HL_PAR, dtype=np.int64),
        np.zeros(HL, dtype=np.uint64),
        np.zeros(4, dtype=np.int64),
        np.zeros(HL, dtype=np.int64),
    )
