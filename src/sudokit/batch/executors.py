"""Running chunks: in this process, in worker processes or threads (a Dask cluster is
``cluster.DaskExecutor``). Results come back in input order, with at most ``slots`` chunks in
flight, so memory stays flat whatever the size of the input."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from typing import Any, Iterable, Iterator

import numpy as np

from .. import engines
from ..arrays import solve_batch
from ..threads import thread_pool
from .chunks import WORKERS_ENV, BatchError, BatchOptions, Chunk, ChunkResult
from .work import solve_chunk


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
        # start-up cost: concurrent.futures and multiprocessing take 40 ms to import, more
        # than a whole one-puzzle run needs, so only a run with workers pays it
        import concurrent.futures as cf
        import multiprocessing

        if kind == "threads":
            self.pool: Any = thread_pool(workers, "sudokit")
        elif kind == "processes":
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
    solve_batch(np.zeros((1, 81), dtype=np.uint8))


def _worker_init() -> None:
    """Worker processes leave Ctrl-C to the main process, which stops them in order, and
    end themselves when it dies (``kill -9`` gives it no time to stop them)."""
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
    return engines.cpus()


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


