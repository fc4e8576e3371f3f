"""Work on threads, the one place that starts a pool of them: the compiled kernels release the
GIL, so threads run them side by side (ratings, generation's rounds, the web page's calls, a
batch with ``threads=True``).

``concurrent.futures`` is imported only when a pool starts: it takes 26 ms, more than a
one-puzzle run needs, and only work on threads needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Executor

T = TypeVar("T")
R = TypeVar("R")


def thread_pool(threads: int, name: str) -> Executor:
    """A pool of ``threads`` threads named ``name_0``, ``name_1``, ... (the caller shuts it
    down, or uses it in a ``with``)."""
    # start-up cost: concurrent.futures takes 26 ms to import; only threads need it
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(threads, thread_name_prefix=name)


def thread_map(function: Callable[[T], R], items: Sequence[T], threads: int, name: str) -> list[R]:
    """``function`` of every item, in order: on a pool of ``threads`` threads (``name``) where
    there are at least two threads and two items, else here, without a pool."""
    if threads < 2 or len(items) < 2:
        return [function(item) for item in items]
    with thread_pool(threads, name) as pool:
        return list(pool.map(function, items))
