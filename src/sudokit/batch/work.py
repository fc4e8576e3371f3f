"""What every worker runs on a chunk: parse its records, solve them in one compiled call per
shape, encode the results (:func:`solve_chunk`)."""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np

from .. import engines
from ..board import Record
from ..errors import FormatError
from ..formats import line as line_format
from ..formats import value_table
from ..logic import rate_batch
from ..logic.scales import ALL
from ..kernels.search import protocol as P
from ..results import ERROR, STATUSES, status_codes, status_of
from ..shape import Shape
from ..arrays import solve_batch
from .chunks import BatchOptions, Chunk, ChunkResult, SourceProblem
from .encoders import encode_csv, encode_ndjson

#: value of each byte of a 9x9 one-line puzzle: 0 empty, 1-9, 255 anything else
_DIGITS = value_table("123456789")
#: bytes that write the values 0..9 of a 9x9 solution
_WRITE9 = np.frombuffer(b".123456789", dtype=np.uint8)
_CLASSIC = Shape(3, 3)


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
        result.payload = encode_ndjson(columns, chunk.first_index)
    elif encoding == "csv":
        result.payload = encode_csv(columns, chunk.first_index)
    elif encoding == "columns":
        result.columns = columns
    else:
        raise ValueError(f"unknown encoding {encoding!r}")
    result.elapsed = time.perf_counter() - start
    return result


#: a board to solve: its values, the alphabet that writes them
_Group = dict[tuple[Shape, str], list[tuple[int, np.ndarray]]]


def _solve_texts(texts: Sequence[Any], lines: Sequence[int], options: BatchOptions) -> dict[str, Any]:
    """Columns for one-line records: 9x9 lines of ``1-9 . 0 -`` are read by numpy in one go,
    every other record by the line parser, which also explains bad records."""
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
            elif isinstance(text, SourceProblem):
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
    """Columns for records the main process already parsed (the block formats, and the
    variant formats, whose boards each carry their own rules and are searched one by one)."""
    size = len(records)
    puzzles: list[str] = []
    errors: dict[int, str] = {}
    groups: _Group = {}
    variants: list[int] = []
    for k, record in enumerate(records):
        if record.board is None:
            puzzles.append(record.text)
            errors[k] = str(record.error)
            continue
        if not record.board.plain:
            puzzles.append(record.text.strip())
            variants.append(k)
            continue
        puzzles.append(record.board.to_line())
        groups.setdefault((record.board.shape, record.board.symbols), []).append((k, record.board.cells))
    columns = _solve_groups(size, puzzles, np.zeros(size, dtype=bool), np.zeros((0, 81), np.uint8), groups, errors, options)
    for k in variants:
        _solve_variant(k, records[k], options, columns)
    return columns


def _solve_variant(k: int, record: Record, options: BatchOptions, columns: dict[str, Any]) -> None:
    """Search one variant board (its houses, cages and candidates its own) into row ``k`` of
    the columns, as ``solve_batch`` would have: the same statuses, counts and guesses."""
    board = record.board
    assert board is not None
    if engines.repeats_a_given(board):
        found, exhausted, guesses, solution = 0, True, 0, None
    else:
        search = engines.search_for(board)
        code = search.run(options.limits)
        found, exhausted, guesses = search.count, code == P.DONE, search.guesses
        solution = search.solution().to_line() if found else None
    columns["status"][k] = STATUSES.index(status_of(found, exhausted, options.limit, counting=True).value)
    columns["count"][k] = found
    columns["guesses"][k] = guesses
    columns["solution"][k] = solution
    for name in ("level", "score"):
        if name in columns:
            columns[name][k] = None  # the technique engine rates rows, columns and boxes only


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
    status = np.full(size, ERROR, dtype=np.int8)
    counts = np.full(size, -1, dtype=np.int64)
    guesses = np.full(size, -1, dtype=np.int64)
    solutions: list[str | None] = [None] * size

    def run(positions: np.ndarray, values: np.ndarray, shape: Shape, alphabet: str | None) -> None:
        result = solve_batch(
            values, options.limit, shape=shape, node_limit=options.node_limit, time_limit=options.time_limit
        )
        found = result.counts
        status[positions] = status_codes(found, result.exhausted, options.limit, counting=True)
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
    columns = {
        "puzzle": puzzles,
        "status": status,
        "solution": solutions,
        "count": counts,
        "guesses": guesses,
        "error": errors,
    }
    if options.rate:
        columns.update(_ratings(size, fast, fast_values, groups, options))
    return columns


def _ratings(size: int, fast: np.ndarray, fast_values: np.ndarray, groups: _Group, options: BatchOptions) -> dict[str, list]:
    """The rating columns: each puzzle with exactly one solution rated on HoDoKu's scale and
    (9x9) Sudoku Explainer's, within the record's budget (``rate_batch`` proves uniqueness
    itself), None for every other record: the rating's record (``Rating.to_json``), its fields
    that are ``ALL.columns``."""
    columns: dict[str, list] = {name: [None] * size for name in ALL.columns}
    batches = [(np.flatnonzero(fast), fast_values, _CLASSIC)] if len(fast_values) else []
    for (shape, _), members in groups.items():
        batches.append((np.array([k for k, _ in members]), np.stack([cells for _, cells in members]), shape))
    for positions, values, shape in batches:
        limits = options.limits  # each in its unit: nodes for the proofs, potentials for SE
        ratings = rate_batch(values, shape=shape, workers=1, scale=ALL, time_limit=limits.time_limit,
                             node_limit=limits.node_limit, potential_limit=limits.potential_limit)
        for k, rating in zip(positions.tolist(), ratings):
            record = rating.to_json()
            for name, column in columns.items():
                column[k] = record[name]
    return columns