"""A whole batch run: :func:`solve_file` (what ``sudokit batch`` runs), and the Python API
over the same chunks, :func:`iter_results` and :func:`solve_column`."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from typing import Any, Callable, Iterator

from ..shape import Shape, ShapeLike
from .chunks import (
    DEFAULT_CHUNK_SIZE,
    BatchError,
    BatchOptions,
    BatchSummary,
    Chunk,
    ChunkResult,
    RecordResult,
)
from .encoders import arrow_schema, arrow_table
from .executors import Executor, make_executor, ordered_results
from .output import (
    JOURNAL_VERSION,
    FileSink,
    Journal,
    ParquetSink,
    Sink,
    StreamSink,
    output_kind,
)
from .sources import Position, Source, open_source

#: called after each commit with (records done, input position, summary)
ProgressCallback = Callable[[int, int, BatchSummary], None]


def solve_file(
    input: str | os.PathLike,
    output: str | os.PathLike | None = None,
    *,
    limit: int = 1,
    node_limit: int | None = None,
    potential_limit: int | None = None,
    time_limit: float | None = None,
    rate: bool = False,
    shape: ShapeLike | None = None,
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
    ``threads=True``) or a given ``executor`` (see :mod:`sudokit.batch.cluster`) solve the
    chunks. With a file output a journal makes the run resumable: ``resume=True`` goes on
    from the last committed chunk of an interrupted run (and starts afresh when there is none).
    A KeyboardInterrupt stops the run after the chunks already committed; the summary says
    ``interrupted``.
    """
    options = BatchOptions(limit=limit, node_limit=node_limit, time_limit=time_limit, potential_limit=potential_limit, rate=rate, shape=Shape.of(shape),
                           symbols=symbols, format=format, column=column, chunk_size=chunk_size)
    out_path = None if output is None or os.fspath(output) == "-" else os.fspath(output)
    kind = output_kind(out_path, output_format)
    if resume and out_path is None:
        raise BatchError("resuming needs an output file", "output")
    if resume and os.fspath(input) == "-":
        raise BatchError("resuming needs an input file: stdin cannot be read again", "resume")
    if kind == "parquet" and out_path is None:
        raise BatchError("Parquet output needs an output file", "output")
    if resume and kind == "parquet":
        raise BatchError("resuming works with NDJSON and CSV output; a Parquet file cannot be appended to", "resume")
    source = open_source(input, options)
    summary = BatchSummary(limit=options.limit)
    journal = Journal(out_path) if out_path is not None and kind != "parquet" else None
    start = Position()
    sink: Sink | None = None
    owned = executor is None
    try:
        fingerprint = {"options": options.fingerprint(), "input": source.identity(), "output_format": kind}
        state = journal.load() if (journal is not None and resume) else None
        if state is not None:
            if state.get("fingerprint") != fingerprint:
                raise BatchError(
                    f"{journal.path}: the interrupted run read another input or used other options "  # type: ignore[union-attr]
                    f"({_difference(state.get('fingerprint'), fingerprint)}); start again without resuming",
                    "resume",
                )
            start = Position(state["records"], state["offset"], state["line"])
            summary.counts.update(state["counts"])
            summary.resumed_at = start.records
        elif resume and os.path.exists(out_path):  # type: ignore[arg-type]
            raise BatchError(
                f"{out_path}: no progress file beside it, so nothing to resume (the run that wrote it "
                "finished, or was not a sudokit batch); start again without resuming",
                "resume",
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
            sink = StreamSink(sys.stdout.buffer, kind, options.rate)
        elif kind == "parquet":
            sink = ParquetSink(out_path, options.rate)
        else:
            # the journal first: a run killed before its first commit resumes from nothing
            save(start, 0 if state is None else state["output_bytes"])
            sink = FileSink(out_path, kind, None if state is None else state["output_bytes"], durable, options.rate)
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
    potential_limit: int | None = None,
    time_limit: float | None = None,
    rate: bool = False,
    shape: ShapeLike | None = None,
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
    options = BatchOptions(limit=limit, node_limit=node_limit, time_limit=time_limit, potential_limit=potential_limit, rate=rate, shape=Shape.of(shape),
                           symbols=symbols, format=format, column=column, chunk_size=chunk_size)
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
    potential_limit: int | None = None,
    time_limit: float | None = None,
    rate: bool = False,
    shape: ShapeLike | None = None,
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
    options = BatchOptions(limit=limit, node_limit=node_limit, time_limit=time_limit, potential_limit=potential_limit, rate=rate, shape=Shape.of(shape),
                           symbols=symbols, chunk_size=chunk_size)
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
        import pyarrow as pa  # an optional extra; a pyarrow column means it is installed

        tables = [arrow_table(r.columns, r.first_index) for r in results]  # type: ignore[arg-type]
        return pa.concat_tables(tables) if tables else arrow_schema(options.rate).empty_table()
    records = [record for r in results for record in r.results()]
    if library != "pandas":
        return records
    import pandas as pd  # an optional extra; a pandas column means it is installed

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
    if rate:
        frame["level"] = pd.array([r.level for r in records], dtype="string")
        frame["score"] = pd.array([r.score for r in records], dtype="Int64")
    return frame
