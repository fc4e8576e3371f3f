"""First compiles that keep a caller's deadline.

A kernel family that was not compiled ahead of time compiles on its first call: seconds for a
search kernel, minutes for Sudoku Explainer's. A time limit is a promise, the first call
included, so here each family's first compile runs on a daemon thread, once however many
callers ask, and a caller with a deadline waits for it only until then; its answer is then
"unknown", as when a search runs out of time, and the compile goes on for the next call. A caller
with no deadline compiles in line, as it always did (numba's compiler lock makes the two meet).

A daemon thread dies with its process, and a compile lost that way is paid again by the next
run, and the next: a command run with a time limit shorter than the compile would never get it
cached. So a process that ends while a family still compiles hands the compile over, at exit,
to a detached process of its own (``python -m sudokit.warming``) that finishes it into numba's
cache, one at a time a family (a lock file), and prints nothing.

The modules that own a family register it (:func:`register`): its name, whether a first call
would compile now, and how to compile it (a small run with no deadline). Callers ask
:func:`ready`.
"""

from __future__ import annotations

import atexit
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
    module: str = ""  #: the module that registers it, which a process finishing its compile imports
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
            "is 'unknown'; the compile goes on, in the background if this run ends first, and is "
            "cached for the next run (`sudokit warmup` compiles every kernel once)",
            file=sys.stderr,
            flush=True,
        )


_families: dict[str, Family] = {}


def register(name: str, what: str, needed: Callable[[], bool], warm: Callable[[], object], module: str) -> Family:
    """Declare family ``name``, registered by ``module`` (its ``__name__``) once; a second
    registration keeps the first."""
    return _families.setdefault(name, Family(name, what, needed, warm, module))


def ready(name: str, deadline: float | None, quiet: bool = False) -> bool:
    """Whether family ``name`` can run now without compiling past ``deadline`` (see
    :meth:`Family.ready`)."""
    return _families[name].ready(deadline, quiet)


def family(name: str) -> Family:
    """The registered family ``name`` (tests replace its parts)."""
    return _families[name]


# -- a compile that outlives its process ---------------------------------------------------------

#: set to 0 to let a compile end with its process (it is then paid again by the next run)
BACKGROUND = "SUDOKIT_BACKGROUND_COMPILE"


@atexit.register
def _hand_over() -> None:
    """At exit: each family still compiling goes on in a detached process (see the module's
    docstring). Python runs this before it stops the daemon threads."""
    compiling = [f for f in _families.values() if f.thread is not None and not f.done.is_set() and f.module]
    if not compiling or os.environ.get(BACKGROUND, "1") == "0" or not sys.executable:  # (an embedded interpreter)
        return
    import subprocess  # (at exit only: every warm command would pay its import otherwise)

    # the folder this sudokit was imported from goes first, as it may not be on the path a new
    # interpreter starts with
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
    for family in compiling:
        try:
            subprocess.Popen(
                [sys.executable, "-m", "sudokit.warming", family.name, family.module],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                close_fds=True, start_new_session=True, env={**os.environ, "PYTHONPATH": path},
            )
        except OSError:  # no process to be had: the next run compiles it, as before
            pass


def _lock_path(name: str) -> str:
    """One lock file a family and compile cache (a user may keep several caches)."""
    import hashlib  # (in the detached process only, as the imports below)
    import tempfile

    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    key = hashlib.sha1(f"{name}\0{cache}\0{sys.prefix}".encode()).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"sudokit-compile-{key}.lock")


def finish(name: str, module: str) -> bool:
    """Compile family ``name`` (registered by ``module``) into the cache unless another process
    is at it or it is cached already; whether this call compiled it."""
    import importlib

    with open(_lock_path(name), "a") as lock:
        if sys.platform != "win32":  # elsewhere no lock: both compile, numba's cache writes are atomic
            import fcntl

            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # another process compiles it
                return False
        importlib.import_module(module)
        family = _families[name]
        if not family.needed():
            return False
        family.warm()
        return True


if __name__ == "__main__":  # the detached process of ``_hand_over``
    import importlib

    # the module the families register with, not this ``__main__``
    importlib.import_module("sudokit.warming").finish(sys.argv[1], sys.argv[2])
