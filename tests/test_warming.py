"""A time limit is a promise, the first call included (``sudokit/warming.py``): where a kernel
family must compile first, a caller with a deadline waits for that only until its deadline and
answers "unknown"; the compile goes on, once however many ask, for the next call."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

import sudokit
from sudokit import engines, warming
from sudokit.cli import cli
from sudokit.generator import GenerationError
from sudokit.logic import se as se_logic
from sudokit.results import Limits, SolveStatus

PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"  # SE 6.6-ish


@pytest.fixture
def compiling(monkeypatch):
    """``hold(name)``: family ``name`` looks uncompiled, and its compile runs until ``release``
    is set; ``calls`` lists the compiles started."""
    release = threading.Event()
    calls: list[str] = []

    def hold(name: str) -> warming.Family:
        old = warming.family(name)
        fresh = warming.Family(name, old.what, lambda: True, lambda: (calls.append(name), release.wait(30)))
        monkeypatch.setitem(warming._families, name, fresh)
        return fresh

    yield hold, release, calls
    release.set()


def test_a_caller_waits_only_until_its_deadline_and_one_compile_serves_all(compiling):
    hold, release, calls = compiling
    family = hold("search.general")
    began = time.perf_counter()
    assert not family.ready(began + 0.05)
    assert time.perf_counter() - began < 2
    assert not family.ready(time.perf_counter() + 0.05)
    assert calls == ["search.general"]  # one compile, however many ask
    release.set()
    assert family.ready(time.perf_counter() + 5)
    assert family.ready(time.perf_counter())  # done: no wait at all
    assert calls == ["search.general"]


def test_no_deadline_compiles_in_line_and_a_failure_reaches_every_caller():
    started = []
    family = warming.Family("x", "x", lambda: True, lambda: started.append(1))
    assert family.ready(None) and not started and family.thread is None  # the caller compiles itself

    def broken() -> None:
        raise RuntimeError("no compiler")

    family = warming.Family("y", "y", lambda: True, broken)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="no compiler"):
            family.ready(time.perf_counter() + 5)
    compiled = warming.Family("z", "z", lambda: False, broken)
    assert compiled.ready(time.perf_counter()) and compiled.thread is None  # cached: nothing to run


def test_a_search_keeps_its_time_limit_while_its_kernel_compiles(compiling):
    hold, _, _ = compiling
    hold("search.general")
    began = time.perf_counter()
    result = sudokit.count("." * 16, 2, time_limit=0.1)
    assert result.status is SolveStatus.UNKNOWN
    assert time.perf_counter() - began < 2
    assert sudokit.count("." * 16, 2).status is SolveStatus.SEVERAL  # no time limit: no wait


def test_auto_searches_depth_first_while_the_learning_kernel_compiles(compiling):
    hold, release, _ = compiling
    hold("search.learn")
    search = engines.GeneralSearch(sudokit.Board(np.zeros(625, dtype=np.uint8), sudokit.Shape(5, 5)))
    search.deadline = time.perf_counter() + 5
    assert not search._learner_ready()
    search.deadline = None
    assert search._learner_ready()  # no deadline: the switch compiles in line
    release.set()


def test_a_rating_on_se_scale_keeps_its_time_limit_while_se_compiles(compiling, capsys):
    hold, _, calls = compiling
    hold("se")
    began = time.perf_counter()
    result = se_logic.rate_board(sudokit.Board.parse(PUZZLE), Limits(1, time_limit=0.1))
    assert result.status is SolveStatus.UNKNOWN and result.steps == 0 and result.er >= 1.0
    steps, explained = se_logic.explain_board(sudokit.Board.parse(PUZZLE), Limits(1, time_limit=0.1))
    assert steps == () and explained.status is SolveStatus.UNKNOWN
    assert time.perf_counter() - began < 2
    assert calls == ["se"]
    done = CliRunner().invoke(cli, ["rate", "--scale", "se", "--time-limit", "0.1"], input=PUZZLE + "\n")
    assert done.exit_code == 3, done.output
    assert done.stdout.startswith(PUZZLE + " >=")
    assert "compiled for the first time" in capsys.readouterr().err + done.stderr


def test_a_rating_on_hodokus_scale_keeps_its_time_limit_while_its_kernels_compile(compiling):
    hold, release, calls = compiling
    hold("hodoku")
    began = time.perf_counter()
    assert sudokit.rate(PUZZLE, time_limit=0.1).status is SolveStatus.UNKNOWN
    batch = sudokit.rate_batch([PUZZLE, PUZZLE], time_limit=0.1, workers=1)
    assert [rating.status for rating in batch] == [SolveStatus.UNKNOWN] * 2
    assert time.perf_counter() - began < 3
    assert calls == ["hodoku"]
    assert sudokit.rate(PUZZLE).level is not None  # no time limit: no wait
    release.set()
    assert sudokit.rate(PUZZLE, time_limit=5).level is not None


def test_generation_keeps_its_time_limit_while_its_kernels_compile(compiling):
    hold, _, _ = compiling
    hold("search.generate")
    began = time.perf_counter()
    with pytest.raises(GenerationError, match="time limit"):
        sudokit.generate(1, shape="4x4", seed=1, time_limit=0.1)
    assert time.perf_counter() - began < 2


def test_a_time_limit_holds_while_the_nested_chains_compile(compiling):
    """The nested chains compile in minutes: a rating with a time limit does not wait past it,
    the step says 'budget'."""
    hold, release, calls = compiling
    hold("se.nested")
    engine = se_logic._Engine()
    engine.load(sudokit.Board.parse("." * 81))
    engine.budget(1)
    engine.deadline = time.perf_counter() + 0.05
    assert engine._nested_step() == -2 and engine.nest is None  # not waited for: the deadline came first
    assert calls == ["se.nested"]
    release.set()
    engine._nested_call = lambda: 7  # type: ignore[method-assign]  # the kernel itself is not the point here
    engine.deadline = time.perf_counter() + 0.05
    assert engine._nested_step() == 7  # compiled: the call goes through
    assert calls == ["se.nested"]  # one compile, however many ask



COLOURS_OFF = """
import sudokit.kernels  # before numba, as every sudokit import path is
from numba.core import errors
print(type(errors.termcolor()).__name__)
"""


def test_compiling_leaves_the_callers_streams_alone():
    """Where colorama is installed numba colours its error messages, and each one it formats
    (many while typing any kernel) sets sys.stdout and sys.stderr to colorama's wrappers and
    back to the streams of that moment, from the compiling thread: a compile on a warming
    thread sent a command's output to an old stream (CLI tests lost theirs under pytest-xdist,
    to pytest's capture or nowhere). sudokit turns numba's colouring off before numba loads."""
    pytest.importorskip("colorama")
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"}
    done = subprocess.run([sys.executable, "-c", COLOURS_OFF], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.stdout.strip() == "NOPColorScheme", done.stdout + done.stderr


#: a family whose "compile" takes SLOW seconds and leaves a file behind, as numba leaves its cache
SLOW_FAMILY = """
import os, pathlib, time
from sudokit import warming

DONE = pathlib.Path(os.environ["SLOW_FAMILY_DONE"])


def warm():
    time.sleep(float(os.environ["SLOW_FAMILY_SECONDS"]))
    DONE.write_text(str(os.getpid()))


warming.register("test.slow", "a slow kernel", lambda: not DONE.exists(), warm, __name__)
"""

ENDS_EARLY = """
import os, time
import slow_family
from sudokit import warming
print(warming.ready("test.slow", time.perf_counter() + 0.05), os.getpid(), flush=True)
"""


def _slow_family(tmp_path, seconds):
    import os
    import sys

    (tmp_path / "slow_family.py").write_text(SLOW_FAMILY)
    done = tmp_path / "done"
    env = {**os.environ, "SLOW_FAMILY_DONE": str(done), "SLOW_FAMILY_SECONDS": str(seconds),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    env.pop("SUDOKIT_BACKGROUND_COMPILE", None)
    return done, env


def test_a_compile_that_outlives_its_process_finishes_in_the_background(tmp_path):
    """A daemon thread dies with its process: a run whose time limit is shorter than a compile
    lost the compile, and the next run paid it again, every time. Now a process that ends
    while a family compiles hands it to a detached process that finishes it into the cache."""
    import subprocess
    import sys

    done, env = _slow_family(tmp_path, 2)
    run = subprocess.run([sys.executable, "-c", ENDS_EARLY], capture_output=True, text=True, env=env, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    ready, pid = run.stdout.split()
    assert ready == "False" and not done.exists()  # the run kept its deadline and did not wait
    for _ in range(600):
        if done.exists():
            break
        time.sleep(0.1)
    assert done.exists(), "the compile was lost with its process"
    assert done.read_text() != pid  # finished by another process

    done.unlink()
    env["SUDOKIT_BACKGROUND_COMPILE"] = "0"  # the way back: the compile ends with its process
    run = subprocess.run([sys.executable, "-c", ENDS_EARLY], capture_output=True, text=True, env=env, timeout=60, check=False)
    assert run.stdout.startswith("False")
    time.sleep(3)
    assert not done.exists()


def test_one_process_at_a_time_finishes_a_family(tmp_path, monkeypatch):
    import fcntl
    import sys

    done, env = _slow_family(tmp_path, 0)
    monkeypatch.setenv("SLOW_FAMILY_DONE", env["SLOW_FAMILY_DONE"])
    monkeypatch.setenv("SLOW_FAMILY_SECONDS", "0")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(warming._families, "test.slow", raising=False)
    monkeypatch.delitem(sys.modules, "slow_family", raising=False)
    with open(warming._lock_path("test.slow"), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another process is at it
        assert not warming.finish("test.slow", "slow_family") and not done.exists()
    assert warming.finish("test.slow", "slow_family") and done.exists()
    assert not warming.finish("test.slow", "slow_family")  # cached: nothing to do
