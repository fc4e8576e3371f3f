"""Engines: the one place that picks a compiled kernel for a board and a question, and runs it.

Every other module asks here. For one board (:func:`search_for`): the classic kernel for 9x9
boards with 3x3 boxes, the 16x16 kernel for 4x4 boxes, the general kernel for every other
shape and for every variant (jigsaw regions, extra houses, killer cages, pencil marks: the
shape kernels know only rows, columns and boxes), which hands hard plain boards of 25x25 and
up to the learning kernel; for optimisation
(:class:`OptimizeSearch`) the branch and bound kernel; for a whole array of boards
(:func:`solve_arrays`) the batch loop of the same kernel a single board would get, so a batch
and a single search walk the same tree.

A :class:`Search` owns the arrays of one resumable search (``kernels/search/protocol.py``) and runs it
in slices under :class:`sudokit.results.Limits`, so that time limits and Ctrl-C are honoured
between kernel calls. Kernel modules load on first use: importing numba and the compiled
kernels is most of a cold start, and ``sudokit --help`` or a parse error should not pay it.
"""

from __future__ import annotations

import functools
import importlib
import os
import time
from types import SimpleNamespace
from typing import Any

import numpy as np

from . import warming
from .board import Board
from .kernels.search import protocol as P
from .results import UNLIMITED, Budget, Limits
from .shape import Shape
from .variants import plain_variant, variant_of

#: nodes are run in slices so that time limits and Ctrl-C are honoured between kernel calls;
#: slices adapt to aim at this many seconds each
SLICE_SECONDS = 0.05
#: the node count of the first slice, before the speed of this puzzle is known
FIRST_SLICE = 20_000
#: the branch and bound's first slice in cell-values read per node (cells x size): about 4,000
#: nodes on 9x9, 11 on 64x64
OPTIMIZE_FIRST_WORK = 3_000_000

_kernels: dict[str, Any] = {}


def _kernel(name: str) -> Any:
    """The kernel module ``kernels.<name>``, imported on first use (start-up cost: numba loads
    only when a search runs; one dictionary lookup afterwards). For the modules the build
    compiles ahead of time (``kernels/build/ahead.py``'s ``UNITS``), their functions compiled
    for this CPU and these sources where the build made them: numba is then not imported at all."""
    module = _kernels.get(name)
    if module is None:
        if name != "build.ahead":
            module = _kernel("build.ahead").load(name)
        if module is None:
            module = importlib.import_module(f".kernels.{name}", __package__)
        _kernels[name] = module
    return module


def _notify(*dispatchers: Any, what: str, takes: str = "a few seconds") -> None:
    """Say on stderr, once, that a first run compiles ``what`` (never one compiled ahead)."""
    if any(hasattr(dispatcher, "py_func") for dispatcher in dispatchers):
        _kernel("build.jit").notify_compile(*dispatchers, what=what, takes=takes)


def compiles_on_first_call(dispatcher: Any) -> bool:
    """Whether calling a kernel now compiles it (never one compiled ahead of time)."""
    return hasattr(dispatcher, "py_func") and bool(_kernel("build.jit").will_compile(dispatcher))


class Search:
    """One resumable search over one puzzle: the arrays a kernel works in, and the loop that
    runs it in slices. Subclasses bind a kernel (see ``protocol`` for the contract)."""

    board: Board
    cells: int
    ctl: np.ndarray
    out: np.ndarray
    deadline: float | None = None  #: the running ``run``'s, on ``time.perf_counter``'s clock
    #: nodes in the first slice of ``run``, before the speed of this puzzle is known
    first_slice: int = FIRST_SLICE
    #: the kernel module it calls, a family of ``warming``: a first call with a time limit
    #: waits for its compile only until then
    family: str = ""

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        """One kernel call; returns the protocol code (STACK_FULL included)."""
        raise NotImplementedError

    def _grow(self) -> None:
        """Make room for a deeper stack after STACK_FULL."""
        raise NotImplementedError

    def _double_levels(self, *names: str) -> None:
        """Double the level arrays ``names`` (one row per search level), keeping their rows;
        never past one level per cell, the deepest any search goes."""
        levels = min(self.cells + 1, 2 * len(getattr(self, names[0])))
        for name in names:
            old = getattr(self, name)
            new = np.zeros((levels,) + old.shape[1:], dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def _double_arrays(self, *names: str) -> None:
        """Double the flat stack arrays ``names`` (levels of a fixed width back to back),
        keeping their contents: the shape kernels' growth after STACK_FULL."""
        for name in names:
            old = getattr(self, name)
            setattr(self, name, np.concatenate([old, np.zeros_like(old)]))

    @property
    def nodes(self) -> int:
        return int(self.ctl[P.NODES])

    @property
    def guesses(self) -> int:
        return int(self.ctl[P.GUESSES])

    @property
    def count(self) -> int:
        return int(self.ctl[P.COUNT])

    def solution(self) -> Board:
        return self.board._solution(self.out.copy())

    def step(self, limit: int, node_budget: int, record_at: int) -> int:
        """One kernel call, growing the stack as needed; returns DONE, LIMIT or BUDGET. The
        calls after a growth get what is left of ``node_budget``, not all of it again."""
        stop = self.nodes + node_budget
        while True:
            code = self._call(limit, max(stop - self.nodes, 0), record_at)
            if code != P.STACK_FULL:
                return int(code)
            self._grow()

    def run(self, limits: Limits, record_at: int = 1) -> int:
        """Call the kernel in slices until it returns DONE or LIMIT, or a budget of ``limits``
        runs out (then BUDGET). Slicing keeps Ctrl-C and time limits responsive."""
        least = min(100, self.first_slice)  # no later slice forced past a first one's work
        budget = Budget(limits.nodes - self.nodes, limits.time_limit, self.first_slice, SLICE_SECONDS, least)
        self.deadline = budget.deadline
        if budget.deadline is not None and not warming.ready(self.family, budget.deadline):
            return P.BUDGET
        limit = int(limits.limit)
        while True:
            nodes = budget.next_call()
            if not nodes:
                return P.BUDGET
            before, began = self.nodes, time.perf_counter()
            code = self.step(limit, nodes, record_at)
            if code != P.BUDGET:  # most searches end in their first call: no account to keep
                return code
            budget.record(self.nodes - before, time.perf_counter() - began)
            if budget.out_of_time:
                return code


class GeneralSearch(Search):
    """The general kernel: any shape, one uint64 candidate mask per cell. ``options`` (from
    ``kernels.search.general.options_for``) overrides the rules and branching chosen for the shape.

    On boards of ``LEARN_FROM`` values and more, a search for one or two solutions where
    depth-first search has met ``DFS_FAILS`` dead ends starts again with the learning kernel
    (``kernels/search/learn.py``), which wins on hard puzzles and costs more on easy ones (an empty
    64x64 board takes thousands of depth-first nodes, but hardly a dead end). ``engine`` is
    ``"auto"`` (that), ``"dfs"`` or ``"learn"`` (one of them only)."""

    family = "search.general"
    #: the smallest board size that may switch to the learning kernel
    LEARN_FROM = 25
    #: depth-first dead ends before the switch
    DFS_FAILS = 1000
    #: the first slice on those boards, whose nodes cost up to a millisecond
    BIG_FIRST_SLICE = 2000
    #: dead ends of a killer before the rule of 45 reaches runs of rows and columns
    LIGHT_FAILS = 50

    def __init__(self, board: Board, options: np.ndarray | None = None, engine: str = "auto") -> None:
        general = _kernel("search.general")

        if engine not in ("auto", "dfs", "learn"):
            raise ValueError(f"engine must be 'auto', 'dfs' or 'learn', not {engine!r}")
        shape = board.shape
        self.engine = engine
        self.learner = None  # the learning kernel's state, once it runs
        self.reported = False  # a solution went back to the caller: no switch after that
        if shape.size >= self.LEARN_FROM:
            self.first_slice = self.BIG_FIRST_SLICE
        self.board = board
        self.cells = shape.cells
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        # a killer starts with the rule of 45 over single houses only: most need no more, and
        # the sums over runs of rows and columns cost as much as an easy killer's search
        self.light = bool(board.cages)
        geometry, self.variant = variant_of(board, runs=not self.light)
        self.houses = geometry.houses
        self.cell_houses = geometry.cell_houses
        self.full = np.uint64((1 << shape.size) - 1)
        # small boards get every level they could need at once; big boards start at about
        # 256 KiB and grow: zeroing 2 MiB up front cost 18 usec, a tenth of an easy 25x25 solve
        levels = min(self.cells + 1, max(16, (1 << 18) // (8 * self.cells)))
        # a level: its candidates, then what each cage held when last filtered
        self.stack = np.zeros((levels, self.cells + len(self.variant[1])), dtype=np.uint64)
        self.branch_cell = np.zeros(levels, dtype=np.int64)
        self.branch_rest = np.zeros(levels, dtype=np.uint64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(self.cells, dtype=np.uint8)
        self.queue = np.zeros(self.cells, dtype=np.int32)
        self.dirty = np.zeros(len(self.houses), dtype=np.uint8)
        self.options = general.options_for(geometry, variant=not board.plain) if options is None else options
        self.work, self.iwork = general.scratch(self.houses)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        general = _kernel("search.general")

        # the learning kernel knows houses and starting candidates, not cages; a variant
        # (hard pencil marks) may need it on any size
        may_learn = self.learner is None and not self.reported and limit <= 2 and not self.board.cages and (
            self.engine == "learn"
            or (self.engine == "auto" and (self.board.size >= self.LEARN_FROM or not self.board.plain))
        )
        dead_ends = self.nodes - self.guesses - 1  # nodes that did not branch, less a solution
        if self.light and not self.reported:
            if dead_ends >= self.LIGHT_FAILS:
                self._all_sums()
            else:
                node_budget = min(node_budget, self.LIGHT_FAILS)  # look again soon
        if may_learn and (self.engine == "learn" or dead_ends >= self.DFS_FAILS) and self._learner_ready():
            self._start_learning()
        elif may_learn:
            node_budget = min(node_budget, self.DFS_FAILS)  # look again soon
        if self.learner is not None:
            code = self.learner.call(self.ctl, limit, node_budget, record_at, self.out)
        else:
            code = self._call_dfs(general, limit, node_budget, record_at)
        if code == P.LIMIT:
            self.reported = True
        return code

    def _all_sums(self) -> None:
        """Start over with the rule of 45 over runs of rows and columns as well: no solution
        went back yet, so counting again from zero loses nothing; nodes and guesses keep adding
        up."""
        self.light = False
        geometry, self.variant = variant_of(self.board, runs=True)
        self.houses = geometry.houses
        self.cell_houses = geometry.cell_houses
        self.stack = np.zeros((len(self.stack), self.cells + len(self.variant[1])), dtype=np.uint64)
        self.dirty = np.zeros(len(self.houses), dtype=np.uint8)
        self.work, self.iwork = _kernel("search.general").scratch(self.houses)
        self.ctl[P.DEPTH] = -1
        self.ctl[P.COUNT] = 0

    def _learner_ready(self) -> bool:
        """Whether to switch now: with a deadline, "auto" searches depth-first on while the
        learning kernel first compiles on a thread (a switch would wait for it past the deadline)."""
        if self.deadline is None or self.engine == "learn":
            return True
        return warming.ready("search.learn", time.perf_counter(), quiet=True)

    def _start_learning(self) -> None:
        """Start over with the learning kernel: no solution went back yet, so counting again
        from zero loses nothing; nodes and guesses keep adding up."""
        learn = _kernel("search.learn")

        _notify(learn.search, what="the learning kernel")
        # the kernel's own filters cut the heavy tail of small variants (pencil marks, empty
        # jigsaws) and cost more than they save from 16x16 on (benchmarks/README.md)
        small = self.board.size < 16 and not self.board.plain
        self.learner = learn.Learner(
            self.givens, self.houses, self.cell_houses, self.board.size, locked=small, alldiff=small,
            marks=self.variant[0],
        )
        self.ctl[P.COUNT] = 0

    def _call_dfs(self, general, limit: int, node_budget: int, record_at: int) -> int:
        return general.search(
            self.givens, (self.houses, self.cell_houses, self.full),
            (self.stack, self.branch_cell, self.branch_rest, self.queue, self.dirty, self.work, self.iwork),
            self.ctl, limit, node_budget, record_at, self.out, self.options, self.variant,
        )  # fmt: skip

    def _grow(self) -> None:
        if self.learner is not None:
            self.learner.grow()
            return
        self._double_levels("stack", "branch_cell", "branch_rest")


class ClassicSearch(Search):
    """The classic kernel: 9x9 with 3x3 boxes, candidates as band bitboards."""

    family = "search.classic"

    def __init__(self, board: Board) -> None:
        classic = _kernel("search.classic")

        self.board = board
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        self.stack = np.zeros(classic.LEVELS * classic.SLOTS, dtype=np.int32)
        self.branch_cell = np.zeros(classic.LEVELS, dtype=np.int64)
        self.branch_rest = np.zeros(classic.LEVELS, dtype=np.int64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(81, dtype=np.uint8)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        classic = _kernel("search.classic")

        return classic.search(
            self.givens, self.stack, self.branch_cell, self.branch_rest, self.ctl,
            limit, node_budget, record_at, self.out,
        )

    def _grow(self) -> None:
        self._double_arrays("stack", "branch_cell", "branch_rest")


class HexaSearch(Search):
    """The 16x16 kernel: 4x4 boxes, candidates as per-value band bitboards. ``branching``
    (``hexa.WDEG`` or ``hexa.CELL``) and ``rules`` (0 or ``hexa.LOCKED``) default to the
    kernel's ``DEFAULT_BRANCHING`` and ``DEFAULT_RULES``; with ``CELL`` and the general
    kernel's rules it walks the general kernel's very search tree."""

    family = "search.hexa"

    def __init__(self, board: Board, branching: int | None = None, rules: int | None = None) -> None:
        hexa = _kernel("search.hexa")

        self.board = board
        self.cells = hexa.CELLS
        self.mode = hexa.DEFAULT_BRANCHING if branching is None else branching
        self.rules = hexa.DEFAULT_RULES if rules is None else rules
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        self.stack = np.zeros(hexa.LEVELS * hexa.SLOTS, dtype=np.uint64)
        self.branch_cell = np.zeros(hexa.LEVELS, dtype=np.int64)
        self.branch_rest = np.zeros(hexa.LEVELS, dtype=np.int64)
        self.weight = np.zeros(hexa.CELLS, dtype=np.int64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(hexa.CELLS, dtype=np.uint8)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        hexa = _kernel("search.hexa")

        return hexa.search(
            self.givens, (self.stack, self.branch_cell, self.branch_rest, self.weight), self.rules, self.mode, self.ctl,
            limit, node_budget, record_at, self.out,
        )

    def _grow(self) -> None:
        self._double_arrays("stack", "branch_cell", "branch_rest")


class OptimizeSearch(Search):
    """The branch-and-bound kernel over one board and one weight vector (maximising)."""

    family = "search.optimize"

    def __init__(self, board: Board, weights: np.ndarray, sweeps: int | None = None) -> None:
        K = _kernel("search.optimize")

        shape = board.shape
        n, cells = shape.size, shape.cells
        self.board = board
        self.cells = cells
        # a node's bound reads every value of every house, so its cost grows with cells x size:
        # the first slice is sized to the same work (about 50 ms) on every size
        self.first_slice = max(10, OPTIMIZE_FIRST_WORK // (cells * n))
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        geometry, self.variant = variant_of(board)
        self.houses = geometry.houses
        self.cell_houses = geometry.cell_houses
        self.weights = np.ascontiguousarray(weights.reshape(-1), dtype=np.int64)
        # each house's cells in increasing weight, for the assignment bound
        order = np.argsort(self.weights[self.houses], axis=1, kind="stable")
        self.by_weight = np.ascontiguousarray(np.take_along_axis(self.houses, order, axis=1), dtype=np.int32)
        self.full = np.uint64((1 << n) - 1)
        levels = min(cells + 1, max(16, (1 << 21) // (8 * cells)))
        self.stack = np.zeros((levels, cells + len(self.variant[1])), dtype=np.uint64)
        self.branch_cell = np.zeros(levels, dtype=np.int64)
        self.branch_rest = np.zeros(levels, dtype=np.uint64)
        self.level_bound = np.zeros(levels, dtype=np.int64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(cells, dtype=np.uint8)
        self.queue = np.zeros(cells, dtype=np.int32)
        self.dirty = np.zeros(len(self.houses), dtype=np.uint8)
        self.lam = np.zeros((len(self.houses), n), dtype=np.int64)
        self.red = np.zeros((cells, n), dtype=np.int64)
        self.top1 = np.zeros(cells, dtype=np.int64)
        self.top1v = np.zeros(cells, dtype=np.int64)
        self.top2 = np.zeros(cells, dtype=np.int64)
        self.sweeps = K.SWEEPS if sweeps is None else int(sweeps)
        self.stats = np.zeros(K.STATS_SIZE, dtype=np.int64)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        K = _kernel("search.optimize")

        state = (self.stack, self.branch_cell, self.branch_rest, self.level_bound, self.queue, self.dirty, self.lam,
                 self.red, self.top1, self.top1v, self.top2, self.stats)
        return K.search(
            self.givens, (self.houses, self.cell_houses, self.full), (self.by_weight, self.weights), state, self.ctl,
            limit, node_budget, self.out, self.sweeps, self.variant,
        )  # fmt: skip

    def _grow(self) -> None:
        self._double_levels("stack", "branch_cell", "branch_rest", "level_bound")

    @property
    def found(self) -> bool:
        return bool(self.ctl[_kernel("search.optimize").FOUND])

    @property
    def best(self) -> int:
        return int(self.ctl[_kernel("search.optimize").BEST])

    def open_bound(self) -> int | None:
        """A proven upper bound on the optimum while the search is paused: the best of the
        incumbent and the bounds of the levels that still have work left. None before the
        root's bound is known."""
        depth, phase = int(self.ctl[P.DEPTH]), int(self.ctl[P.PHASE])
        bounds = [int(self.level_bound[d]) for d in range(depth) if self.branch_rest[d]]
        if phase == P.NEXT_BRANCH:
            bounds.append(int(self.level_bound[depth]))
        elif phase == P.PROPAGATE:
            if depth == 0:
                return None  # the root is still to be bounded
            bounds.append(int(self.level_bound[depth - 1]))
        if self.found:
            bounds.append(self.best)
        return max(bounds) if bounds else None


# -- choosing a kernel -----------------------------------------------------------------------

#: False sends 9x9 and 16x16 boards to the general kernel too (tests compare them)
USE_SHAPE_KERNELS = True


def shape_kernel(shape: Shape) -> str | None:
    """The shape-specific kernel for ``shape`` (``"classic"`` or ``"hexa"``), or None for the
    general one."""
    if not USE_SHAPE_KERNELS:
        return None
    if shape.box_height == 3 and shape.box_width == 3:
        return "classic"
    if shape.box_height == 4 and shape.box_width == 4:
        return "hexa"
    return None


def kernel_for(board: Board) -> str | None:
    """The shape kernel ``board`` gets (``"classic"``, ``"hexa"``), or None for the general
    one: a variant always goes to the general kernel, which reads its houses, cages and
    candidates from tables (a jigsaw 9x9 has 3x3 boxes' shape but not its boxes)."""
    return shape_kernel(board.shape) if board.plain else None


def search_for(board: Board) -> Search:
    """A fresh search of ``board`` on the kernel its shape and rules get."""
    special = kernel_for(board)
    if special == "classic":
        _notify(_kernel("search.classic").search, what="the 9x9 search kernel")
        return ClassicSearch(board)
    if special == "hexa":
        _notify(_kernel("search.hexa").search, what="the 16x16 search kernel")
        return HexaSearch(board)
    _notify(_kernel("search.general").search, what="the search kernel")
    return GeneralSearch(board)


def optimize_search(board: Board, weights: np.ndarray, sweeps: int | None = None) -> OptimizeSearch:
    """A fresh branch and bound search of ``board`` maximising ``weights`` (flat, int64)."""
    _notify(_kernel("search.optimize").search, what="the optimisation kernel")
    return OptimizeSearch(board, weights, sweeps)


def repeats_a_given(board: Board) -> bool:
    """Whether some house (or cage) holds a value twice: compiled, since ``Board.status()``
    (numpy, and it says where) costs more than solving an easy 16x16 board. Callers ask
    ``status()`` for the details when this says yes."""
    if board.cages:
        values = board.cells.tolist()
        for cage in board.cages:
            seen = 0
            for cell in cage.cells:
                bit = 1 << values[cell] >> 1  # value v: bit v - 1; empty: none
                if seen & bit:
                    return True
                seen |= bit
    geometry = board.geometry
    return _kernel("search.givens").repeat_in(board.cells, _houses_of(geometry), len(geometry.houses))


def _houses_of(geometry: Any) -> np.ndarray:
    """The cells' houses as the kernels take them (a compiled-ahead kernel reads the bytes
    it is given as the types it was compiled for)."""
    return np.ascontiguousarray(geometry.cell_houses, dtype=np.int32)


def repeats(values: np.ndarray, shape: Shape, rules: Board | None = None) -> np.ndarray:
    """For each board of ``values`` (``(N, cells)``), whether its givens repeat in a house
    (of ``rules``' geometry where given; a repeat in a cage the search finds)."""
    found = np.zeros(len(values), dtype=np.bool_)
    if len(values) and rules is None and shape_kernel(shape) == "classic":
        # a few vector operations a board against the general loop's 243 house lookups
        _kernel("search.classic").repeats(np.ascontiguousarray(values, dtype=np.uint8), found)
    elif len(values):
        geometry = shape.geometry if rules is None else rules.geometry
        seen = np.zeros(len(geometry.houses), dtype=np.uint64)
        _kernel("search.givens").repeats(np.ascontiguousarray(values, dtype=np.uint8), _houses_of(geometry), seen, found)
    return found


# -- many boards at once ---------------------------------------------------------------------


def solve_arrays(
    values: np.ndarray,
    shape: Shape,
    limits: Limits,
    skip: np.ndarray,
    rules: Board | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Search every row of ``values`` (``(N, cells)`` uint8) but those ``skip`` marks, in the
    batch loop of the kernel a single board of ``shape`` gets. Returns ``(solutions, counts,
    nodes, guesses, exhausted)``; skipped rows stay zero. ``rules``, a board whose houses,
    cages and candidates every row shares (its own values aside), sends them all to the
    general kernel with those rules.

    With a time limit, a batch loop (which has no clock) first gives each board the nodes of
    one slice; the few boards that need more are searched again one by one under the clock,
    on the same kernel, so they walk the same tree and report what an uncut search reports."""
    count = len(values)
    solutions = np.zeros((count, shape.cells), dtype=np.uint8)
    counts = np.zeros(count, dtype=np.int64)
    nodes = np.zeros(count, dtype=np.int64)
    guesses = np.zeros(count, dtype=np.int64)
    exhausted = np.zeros(count, dtype=bool)
    counts[skip] = -1  # the kernels skip these rows
    if not count:
        return solutions, counts, nodes, guesses, exhausted
    values = np.ascontiguousarray(values, dtype=np.uint8)
    limit = int(limits.limit)
    node_limit = limits.nodes
    sliced = limits.time_limit is not None and node_limit > _first_slice(shape)
    if sliced:
        node_limit = _first_slice(shape)
    template = None if rules is None or rules.plain else rules
    special = shape_kernel(shape) if template is None else None
    if special == "classic":
        classic = _kernel("search.classic")
        _notify(classic.solve_many, what="the 9x9 batch kernel")
        classic.solve_many(values, limit, node_limit, solutions, counts, nodes, guesses, exhausted)
    elif special == "hexa":
        hexa = _kernel("search.hexa")
        _notify(hexa.solve_many, what="the 16x16 batch kernel")
        hexa.solve_many(
            values, hexa.DEFAULT_RULES, hexa.DEFAULT_BRANCHING, limit, node_limit,
            solutions, counts, nodes, guesses, exhausted,
        )  # fmt: skip
    else:
        general_batch = _kernel("search.general_batch")
        if template is None:
            geometry, variant = shape.geometry, plain_variant(shape.cells, shape.size)
        else:
            geometry, variant = variant_of(template)
        _notify(general_batch.solve_many, what="the general batch kernel")
        general_batch.solve_many(
            values, (geometry.houses, geometry.cell_houses, np.uint64((1 << shape.size) - 1)), limit, node_limit,
            (solutions, counts, nodes, guesses, exhausted), variant, template is not None,
        )  # fmt: skip
    if sliced:
        cut = np.flatnonzero(~exhausted & (counts >= 0) & (counts < limit) & (nodes >= node_limit))
        for k in cut.tolist():
            board = Board(values[k], shape)
            if template is not None:
                board = Board(
                    values[k], shape, template.symbols, geometry=template.geometry, cages=template.cages,
                    candidates=template.candidates,
                )
            search = _batch_twin(board)
            code = search.run(limits)
            counts[k], nodes[k], guesses[k] = search.count, search.nodes, search.guesses
            exhausted[k] = code == P.DONE
            solutions[k] = search.out if search.count else 0
    counts[skip] = 0
    return solutions, counts, nodes, guesses, exhausted


def _first_slice(shape: Shape) -> int:
    """The nodes of a search's first slice on boards of ``shape`` (see ``Search.first_slice``)."""
    return GeneralSearch.BIG_FIRST_SLICE if shape.size >= GeneralSearch.LEARN_FROM else FIRST_SLICE


def _batch_twin(board: Board) -> Search:
    """The single-board search that walks the batch loop's tree for ``board``: the same
    kernel, and on the general kernel depth-first search only (the batch loop never learns)."""
    if kernel_for(board) is None:
        return GeneralSearch(board, engine="dfs")
    return search_for(board)


def cpus() -> int:
    """The CPUs this process may run on (what parallel work defaults to)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@functools.lru_cache(maxsize=None)
@functools.lru_cache(maxsize=None)
def logic_kernels() -> SimpleNamespace:
    """The human-style solver's kernels: ``core`` (the candidate grid's state and the step
    record) and ``solver`` (find a step of a technique, take the next step, rate)."""
    solver = _kernel("hodoku.solver")
    _notify(solver.rate_many, solver.next_step, solver.find, what="HoDoKu's technique kernels", takes="a few minutes")
    return SimpleNamespace(core=_kernel("hodoku.core"), solver=solver)


@functools.lru_cache(maxsize=None)
def se_kernels() -> SimpleNamespace:
    """Sudoku Explainer's rating kernels (9x9): ``core`` (the grid, the hint record and the
    chains' workspace) and ``rate`` (a step, the rating loop)."""
    rate = _kernel("se.rate")
    _notify(rate.rate, what="the Sudoku Explainer kernels", takes="one or two minutes")
    return SimpleNamespace(core=_kernel("se.core"), rate=rate)


def se_nested_kernel() -> Any:
    """Sudoku Explainer's nested forcing chains (``kernels/se/nested.py``), a unit apart from
    the other SE kernels (only puzzles rated 9.5 and more reach them); where they were not built
    ahead of time they compile in minutes, on first use."""
    nested = _kernel("se.nested")
    _notify(nested.nested_step, what="Sudoku Explainer's nested forcing chains", takes="several minutes")
    return nested


def canon_kernel() -> Any:
    """The canonical-form kernel (``kernels/search/canon.py``), loaded on first use."""
    canon = _kernel("search.canon")
    _notify(canon.minlex, what="the canonical-form kernel")
    return canon


def estimate_kernel() -> Any:
    """Knuth's estimator's random probes (``kernels/search/estimate.py``), loaded on first use."""
    estimate = _kernel("search.estimate")
    _notify(estimate.probes, what="the estimation kernel")
    return estimate


def generation_kernel(shape: Shape) -> tuple[Any, int]:
    """The generation kernels (``kernels/search/generate.py``) and the ``carve`` kind for ``shape``:
    the classic kernel proves uniqueness on 9x9 boards, the general kernel elsewhere."""
    generate = _kernel("search.generate")
    _notify(generate.carve, what="the generation kernels")
    kind = generate.CLASSIC if shape_kernel(shape) == "classic" else generate.GENERAL
    return generate, kind


def _empty(size: int) -> Board:
    return Board(np.zeros(size * size, dtype=np.uint8), Shape.for_size(size))


#: each search kernel's first compile (``warming``): a small search with no deadline
_FIRST_SEARCHES = {
    "search.classic": ("the 9x9 search kernel", lambda: ClassicSearch(_empty(9)).run(Limits(2, node_limit=10_000))),
    "search.hexa": ("the 16x16 search kernel", lambda: HexaSearch(_empty(16)).run(Limits(2, node_limit=10_000))),
    "search.general": ("the search kernel", lambda: GeneralSearch(_empty(4), engine="dfs").run(Limits(2, node_limit=10_000))),
    "search.learn": ("the learning kernel", lambda: GeneralSearch(_empty(25), engine="learn").run(Limits(1, node_limit=1_000))),
    "search.optimize": ("the optimisation kernel", lambda: optimize_search(
        _empty(4), np.ones(16, dtype=np.int64)).run(Limits(UNLIMITED, node_limit=10_000))),
}
for _name, (_what, _warm) in _FIRST_SEARCHES.items():
    warming.register(_name, _what, functools.partial(lambda name: compiles_on_first_call(_kernel(name).search), _name), _warm,
                     __name__)


def warm_up() -> list[str]:
    """Load (or compile, once) every kernel a run may need, and name them: the single-board
    searches of every kernel, the batch loops, the learning and the optimisation kernels."""
    warmed = []
    for size in (4, 9, 16, 25):
        board = _empty(size)
        search_for(board).run(Limits(2, node_limit=10_000))
        solve_arrays(board.cells[None, :], board.shape, Limits(1, node_limit=10_000), np.zeros(1, dtype=bool))
        warmed.append(f"{board.shape.name} ({shape_kernel(board.shape) or 'general'})")
    repeats(np.zeros((1, 81), dtype=np.uint8), Shape(3, 3))
    for name, label in (("search.learn", "learning"), ("search.optimize", "optimisation")):
        _FIRST_SEARCHES[name][1]()
        warmed.append(label)
    return warmed
