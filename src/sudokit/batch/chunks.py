"""The batch's vocabulary as data: its settings, the unit of work (a chunk) and its result,
one output record, and the run's summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np

from ..board import Record
from ..logic.scales import ALL
from ..results import ERROR, STATUSES, ExitCode, Limits, exit_code
from ..shape import Shape

#: output columns, in the order NDJSON keys and CSV columns are written
COLUMNS: tuple[str, ...] = ("index", "puzzle", "status", "solution", "count", "guesses", "error")
#: the columns a rating run adds (``rate=True``, ``sudokit batch --rate``): HoDoKu's level and
#: score, Sudoku Explainer's ER/EP/ED (9x9 boards; ``er`` a lower bound where ``se_status`` is
#: unknown, the per-record budget having run out)
RATING_COLUMNS: tuple[str, ...] = ALL.columns


def columns_of(rate: bool) -> tuple[str, ...]:
    """The output columns of a run that rates (or not)."""
    return COLUMNS + RATING_COLUMNS if rate else COLUMNS
#: input kinds besides the text formats of :mod:`sudokit.formats`
TABLE_FORMATS: tuple[str, ...] = ("csv", "tsv", "parquet")
OUTPUT_FORMATS: tuple[str, ...] = ("ndjson", "csv", "parquet")
#: environment variable read when ``workers`` is not given
WORKERS_ENV = "SUDOKIT_WORKERS"
DEFAULT_CHUNK_SIZE = 10_000


class BatchError(Exception):
    """A batch that cannot start or resume (a bad option, input or journal); nothing was written.

    ``parameter`` names the argument of :func:`solve_file` that would fix it (``"column"``,
    ``"resume"``), so that a command line can name its own option for it."""

    def __init__(self, message: str, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter

    def __reduce__(self):  # keep the parameter across processes
        return (BatchError, (str(self), self.parameter))


class SourceProblem(str):
    """What a source hands on for a record that has no puzzle to give (a CSV row without the
    column, a row the CSV reader rejects): the worker reports it as the record's error."""

    __slots__ = ()


# -- settings and results ---------------------------------------------------------------------


@dataclass(frozen=True)
class BatchOptions:
    """What a batch computes and how the input is read; travels to every worker.

    ``limit`` 1 solves, 2 proves uniqueness, N counts up to N; ``time_limit`` (seconds) and
    ``node_limit`` bound each record's search, as in :func:`sudokit.count` (see
    :attr:`limits`); with ``rate``, ``time_limit`` and ``potential_limit`` bound Sudoku
    Explainer's rating, as in :func:`sudokit.rate`. ``format`` is a text format of :mod:`sudokit.formats`, or ``csv``,
    ``tsv``, ``parquet`` (default: from the file name, else detected from the first puzzle).
    ``column`` picks a CSV/Parquet column by name (or 0-based number); by default the first
    column whose values read as puzzles.
    """

    limit: int = 1
    node_limit: int | None = None
    shape: Shape | None = None
    symbols: str | None = None
    format: str | None = None
    column: str | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE
    time_limit: float | None = None
    #: rate each puzzle with exactly one solution on HoDoKu's scale (level and score columns)
    #: and on Sudoku Explainer's (er, ep, ed; the time and potential budgets bound it)
    rate: bool = False
    #: SE's budget with ``rate``: potentials its chains may process per record
    potential_limit: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", Shape.of(self.shape))  # "2x3", 6, (2, 3) as the CLI reads them
        self.limits  # checks limit, time_limit, node_limit and potential_limit
        if self.chunk_size < 1:
            raise ValueError(f"chunk_size must be a positive integer, not {self.chunk_size!r}")

    @property
    def limits(self) -> Limits:
        """The budget of each record's search."""
        return Limits(self.limit, self.time_limit, self.node_limit, self.potential_limit)

    def fingerprint(self) -> dict[str, Any]:
        """The settings that decide the output (not how fast it is made): a resumed run must
        match them."""
        shape = None if self.shape is None else f"{self.shape.box_height}x{self.shape.box_width}"
        return {
            "limit": int(self.limit),
            "time_limit": self.time_limit,
            "node_limit": self.node_limit,
            "shape": shape,
            "symbols": self.symbols,
            "format": self.format,
            "column": self.column,
            "rate": self.rate,
        } | ({} if self.potential_limit is None else {"potential_limit": self.potential_limit})


@dataclass(frozen=True)
class RecordResult:
    """One output record: what happened to input record ``index``."""

    index: int
    puzzle: str  #: the record as read (one-line form); a bad record's text
    status: str  #: one of :data:`STATUSES`
    solution: str | None  #: the first solution found, one-line form, in the puzzle's alphabet
    count: int | None  #: solutions found, at most the limit; None for a bad record
    guesses: int | None  #: choice points of the search; None for a bad record
    error: str | None = None  #: why a bad record was rejected, ``line:column: message``
    level: str | None = None  #: HoDoKu's level, when rating and the puzzle has one solution
    score: int | None = None  #: HoDoKu's score, likewise

    def to_dict(self) -> dict[str, Any]:
        """The NDJSON object: ``solution`` only when there is one, ``error`` only for bad records
        (a rating run adds ``level`` and ``score`` to every record, null when not rated)."""
        out: dict[str, Any] = {"index": self.index, "puzzle": self.puzzle, "status": self.status}
        if self.solution is not None:
            out["solution"] = self.solution
        out["count"] = self.count
        out["guesses"] = self.guesses
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass
class BatchSummary:
    """Counts outcomes over a run and turns them into the exit status (the batch's report)."""

    limit: int = 1  #: the run's ``limit`` (above 2 it counts, and any count is an answer)
    #: records per status, by the names of :data:`~sudokit.results.STATUSES`
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    #: records done before this run started (a resumed run)
    resumed_at: int = 0
    #: seconds this run took, and the records it did
    elapsed: float = 0.0
    #: the first few bad records, ``(index, message)``
    errors: list[tuple[int, str]] = field(default_factory=list)
    interrupted: bool = False  #: a KeyboardInterrupt stopped the run after its last committed chunk

    @property
    def records(self) -> int:
        """Records done, in this run and any it resumed."""
        return sum(self.counts.values())

    @property
    def rate(self) -> float:
        """Records per second in this run."""
        return (self.records - self.resumed_at) / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def exit_code(self) -> ExitCode:
        """As :func:`sudokit.results.exit_code` decides: counting (``limit`` > 2) takes any
        count as an answer."""
        return exit_code(self.counts, counting=self.limit > 2, interrupted=self.interrupted)

    def add(self, result: ChunkResult, keep_errors: int = 10) -> None:
        for name, value in zip(STATUSES, result.tally):
            self.counts[name] += int(value)
        room = keep_errors - len(self.errors)
        if room > 0:
            self.errors.extend(result.errors[:room])

    def describe(self) -> str:
        """One line: records, time, rate, counts by status."""
        parts = [f"{self.counts[name]:,} {name}" for name in STATUSES if self.counts[name]]
        text = f"{self.records:,} record{'s' if self.records != 1 else ''}"
        if self.resumed_at:
            text += f" ({self.records - self.resumed_at:,} in this run, resumed at {self.resumed_at:,})"
        text += f" in {self.elapsed:.2f} s ({self.rate:,.0f} records/s)"
        return text + (": " + ", ".join(parts) if parts else "")


# -- chunks: the unit of work -----------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """Consecutive records and where the input stands after them.

    Line records (one-line puzzles from text, CSV or Parquet) travel as raw ``texts`` with their
    1-based ``lines`` and are parsed by the worker; records of the block formats (grids, ...)
    travel parsed, as ``records``.
    """

    number: int
    first_index: int
    texts: Sequence[Any] = ()
    lines: Sequence[int] = ()
    records: Sequence[Record] = ()
    #: where the next chunk starts: a byte offset for text and CSV input, else a record count
    end_position: int = 0
    end_line: int = 0

    def __len__(self) -> int:
        return len(self.records) if self.records else len(self.texts)


@dataclass
class ChunkResult:
    """A solved chunk: its output bytes (or columns), counts by status and first errors."""

    number: int
    first_index: int
    size: int
    tally: np.ndarray  #: records per status, in :data:`STATUSES` order
    errors: list[tuple[int, str]]
    payload: bytes | None = None
    columns: dict[str, Any] | None = None
    #: seconds the worker spent parsing, solving and encoding
    elapsed: float = 0.0
    #: the chunk's ``end_position`` and ``end_line``: where the input stands after it
    end_position: int = 0
    end_line: int = 0

    def results(self) -> Iterator[RecordResult]:
        """The chunk's records as :class:`RecordResult`, in order (needs ``columns``)."""
        assert self.columns is not None
        c = self.columns
        errors = c["error"]
        for k in range(self.size):
            bad = c["status"][k] == ERROR
            yield RecordResult(
                index=self.first_index + k,
                puzzle=c["puzzle"][k],
                status=STATUSES[c["status"][k]],
                solution=c["solution"][k],
                count=None if bad else int(c["count"][k]),
                guesses=None if bad else int(c["guesses"][k]),
                error=errors.get(k),
                level=c["level"][k] if "level" in c else None,
                score=c["score"][k] if "score" in c else None,
            )


