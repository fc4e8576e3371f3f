"""Solving, counting and proving uniqueness: validate once, run a kernel, wrap the result.

Every entry point accepts a :class:`Board` or anything :func:`as_board` reads (text in any
format, a list of lists, a numpy array) and returns a :class:`SolveResult`. A puzzle with no
solution, or with several, is a result, never an exception; only malformed input raises.
"""

from __future__ import annotations

import enum
import importlib
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from .board import Board, Conflict
from .kernels import protocol as P
from .shape import Shape

#: nodes are run in slices so that time limits and Ctrl-C are honoured between kernel calls;
#: slices adapt to aim at this many seconds each
SLICE_SECONDS = 0.05
#: the node count of the first slice, before the speed of this puzzle is known
FIRST_SLICE = 20_000
#: more nodes than any search will ever run: "no node limit"
UNLIMITED = 1 << 62


_kernels: dict[str, Any] = {}


def _kernel(name: str) -> Any:
    """The kernel module ``kernels.<name>``, imported on first use: numba loads only when a
    search runs, and a one-board call does not pay an import statement per kernel touched."""
    module = _kernels.get(name)
    if module is None:
        module = _kernels[name] = importlib.import_module(f".kernels.{name}", __package__)
    return module


class SolveStatus(str, enum.Enum):
    """The answer to the question asked."""

    #: a solution was found (and, where uniqueness was asked, proven the only one)
    SOLVED = "solved"
    #: the search space is exhausted without a solution
    NO_SOLUTION = "no solution"
    #: more than one solution (asked with ``limit >= 2``)
    SEVERAL = "several"
    #: a time or node budget ran out before the question was settled
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class SolveResult:
    """What a search found, and what it cost."""

    status: SolveStatus
    puzzle: Board
    board: Board | None  #: the first solution found, or None
    count: int  #: solutions found (exact when ``exhausted``, else a lower bound)
    exhausted: bool  #: the whole search space was explored
    limit: int  #: the search stopped at this many solutions
    nodes: int  #: propagations run: the root and every branch tried
    guesses: int  #: choice points: cells the search had to branch on
    elapsed: float  #: seconds spent in the search
    conflicts: tuple[Conflict, ...] = field(default=())  #: rule-breaking givens, if any

    @property
    def solved(self) -> bool:
        return self.status is SolveStatus.SOLVED

    @property
    def unique(self) -> bool | None:
        """True or False when known; None when the search stopped before it could tell."""
        if self.count >= 2:
            return False
        if self.exhausted:
            return self.count == 1
        return None

    def __bool__(self) -> bool:
        return self.solved

    def __repr__(self) -> str:
        solution = f", board={self.board.to_line()!r}" if self.board is not None else ""
        return (
            f"<SolveResult {self.status.value}: count={self.count}"
            f"{'' if self.exhausted else '+'} nodes={self.nodes} guesses={self.guesses}{solution}>"
        )


def as_board(puzzle: Any, shape: Shape | None = None) -> Board:
    """A :class:`Board` from a board, text in any format, rows of values or symbols, or an
    array; raises :class:`sudokit.FormatError` (a ``ValueError``) for anything else."""
    if isinstance(puzzle, Board):
        return puzzle
    if isinstance(puzzle, (str, bytes)):
        from .formats import parse_one

        text = puzzle.decode("utf-8", "surrogateescape") if isinstance(puzzle, bytes) else puzzle
        body = text.strip()
        if "\n" not in body and not body.startswith("["):
            return Board.from_line(body, shape=shape)  # one line can only be the line format
        return parse_one(text, shape=shape)
    if isinstance(puzzle, np.ndarray):
        return Board(puzzle, shape)
    if isinstance(puzzle, (list, tuple)) and puzzle and isinstance(puzzle[0], (list, tuple)):
        if any(isinstance(cell, str) for row in puzzle for cell in row):
            return Board.from_leetcode(puzzle, shape)
        return Board.from_rows(puzzle, shape)
    raise TypeError(f"cannot read a board from {type(puzzle).__name__}")


class Search:
    """One resumable search over one puzzle: the arrays a kernel works in, and the loop that
    runs it in slices. Subclasses bind a kernel (see ``protocol`` for the contract)."""

    board: Board
    ctl: np.ndarray
    out: np.ndarray
    #: nodes in the first slice of ``run``, before the speed of this puzzle is known
    first_slice: int = FIRST_SLICE

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
        return Board._trusted(self.out.copy(), self.board.shape, self.board.symbols)

    def step(self, limit: int, node_budget: int, record_at: int) -> int:
        """One kernel call, growing the stack as needed; returns DONE, LIMIT or BUDGET. The
        calls after a growth get what is left of ``node_budget``, not all of it again."""
        stop = self.nodes + node_budget
        while True:
            code = self._call(limit, max(stop - self.nodes, 0), record_at)
            if code != P.STACK_FULL:
                return int(code)
            self._grow()

    def run(
        self,
        limit: int,
        record_at: int = 1,
        time_limit: float | None = None,
        node_limit: int | None = None,
    ) -> int:
        """Call the kernel in slices until it returns DONE or LIMIT, or a budget runs out
        (then BUDGET). Slicing keeps Ctrl-C and time limits responsive."""
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        node_stop = UNLIMITED if node_limit is None else node_limit
        slice_nodes = self.first_slice
        while True:
            budget = min(slice_nodes, node_stop - self.nodes)
            if budget <= 0:
                return P.BUDGET
            before, began = self.nodes, time.perf_counter()
            code = self.step(limit, budget, record_at)
            if code != P.BUDGET:
                return code
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                return P.BUDGET
            spent = max(now - began, 1e-6)
            rate = (self.nodes - before) / spent
            slice_nodes = int(min(max(rate * SLICE_SECONDS, 100), 1 << 40))
            if deadline is not None:
                slice_nodes = int(max(100, min(slice_nodes, rate * (deadline - now))))


class GeneralSearch(Search):
    """The general kernel: any shape, one uint64 candidate mask per cell. ``options`` (from
    ``kernels.general.options_for``) overrides the rules and branching chosen for the shape.

    On boards of ``LEARN_FROM`` values and more, a search for one or two solutions where
    depth-first search has met ``DFS_FAILS`` dead ends starts again with the learning kernel
    (``kernels/learn.py``), which wins on hard puzzles and costs more on easy ones (an empty
    64x64 board takes thousands of depth-first nodes, but hardly a dead end). ``engine`` is
    ``"auto"`` (that), ``"dfs"`` or ``"learn"`` (one of them only)."""

    #: the smallest board size that may switch to the learning kernel
    LEARN_FROM = 25
    #: depth-first dead ends before the switch
    DFS_FAILS = 1000

    def __init__(self, board: Board, options: np.ndarray | None = None, engine: str = "auto") -> None:
        general = _kernel("general")

        if engine not in ("auto", "dfs", "learn"):
            raise ValueError(f"engine must be 'auto', 'dfs' or 'learn', not {engine!r}")
        shape = board.shape
        self.engine = engine
        self.learner = None  # the learning kernel's state, once it runs
        self.reported = False  # a solution went back to the caller: no switch after that
        if shape.size >= 25:
            self.first_slice = 2000  # big boards: nodes cost up to a millisecond
        self.board = board
        self.cells = shape.cells
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        self.houses = shape.houses
        self.cell_houses = shape.cell_houses
        self.full = np.uint64((1 << shape.size) - 1)
        # small boards get every level they could need at once; big boards start at about
        # 256 KiB and grow: zeroing 2 MiB up front cost 18 usec, a tenth of an easy 25x25 solve
        levels = min(self.cells + 1, max(16, (1 << 18) // (8 * self.cells)))
        self.stack = np.zeros((levels, self.cells), dtype=np.uint64)
        self.branch_cell = np.zeros(levels, dtype=np.int64)
        self.branch_rest = np.zeros(levels, dtype=np.uint64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(self.cells, dtype=np.uint8)
        self.queue = np.zeros(self.cells, dtype=np.int32)
        self.dirty = np.zeros(len(self.houses), dtype=np.uint8)
        self.options = general.options_for(shape) if options is None else options
        self.work, self.iwork = general.scratch(self.houses)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        general = _kernel("general")

        may_learn = self.learner is None and not self.reported and limit <= 2 and (
            self.engine == "learn"
            or (self.engine == "auto" and self.board.size >= self.LEARN_FROM)
        )
        dead_ends = self.nodes - self.guesses - 1  # nodes that did not branch, less a solution
        if may_learn and (self.engine == "learn" or dead_ends >= self.DFS_FAILS):
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

    def _start_learning(self) -> None:
        """Start over with the learning kernel: no solution went back yet, so counting again
        from zero loses nothing; nodes and guesses keep adding up."""
        _jit, learn = _kernel("_jit"), _kernel("learn")

        _jit.notify_compile(learn.search, what="the learning kernel")
        self.learner = learn.Learner(self.givens, self.houses, self.cell_houses, self.board.size)
        self.ctl[P.COUNT] = 0

    def _call_dfs(self, general, limit: int, node_budget: int, record_at: int) -> int:
        return general.search(
            self.givens,
            self.houses,
            self.cell_houses,
            self.full,
            self.stack,
            self.branch_cell,
            self.branch_rest,
            self.ctl,
            limit,
            node_budget,
            record_at,
            self.out,
            self.queue,
            self.dirty,
            self.options,
            self.work,
            self.iwork,
        )

    def _grow(self) -> None:
        if self.learner is not None:
            self.learner.grow()
            return
        self._double_levels("stack", "branch_cell", "branch_rest")


class ClassicSearch(Search):
    """The classic kernel: 9x9 with 3x3 boxes, candidates as band bitboards."""

    def __init__(self, board: Board) -> None:
        classic = _kernel("classic")

        self.board = board
        self.givens = np.ascontiguousarray(board.cells, dtype=np.uint8)
        self.stack = np.zeros(classic.LEVELS * classic.SLOTS, dtype=np.int32)
        self.branch_cell = np.zeros(classic.LEVELS, dtype=np.int64)
        self.branch_rest = np.zeros(classic.LEVELS, dtype=np.int64)
        self.ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
        self.ctl[P.DEPTH] = -1
        self.out = np.zeros(81, dtype=np.uint8)

    def _call(self, limit: int, node_budget: int, record_at: int) -> int:
        classic = _kernel("classic")

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

    def __init__(self, board: Board, branching: int | None = None, rules: int | None = None) -> None:
        hexa = _kernel("hexa")

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
        hexa = _kernel("hexa")

        return hexa.search(
            self.givens, self.stack, self.branch_cell, self.branch_rest, self.weight, self.rules,
            self.mode, self.ctl, limit, node_budget, record_at, self.out,
        )

    def _grow(self) -> None:
        self._double_arrays("stack", "branch_cell", "branch_rest")


#: False sends 9x9 and 16x16 boards to the general kernel too (tests compare them)
_USE_SHAPE_KERNELS = True


def _shape_kernel(shape: Shape) -> str | None:
    """The shape-specific kernel for ``shape`` ("classic" or "hexa"), or None for the
    general one."""
    if not _USE_SHAPE_KERNELS:
        return None
    if shape.box_height == 3 and shape.box_width == 3:
        return "classic"
    if shape.box_height == 4 and shape.box_width == 4:
        return "hexa"
    return None


def _search_for(board: Board) -> Search:
    _jit = _kernel("_jit")

    shape = board.shape
    special = _shape_kernel(shape)
    if special == "classic":
        classic = _kernel("classic")

        _jit.notify_compile(classic.search, what="the 9x9 search kernel")
        return ClassicSearch(board)
    if special == "hexa":
        hexa = _kernel("hexa")

        _jit.notify_compile(hexa.search, what="the 16x16 search kernel")
        return HexaSearch(board)
    general = _kernel("general")

    _jit.notify_compile(general.search)
    return GeneralSearch(board)


def _repeats_a_given(board: Board) -> bool:
    """Whether some house holds a value twice: compiled, since ``Board.status()`` (numpy, and
    it says where) costs more than solving an easy 16x16 board. The caller asks
    ``status()`` for the details when this says yes."""
    givens = _kernel("givens")

    shape = board.shape
    return givens.repeat_in(board.cells, shape.cell_houses, len(shape.houses))


def _result(
    board: Board, search: Search | None, code: int, limit: int, elapsed: float, conflicts=()
) -> SolveResult:
    count = search.count if search else 0
    exhausted = code == P.DONE
    if count >= 2:
        status = SolveStatus.SEVERAL
    elif count == 1:
        status = SolveStatus.SOLVED if (limit == 1 or exhausted) else SolveStatus.UNKNOWN
    else:
        status = SolveStatus.NO_SOLUTION if exhausted else SolveStatus.UNKNOWN
    # the fields set directly: a frozen dataclass's __init__ sets each through
    # object.__setattr__, a microsecond a result, an eighth of an easy 9x9 solve
    result = object.__new__(SolveResult)
    result.__dict__.update(
        status=status,
        puzzle=board,
        board=search.solution() if count else None,
        count=count,
        exhausted=exhausted,
        limit=limit,
        nodes=search.nodes if search else 0,
        guesses=search.guesses if search else 0,
        elapsed=elapsed,
        conflicts=tuple(conflicts),
    )
    return result


def count(
    puzzle: Any,
    limit: int = 2,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: Shape | None = None,
) -> SolveResult:
    """Search for up to ``limit`` solutions: 1 solves, 2 proves uniqueness, N counts to N.

    ``time_limit`` (seconds) and ``node_limit`` bound the search; when one runs out first the
    status is ``UNKNOWN`` and ``count`` is what was found so far.
    """
    if not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"limit must be a positive integer, not {limit!r}")
    board = as_board(puzzle, shape)
    start = time.perf_counter()
    if _repeats_a_given(board):
        return _result(board, None, P.DONE, int(limit), 0.0, board.status().conflicts)
    search = _search_for(board)
    code = search.run(int(limit), 1, time_limit, node_limit)
    return _result(board, search, code, int(limit), time.perf_counter() - start)


def solve(
    puzzle: Any,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: Shape | None = None,
) -> SolveResult:
    """Find one solution (``count(puzzle, limit=1)``)."""
    return count(puzzle, 1, time_limit=time_limit, node_limit=node_limit, shape=shape)


def is_unique(
    puzzle: Any,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: Shape | None = None,
) -> SolveResult:
    """Prove the puzzle has exactly one solution (``count(puzzle, limit=2)``).

    The result is truthy only when the solution is proven unique; ``result.unique`` is
    True, False, or None when a budget stopped the search first.
    """
    return count(puzzle, 2, time_limit=time_limit, node_limit=node_limit, shape=shape)


def solutions(puzzle: Any, limit: int | None = None, *, shape: Shape | None = None) -> Iterator[Board]:
    """Every solution, lazily, in the kernel's search order (at most ``limit`` of them).

    The search pauses after each solution and resumes when the next is asked for, so taking
    the first few solutions of a puzzle with millions costs only what those few cost.
    """
    board = as_board(puzzle, shape)
    if _repeats_a_given(board):
        return
    search = _search_for(board)
    while limit is None or search.count < limit:
        code = search.run(search.count + 1, record_at=search.count + 1)
        if code == P.LIMIT:
            yield search.solution()
        else:
            return
