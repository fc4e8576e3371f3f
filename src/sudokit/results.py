"""What a question to sudokit can come back with, and what it costs to ask.

One module owns the vocabulary every caller shares, so that a status or an exit code is decided
in one place: the statuses (:class:`SolveStatus`, and ``error`` for a record that could not be
read), the budgets a search runs under (:class:`Limits`), the result objects (one board:
:class:`SolveResult`; a best completion: :class:`OptimumResult`; a batch of boards:
:class:`BatchResult`) and the exit status a run ends with (:class:`ExitCode`,
:class:`Tally`).
"""

from __future__ import annotations

import enum
import functools
import time
from dataclasses import dataclass, field
from typing import Literal, Mapping

import numpy as np

from .board import Board, Conflict
from .shape import Shape

#: more nodes than any search will ever run: "no node limit"
UNLIMITED = 1 << 62


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


#: every status a batch record can have, in the order summaries list them: a search's, then
#: ``error`` for a record the parser rejected
STATUSES: tuple[str, ...] = tuple(status.value for status in SolveStatus) + ("error",)
#: the code of each status in :data:`STATUSES` (batch columns hold these as int8)
SOLVED, NO_SOLUTION, SEVERAL, UNKNOWN, ERROR = range(len(STATUSES))
_BY_CODE = tuple(SolveStatus)


def status_of(count: int, exhausted: bool, limit: int, counting: bool = False) -> SolveStatus:
    """The status of one search that found ``count`` solutions when asked for ``limit``:
    several beats everything; one solution answers a search for one, and a search for more
    once the space is exhausted (else a budget stopped the proof); none answers only when the
    space is exhausted. ``counting``: the answer is the count itself, so a count that a
    budget stopped short of ``limit`` is unknown (a lower bound), not several."""
    if count >= 2:
        if counting and limit > 2 and not exhausted and count < limit:
            return SolveStatus.UNKNOWN
        return SolveStatus.SEVERAL
    if count == 1:
        return SolveStatus.SOLVED if (limit == 1 or exhausted) else SolveStatus.UNKNOWN
    return SolveStatus.NO_SOLUTION if exhausted else SolveStatus.UNKNOWN


def status_codes(counts: np.ndarray, exhausted: np.ndarray, limit: int, counting: bool = False) -> np.ndarray:
    """:func:`status_of` for whole arrays of searches, as int8 codes into :data:`STATUSES`."""
    out = np.full(len(counts), UNKNOWN, dtype=np.int8)
    several = counts >= 2
    if counting and limit > 2:
        several &= exhausted | (counts >= limit)
    out[several] = SEVERAL
    out[(counts == 1) & (exhausted | (limit == 1))] = SOLVED
    out[(counts == 0) & exhausted] = NO_SOLUTION
    return out


def status_name(code: int) -> str:
    """The status written for a code of :data:`STATUSES`."""
    return STATUSES[code]


# -- budgets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """What a question may spend, passed down unchanged from the CLI or the caller to the
    engines, each budget in its own unit.

    ``limit``: stop at this many solutions (1 solves, 2 proves uniqueness, N counts to N).
    ``time_limit``: seconds per board (checked between kernel slices of about 50 ms).
    ``node_limit``: search nodes per board (the backtracking searches: solving, counting,
    proving a puzzle unique).
    ``potential_limit``: potentials per board that Sudoku Explainer's chains may process (its
    rating and explanation; the hardest puzzles process billions).
    A question a budget stops is ``UNKNOWN``; :class:`Budget` keeps the account while it runs.
    """

    limit: int = 1
    time_limit: float | None = None
    node_limit: int | None = None
    potential_limit: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.limit, bool) or not isinstance(self.limit, (int, np.integer)) or self.limit < 1:
            raise ValueError(f"limit must be a positive integer, not {self.limit!r}")
        if self.time_limit is not None and (
            isinstance(self.time_limit, bool)
            or not isinstance(self.time_limit, (int, float, np.integer, np.floating))
            or not self.time_limit >= 0
        ):
            raise ValueError(f"time_limit must be a number of seconds, at least 0, not {self.time_limit!r}")
        for name in ("node_limit", "potential_limit"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1):
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
            # a count or a budget past 2**62 never ends a search: as good as none, and the
            # kernels' 64-bit counters could not hold it
            if value is not None and value > UNLIMITED:
                object.__setattr__(self, name, UNLIMITED)
        if self.limit > UNLIMITED:
            object.__setattr__(self, "limit", UNLIMITED)

    @property
    def nodes(self) -> int:
        """The node limit, :data:`UNLIMITED` where there is none (what kernels take)."""
        return UNLIMITED if self.node_limit is None else int(self.node_limit)

    @property
    def bounded(self) -> bool:
        """A time or node budget may stop the search."""
        return self.time_limit is not None or self.node_limit is not None

    def to_json(self) -> dict[str, float | int | None]:
        """The budgets as answers write them (``potential_limit`` where one was given)."""
        out: dict[str, float | int | None] = {"time_limit": self.time_limit, "node_limit": self.node_limit}
        if self.potential_limit is not None:
            out["potential_limit"] = self.potential_limit
        return out


def limits(
    limit: int = 1, time_limit: float | None = None, node_limit: int | None = None, potential_limit: int | None = None
) -> Limits:
    """:class:`Limits`, checked once per distinct value (a one-board call costs a few
    microseconds, so the common budgets are built once)."""
    try:
        return _cached_limits(limit, time_limit, node_limit, potential_limit)
    except TypeError:  # unhashable: let the checks say what is wrong
        return Limits(limit, time_limit, node_limit, potential_limit)


_cached_limits = functools.lru_cache(maxsize=64, typed=True)(Limits)  # typed: True is not 1


#: a cautious budget's last seconds, spent in one call (see ``Budget``)
CAUTIOUS_TAIL = 2.0


class Budget:
    """The account of one budget while a question runs: the deadline, the units spent (search
    nodes or SE's potentials: one unit per account), and how many the next kernel call may
    spend. Every budgeted loop asks it (a search's slices, SE's rating and explanation, the
    setters' many searches) rather than cutting its own slices.

    A call gets what is left of ``units`` (None: no bound) and, under a deadline, what the
    speed measured so far says fits before it; ``aim`` (seconds) caps a call where Ctrl-C must
    stay responsive between calls, ``least`` is the smallest call worth making, and ``first``
    the size of a timed first call, before the speed is known. A loop that cannot resume a cut
    call without loss (SE's steps restart) leaves ``aim`` None: then an untimed call gets every
    unit left at once. ``cautious`` sizes calls by the slowest speed measured, not the last,
    and to half the time left until its last ``CAUTIOUS_TAIL`` seconds: for work whose speed
    swings from call to call (SE's rules differ 1.5x in time a potential, and its 50 ms first
    call says little), where a call sized by a fast one ran 4-7 s past a 20 s deadline.
    """

    # slots, and no work past the first call's size until a call comes back unfinished: a 9x9
    # solve is ~45 us, and the account must not show in it
    __slots__ = ("started", "deadline", "units", "first", "aim", "least", "cautious", "spent", "rate", "ran_out")

    def __init__(
        self,
        units: int | None = None,
        time_limit: float | None = None,
        first: int = 1,
        aim: float | None = None,
        least: int = 1,
        cautious: bool = False,
    ) -> None:
        self.started = started = time.perf_counter()
        self.deadline = None if time_limit is None else started + time_limit
        self.units = units
        self.first = first
        self.aim = aim
        self.least = least
        self.cautious = cautious
        self.spent = 0  #: units spent so far
        self.rate = 0.0  #: units a second, as the last call went (cautious: the slowest call)
        self.ran_out = False  #: the budget stopped something

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def units_left(self) -> int | None:
        return None if self.units is None else self.units - self.spent

    @property
    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    @property
    def exhausted(self) -> bool:
        """Nothing is left: no further call would start."""
        left = self.units_left()
        return (left is not None and left <= 0) or self.out_of_time

    def next_call(self) -> int | None:
        """The units the next kernel call may spend: None for no bound, 0 when none are left."""
        left = None if self.units is None else self.units - self.spent
        if left is not None and left <= 0:
            return 0
        if self.deadline is None and self.aim is None:
            return left
        if self.rate == 0.0:
            size = self.first
        else:
            reach = float(1 << 40)
            if self.aim is not None:
                reach = min(reach, self.rate * self.aim)
            if self.deadline is not None:
                seconds = max(self.deadline - time.perf_counter(), 0.0)
                if self.cautious and seconds > CAUTIOUS_TAIL:
                    seconds /= 2
                reach = min(reach, self.rate * seconds)
            size = max(int(reach), self.least)
        return size if left is None else min(size, left)

    def record(self, units: int, seconds: float) -> None:
        """A call spent ``units`` in ``seconds``: the account and the measured speed."""
        self.spent += units
        if units > 0:
            rate = units / max(seconds, 1e-6)
            self.rate = min(self.rate, rate) if self.cautious and self.rate > 0.0 else rate


# -- results -------------------------------------------------------------------------------


def _html(status: str, puzzle: Board, board: Board | None) -> str:
    """A status line over the board's picture (the solution, solver's values in blue)."""
    picture = (board if board is not None else puzzle).to_svg(puzzle)
    return f"<div><p><code>{status}</code></p>{picture}</div>"


@dataclass(frozen=True)
class SolveResult:
    """What a search found, and what it cost."""

    status: SolveStatus  #: the answer to the question asked
    puzzle: Board  #: the board that was searched
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
        """The status is ``SOLVED`` (what ``bool(result)`` says too)."""
        return self.status is SolveStatus.SOLVED

    @property
    def count_known(self) -> bool:
        """``count`` answers "how many, up to ``limit``": the space was exhausted, or the
        count reached the limit (a budget stopped the search short of both otherwise)."""
        return self.exhausted or self.count >= self.limit

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

    def _repr_html_(self) -> str:
        plus = "" if self.exhausted else "+"
        return _html(f"{self.status.value}: {self.count}{plus} solution(s), {self.nodes} nodes", self.puzzle, self.board)


def solve_result(
    puzzle: Board,
    board: Board | None,
    count: int,
    exhausted: bool,
    limit: int,
    nodes: int,
    guesses: int,
    elapsed: float,
    conflicts: tuple[Conflict, ...] = (),
) -> SolveResult:
    """A :class:`SolveResult` with its status decided by :func:`status_of`; the fields are set
    directly (a frozen dataclass's ``__init__`` sets each through ``object.__setattr__``, a
    microsecond a result, an eighth of an easy 9x9 solve)."""
    result = object.__new__(SolveResult)
    result.__dict__.update(
        status=status_of(count, exhausted, limit),
        puzzle=puzzle,
        board=board,
        count=count,
        exhausted=exhausted,
        limit=limit,
        nodes=nodes,
        guesses=guesses,
        elapsed=elapsed,
        conflicts=conflicts,
    )
    return result


Sense = Literal["max", "min"]


@dataclass(frozen=True)
class OptimumResult:
    """The best completion found, whether it is proven best, and what the search cost.

    ``status`` is SOLVED when the optimum is proven, NO_SOLUTION when the board has no
    completion (proven too), UNKNOWN when a budget stopped the search first; then ``value``
    and ``board`` are the best completion found so far (None if none yet) and ``bound`` is a
    proven limit on the optimum (an upper one when maximising, a lower one when minimising;
    None if the search stopped before the first bound).
    """

    status: SolveStatus
    sense: Sense
    puzzle: Board
    weights: np.ndarray  #: the ``n x n`` int64 weight matrix used
    value: int | None  #: the best score found; the optimum when ``proven``
    board: Board | None  #: a completion scoring ``value``
    proven: bool  #: True when ``value`` is the optimum (or no completion exists)
    bound: int | None  #: no completion scores better than this; equals ``value`` when proven
    nodes: int  #: propagations run: the root and every branch tried
    guesses: int  #: choice points: cells the search branched on
    improvements: int  #: how many times the best completion found so far improved
    elapsed: float  #: seconds spent in the search
    conflicts: tuple[Conflict, ...] = field(default=())  #: rule-breaking givens, if any

    @property
    def solved(self) -> bool:
        """The optimum is proven (what ``bool(result)`` says too)."""
        return self.status is SolveStatus.SOLVED

    @property
    def gap(self) -> int | None:
        """How far the optimum may still be from ``value`` (0 when proven)."""
        if self.value is None or self.bound is None:
            return None
        return abs(self.bound - self.value)

    def __bool__(self) -> bool:
        return self.solved

    def __repr__(self) -> str:
        board = f", board={self.board.to_line()!r}" if self.board is not None else ""
        bound = "" if self.proven else f" bound={self.bound}"
        return (
            f"<OptimumResult {self.status.value} {self.sense}: value={self.value}{bound} "
            f"nodes={self.nodes}{board}>"
        )

    def _repr_html_(self) -> str:
        bound = "" if self.proven else f", bound {self.bound}"
        return _html(f"{self.status.value} ({self.sense}): value {self.value}{bound}", self.puzzle, self.board)


@dataclass(frozen=True, eq=False)
class BatchResult:
    """What ``solve_batch`` found, one row per record, in input order."""

    shape: Shape
    limit: int
    #: ``(N, cells)`` uint8: the first solution found, zeros where there is none
    solutions: np.ndarray
    #: ``(N,)`` int64: solutions found, at most ``limit``; -1 where the record could not be read
    counts: np.ndarray
    #: ``(N,)`` int64: choice points (cells or digit configurations branched on)
    guesses: np.ndarray
    #: ``(N,)`` int64: propagations run (the root and every branch tried)
    nodes: np.ndarray
    #: ``(N,)`` bool: the whole search space was explored, so ``counts`` is exact
    exhausted: np.ndarray
    #: ``(N,)`` bool: givens repeat a value in a house (count 0, not searched)
    conflicts: np.ndarray
    #: ``(index, message)`` for every record that could not be read
    errors: tuple[tuple[int, str], ...]
    #: seconds spent in the compiled search (reading and checking not included)
    elapsed: float

    def __len__(self) -> int:
        return len(self.counts)

    @property
    def solved(self) -> np.ndarray:
        """``(N,)`` bool: a solution was found."""
        return self.counts >= 1

    @property
    def unique(self) -> np.ndarray:
        """``(N,)`` bool: exactly one solution, proven (needs ``limit >= 2``)."""
        return (self.counts == 1) & self.exhausted

    @property
    def statuses(self) -> np.ndarray:
        """``(N,)`` int8 codes into :data:`STATUSES`: each record's status, ``error`` for
        records that could not be read."""
        codes = status_codes(self.counts, self.exhausted, self.limit)
        codes[self.counts < 0] = ERROR
        return codes

    def status(self, index: int) -> str:
        """The status of record ``index``, as :data:`STATUSES` writes it."""
        return STATUSES[int(self.statuses[index])]

    def board(self, index: int) -> Board | None:
        """The solution of record ``index`` as a :class:`Board`, or None."""
        if self.counts[index] < 1:
            return None
        return Board(self.solutions[index], self.shape)

    def __repr__(self) -> str:
        return (
            f"<BatchResult {len(self)} boards ({self.shape.name}, limit {self.limit}): "
            f"{int(np.count_nonzero(self.counts >= 1))} solved, "
            f"{int(np.count_nonzero(self.counts == 0))} without solution, "
            f"{len(self.errors)} unreadable>"
        )


# -- exit statuses -------------------------------------------------------------------------


class ExitCode(enum.IntEnum):
    """Exit statuses of the ``sudokit`` command."""

    OK = 0
    #: at least one puzzle had no solution (or several, where ``--unique`` asked for one)
    UNSOLVED = 1
    #: the input (or an option) could not be read; nothing wrong was printed as an answer
    BAD_INPUT = 2
    #: a budget ran out before at least one puzzle was decided
    UNKNOWN = 3
    #: a bug in sudokit (an unexpected exception); please report it
    INTERNAL = 70
    #: interrupted by the user
    INTERRUPTED = 130
    #: the reader of the output went away (``sudokit solve big.txt | head``): 128 + SIGPIPE,
    #: as the shell reports a command a closed pipe stopped
    BROKEN_PIPE = 141


def exit_code(counts: Mapping[str, int], *, counting: bool = False, interrupted: bool = False) -> ExitCode:
    """The exit status of a run that ended with ``counts`` records per status (names of
    :data:`STATUSES`): INTERRUPTED, then BAD_INPUT for unreadable records, UNSOLVED for
    puzzles without a solution or with several (unless the run was ``counting``, where any
    count is an answer), UNKNOWN where a budget left some undecided, else OK."""
    if interrupted:
        return ExitCode.INTERRUPTED
    if counts.get("error"):
        return ExitCode.BAD_INPUT
    if not counting and (counts.get("no solution") or counts.get("several")):
        return ExitCode.UNSOLVED
    if counts.get("unknown"):
        return ExitCode.UNKNOWN
    return ExitCode.OK


@dataclass
class Tally:
    """Records per status over a run, and the exit status they make (see :func:`exit_code`)."""

    counting: bool = False
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    interrupted: bool = False

    def add(self, status: str, records: int = 1) -> None:
        self.counts[status] += records

    @property
    def exit_code(self) -> ExitCode:
        return exit_code(self.counts, counting=self.counting, interrupted=self.interrupted)
