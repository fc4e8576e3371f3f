"""Sudoku Explainer's scale: ER, EP and ED, and the steps SE's policy takes (9x9 boards).

Sudoku Explainer (SE), and its maintained fork SukakuExplainer, rate a puzzle by solving it
with the easiest step available at each moment, each step rated by its technique (1.0 for a
full house up to 11 and more for nested forcing chains, a chain's length adding up to a few
tenths). ER is the hardest step of the path, EP the hardest up to the first placement, ED the
first step's rating: three numbers with one decimal, as SE prints them. The rules, their order
and their ratings are SukakuExplainer 1.18's defaults (``kernels/se/rate.py`` and the ``se_*``
kernels); a puzzle they cannot finish is SE's "beyond solver", 20.0.

Chains can take long on the hardest puzzles, so every call takes a budget (a
:class:`~sudokit.results.Limits`): ``time_limit`` (seconds) and ``potential_limit``
(potentials its chain searches may process; search nodes, ``node_limit``, play no part here).
A budget that runs out
gives status ``unknown``, with ``er`` the best lower bound found: the hardest step taken, or the
easiest rating the rule being searched could still give, whichever is higher.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from .. import engines, warming
from ..board import Board
from ..kernels.se import ids as T
from ..kernels.se import record as R
from ..kernels.se.record import W_BUDGET, W_OVER, W_RULE, W_WORK, WS_COUNTERS
from ..results import Budget, Limits, SolveStatus

#: SE's rating for a board it cannot finish ("beyond solver")
BEYOND = 20.0
#: work units of the first slice of a timed rating, before the speed is known
FIRST_SLICE = 200_000

_FIXED = {
    T.DIRECT_POINTING: "Direct Pointing",
    T.DIRECT_CLAIMING: "Direct Claiming",
    T.DIRECT_HIDDEN_PAIR: "Direct Hidden Pair",
    T.NAKED_SINGLE: "Naked Single",
    T.DIRECT_HIDDEN_TRIPLET: "Direct Hidden Triplet",
    T.POINTING: "Pointing",
    T.CLAIMING: "Claiming",
    T.NAKED_PAIR: "Naked Pair",
    T.X_WING: "X-Wing",
    T.HIDDEN_PAIR: "Hidden Pair",
    T.NAKED_TRIPLET: "Naked Triplet",
    T.SWORDFISH: "Swordfish",
    T.HIDDEN_TRIPLET: "Hidden Triplet",
    T.XY_WING: "XY-Wing",
    T.XYZ_WING: "XYZ-Wing",
    T.NAKED_QUAD: "Naked Quad",
    T.JELLYFISH: "Jellyfish",
    T.HIDDEN_QUAD: "Hidden Quad",
    T.WXYZ_WING: "WXYZ-Wing",
    T.VWXYZ_WING: "VWXYZ-Wing",
    T.UVWXYZ_WING: "UVWXYZ-Wing",
    T.TUVWXYZ_WING: "TUVWXYZ-Wing",
    T.ALIGNED_PAIR: "Aligned Pair Exclusion",
    T.ALIGNED_TRIPLE: "Aligned Triplet Exclusion",
    T.FORCING_X_CHAIN: "Forcing X-Chain",
    T.FORCING_CHAIN: "Forcing Chain",
    T.NISHIO: "Nishio Forcing Chains",
}
_CYCLES = {1: "Bidirectional X-Cycle", 2: "Bidirectional Y-Cycle", 3: "Bidirectional Cycle"}
#: a multiple chain's mode (the hint's SUB): its name's prefix and suffix
_MODES = {
    1: ("", ""),
    2: ("Dynamic ", ""),
    3: ("Dynamic ", " (+)"),
    4: ("Dynamic ", " (+ Forcing Chains)"),
    5: ("Dynamic ", " (+ Multiple Forcing Chains)"),
    6: ("Dynamic ", " (+ Dynamic Forcing Chains)"),
    7: ("Dynamic ", " (+ Dynamic Forcing Chains (+))"),
    8: ("Dynamic ", " (+ Dynamic Forcing Chains (+ Forcing Chains))"),
    9: ("Dynamic ", " (+ Dynamic Forcing Chains (+ Multiple Forcing Chains))"),
}
_MULTIPLE = {
    T.CELL_FORCING: "Cell Forcing Chains",
    T.REGION_FORCING: "Region Forcing Chains",
    T.CONTRADICTION_FORCING: "Contradiction Forcing Chains",
    T.DOUBLE_FORCING: "Double Forcing Chains",
}


def technique_name(kind: int, sub: int, hdr: np.ndarray, cells: int) -> str:
    """SE's name for a hint (``hdr`` is the kernel's hint header)."""
    if kind in _FIXED:
        return _FIXED[kind]
    if kind == T.HIDDEN_SINGLE:
        return "Full House" if sub == 0 else "Hidden Single"
    if kind == T.STRONG_LINKS:
        degree, grouped, ring, lines = (int(hdr[k]) for k in (R.SUB, R.GROUPED, R.RING, R.LINES))
        block, both = bool(lines & 1), (lines & 6) == 6
        if ring:
            return f"({degree} Strong Links) {'Grouped ' if grouped else ''}X-Loop"
        if not block and not both:
            name = "Skyscraper" if degree == 2 else f"{degree} Skyscrapers"
        elif not block:
            name = f"{degree}-String Kite"
        else:
            name = "Turbot Fish" if degree == 2 else f"{degree} Strong Links"
        return ("Grouped " if grouped else "") + name
    if kind == T.UNIQUE_LOOP:
        return f"{'Unique Rectangle' if cells == 4 else 'Unique Loop'} type {sub}"
    if kind == T.BUG:
        return f"BUG type {sub}"
    if kind == T.CYCLE:
        return _CYCLES.get(sub, "Bidirectional Cycle")
    if kind in _MULTIPLE:
        prefix, suffix = _MODES.get(sub, ("", ""))
        return prefix + _MULTIPLE[kind] + suffix
    return f"technique {kind}"


@dataclass(frozen=True)
class SEStep:
    """One step of SE's path: the technique, its rating and what it does."""

    name: str  #: the technique as SE names it (``Hidden Single``, ``Dynamic Forcing Chains (+)``)
    rating: float  #: SE's rating of the step (one decimal when printed)
    placements: tuple[tuple[int, int], ...]  #: (cell, value) placed
    eliminations: tuple[tuple[int, int], ...]  #: (cell, value) removed
    cells: tuple[int, ...]  #: the cells of its pattern
    complexity: int = 0  #: a chain's number of nodes (what its length penalty reads)

    @property
    def text(self) -> str:
        """``Forcing Chain (7.2): r6c5<>1``: name, rating, result."""
        parts = [f"r{c // 9 + 1}c{c % 9 + 1}={v}" for c, v in self.placements]
        removed: dict[int, list[int]] = {}
        for c, v in self.eliminations:
            if (c, v) not in self.placements:
                removed.setdefault(c, []).append(v)
        if not self.placements:
            parts += [f"r{c // 9 + 1}c{c % 9 + 1}<>{'/'.join(map(str, vs))}" for c, vs in removed.items()]
        return f"{self.name} ({self.rating:.1f}): {', '.join(parts)}"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class SEResult:
    """ER, EP and ED of one board, and how they were reached."""

    status: SolveStatus  #: SOLVED (rated), UNKNOWN (a budget stopped it; ``er`` is a lower bound)
    er: float  #: the hardest step of the path
    ep: float  #: the hardest step up to the first placement
    ed: float  #: the first step's rating
    steps: int  #: the steps taken
    solved: bool  #: SE's rules finished the board (else ER is 20.0, "beyond solver")
    work: int  #: potentials the chain searches processed
    elapsed: float


class _Engine:
    """The kernel arrays one thread rates with (reused from board to board); ``memo``: the
    nested chains remember their inner searches' answers for a step (``kernels/se/memo.py``);
    ``keep``: a multiple-chain search grows each "on" chaining once (``chains.frame_keep``);
    ``reads``: the nested chains' inner unary searches skip the chains that read nothing the
    outer chain changed (``nested.unary_all``). Each is off only to show it changes no step.
    ``kernels``: ``core`` and ``rate`` other than the served ones (the JIT's, in tests)."""

    def __init__(self, memo: bool = True, keep: bool = True, reads: bool = True,
                 kernels: SimpleNamespace | None = None) -> None:  # fmt: skip
        kernels = kernels or engines.se_kernels()
        self.k = kernels
        self.memo = memo
        self.keep = keep
        self.reads = reads
        self.g = kernels.core.new_grid()
        # the memo (nested rules only) and the kept chainings are calloc'd: untouched pages cost nothing
        self.ws = kernels.core.new_workspace(memo=memo, keep=keep)
        self.h = kernels.core.new_hint()
        self.scratch = kernels.core.new_hint()
        self.best = kernels.core.new_hint()
        self.nest: tuple | None = None  # the nested chains' kernel and arrays, when a puzzle needs them
        self.deadline: float | None = None  # the caller's, on perf_counter's clock
        self.res = np.zeros(kernels.rate.RES, dtype=np.int64)
        self.rates = np.zeros(3, dtype=np.float64)
        self.log = np.zeros((0, 4), dtype=np.int64)

    def load(self, board: Board) -> None:
        self.k.core.load(self.g, np.ascontiguousarray(board.cells, dtype=np.int64))
        self.deadline = None
        self.res[:] = 0
        self.rates[:] = 0.0
        self.ws[WS_COUNTERS][W_WORK:] = 0  # work counters; the visit stamp only grows
        # what the last boards' searches found nothing in, answered or read would spare work
        # that a budget counts: a budgeted rating must not depend on what was rated before it
        for ws in (self.ws, *(self.nest[1:3] if self.nest is not None else ())):
            ws[R.WS_NOTHING_FOUND][:] = 0
            ws[R.WS_MEMO_STATE][R.MEMO_VALUES:] = -1
            ws[R.WS_READS_KEY][0] = 0

    def budget(self, units: int | None) -> None:
        """Let the chain searches process ``units`` more potentials (None: no limit)."""
        counters = self.ws[WS_COUNTERS]
        counters[W_OVER] = 0
        counters[W_BUDGET] = 0 if units is None else counters[W_WORK] + max(1, units)

    @property
    def work(self) -> int:
        return int(self.ws[WS_COUNTERS][W_WORK])

    def run(self, max_steps: int) -> int:
        """Take steps as ``kernels.se.rate.rate`` does, the nested forcing chains where its rules
        are stuck; the status (``rate``'s codes)."""
        rate, res = self.k.rate, self.res
        while True:
            rate.rate(self.g, self.ws, self.h, self.scratch, self.best, res, self.rates, self.log, max_steps)
            if res[rate.R_STATUS] != rate.STUCK or res[rate.R_STEPS] >= max_steps:
                return int(res[rate.R_STATUS])
            rule = self._nested_step()
            res[rate.R_RULE] = self.ws[WS_COUNTERS][W_RULE]
            if rule < 0:
                res[rate.R_STATUS] = rate.BUDGET if rule == -2 else rate.STUCK
                return int(res[rate.R_STATUS])
            rate.book(self.g, self.h, res, self.rates, self.log, rule)
            res[rate.R_STATUS] = rate.RUNNING

    def _nested_step(self) -> int:
        if self.nest is None and not warming.ready("se.nested", self.deadline):
            return -2  # still compiling at the deadline: the budget ran out, as it would searching
        return self._nested_call()

    def _nested_call(self) -> int:
        if self.nest is None:
            counters = self.ws[WS_COUNTERS]  # shared: the inner searches' work counts against the budget
            kernel = engines.se_nested_kernel()
            self.nest = (kernel, self.k.core.new_workspace(counters, memo=self.memo, keep=self.keep, reads=self.reads),
                         self.k.core.new_workspace(counters, keep=self.keep, reads=self.reads),
                         kernel.new_hints(), kernel.new_hints())
        kernel, *arrays = self.nest
        return int(kernel.nested_step(self.g, self.ws, self.h, *arrays, self.k.rate.BASE_RULES))

    def step(self) -> int:
        """Find the next step (its hint in ``self.h``): the rule number, -1 none, -2 budget."""
        rule = int(self.k.rate.step(self.g, self.ws, self.h, self.scratch, self.best, 0))
        return self._nested_step() if rule == -1 else rule

    def hint_step(self) -> SEStep:
        hdr, diff, elim, cells = self.h
        kind, ne, pcell, pvalue, nc = (int(hdr[k]) for k in (R.KIND, R.NE, R.PCELL, R.PVALUE, R.NC))
        return SEStep(
            name=technique_name(kind, int(hdr[R.SUB]), hdr, nc),
            rating=_round(float(diff[0])),
            placements=((pcell, pvalue),) if pcell >= 0 else (),
            eliminations=tuple((int(c), int(v)) for c, v in elim[:ne].tolist()),
            cells=tuple(int(c) for c in cells[:nc]),
            complexity=int(hdr[R.CPLX]),
        )

    def apply(self) -> None:
        self.k.core.apply_hint(self.g, self.h)


_local = threading.local()


def _engine() -> _Engine:
    engine = getattr(_local, "engine", None)
    if engine is None:
        engine = _local.engine = _Engine()
    return engine


def supported(board: Board) -> bool:
    """SE rates classic 9x9 boards only: 3x3 boxes, givens, no variant's rules (no regions,
    extra houses, cages or pencil marks)."""
    return board.size == 9 and board.shape.box_height == 3 and board.plain


def _floor(rule: int) -> float:
    """The easiest rating a step found by rule ``rule`` or a later one can have."""
    floors = engines.se_kernels().rate.RULE_FLOORS
    return float(min(floors[max(rule, 0):])) if rule < len(floors) else float(floors[-1])


def _bounds(er: float, ep: float, ed: float, pearl: bool, steps: int) -> tuple[float, float]:
    """EP and ED where a budget stopped the path at a step rated at least ``er``: a value
    already fixed stays; EP before the first placement, and ED before the first step, are at
    least that step's bound too (EP is never below ED)."""
    return (ep if pearl else er), (ed if steps else er)


def _round(value: float) -> float:
    """SE prints a rating with one decimal, rounding half up."""
    return int((value + 0.05) * 10) / 10.0


def _compiling(start: float) -> SEResult:
    """A rating whose deadline came while SE's kernels first compiled: unknown, no step taken."""
    er = _floor(0)
    return SEResult(SolveStatus.UNKNOWN, _round(er), _round(er), _round(er), 0, False, 0, time.perf_counter() - start)


def _budget(limits: Limits | None) -> Budget:
    """The account of a rating's potentials: one call to the deadline where there is one (a cut
    step restarts, so no 50 ms slices), every potential left at once where there is none."""
    if limits is None:
        return Budget()
    return Budget(limits.potential_limit, limits.time_limit, first=FIRST_SLICE, cautious=True)


def rate_board(board: Board, limits: Limits | None = None) -> SEResult:
    """ER, EP and ED of a 9x9 board with one solution (the caller proves it), within the
    budget of ``limits`` (``time_limit``, ``potential_limit``)."""
    budget = _budget(limits)
    start = budget.started
    if not warming.ready("se", budget.deadline):
        return _compiling(start)
    engine = _engine()
    engine.load(board)
    engine.deadline = budget.deadline
    while True:
        before, began = engine.work, time.perf_counter()
        engine.budget(budget.next_call())
        status = engine.run(1 << 30)
        budget.record(engine.work - before, time.perf_counter() - began)
        if status != engine.k.rate.BUDGET or budget.exhausted or (budget.units is None and budget.deadline is None):
            break
    res, rates = engine.res, engine.rates
    steps = int(res[engine.k.rate.R_STEPS])
    er, ep, ed = (float(x) for x in rates)
    solved = status == engine.k.rate.SOLVED
    outcome = SolveStatus.SOLVED
    if status == engine.k.rate.BUDGET:
        outcome = SolveStatus.UNKNOWN
        er = max(er, _floor(int(engine.ws[WS_COUNTERS][W_RULE])))
        ep, ed = _bounds(er, ep, ed, bool(res[engine.k.rate.R_PEARL_SET]), steps)
    elif status == engine.k.rate.STUCK:
        er = BEYOND
    return SEResult(outcome, _round(er), _round(ep), _round(ed), steps, solved, engine.work, time.perf_counter() - start)


def explain_board(board: Board, limits: Limits | None = None) -> tuple[tuple[SEStep, ...], SEResult]:
    """Every step SE's policy takes on a 9x9 board with one solution, and the ratings."""
    budget = _budget(limits)
    start = budget.started
    if not warming.ready("se", budget.deadline):
        return (), _compiling(start)
    engine = _engine()
    engine.load(board)
    engine.deadline = budget.deadline
    steps: list[SEStep] = []
    er = ep = ed = 0.0
    pearl = False
    outcome, solved = SolveStatus.SOLVED, False
    while not engine.k.core.solved(engine.g):
        before, began = engine.work, time.perf_counter()
        engine.budget(budget.next_call())
        rule = engine.step()
        budget.record(engine.work - before, time.perf_counter() - began)
        if rule == -2:
            if not budget.exhausted:
                continue  # a first slice too small for this step: the same step, a longer one
            outcome = SolveStatus.UNKNOWN
            er = max(er, _floor(int(engine.ws[WS_COUNTERS][W_RULE])))
            ep, ed = _bounds(er, ep, ed, pearl, len(steps))
            break
        if rule < 0:
            er = BEYOND
            break
        step = engine.hint_step()
        steps.append(step)
        er = max(er, step.rating)
        if len(steps) == 1:
            ed = er
        if not pearl and step.placements:
            ep, pearl = er, True
        engine.apply()
    else:
        solved = True
    result = SEResult(outcome, _round(er), _round(ep), _round(ed), len(steps), solved, engine.work,
                      time.perf_counter() - start)
    return tuple(steps), result


def warm_nested() -> None:
    """Compile (or load) the nested chains' kernel now, as ``sudokit warmup`` does: one search
    on an empty board, stopped by a budget of one potential."""
    engine = _Engine()
    engine.load(Board(np.zeros(81, dtype=np.uint8)))
    engine.budget(1)
    engine._nested_call()


def warm() -> None:
    """Compile (or load) SE's kernels but the nested chains: a rating and an explanation of an
    easy board, with no deadline."""
    board = Board(np.array([int(c) for c in _EASY], dtype=np.uint8))
    rate_board(board)
    explain_board(board)


#: a puzzle that SE's singles solve
_EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"

# SE's kernels compile in a minute or two, the nested chains in minutes more, where no cache
# holds them: on a thread of their own, so that a rating with a time limit keeps it
warming.register("se", "the Sudoku Explainer kernels",
                 lambda: engines.compiles_on_first_call(engines.se_kernels().rate.rate), warm, __name__)
warming.register("se.nested", "Sudoku Explainer's nested forcing chains",
                 lambda: engines.compiles_on_first_call(engines.se_nested_kernel().nested_step), warm_nested,
                 __name__)


def kernels() -> SimpleNamespace:
    """The SE kernels (for warm-up)."""
    return engines.se_kernels()
