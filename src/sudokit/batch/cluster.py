"""Batch files on a Dask cluster: the same chunks as on one machine, the same output bytes.

The client process reads the input and writes the output (so the workers need no access to
either file); every chunk travels to a worker, which parses, solves and encodes it with
:func:`sudokit.batch.work.solve_chunk`, exactly what a local worker runs, so the output is
byte for byte the local run's. Resuming works as locally (``resume=True``).

>>> from dask.distributed import Client  # doctest: +SKIP
>>> from sudokit.batch.cluster import solve_file  # doctest: +SKIP
>>> with Client("scheduler:8786") as client:  # doctest: +SKIP
...     summary = solve_file(client, "puzzles.txt", "solutions.ndjson", limit=2)

Needs the ``dask`` extra (``pip install 'sudokit[dask]'``); the workers need sudokit
installed. Nothing here imports dask until it is used.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterable, Iterator

from . import run
from .chunks import BatchError, BatchOptions, BatchSummary, Chunk, RecordResult
from .executors import Executor, default_workers
from .work import solve_chunk


class DaskExecutor(Executor):
    """Runs chunks on a ``dask.distributed`` client's cluster, ``slots`` at a time (default
    two per worker thread, so that every thread has the next chunk waiting)."""

    def __init__(self, client: Any, slots: int | None = None) -> None:
        self.client = client
        threads = sum(client.nthreads().values()) or 1
        self.slots = slots or 2 * threads

    def submit(self, chunk: Chunk, options: BatchOptions, encoding: str) -> Any:
        # pure=False: two chunks with the same text are still two tasks
        return self.client.submit(solve_chunk, chunk, options, encoding, pure=False)

    def cancel(self, futures: Iterable[Any]) -> None:
        self.client.cancel(list(futures))


def solve_file(
    client: Any,
    input_path: str | os.PathLike,
    output_path: str | os.PathLike | None = None,
    **options: Any,
) -> BatchSummary:
    """:func:`sudokit.batch.solve_file` with the chunks solved on ``client``'s cluster;
    ``options`` are the same (``limit``, ``resume``, ``chunk_size``, ``column``, ...)."""
    if "workers" in options or "threads" in options or "executor" in options:
        raise TypeError("the cluster decides the workers: pass no workers, threads or executor")
    return run.solve_file(input_path, output_path, executor=DaskExecutor(client), **options)


def iter_results(client: Any, input_path: str | os.PathLike, **options: Any) -> Iterator[RecordResult]:
    """:func:`sudokit.batch.iter_results` with the chunks solved on ``client``'s cluster."""
    return run.iter_results(input_path, executor=DaskExecutor(client), **options)


@contextlib.contextmanager
def connect(address: str, workers: int | None = None) -> Iterator[Any]:
    """A client for ``address`` (``tcp://host:8786``, or a scheduler file ending in ``.json``),
    or for a new local cluster of ``workers`` single-threaded processes when ``address`` is
    ``local``; closed (with the local cluster) on leaving the block."""
    try:
        from dask.distributed import (  # an optional extra (sudokit[dask])
            Client,
            LocalCluster,
        )
    except ImportError:
        raise BatchError("a Dask cluster needs dask.distributed: pip install 'sudokit[dask]'") from None
    if address == "local":
        n_workers = workers or default_workers()
        with LocalCluster(n_workers=n_workers, threads_per_worker=1) as cluster, Client(cluster) as client:
            yield client
        return
    options = {"scheduler_file": address} if address.endswith(".json") else {"address": address}
    with Client(**options) as client:
        yield client
