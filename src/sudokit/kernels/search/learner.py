"""The Python side of the learning search (``learn``), in plain Python with numpy only: its
state arrays, the board tables it reads, and ``Learner``, which holds them and runs the search.
The Python layer makes them without loading numba where the kernels were compiled ahead of time
(``kernels/build/ahead.py``); the kernel that runs is ``learn``'s, passed in."""

from __future__ import annotations

import numpy as np

# st slots
S_QHEAD = 0  #: next trail entry to propagate
S_TRAIL = 1  #: trail size
S_LEVEL = 2  #: decision level
S_CLAUSES = 3  #: clauses in the pool, deleted ones included
S_LITS = 4  #: literals used in the pool
S_WATCHES = 5  #: watch nodes used
S_CONFLICTS = 7
S_RESTART_AT = 8  #: the conflict count of the next restart
S_RESTARTS = 9
S_MAX_LEARNT = 10  #: learnt clauses kept before the next reduction
S_LEARNT = 11  #: learnt clauses alive
S_HEAP = 12  #: variables in the heap
S_STARTED = 13  #: 1 once the givens are loaded
S_UNSAT = 14  #: 1 when the search space is exhausted
S_BLOCK = 15  #: 1 when a solution was reported and is still to be blocked
S_CONFLICT = 16  #: the conflict found by propagate (a reason code)
S_CONFLICT2 = 17  #: the second variable of a two-true conflict
S_SHRUNK = 18  #: literals that shrinking took out of learnt clauses
S_UNIT = 24  #: restart unit (conflicts); 0: ``learn.RESTART_UNIT``
S_KEEP = 25  #: learnt clauses kept at first; 0: ``learn.FIRST_MAX_LEARNT``
S_XTOP = 27  #: explanations in use (``xlits``)
S_GAC = 28  #: 1: the all-different filter runs after unit propagation
S_SIZE = 32

# fl slots
F_VAR_INC = 0
F_SIZE = 4

#: the state's arrays, in the order ``search`` takes them
STATE = ("assign", "level", "reason", "trail", "lim", "mask", "seen", "activity", "heap", "where", "stamp", "buffer",
         "start", "csize", "lbd", "flags", "lits", "whead", "wnext", "wclause", "hdirty", "xlits", "xlim", "st", "fl")


def new_state(cells: int, size: int, houses: np.ndarray) -> dict[str, np.ndarray]:
    """Fresh state arrays for a board of ``cells`` cells and ``size`` values."""
    variables = cells * size
    groups = cells + houses.shape[0] * size
    clause_cap = 1 << 12
    lit_cap = 1 << 18
    watch_cap = 2 * clause_cap
    return {
        "assign": np.zeros(variables, dtype=np.int8),
        "level": np.zeros(variables, dtype=np.int32),
        "reason": np.zeros(variables, dtype=np.int64),
        "trail": np.zeros(variables, dtype=np.int32),
        "lim": np.zeros(cells + 2, dtype=np.int32),
        "mask": np.zeros(groups, dtype=np.uint64),
        "seen": np.zeros(variables, dtype=np.int8),
        "activity": np.zeros(variables, dtype=np.float64),
        "heap": np.zeros(variables, dtype=np.int32),
        "where": np.full(variables, -1, dtype=np.int32),
        "stamp": np.zeros(cells + 2, dtype=np.int64),
        "buffer": np.zeros(variables + 1, dtype=np.int32),
        "start": np.zeros(clause_cap, dtype=np.int64),
        "csize": np.zeros(clause_cap, dtype=np.int32),
        "lbd": np.zeros(clause_cap, dtype=np.int32),
        "flags": np.zeros(clause_cap, dtype=np.int8),
        "lits": np.zeros(lit_cap, dtype=np.int32),
        "whead": np.full(2 * variables, -1, dtype=np.int32),
        "wnext": np.zeros(watch_cap, dtype=np.int32),
        "wclause": np.zeros(watch_cap, dtype=np.int64),
        "hdirty": np.ones(houses.shape[0], dtype=np.uint8),
        "xlits": np.zeros(1 << 16, dtype=np.int32),
        "xlim": np.zeros(cells + 2, dtype=np.int64),
        "st": np.zeros(S_SIZE, dtype=np.int64),
        "fl": np.zeros(F_SIZE, dtype=np.float64),
    }


def state_record(state: dict[str, np.ndarray] | None = None) -> tuple[np.ndarray, ...]:
    """The state's arrays as ``search`` takes them, in ``STATE``'s order (with none given, a
    one-cell board's: the build reads the record's types from it)."""
    if state is None:
        state = new_state(1, 1, np.zeros((1, 1), dtype=np.int32))
    return tuple(state[name] for name in STATE)


def grow(state: dict[str, np.ndarray]) -> None:
    """Double the clause pool, the literal pool and the watch nodes (after STACK_FULL)."""
    for names in (("start", "csize", "lbd", "flags"), ("lits",), ("wnext", "wclause"),
                  ("xlits",)):
        for name in names:
            old = state[name]
            new = np.zeros(2 * len(old), dtype=old.dtype)
            new[: len(old)] = old
            state[name] = new


def intersections(houses: np.ndarray, locked: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For locked candidates: ``other[h, e]``, the e-th house sharing two or more cells with
    house h (-1 padded); ``masks[h, e, 0]`` / ``masks[h, e, 1]``, the shared cells as
    positions in h / in the other house; ``at[h, j, t]``, the t-th e whose shared cells hold
    position j of h (-1 padded). ``locked=False`` gives empty tables (the rule is off)."""
    count, size = houses.shape
    sets = [set(map(int, row)) for row in houses]
    pairs: list[list[int]] = [[] for _ in range(count)]
    if locked:
        for h in range(count):
            for h2 in range(count):
                if h2 != h and len(sets[h] & sets[h2]) >= 2 and sets[h] != sets[h2]:
                    pairs[h].append(h2)
    span = max(1, max(len(p) for p in pairs))
    other = np.full((count, span), -1, dtype=np.int32)
    masks = np.zeros((count, span, 2), dtype=np.uint64)
    for h in range(count):
        for e, h2 in enumerate(pairs[h]):
            shared = sets[h] & sets[h2]
            other[h, e] = h2
            masks[h, e, 0] = sum(1 << j for j in range(size) if int(houses[h, j]) in shared)
            masks[h, e, 1] = sum(1 << j for j in range(size) if int(houses[h2, j]) in shared)
    lists = [[[e for e in range(len(pairs[h])) if (int(masks[h, e, 0]) >> j) & 1] for j in range(size)]
             for h in range(count)]
    depth = max(1, max(len(l) for row in lists for l in row))
    at = np.full((count, size, depth), -1, dtype=np.int32)
    for h in range(count):
        for j in range(size):
            at[h, j, : len(lists[h][j])] = lists[h][j]
    return other, masks, at


def cell_positions(houses: np.ndarray, cell_houses: np.ndarray) -> np.ndarray:
    """``pos[c, k]``: where cell c sits in its k-th house (-1 past the last house)."""
    pos = np.full(cell_houses.shape, -1, dtype=np.int32)
    for cell in range(cell_houses.shape[0]):
        for k, house in enumerate(cell_houses[cell]):
            if house >= 0:
                pos[cell, k] = int(np.nonzero(houses[house] == cell)[0][0])
    return pos


class Learner:
    """The arrays of one learning search over one board, and the call that runs it (the
    Python side of ``search``; ``solve.GeneralSearch`` drives it under ``protocol``).
    ``kernels``: ``learn`` or what the build compiled of it (its ``search``)."""

    def __init__(self, kernels, givens: np.ndarray, houses: np.ndarray, cell_houses: np.ndarray,
                 size: int, locked: bool = False, alldiff: bool = False,
                 marks: np.ndarray | None = None) -> None:
        self.search = kernels.search
        self.givens = givens
        self.marks = np.full(len(givens), (1 << size) - 1, dtype=np.uint64) if marks is None else marks
        self.houses = houses
        self.cell_houses = cell_houses
        self.pos = cell_positions(houses, cell_houses)
        self.ix_house, self.ix_mask, self.ix_at = intersections(houses, locked)
        self.state = new_state(len(givens), size, houses)
        self.state["st"][S_GAC] = 1 if alldiff else 0

    def call(self, ctl: np.ndarray, limit: int, node_budget: int, record_at: int,
             out: np.ndarray) -> int:
        board = (self.houses, self.cell_houses, self.pos, self.ix_house, self.ix_mask, self.ix_at)
        return self.search(self.givens, board, ctl, limit, node_budget, record_at, out, state_record(self.state),
                           self.marks)

    def grow(self) -> None:
        grow(self.state)
