"""Making puzzles at scale: the generator's seeded stream written to a file, its rounds carved
on this machine's threads or on a Dask cluster, resumable after an interruption.

A seed fixes every round (round ``r`` draws from ``default_rng([seed, r])``) and the stream
takes the rounds in order, so the file is byte for byte the one ``sudokit generate`` writes
locally with the same seed, wherever the rounds ran. After each round the file is synced and
the journal ``OUTPUT.progress`` (the one ``sudokit batch`` keeps) records the next round, the
puzzles and bytes written and the budget spent; resuming cuts the file back to what the journal
counts and goes on from that round.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from .batch.chunks import BatchError
from .batch.output import JOURNAL_VERSION, Journal
from .formats import format_board
from .generator import DEFAULT_ATTEMPTS, _request, _round, _stream, _Tally, cpu_workers

#: rounds a cluster task carves (a 9x9 round of 32 puzzles takes about 20 ms: one task a
#: round spent more time travelling than carving)
ROUNDS_PER_TASK = 8


@dataclass
class Made:
    """What :func:`generate_file` wrote."""

    puzzles: int = 0  #: puzzles in the file, those of an interrupted run included
    rounds: int = 0  #: rounds of the stream taken
    resumed_at: int | None = None  #: the puzzles already written when this run resumed


def generate_file(
    output: str | os.PathLike,
    count: int | None = 1,
    *,
    output_format: str = "line",
    client: Any = None,
    workers: int | None = None,
    resume: bool = False,
    on_puzzle: Callable[[int], None] | None = None,
    shape: Any = "9x9",
    symmetry: str | None = None,
    clues: int | None = None,
    minimal: bool | str = True,
    level: Any = None,
    score: Any = None,
    seed: int | None = None,
    attempts: int | None = None,
    time_limit: float | None = None,
    mixing: int = 0,
) -> Made:
    """Write ``count`` puzzles (None: until interrupted or out of budget) to ``output`` in
    ``output_format``, as ``generate_iter`` makes them with the same arguments; the rounds run
    on ``client``'s Dask cluster where one is given, else on ``workers`` threads. ``resume``
    goes on from the journal an interrupted run left (it needs the same arguments, a seed
    among them). ``on_puzzle(total)`` runs after each puzzle is written. Raises
    :class:`sudokit.GenerationError` as ``generate_iter`` does (the file keeps what was made),
    and :class:`sudokit.batch.BatchError` for a run that cannot resume."""
    path = os.fspath(output)
    request = _request(shape, symmetry, clues, minimal, level, score, seed, mixing)
    if resume and seed is None:
        raise BatchError("resuming needs a seed: without one the puzzles would not be the same", "seed")
    per_puzzle = DEFAULT_ATTEMPTS if attempts is None else int(attempts)
    fingerprint = {
        "generate": [request.shape.name, request.symmetry, request.clues, request.minimal, request.strict,
                     sorted(level.value for level in request.levels) if request.levels else None,
                     list(request.score) if request.score else None, seed, request.mixing, count, per_puzzle],
        "output_format": output_format,
    }
    journal = Journal(path)
    state = journal.load() if resume else None
    made = Made()
    start = None
    if state is not None:
        if state.get("fingerprint") != fingerprint:
            raise BatchError(f"{journal.path}: the interrupted run was asked for other puzzles; start again without resuming", "resume")
        tally = _Tally(**state["tally"])
        start = (state["round"], state["puzzles"], tally)
        made.puzzles = made.resumed_at = state["puzzles"]
        made.rounds = state["round"]
    elif resume and os.path.exists(path):
        raise BatchError(f"{path}: no progress file beside it, so nothing to resume; start again without resuming", "resume")
    fd = _open(path, None if state is None else state["output_bytes"])
    size = os.fstat(fd).st_size

    def commit(next_round: int, puzzles: int, tally: _Tally) -> None:
        os.fsync(fd)
        made.rounds, made.puzzles = next_round, puzzles
        if seed is not None:
            journal.save({"sudokit_batch": JOURNAL_VERSION, "fingerprint": fingerprint, "round": next_round,
                          "puzzles": puzzles, "output_bytes": size, "tally": tally.__dict__})

    if client is not None:
        pool: Any = _Grouped(client)
        threads = (sum(client.nthreads().values()) or 1) * ROUNDS_PER_TASK
    else:
        pool, threads = None, max(1, workers or cpu_workers())
    stream = _stream(request, count, per_puzzle, time_limit, threads, pool=pool, resume=start, on_round=commit)
    try:
        written = made.puzzles
        for board in stream:
            data = format_board(board, output_format).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            size += len(data)
            written += 1
            if on_puzzle is not None:
                on_puzzle(written)
    finally:
        os.close(fd)
    journal.remove()
    return made


def _open(path: str, committed: int | None) -> int:
    """The output's descriptor: a new file, or the interrupted one cut back to ``committed``."""
    if committed is None:
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
    actual = os.fstat(fd).st_size
    if actual < committed:
        os.close(fd)
        raise BatchError(f"{path}: {actual} bytes, but {committed} were committed before the interruption; "
                         "start again without resuming", "resume")
    os.ftruncate(fd, committed)
    os.lseek(fd, committed, os.SEEK_SET)
    return fd


def _rounds(request: Any, first: int, count: int) -> list[Any]:
    """Rounds ``first`` to ``first + count - 1``: one task on the cluster."""
    return [_round(request, index) for index in range(first, first + count)]


class _Grouped:
    """A Dask client seen as the pool ``_stream`` takes: round ``i`` is part of the task that
    carves the ``ROUNDS_PER_TASK`` rounds from ``i - i % ROUNDS_PER_TASK``."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.first = -1
        self.task: Any = None

    def submit(self, function: Callable, request: Any, index: int, deadline: float | None = None) -> _Part:
        # ``deadline`` is this process's clock and means nothing on a worker: its rounds run whole
        first = index - index % ROUNDS_PER_TASK
        if first != self.first:
            self.first = first
            self.task = self.client.submit(_rounds, request, first, ROUNDS_PER_TASK, pure=False)
        return _Part(self.task, index - first)


class _Part:
    """One round of a task, shaped like a future."""

    def __init__(self, task: Any, offset: int) -> None:
        self.task, self.offset = task, offset

    def result(self) -> Any:
        return self.task.result()[self.offset]

    def cancel(self) -> None:
        self.task.cancel()
