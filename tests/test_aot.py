"""The kernels compiled ahead of time (``kernels/build/ahead.py``): they serve only the sources and the
CPU they were compiled for, and where they serve they answer as the JIT-compiled kernels do
(same counts, nodes, guesses and solutions)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ENTRIES

from sudokit.kernels.build import ahead as aot
from sudokit.kernels.search import protocol as P

PACKAGE = Path(aot.__file__).resolve().parents[2]


def test_an_extension_serves_only_its_sources_and_cpu(monkeypatch):
    files = ["search/classic.py", "build/ahead.py"]
    good = {"sources": aot.sources_digest(files), "files": files, "cpu": aot.cpu()}
    assert aot._usable(good)
    assert not aot._usable(dict(good, sources="0" * 64))  # an edited checkout
    assert not aot._usable(dict(good, cpu="0" * 64))  # another machine
    assert not aot._usable(dict(good, files=["gone.py"]))
    monkeypatch.setenv("SUDOKIT_AHEAD", "0")
    assert not aot._usable(good)
    monkeypatch.delenv("SUDOKIT_AHEAD")
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert not aot._usable(good)


def test_numba_targets_count_as_another_cpu(monkeypatch):
    here = aot.cpu()
    monkeypatch.setenv("NUMBA_CPU_NAME", "haswell")
    assert aot.cpu() != here


def _boards(size: int) -> list[np.ndarray]:
    """Boards of the shared test data (their symbols as values 1..size)."""
    symbols = "123456789" if size == 9 else "ABCDEFGHIJKLMNOP"
    boards = []
    for entry in ENTRIES:
        if entry.size == size:
            boards.append(np.array([symbols.index(ch) + 1 if ch in symbols else 0 for ch in entry.puzzle], dtype=np.uint8))
    return boards[:20]


def _search(module, board: np.ndarray, limit: int, hexa: bool) -> tuple:
    stack = np.zeros(module.LEVELS * module.SLOTS, dtype=np.uint64 if hexa else np.int32)
    branch_cell = np.zeros(module.LEVELS, dtype=np.int64)
    branch_rest = np.zeros(module.LEVELS, dtype=np.int64)
    ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
    ctl[P.DEPTH] = -1
    out = np.zeros(len(board), dtype=np.uint8)
    if hexa:
        weight = np.zeros(module.CELLS, dtype=np.int64)
        code = module.search(board, stack, branch_cell, branch_rest, weight, module.DEFAULT_RULES,
                             module.DEFAULT_BRANCHING, ctl, limit, 10**7, 1, out)
    else:
        code = module.search(board, stack, branch_cell, branch_rest, ctl, limit, 10**7, 1, out)
    return int(code), ctl[: P.PHASE].tolist(), out.tolist()


@pytest.mark.parametrize("name,size", [("classic", 9), ("hexa", 16)])
def test_ahead_and_jit_kernels_walk_the_same_search(name, size):
    ahead = aot.load(f"search.{name}")
    if ahead is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    jit = __import__(f"sudokit.kernels.search.{name}", fromlist=["search"])
    for board in _boards(size):
        for limit in (1, 2):
            assert _search(ahead, board, limit, size == 16) == _search(jit, board, limit, size == 16)


def test_ahead_givens_check_agrees():
    ahead = aot.load("search.givens")
    if ahead is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    from sudokit import Shape
    from sudokit.kernels.search import givens

    houses = np.ascontiguousarray(Shape(3, 3).geometry.cell_houses, dtype=np.int32)
    for board in _boards(9):
        repeated = board.copy()
        repeated[0] = repeated[1] = 5
        for values in (board, repeated):
            assert ahead.repeat_in(values, houses, 27) == givens.repeat_in(values, houses, 27)
        assert ahead.repeat_in(repeated, houses, 27)


@pytest.mark.slow
def test_the_build_compiles_an_extension_that_serves(tmp_path):
    """What ``setup.py`` runs: ``ahead.py DIR`` on a copy of the kernels, then a fresh process
    that loads the result and solves with it, without importing numba."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    package = tmp_path / "sudokit"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "_ahead*"))
    folder = package / "kernels" / "build"
    done = subprocess.run([sys.executable, str(folder / "ahead.py"), str(folder)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = (
        "import sys, sudokit\n"
        "from sudokit.kernels.build import ahead\n"
        "assert ahead.load('search.classic') is not None and ahead.load('search.hexa') is not None\n"
        "print(sudokit.solve('.' * 81).board.to_line()[:9], 'numba' in sys.modules)\n"
    )
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    env.update({k: v for k, v in os.environ.items() if k in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")})
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["123456789", "False"]
