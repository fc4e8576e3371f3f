"""First compiles that keep a caller's deadline.

A kernel family that was not compiled ahead of time compiles on its first call: seconds for a
search kernel, minutes for Sudoku Explainer's. A time limit is a promise, the first call
included, so here each family's first compile runs on a daemon thread, once however many
callers ask, and a caller with a deadline waits for it only until then; its answer is then
"unknown", as when a search runs out of time, and the compile goes on for the next call. A caller
with no deadline compiles in line, as it always did (numba's compiler lock makes the two meet).

The modules that own a family register it (:func:`register`): its name, whether a first call
would compile now, and how to compile it (a small run with no deadline). Callers ask
:func:`ready`.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Family:
    """One kernel family's first compile."""

    name: str
    what: str  #: how the notice on stderr names it ("the Sudoku Explainer kernels")
    needed: Callable[[], bool]  #: whether a first call would compile now (not cached, not ahead of time)
    warm: Callable[[], object]  #: compile it: a small run with no deadline
    done: threading.Event = field(default_factory=threading.Event)
    failure: list[BaseException] = field(default_factory=list)
    thread: threading.Thread | None = None
    told: bool = False  #: the "still compiling at the time limit" notice went out
    lock: threading.Lock = field(default_factory=threading.Lock)

    def _compile(self) -> None:
        try:
            self.warm()
        except BaseException as error:  # noqa: BLE001 - handed to the callers, who raise it
            self.failure.append(error)
        finally:
            self.done.set()

    def _outcome(self) -> bool:
        if self.failure:
            raise self.failure[0]
        return True

    def ready(self, deadline: float | None, quiet: bool = False) -> bool:
        """Whether the family can be called now without compiling past ``deadline`` (a
        ``time.perf_counter()`` reading; None: no deadline, the caller may compile in line).
        Where it must compile, start that on a thread and wait for it until the deadline
        (``quiet``: a caller with something else to do says nothing when it is not done)."""
        if self.done.is_set():
            return self._outcome()
        if deadline is None:
            return True
        with self.lock:
            if self.thread is None:
                if not self.needed():
                    self.done.set()
                    return True
                self.thread = threading.Thread(target=self._compile, name=f"sudokit-compile-{self.name}", daemon=True)
                self.thread.start()
        if self.done.wait(max(0.0, deadline - time.perf_counter())):
            return self._outcome()
        if not quiet:
            self._tell()
        return False

    def _tell(self) -> None:
        if self.told or os.environ.get("SUDOKIT_QUIET"):
            return
        self.told = True
        print(
            f"sudokit: the time limit came while {self.what} compiled for the first time, so the answer "
            "is 'unknown' (`sudokit warmup`, or a run with no time limit, compiles and caches them once)",
            file=sys.stderr,
            flush=True,
        )


_families: dict[str, Family] = {}


def register(name: str, what: str, needed: Callable[[], bool], warm: Callable[[], object]) -> Family:
    """Declare family ``name`` (once; a second registration keeps the first)."""
    return _families.setdefault(name, Family(name, what, needed, warm))


def ready(name: str, deadline: float | None, quiet: bool = False) -> bool:
    """Whether family ``name`` can run now without compiling past ``deadline`` (see
    :meth:`Family.ready`)."""
    return _families[name].ready(deadline, quiet)


def family(name: str) -> Family:
    """The registered family ``name`` (tests replace its parts)."""
    return _families[name]
