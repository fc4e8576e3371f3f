"""Batch files: millions of puzzles through ``solve_batch``, in chunks, in order, resumably.

Vocabulary
----------
*record*
    one puzzle of the input (a line, a grid, a CSV row, a Parquet row), numbered from 0;
    a record the parser rejects is a *bad record* and still yields a result.
*chunk*
    ``chunk_size`` consecutive records, the unit of work: parsed, solved in one compiled call
    (:func:`sudokit.solve_batch`) and encoded by a worker, then written by the main process.
*commit*
    a chunk's output appended to the output file, synced, and only then recorded in the
    *journal*, the sidecar file ``OUTPUT.progress`` that says how many records and output
    bytes are final and where in the input the next chunk starts.

Data flows one way. The main process reads the input and cuts it into chunks (it only splits
lines, so it keeps up with every core); workers (processes, threads or a Dask cluster) parse,
solve and encode each chunk to bytes; the main process writes the results strictly in input
order, at most ``2 * workers`` chunks ahead of the writer, so memory stays flat whatever the
size of the file. Exactly one output record per input record, whatever happens: bad records
become ``status: "error"`` records.

Why the journal: after ``kill -9`` at any moment, the output may end in a chunk that was
written but not recorded, or in half a chunk. ``--resume`` truncates the output to the
journal's byte count, seeks the input to the journal's position and goes on, so the final
output is byte for byte the one an uninterrupted run writes. The journal itself is replaced
atomically (write a temporary file, sync, rename), so it is always one whole state.

Roads not taken: a temporary output renamed at the end loses the finished part of a
ten-million-record run on a crash; one output file per chunk (what Dask dataframes write)
leaves the user thousands of files and an ordering problem; parsing in the main process
caps every run at the parser's speed (about 30k records/s), a tenth of the 9x9 kernel's;
building the NDJSON lines of a chunk as one numpy byte matrix (fields padded with NUL, then
the NULs dropped) was measured no faster than f-strings (about 1 usec a record either way).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .errors import ExitCode, FormatError
from .shape import Shape

if TYPE_CHECKING:  # pragma: no cover
    from .formats import Record

#: every status a result can have, in the order the summary lists them
STATUSES: tuple[str, ...] = ("solved", "no solution", "several", "unknown", "error")
SOLVED, NO_SOLUTION, SEVERAL, UNKNOWN, ERROR = range(len(STATUSES))
#: output columns, in the order NDJSON keys and CSV columns are written
COLUMNS: tuple[str, ...] = ("index", "puzzle", "status", "solution", "count", "guesses", "error")
#: input kinds besides the text formats of :mod:`sudokit.formats`
TABLE_FORMATS: tuple[str, ...] = ("csv", "tsv", "parquet")
OUTPUT_FORMATS: tuple[str, ...] = ("ndjson", "csv", "parquet")
#: environment variable read when ``workers`` is not given
WORKERS_ENV = "SUDOKIT_WORKERS"
DEFAULT_CHUNK_SIZE = 10_000
JOURNAL_SUFFIX = ".progress"
JOURNAL_VERSION = 1

#: value of each byte of a 9x9 one-line puzzle: 0 empty, 1-9, 255 anything else
_DIGITS = np.full(256, 255, dtype=np.uint8)
_DIGITS[[ord("."), ord("0"), ord("-")]] = 0
_DIGITS[np.frombuffer(b"123456789", dtype=np.uint8)] = np.arange(1, 10, dtype=np.uint8)
#: bytes that write the values 0..9 of a 9x9 solution
_WRITE9 = np.frombuffer(b".123456789", dtype=np.uint8)
_CLASSIC = Shape(3, 3)


class BatchError(Exception):
    """A batch that cannot start or resume (a bad option, input or journal); nothing was written."""


# -- settings and results ---------------------------------------------------------------------


@dataclass(frozen=True)
class BatchOptions:
    """What a batch computes and how the input is read; travels to every worker.

    ``limit`` 1 solves, 2 proves uniqueness, N counts up to N. ``format`` is a text format
    of :mod:`sudokit.formats`, or ``csv``, ``tsv``, ``parquet`` (default: from the file name,
    else detected from the first puzzle). ``column`` picks a CSV/Parquet column by name (or
    0-based number); by default the first column whose values read as puzzles.
    """

    limit: int = 1
    node_limit: int | None = None
    shape: Shape | None = None
    symbols: str | None = None
    format: str | None = None
    column: str | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def __post_init__(self) -> None:
        if isinstance(self.limit, bool) or not isinstance(self.limit, (int, np.integer)) or self.limit < 1:
            raise ValueError(f"limit must be a positive integer, not {self.limit!r}")
        if self.node_limit is not None and self.node_limit < 1:
            raise ValueError(f"node_limit must be a positive integer, not {self.node_limit!r}")
        if self.chunk_size < 1:
            raise ValueError(f"chunk_size must be a positive integer, not {self.chunk_size!r}")

    def fingerprint(self) -> dict[str, Any]:
        """The settings that decide the output (not how fast it is made): a resumed run must
        match them."""
        shape = None if self.shape is None else f"{self.shape.box_height}x{self.shape.box_width}"
        return {
            "limit": int(self.limit),
            "node_limit": self.node_limit,
            "shape": shape,
            "symbols": self.symbols,
            "format": self.format,
            "column": self.column,
        }


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

    def to_dict(self) -> dict[str, Any]:
        """The NDJSON object: ``solution`` only when there is one, ``error`` only for bad records."""
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

    limit: int = 1
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    #: records done before this run started (a resumed run)
    resumed_at: int = 0
    #: seconds this run took, and the records it did
    elapsed: float = 0.0
    #: the first few bad records, ``(index, message)``
    errors: list[tuple[int, str]] = field(default_factory=list)
    interrupted: bool = False

    @property
    def records(self) -> int:
        return sum(self.counts.values())

    @property
    def rate(self) -> float:
        """Records per second in this run."""
        return (self.records - self.resumed_at) / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def exit_code(self) -> ExitCode:
        """BAD_INPUT for bad records; UNSOLVED for puzzles without a solution (or with several
        when ``limit`` is 2); UNKNOWN when a node limit left some undecided; else OK. Counting
        (``limit`` > 2) takes any count as an answer."""
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if self.counts["error"]:
            return ExitCode.BAD_INPUT
        if self.limit <= 2 and (self.counts["no solution"] or (self.limit == 2 and self.counts["several"])):
            return ExitCode.UNSOLVED
        if self.counts["unknown"]:
            return ExitCode.UNKNOWN
        return ExitCode.OK

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
            )


def solve_chunk(chunk: Chunk, options: BatchOptions, encoding: str = "ndjson") -> ChunkResult:
    """Parse, solve and encode one chunk: what every worker runs.

    ``encoding`` is ``ndjson`` or ``csv`` (the result carries the output bytes) or
    ``columns`` (the result carries the columns, for Parquet output and the Python API).
    """
    start = time.perf_counter()
    if chunk.records:
        columns = _solve_records(chunk.records, options)
    else:
        columns = _solve_texts(chunk.texts, chunk.lines, options)
    status = columns["status"]
    errors = [(chunk.first_index + k, message) for k, message in sorted(columns["error"].items())[:10]]
    result = ChunkResult(
        number=chunk.number,
        first_index=chunk.first_index,
        size=len(status),
        tally=np.bincount(status, minlength=len(STATUSES)),
        errors=errors,
        end_position=chunk.end_position,
        end_line=chunk.end_line,
    )
    if encoding == "ndjson":
        result.payload = _encode_ndjson(columns, chunk.first_index)
    elif encoding == "csv":
        result.payload = _encode_csv(columns, chunk.first_index)
    elif encoding == "columns":
        result.columns = columns
    else:
        raise ValueError(f"unknown encoding {encoding!r}")
    result.elapsed = time.perf_counter() - start
    return result


# -- parsing and solving a chunk (worker side) ------------------------------------------------

#: a board to solve: its values, the alphabet that writes them
_Group = dict[tuple[Shape, str], list[tuple[int, np.ndarray]]]


def _solve_texts(texts: Sequence[Any], lines: Sequence[int], options: BatchOptions) -> dict[str, Any]:
    """Columns for one-line records: 9x9 lines of ``1-9 . 0 -`` are read by numpy in one go,
    every other record by the line parser, which also explains bad records."""
    from .formats import line as line_format

    size = len(texts)
    errors: dict[int, str] = {}
    classic = options.symbols is None and (options.shape is None or options.shape == _CLASSIC)
    uniform = _uniform_lines(texts) if classic else None
    if uniform is not None:  # the bulk case: n lines of 81 bytes each
        raw, puzzles = uniform
        candidates = np.arange(size)
    else:
        puzzles = []
        for k, text in enumerate(texts):
            if isinstance(text, bytes):
                text = text.decode("utf-8", "surrogateescape")
            elif isinstance(text, _CsvProblem):
                errors[k] = f"{lines[k]}:1: {text}"
                text = ""
            elif not isinstance(text, str):
                what = "a missing value" if text is None else f"a value of type {type(text).__name__}"
                errors[k] = f"{lines[k]}:1: {what}, not a puzzle"
                text = "" if text is None else str(text)
            puzzles.append(text.strip())
        chosen = [k for k, p in enumerate(puzzles) if len(p) == 81 and p.isascii() and k not in errors] if classic else []
        candidates = np.asarray(chosen, dtype=np.int64)
        joined = "".join(puzzles[k] for k in chosen).encode("ascii")
        raw = np.frombuffer(joined, dtype=np.uint8).reshape(len(chosen), 81)

    fast = np.zeros(size, dtype=bool)
    values = _DIGITS[raw]
    ok = ~(values == 255).any(axis=1)  # on 9x9 boards '0' is always a blank, as in the parser
    fast[candidates[ok]] = True
    fast_values = values[ok] if not ok.all() else values

    groups: _Group = {}
    for k in np.flatnonzero(~fast).tolist():
        if k in errors:
            continue
        if uniform is not None:  # the line has other characters: read it as the parser does
            puzzles[k] = texts[k].decode("utf-8", "surrogateescape").strip()
        try:
            board = line_format.parse(puzzles[k], options.shape, options.symbols, line=lines[k])
        except FormatError as error:
            errors[k] = str(error)
            continue
        groups.setdefault((board.shape, board.symbols), []).append((k, board.cells))
    columns = _solve_groups(size, puzzles, fast, fast_values, groups, errors, options)
    columns["plain"] = fast  # puzzle texts that JSON needs not escape
    return columns


def _uniform_lines(texts: Sequence[Any]) -> tuple[np.ndarray, list[str]] | None:
    """The ``(n, 81)`` bytes and texts of ``n`` raw lines that are all 81 bytes and a line
    end (``\\n`` or ``\\r\\n``), seen in one numpy pass; None when they are not."""
    if not texts or type(texts[0]) is not bytes:
        return None
    try:
        blob = b"".join(texts)
    except TypeError:
        return None
    if not blob.endswith(b"\n"):
        blob += b"\n"  # the file's last line
    size = len(texts)
    for width in (82, 83):
        if len(blob) != width * size:
            continue
        rows = np.frombuffer(blob, dtype=np.uint8).reshape(size, width)
        if (rows[:, -1] == 10).all() and (width == 82 or (rows[:, 81] == 13).all()):
            wide = blob.decode("latin-1")  # rows that are not ASCII digits are decoded again
            return rows[:, :81], [wide[i : i + 81] for i in range(0, width * size, width)]
    return None


def _solve_records(records: Sequence[Record], options: BatchOptions) -> dict[str, Any]:
    """Columns for records the main process already parsed (the block formats)."""
    size = len(records)
    puzzles: list[str] = []
    errors: dict[int, str] = {}
    groups: _Group = {}
    for k, record in enumerate(records):
        if record.board is None:
            puzzles.append(record.text)
            errors[k] = str(record.error)
            continue
        puzzles.append(record.board.to_line())
        groups.setdefault((record.board.shape, record.board.symbols), []).append((k, record.board.cells))
    return _solve_groups(size, puzzles, np.zeros(size, dtype=bool), np.zeros((0, 81), np.uint8), groups, errors, options)


def _solve_groups(
    size: int,
    puzzles: list[str],
    fast: np.ndarray,
    fast_values: np.ndarray,
    groups: _Group,
    errors: dict[int, str],
    options: BatchOptions,
) -> dict[str, Any]:
    """Run ``solve_batch`` once per shape and alphabet and gather the columns in record order."""
    from .batch import solve_batch

    status = np.full(size, ERROR, dtype=np.int8)
    counts = np.full(size, -1, dtype=np.int64)
    guesses = np.full(size, -1, dtype=np.int64)
    solutions: list[str | None] = [None] * size

    def run(positions: np.ndarray, values: np.ndarray, shape: Shape, alphabet: str | None) -> None:
        result = solve_batch(values, options.limit, shape=shape, node_limit=options.node_limit)
        found = result.counts
        status[positions] = _statuses(found, result.exhausted, options.limit)
        counts[positions] = found
        guesses[positions] = result.guesses
        solved = np.flatnonzero(found >= 1)
        if not len(solved):
            return
        if alphabet is None:  # 9x9 digits: write every solution with one table lookup
            text = _WRITE9[result.solutions[solved]].tobytes().decode("ascii")
            rows = [text[i : i + 81] for i in range(0, len(text), 81)]
            if len(rows) == size:
                solutions[:] = rows
            else:
                for k, row in zip(positions[solved].tolist(), rows):
                    solutions[k] = row
        else:
            table = "." + alphabet
            for j in solved.tolist():
                solutions[int(positions[j])] = "".join(table[v] for v in result.solutions[j].tolist())

    if len(fast_values):
        run(np.flatnonzero(fast), fast_values, _CLASSIC, None)
    for (shape, alphabet), members in groups.items():
        positions = np.fromiter((k for k, _ in members), dtype=np.int64, count=len(members))
        values = np.stack([cells for _, cells in members])
        run(positions, values, shape, None if alphabet == "123456789" else alphabet)
    return {
        "puzzle": puzzles,
        "status": status,
        "solution": solutions,
        "count": counts,
        "guesses": guesses,
        "error": errors,
    }


def _statuses(counts: np.ndarray, exhausted: np.ndarray, limit: int) -> np.ndarray:
    """The status of each search, as :func:`sudokit.count` names it."""
    out = np.full(len(counts), UNKNOWN, dtype=np.int8)
    out[counts >= 2] = SEVERAL
    out[(counts == 1) & (exhausted | (limit == 1))] = SOLVED
    out[(counts == 0) & exhausted] = NO_SOLUTION
    return out


# -- encoding (worker side) -------------------------------------------------------------------


def _json_string(text: str) -> str:
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return json.dumps(text)


def _encode_ndjson(columns: dict[str, Any], first_index: int) -> bytes:
    """One JSON object a line, keys in :data:`COLUMNS` order, ASCII only (``json.dumps``
    escapes the rest), so the bytes are the same wherever the chunk was encoded."""
    names = [f'"status":"{name}"' for name in STATUSES]
    status = columns["status"]
    size = len(status)
    plain = columns.get("plain")
    if plain is not None and plain.all():
        puzzles = [f'"{p}"' for p in columns["puzzle"]]
        solutions = ["" if s is None else f',"solution":"{s}"' for s in columns["solution"]]
    else:
        marks = plain.tolist() if plain is not None else [False] * size
        puzzles = [f'"{p}"' if m else _json_string(p) for p, m in zip(columns["puzzle"], marks)]
        solutions = ["" if s is None else f',"solution":{_json_string(s)}' for s in columns["solution"]]
    counts: list[Any] = columns["count"].tolist()
    guesses: list[Any] = columns["guesses"].tolist()
    tails = [""] * size
    for k, message in columns["error"].items():
        counts[k] = guesses[k] = "null"
        tails[k] = f',"error":{json.dumps(message)}'
    lines = [
        f'{{"index":{i},"puzzle":{p},{names[t]}{s},"count":{c},"guesses":{g}{e}}}\n'
        for i, p, t, s, c, g, e in zip(
            range(first_index, first_index + size), puzzles, status.tolist(), solutions, counts, guesses, tails
        )
    ]
    return "".join(lines).encode("ascii")


def _csv_header() -> bytes:
    return (",".join(COLUMNS) + "\n").encode("ascii")


def _encode_csv(columns: dict[str, Any], first_index: int) -> bytes:
    """CSV rows under :func:`_csv_header`; empty cells where NDJSON has null or no key."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    errors = columns["error"]
    status = columns["status"].tolist()
    counts = columns["count"].tolist()
    guesses = columns["guesses"].tolist()
    for k, (puzzle, solution) in enumerate(zip(columns["puzzle"], columns["solution"])):
        bad = status[k] == ERROR
        writer.writerow((
            first_index + k,
            puzzle,
            STATUSES[status[k]],
            solution or "",
            "" if bad else counts[k],
            "" if bad else guesses[k],
            errors.get(k, ""),
        ))
    return buffer.getvalue().encode("utf-8", "surrogateescape")


def _arrow_table(columns: dict[str, Any], first_index: int):
    """The chunk as a pyarrow Table with :data:`COLUMNS` (nulls where NDJSON has none)."""
    import pyarrow as pa

    size = len(columns["status"])
    bad = columns["status"] == ERROR
    errors = columns["error"]
    return pa.table(
        {
            "index": pa.array(np.arange(first_index, first_index + size, dtype=np.int64)),
            "puzzle": pa.array(_clean_text(columns["puzzle"]), type=pa.string()),
            "status": pa.array([STATUSES[s] for s in columns["status"].tolist()], type=pa.string()),
            "solution": pa.array(columns["solution"], type=pa.string()),
            "count": pa.array(columns["count"], mask=bad, type=pa.int64()),
            "guesses": pa.array(columns["guesses"], mask=bad, type=pa.int64()),
            "error": pa.array([errors.get(k) for k in range(size)], type=pa.string()),
        },
        schema=_arrow_schema(),
    )


def _arrow_schema():
    import pyarrow as pa

    return pa.schema(
        [
            ("index", pa.int64()),
            ("puzzle", pa.string()),
            ("status", pa.string()),
            ("solution", pa.string()),
            ("count", pa.int64()),
            ("guesses", pa.int64()),
            ("error", pa.string()),
        ]
    )


def _clean_text(texts: list[str]) -> list[str]:
    """Arrow strings must be valid UTF-8: bytes that were not become U+FFFD."""
    return [t if t.isascii() else t.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for t in texts]


# -- reading the input: sources that cut it into chunks (main process) ------------------------


@dataclass(frozen=True)
class Position:
    """Where a run stands: records done, and where the next record starts in the input."""

    records: int = 0
    offset: int = 0  #: byte offset (text, CSV) or record count (block formats, Parquet)
    line: int = 0  #: lines of the input consumed (the next record's line numbers follow)


class Source:
    """An input cut into chunks; ``chunks(start)`` resumes at a :class:`Position`."""

    #: what the progress bar counts: input bytes or rows (None: unknown)
    total: int | None = None
    #: what is read, for the progress bar: the file name (and column)
    description: str = ""

    def chunks(self, start: Position) -> Iterator[Chunk]:  # pragma: no cover - interface
        raise NotImplementedError

    def identity(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass


def _input_kind(path: str, options: BatchOptions) -> str:
    if options.format:
        return options.format
    lower = path.lower()
    for ext, kind in ((".csv", "csv"), (".tsv", "tsv"), (".parquet", "parquet"), (".pq", "parquet")):
        if lower.endswith(ext):
            return kind
    return "text"


def open_source(path: str | os.PathLike, options: BatchOptions) -> Source:
    """The right reader for ``path`` (``-`` is stdin, read as text)."""
    path = os.fspath(path)
    kind = _input_kind(path, options)
    if kind in ("csv", "tsv"):
        return CsvSource(path, options, delimiter="\t" if kind == "tsv" else ",")
    if kind == "parquet":
        return ParquetSource(path, options)
    return TextSource(path, options)


def _file_identity(path: str) -> dict[str, Any]:
    info = os.stat(path)
    return {"input": os.path.abspath(path), "size": info.st_size, "mtime_ns": info.st_mtime_ns}


class TextSource(Source):
    """Puzzles in a text format of :mod:`sudokit.formats`. One-line puzzles (the bulk case) are
    only split into lines here; grids and the other block formats are parsed here, by the
    streaming reader, since only it knows where a grid ends."""

    def __init__(self, path: str, options: BatchOptions) -> None:
        from .formats import FORMATS

        self.path = path
        self.options = options
        self.stdin = path == "-"
        self.handle = sys.stdin.buffer if self.stdin else open(path, "rb")
        if options.format is not None and options.format not in FORMATS:
            raise BatchError(f"unknown input format {options.format!r}; choose one of {', '.join(FORMATS + TABLE_FORMATS)}")
        self.format = options.format or self._detect()
        self.description = "<stdin>" if self.stdin else os.path.basename(path)
        if not self.stdin and self.format == "line":  # positions are bytes only there
            self.total = os.fstat(self.handle.fileno()).st_size

    def _detect(self) -> str:
        """The format, judged by :func:`sudokit.formats.detect` from the first two
        meaningful lines (the reader's own rule); the input is then read again from the start."""
        from .formats import END_MARK, detect

        if self.stdin:  # cannot seek: keep what was read ahead
            self.handle = _Rewound(self.handle)
        meaningful: list[str] = []
        for number, raw in enumerate(self.handle, 1):
            text = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
            if number == 1:
                text = text.lstrip("\ufeff")
            stripped = text.strip()
            if stripped == END_MARK:
                break
            if stripped and not stripped.startswith("#"):
                meaningful.append(text)
                if len(meaningful) == 2:
                    break
        self.handle.seek(0)
        if not meaningful:
            return "line"
        o = self.options
        return detect(meaningful[0], shape=o.shape, symbols=o.symbols, next_line=meaningful[1] if len(meaningful) > 1 else None)

    def identity(self) -> dict[str, Any]:
        return {} if self.stdin else _file_identity(self.path)

    def chunks(self, start: Position) -> Iterator[Chunk]:
        if self.format == "line":
            return self._line_chunks(start)
        return self._record_chunks(start)

    def _line_chunks(self, start: Position) -> Iterator[Chunk]:
        """Records of the line format, exactly as :func:`sudokit.formats.read` finds them:
        blank lines and ``#`` comments skipped, a line ``end`` stops the input. Blocks of
        clean 81-symbol lines (the bulk case) are taken whole, without a look at each line."""
        import itertools

        size = self.options.chunk_size
        if start.offset:
            self.handle.seek(start.offset)
        offset, number, index = start.offset, start.line, start.records
        chunk_number = start.records // size  # for the record only: chunks may change size on resume
        texts: list[bytes] = []
        lines: list[int] = []
        ended = False
        while not ended:
            block = list(itertools.islice(self.handle, size - len(texts)))
            if not block:
                break
            if number == 0 and block[0].startswith(b"\xef\xbb\xbf"):
                block[0] = block[0][3:]
                offset += 3
            used = _plain_block(block)
            if used:
                texts += block
                lines += range(number + 1, number + len(block) + 1)
                number += len(block)
                offset += used
            else:
                for raw in block:
                    number += 1
                    offset += len(raw)
                    stripped = raw.decode("utf-8", "surrogateescape").strip()
                    if not stripped or stripped.startswith("#"):
                        continue
                    if stripped == "end":
                        ended = True
                        break
                    texts.append(raw)
                    lines.append(number)
            if len(texts) == size or (ended and texts):
                yield Chunk(chunk_number, index, texts, lines, end_position=offset, end_line=number)
                chunk_number, index, texts, lines = chunk_number + 1, index + len(texts), [], []
        if texts:
            yield Chunk(chunk_number, index, texts, lines, end_position=offset, end_line=number)

    def _record_chunks(self, start: Position) -> Iterator[Chunk]:
        """Block formats: the streaming reader parses here; a resumed run reads past the
        records already done (positions are record counts)."""
        from .formats import read

        o = self.options
        size = o.chunk_size
        batch: list[Record] = []
        chunk_number = start.records // size
        index = start.records
        for record in read(self.handle, format=self.format, shape=o.shape, symbols=o.symbols):  # type: ignore[arg-type]
            if record.index < start.records:
                continue
            batch.append(record)
            if len(batch) == size:
                yield Chunk(chunk_number, index, records=batch, end_position=index + size, end_line=record.line)
                chunk_number, index, batch = chunk_number + 1, index + size, []
        if batch:
            yield Chunk(chunk_number, index, records=batch, end_position=index + len(batch), end_line=batch[-1].line)

    def close(self) -> None:
        if not self.stdin:
            self.handle.close()


def _plain_block(block: list[bytes]) -> int:
    """The bytes in ``block`` when every line is 81 bytes and a line end (``\\n`` or
    ``\\r\\n``) and starts with a character that only a record can start with (so none is
    blank, a comment or ``end``); else 0."""
    width = len(block[0])
    blob = b"".join(block)
    if width not in (82, 83) or len(blob) != width * len(block):
        return 0
    rows = np.frombuffer(blob, dtype=np.uint8).reshape(len(block), width)
    first = rows[:, 0]
    ends = (rows[:, -1] == 10).all() and (width == 82 or (rows[:, 81] == 13).all())
    starts = ((first > 0x20) & (first < 0x7F) & (first != ord("#")) & (first != ord("e"))).all()
    return len(blob) if ends and starts else 0


class _Rewound:
    """A stream that can be read again once from its start (stdin during format detection)."""

    def __init__(self, handle) -> None:
        self.handle = handle
        self.seen: list[bytes] = []
        self.replay: list[bytes] | None = None

    def __iter__(self):
        return self

    def __next__(self) -> bytes:
        if self.replay:
            return self.replay.pop(0)
        line = self.handle.readline()
        if not line:
            raise StopIteration
        if self.replay is None:
            self.seen.append(line)
        return line

    def seek(self, offset: int) -> None:
        if offset != 0 or self.replay is not None:
            raise OSError("stdin can only be read again once, from its start")
        self.replay = self.seen


class _CountingLines:
    """Lines of a binary file as text, counting the bytes and lines handed out, so that the
    position after every CSV row is known exactly (``csv.reader`` reads no further ahead)."""

    def __init__(self, handle, offset: int, line: int) -> None:
        self.handle = handle
        self.offset = offset
        self.line = line

    def __iter__(self):
        return self

    def __next__(self) -> str:
        raw = self.handle.readline()
        if not raw:
            raise StopIteration
        if self.offset == 0 and raw.startswith(b"\xef\xbb\xbf"):
            raw_text = raw[3:]
        else:
            raw_text = raw
        self.offset += len(raw)
        self.line += 1
        return raw_text.decode("utf-8", "surrogateescape")


def _looks_like_puzzle(value: Any, options: BatchOptions) -> bool:
    from .formats import line as line_format

    if not isinstance(value, str) or not value.strip():
        return False
    try:
        line_format.parse(value.strip(), options.shape, options.symbols)
    except (FormatError, ValueError):
        return False
    return True


def _pick_column(names: list[str], rows: list[list[Any]], options: BatchOptions, where: str) -> int:
    """The column ``options.column`` names (or numbers), else the first whose values read as
    puzzles in the first rows."""
    if options.column is not None:
        if options.column in names:
            return names.index(options.column)
        if options.column.isdigit() and int(options.column) < len(names):
            return int(options.column)
        raise BatchError(f"{where}: no column {options.column!r}; the columns are {', '.join(map(repr, names))}")
    for column in range(len(names)):
        if any(column < len(row) and _looks_like_puzzle(row[column], options) for row in rows):
            return column
    raise BatchError(f"{where}: no column of puzzles found in the first {len(rows)} rows; name one with --column")


class CsvSource(Source):
    """A CSV (or TSV) file: one record per row, the puzzle in one column. A first row with no
    puzzle in it is a header (the Kaggle ``quizzes,solutions`` files have one)."""

    sample_rows = 20

    def __init__(self, path: str, options: BatchOptions, delimiter: str = ",") -> None:
        self.path = path
        self.options = options
        self.delimiter = delimiter
        self.handle = open(path, "rb")
        self.total = os.fstat(self.handle.fileno()).st_size
        lines = _CountingLines(self.handle, 0, 0)
        reader = csv.reader(lines, delimiter=delimiter)
        first = next(reader, None)
        self.data_offset, self.data_line = 0, 0
        if first is None:
            self.column, self.names = 0, []
            self.description = os.path.basename(path)
            return
        header_offset, header_line = lines.offset, lines.line
        sample = [row for _, row in zip(range(self.sample_rows), reader)]
        named = options.column is not None and options.column in first
        has_header = named or not any(_looks_like_puzzle(value, options) for value in first)
        if has_header:
            self.names = first
            self.data_offset, self.data_line = header_offset, header_line
        else:
            self.names = [str(k) for k in range(len(first))]
            sample.insert(0, first)
        self.column = _pick_column(self.names, sample, options, path)
        self.description = f"{os.path.basename(path)}, column {self.names[self.column]!r}"

    def identity(self) -> dict[str, Any]:
        return _file_identity(self.path)

    def chunks(self, start: Position) -> Iterator[Chunk]:
        size = self.options.chunk_size
        offset = max(start.offset, self.data_offset)
        line = start.line if start.offset else self.data_line
        self.handle.seek(offset)
        lines = _CountingLines(self.handle, offset, line)
        reader = csv.reader(lines, delimiter=self.delimiter)
        column = self.column
        texts: list[Any] = []
        numbers: list[int] = []
        index, chunk_number = start.records, start.records // size
        while True:
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as error:  # e.g. a NUL byte: the row is a bad record
                row = [None] * (column + 1)
                row[column] = _CsvProblem(str(error))
            if not row:
                continue  # a blank line is not a record
            texts.append(row[column] if column < len(row) else _CsvProblem(f"the row has {len(row)} field(s), no column {self.names[column]!r}"))
            numbers.append(lines.line)
            if len(texts) == size:
                yield Chunk(chunk_number, index, texts, numbers, end_position=lines.offset, end_line=lines.line)
                chunk_number, index, texts, numbers = chunk_number + 1, index + size, [], []
        if texts:
            yield Chunk(chunk_number, index, texts, numbers, end_position=lines.offset, end_line=lines.line)

    def close(self) -> None:
        self.handle.close()


class _CsvProblem(str):
    """A CSV row that has no puzzle to give: the worker reports the reason as the error."""

    __slots__ = ()


class ParquetSource(Source):
    """A Parquet file (needs pyarrow): one record per row of the puzzle column, read a
    chunk at a time; positions are row numbers."""

    def __init__(self, path: str, options: BatchOptions) -> None:
        pq = _require("pyarrow.parquet", "parquet", "Parquet input")
        self.path = path
        self.options = options
        self.file = pq.ParquetFile(path)
        self.total = self.file.metadata.num_rows
        names = list(self.file.schema_arrow.names)
        sample: list[list[Any]] = []
        if self.total:
            first = next(self.file.iter_batches(batch_size=20))
            sample = [list(row.values()) for row in first.to_pylist()]
        if not names:
            raise BatchError(f"{path}: no columns")
        self.column = _pick_column(names, sample, options, path)
        self.name = names[self.column]
        self.description = f"{os.path.basename(path)}, column {self.name!r}"

    def identity(self) -> dict[str, Any]:
        return _file_identity(self.path)

    def chunks(self, start: Position) -> Iterator[Chunk]:
        size = self.options.chunk_size
        row = 0
        index, chunk_number = start.records, start.records // size
        pending: list[Any] = []
        for group in range(self.file.num_row_groups):
            rows = self.file.metadata.row_group(group).num_rows
            if row + rows <= start.records:  # skip whole row groups already done
                row += rows
                continue
            for batch in self.file.iter_batches(batch_size=size, row_groups=[group], columns=[self.name]):
                values = batch.column(0).to_pylist()
                skip = max(0, start.records - row)
                row += len(values)
                pending.extend(values[skip:])
                while len(pending) >= size:
                    head, pending = pending[:size], pending[size:]
                    yield Chunk(chunk_number, index, head, range(index + 1, index + size + 1), end_position=index + size, end_line=index + size)
                    chunk_number, index = chunk_number + 1, index + size
        if pending:
            n = len(pending)
            yield Chunk(chunk_number, index, pending, range(index + 1, index + n + 1), end_position=index + n, end_line=index + n)


def _require(module: str, extra: str, what: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise BatchError(f"{what} needs {module.split('.')[0]}: pip install 'sudokit[{extra}]'") from None


# -- running chunks: in-process, worker processes, threads, a Dask cluster --------------------


class Executor:
    """Runs :func:`solve_chunk` somewhere; ``slots`` chunks may be in flight at once."""

    slots = 1

    def submit(self, chunk: Chunk, options: BatchOptions, encoding: str) -> Any:
        raise NotImplementedError  # pragma: no cover

    def cancel(self, futures: Iterable[Any]) -> None:
        pass

    def close(self) -> None:
        pass


class _Done:
    """A result computed on the spot, shaped like a future."""

    def __init__(self, value: ChunkResult) -> None:
        self.value = value

    def result(self) -> ChunkResult:
        return self.value

    def cancel(self) -> bool:
        return False


class InlineExecutor(Executor):
    """One worker: the main process solves each chunk itself (no start-up cost)."""

    def submit(self, chunk, options, encoding):
        return _Done(solve_chunk(chunk, options, encoding))


class PoolExecutor(Executor):
    """A ``concurrent.futures`` pool: worker processes (spawned, so that no thread of the
    parent is copied mid-flight) or threads (the kernels release the GIL)."""

    def __init__(self, workers: int, kind: str = "processes") -> None:
        import concurrent.futures as cf

        if kind == "threads":
            self.pool: Any = cf.ThreadPoolExecutor(workers, thread_name_prefix="sudokit")
        elif kind == "processes":
            import multiprocessing

            self.pool = cf.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init
            )
        else:
            raise ValueError(f"unknown executor kind {kind!r}; choose processes or threads")
        self.slots = 2 * workers

    def submit(self, chunk, options, encoding):
        return self.pool.submit(solve_chunk, chunk, options, encoding)

    def cancel(self, futures):
        for future in futures:
            future.cancel()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class WarmingPool(Executor):
    """Worker processes that cost a small input nothing: chunks are solved in this process
    until ``start_after`` seconds of solving are spent; then the pool starts, and this process
    goes on solving chunks itself until every worker has loaded the kernels (starting a worker
    process takes a second or more: an interpreter, numpy, numba, the compiled kernels)."""

    def __init__(self, workers: int, kind: str = "processes", start_after: float = 1.0) -> None:
        self.workers, self.kind, self.start_after = workers, kind, start_after
        self.pool: PoolExecutor | None = None
        self.warming: list[Any] = []
        self.spent = 0.0

    def _inline(self, chunk, options, encoding) -> _Done:
        began = time.perf_counter()
        done = _Done(solve_chunk(chunk, options, encoding))
        self.spent += time.perf_counter() - began
        return done

    def submit(self, chunk, options, encoding):
        if self.pool is None and self.spent < self.start_after:
            return self._inline(chunk, options, encoding)
        if self.pool is None:
            self.pool = PoolExecutor(self.workers, self.kind)
            self.warming = [self.pool.pool.submit(_load_kernels) for _ in range(self.workers)]
        if self.warming and not all(future.done() for future in self.warming):
            return self._inline(chunk, options, encoding)
        self.warming = []
        self.slots = self.pool.slots
        return self.pool.submit(chunk, options, encoding)

    def cancel(self, futures):
        if self.pool is not None:
            self.pool.cancel(futures)

    def close(self) -> None:
        if self.pool is None:
            return
        if self.warming:  # the input ended before the workers were up: do not wait for them
            processes = list((getattr(self.pool.pool, "_processes", None) or {}).values())
            self.pool.pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
        self.pool.close()


def _load_kernels() -> None:
    """Load the 9x9 batch kernel in a new worker (from numba's cache, or compiling it)."""
    from .batch import solve_batch

    solve_batch(np.zeros((1, 81), dtype=np.uint8))


def _worker_init() -> None:
    """Worker processes leave Ctrl-C to the main process, which stops them in order, and
    end themselves when it dies (``kill -9`` gives it no time to stop them)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="sudokit-parent-watch", daemon=True).start()


def default_workers() -> int:
    """``$SUDOKIT_WORKERS`` if set, else the CPUs this process may use."""
    value = os.environ.get(WORKERS_ENV)
    if value:
        try:
            workers = int(value)
        except ValueError:
            raise BatchError(f"{WORKERS_ENV} must be a whole number, not {value!r}") from None
        if workers < 1:
            raise BatchError(f"{WORKERS_ENV} must be at least 1, not {workers}")
        return workers
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def make_executor(workers: int | None = None, kind: str = "processes") -> Executor:
    """An executor for ``workers`` (default :func:`default_workers`): in-process for one,
    threads at once, processes once the input proves big (:class:`WarmingPool`)."""
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if workers == 1:
        return InlineExecutor()
    if kind == "processes":
        return WarmingPool(workers, kind)
    return PoolExecutor(workers, kind)


def ordered_results(
    chunks: Iterable[Chunk], executor: Executor, options: BatchOptions, encoding: str
) -> Iterator[ChunkResult]:
    """Chunk results in input order, with at most ``executor.slots`` chunks in flight (the
    input is read only as fast as results are taken: memory stays flat)."""
    pending: deque[Any] = deque()
    try:
        for chunk in chunks:
            pending.append(executor.submit(chunk, options, encoding))
            while len(pending) >= max(1, executor.slots):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        if pending:
            executor.cancel(pending)


# -- writing the output: sinks and the journal (main process) ---------------------------------


def _output_kind(path: str | None, output_format: str | None) -> str:
    if output_format:
        if output_format not in OUTPUT_FORMATS:
            raise BatchError(f"unknown output format {output_format!r}; choose one of {', '.join(OUTPUT_FORMATS)}")
        return output_format
    lower = (path or "").lower()
    if lower.endswith(".csv"):
        return "csv"
    if lower.endswith((".parquet", ".pq")):
        return "parquet"
    return "ndjson"


class Journal:
    """The sidecar ``OUTPUT.progress``: after every commit, the records and output bytes that
    are final and the input position to go on from, replaced atomically (temporary file, fsync,
    rename, fsync of the folder)."""

    def __init__(self, output: str) -> None:
        self.path = output + JOURNAL_SUFFIX
        self.folder = os.path.dirname(os.path.abspath(output))
        self.synced = False

    def load(self) -> dict[str, Any] | None:
        try:
            with open(self.path, encoding="utf-8") as handle:
                state = json.load(handle)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise BatchError(f"{self.path}: unreadable progress file ({error}); delete it and the output to start again") from None
        if not isinstance(state, dict) or state.get("sudokit_batch") != JOURNAL_VERSION:
            raise BatchError(f"{self.path}: not a progress file of this sudokit version; delete it and the output to start again")
        return state

    def save(self, state: dict[str, Any]) -> None:
        temporary = self.path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(state, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        # the folder is synced once, for the first journal; later a lost rename (power cut)
        # leaves the previous journal, which is still true: it counts fewer bytes, and the
        # rest of the output is cut off on resume
        if not self.synced:
            _sync_folder(self.folder)
            self.synced = True

    def remove(self) -> None:
        for path in (self.path, self.path + ".tmp"):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - not POSIX
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


class _Sink:
    """Where committed chunks go."""

    size = 0  #: output bytes committed

    def write(self, result: ChunkResult) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def sync(self) -> None:
        """Make what was written durable."""

    def close(self, complete: bool) -> None:
        pass


class _StreamSink(_Sink):
    """A binary stream (stdout): written and flushed per chunk, nothing to resume."""

    def __init__(self, stream, kind: str) -> None:
        self.stream = stream
        if kind == "csv":
            self.stream.write(_csv_header())

    def write(self, result: ChunkResult) -> None:
        assert result.payload is not None
        self.stream.write(result.payload)
        self.stream.flush()


class _FileSink(_Sink):
    """An NDJSON or CSV file written with ``os.write`` and synced per chunk, so that the
    journal never counts a byte the disk may not have."""

    def __init__(self, path: str, kind: str, size: int | None, durable: bool) -> None:
        self.durable = durable
        if size is None:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            self.size = 0
        else:
            try:
                self.fd = os.open(path, os.O_WRONLY)
            except FileNotFoundError:
                if size:
                    raise BatchError(f"{path}: the output of the interrupted run is gone; start again without --resume") from None
                self.fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
            actual = os.fstat(self.fd).st_size
            if actual < size:
                os.close(self.fd)
                raise BatchError(
                    f"{path}: {actual} bytes, but {size} were committed before the interruption; "
                    "the output was changed: start again without --resume"
                )
            os.ftruncate(self.fd, size)  # drop whatever was written after the last commit
            os.lseek(self.fd, size, os.SEEK_SET)
            self.size = size
        if self.size == 0 and kind == "csv":
            self._append(_csv_header())
            self.sync()

    def _append(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]
        self.size += len(data)

    def write(self, result: ChunkResult) -> None:
        assert result.payload is not None
        self._append(result.payload)

    def sync(self) -> None:
        if self.durable:
            os.fsync(self.fd)

    def close(self, complete: bool) -> None:
        os.close(self.fd)


class _ParquetSink(_Sink):
    """Parquet, one row group per chunk, into ``OUTPUT.partial`` renamed when complete (a
    Parquet file is unreadable until its footer is written, so it cannot be resumed)."""

    def __init__(self, path: str) -> None:
        pq = _require("pyarrow.parquet", "parquet", "Parquet output")
        self.path = path
        self.partial = path + ".partial"
        self.writer = pq.ParquetWriter(self.partial, _arrow_schema())

    def write(self, result: ChunkResult) -> None:
        assert result.columns is not None
        self.writer.write_table(_arrow_table(result.columns, result.first_index))

    def close(self, complete: bool) -> None:
        self.writer.close()
        if complete:
            os.replace(self.partial, self.path)


# -- the whole run ----------------------------------------------------------------------------

#: called after each commit with (records done, input position, summary)
ProgressCallback = Callable[[int, int, BatchSummary], None]


def solve_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    limit: int = 1,
    node_limit: int | None = None,
    shape: Shape | None = None,
    symbols: str | None = None,
    format: str | None = None,
    column: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    output_format: str | None = None,
    workers: int | None = None,
    threads: bool = False,
    executor: Executor | None = None,
    resume: bool = False,
    durable: bool = True,
    progress: ProgressCallback | None = None,
    on_start: Callable[[Source, Position], None] | None = None,
) -> BatchSummary:
    """Solve every record of ``input`` and write one result per record, in order, to
    ``output`` (NDJSON, or CSV / Parquet by extension or ``output_format``; stdout when None).

    ``workers`` processes (default ``$SUDOKIT_WORKERS``, else every CPU; threads with
    ``threads=True``) or a given ``executor`` (see :mod:`sudokit.distributed`) solve the
    chunks. With a file output a journal makes the run resumable: ``resume=True`` goes on
    from the last committed chunk of an interrupted run (and starts afresh when there is none).
    A KeyboardInterrupt stops the run after the chunks already committed; the summary says
    ``interrupted``.
    """
    options = BatchOptions(limit=limit, node_limit=node_limit, shape=shape, symbols=symbols,
                           format=format, column=column, chunk_size=chunk_size)
    out_path = None if output is None or os.fspath(output) == "-" else os.fspath(output)
    kind = _output_kind(out_path, output_format)
    if resume and out_path is None:
        raise BatchError("--resume needs an output file (-o)")
    if resume and os.fspath(input) == "-":
        raise BatchError("--resume needs an input file: stdin cannot be read again")
    if kind == "parquet" and out_path is None:
        raise BatchError("Parquet output needs an output file (-o)")
    if resume and kind == "parquet":
        raise BatchError("--resume works with NDJSON and CSV output; a Parquet file cannot be appended to")
    source = open_source(input, options)
    summary = BatchSummary(limit=options.limit)
    journal = Journal(out_path) if out_path is not None and kind != "parquet" else None
    start = Position()
    sink: _Sink | None = None
    owned = executor is None
    try:
        fingerprint = {"options": options.fingerprint(), "input": source.identity(), "output_format": kind}
        state = journal.load() if (journal is not None and resume) else None
        if state is not None:
            if state.get("fingerprint") != fingerprint:
                raise BatchError(
                    f"{journal.path}: the interrupted run read another input or used other options "  # type: ignore[union-attr]
                    f"({_difference(state.get('fingerprint'), fingerprint)}); start again without --resume"
                )
            start = Position(state["records"], state["offset"], state["line"])
            summary.counts.update(state["counts"])
            summary.resumed_at = start.records
        elif resume and os.path.exists(out_path):  # type: ignore[arg-type]
            raise BatchError(
                f"{out_path}: no progress file beside it, so nothing to resume (the run that wrote it "
                "finished, or was not a sudokit batch); start again without --resume"
            )

        def save(position: Position, output_bytes: int) -> None:
            if journal is not None:
                journal.save({
                    "sudokit_batch": JOURNAL_VERSION,
                    "fingerprint": fingerprint,
                    "records": position.records,
                    "offset": position.offset,
                    "line": position.line,
                    "output_bytes": output_bytes,
                    "counts": summary.counts,
                })

        encoding = "columns" if kind == "parquet" else kind
        if out_path is None:
            sink = _StreamSink(sys.stdout.buffer, kind)
        elif kind == "parquet":
            sink = _ParquetSink(out_path)
        else:
            # the journal first: a run killed before its first commit resumes from nothing
            save(start, 0 if state is None else state["output_bytes"])
            sink = _FileSink(out_path, kind, None if state is None else state["output_bytes"], durable)
            save(start, sink.size)
        if on_start is not None:
            on_start(source, start)
        if executor is None:
            executor = make_executor(workers, "threads" if threads else "processes")

        def commit(results: list[ChunkResult]) -> None:
            """Append chunks, sync, then record them: the journal never counts a byte the
            disk may not have. Runs on the writer thread."""
            assert sink is not None
            for result in results:
                sink.write(result)
            sink.sync()
            for result in results:
                summary.add(result)
            last = results[-1]
            position = Position(last.first_index + last.size, last.end_position, last.end_line)
            save(position, sink.size)
            if progress is not None:
                progress(position.records, position.offset, summary)

        began = time.perf_counter()
        writer = _Writer(commit, depth=max(2, executor.slots))
        try:
            for result in ordered_results(source.chunks(start), executor, options, encoding):
                writer.put(result)
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            writer.finish()  # commits what was solved; raises what went wrong in writing
        summary.elapsed = time.perf_counter() - began
        if not summary.interrupted:
            sink.close(complete=True)
            sink = None
            if journal is not None:
                journal.remove()
        return summary
    finally:
        if sink is not None:
            sink.close(complete=False)
        if owned and executor is not None:
            executor.close()
        source.close()


class _Writer:
    """Commits results on a thread of its own, so that writing and syncing the disk overlap
    solving. Results that queue up while a sync runs are committed together (one sync, one
    journal update for all of them)."""

    def __init__(self, commit: Callable[[list[ChunkResult]], None], depth: int) -> None:
        import queue
        import threading

        self._commit = commit
        self._queue: Any = queue.Queue(maxsize=depth)
        self._full = queue.Full
        self._empty = queue.Empty
        self.error: BaseException | None = None
        self._raised = False
        self._thread = threading.Thread(target=self._run, name="sudokit-writer", daemon=True)
        self._thread.start()

    def put(self, item: ChunkResult | None) -> None:
        """Queue a result; raises what went wrong in writing, if anything did."""
        while True:
            if self.error is not None and item is not None and not self._raised:
                self._raised = True
                raise self.error
            if not self._thread.is_alive():
                return
            try:
                self._queue.put(item, timeout=0.1)
                return
            except self._full:
                continue

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while batch[-1] is not None:
                try:
                    batch.append(self._queue.get_nowait())
                except self._empty:
                    break
            results = [item for item in batch if item is not None]
            try:
                if results:
                    self._commit(results)
            except BaseException as error:  # noqa: BLE001 - handed to the main thread
                self.error = error
                return
            if batch[-1] is None:
                return

    def finish(self) -> None:
        """Commit what is queued and stop; raises what went wrong in writing (once)."""
        self.put(None)
        self._thread.join()
        if self.error is not None and not self._raised:
            self._raised = True
            raise self.error


def _difference(old: Any, new: dict[str, Any]) -> str:
    if not isinstance(old, dict):
        return "unknown settings"
    changed = []
    for group in new:
        a, b = old.get(group), new[group]
        if isinstance(a, dict) and isinstance(b, dict):
            changed += [f"{key}: {a.get(key)!r} then, {b.get(key)!r} now" for key in sorted(set(a) | set(b)) if a.get(key) != b.get(key)]
        elif a != b:
            changed.append(f"{group}: {a!r} then, {b!r} now")
    return "; ".join(changed) or "unknown settings"


# -- the Python API over the same chunks ------------------------------------------------------


def iter_results(
    input: str | os.PathLike,
    *,
    limit: int = 1,
    node_limit: int | None = None,
    shape: Shape | None = None,
    symbols: str | None = None,
    format: str | None = None,
    column: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    workers: int | None = 1,
    threads: bool = False,
    executor: Executor | None = None,
) -> Iterator[RecordResult]:
    """Every record of a file as a :class:`RecordResult`, in order, read and solved a chunk
    at a time (``workers=None`` uses every CPU).

    >>> for result in iter_results("puzzles.csv", limit=2):  # doctest: +SKIP
    ...     print(result.index, result.status, result.solution)
    """
    options = BatchOptions(limit=limit, node_limit=node_limit, shape=shape, symbols=symbols,
                           format=format, column=column, chunk_size=chunk_size)
    source = open_source(input, options)
    owned = executor is None
    run = executor or make_executor(workers, "threads" if threads else "processes")
    try:
        for result in ordered_results(source.chunks(Position()), run, options, "columns"):
            yield from result.results()
    finally:
        if owned:
            run.close()
        source.close()


def solve_column(
    values: Any,
    *,
    limit: int = 1,
    node_limit: int | None = None,
    shape: Shape | None = None,
    symbols: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    workers: int | None = 1,
    threads: bool = False,
    executor: Executor | None = None,
) -> Any:
    """Solve a column of one-line puzzles: a pandas Series gives a DataFrame on the same index,
    a pyarrow Array or ChunkedArray gives a pyarrow Table, any other sequence of strings a list
    of :class:`RecordResult`. Columns: ``puzzle``, ``status``, ``solution``, ``count``,
    ``guesses``, ``error`` (the Table also has ``index``); missing values are bad records.

    >>> import pandas as pd  # doctest: +SKIP
    >>> solve_column(pd.read_csv("sudoku.csv")["quizzes"])  # doctest: +SKIP
    """
    options = BatchOptions(limit=limit, node_limit=node_limit, shape=shape, symbols=symbols, chunk_size=chunk_size)
    library = type(values).__module__.split(".")[0]
    if library == "pandas":
        items = values.tolist()
    elif library == "pyarrow":
        items = values.to_pylist()
    else:
        items = list(values)
    items = [None if isinstance(item, float) and item != item else item for item in items]  # NaN
    chunks = (
        Chunk(number, start, items[start : start + chunk_size], range(start + 1, start + chunk_size + 1))
        for number, start in enumerate(range(0, len(items), chunk_size))
    )
    owned = executor is None
    run = executor or make_executor(workers, "threads" if threads else "processes")
    try:
        results = list(ordered_results(chunks, run, options, "columns"))
    finally:
        if owned:
            run.close()
    if library == "pyarrow":
        import pyarrow as pa

        tables = [_arrow_table(r.columns, r.first_index) for r in results]  # type: ignore[arg-type]
        return pa.concat_tables(tables) if tables else _arrow_schema().empty_table()
    records = [record for r in results for record in r.results()]
    if library != "pandas":
        return records
    import pandas as pd

    frame = pd.DataFrame(
        {
            "puzzle": pd.array([r.puzzle for r in records], dtype="string"),
            "status": pd.array([r.status for r in records], dtype="string"),
            "solution": pd.array([r.solution for r in records], dtype="string"),
            "count": pd.array([r.count for r in records], dtype="Int64"),
            "guesses": pd.array([r.guesses for r in records], dtype="Int64"),
            "error": pd.array([r.error for r in records], dtype="string"),
        },
        index=values.index,
    )
    return frame
