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
from conftest import DATA, ENTRIES

from sudokit.kernels.build import ahead as aot
from sudokit.kernels.search import protocol as P

AHEAD = tuple(name for names in aot.UNITS.values() for name in names)

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


def test_a_unit_built_for_the_baseline_serves_every_cpu_that_has_it(monkeypatch):
    """A wheel built on one x86-64-v3 machine serves another: a unit compiled for the baseline
    loads where the CPU has every feature it was compiled for and lays lanes out alike (no
    AVX-512 on either side), never where one is missing; a unit compiled for its building
    host alone (no target recorded) serves that host only."""
    files = ["search/classic.py", "build/ahead.py"]
    target = {"cpu": aot.BASELINE_CPU, "features": aot.BASELINE_FEATURES}
    elsewhere = {"sources": aot.sources_digest(files), "files": files, "cpu": "0" * 64, "target": target, "wide": False}
    baseline = {feature[1:] for feature in aot.BASELINE_FEATURES.split(",")}
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline | {"sha", "adx"}))
    assert aot._usable(elsewhere)
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline - {"bmi2"}))  # an older CPU
    assert not aot._usable(elsewhere)
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline | {"avx512f"}))  # lanes laid out apart
    assert not aot._usable(elsewhere)
    assert aot._usable(dict(elsewhere, wide=True))
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline))
    assert not aot._usable({k: v for k, v in elsewhere.items() if k != "target"})  # built for its host alone
    monkeypatch.setenv("NUMBA_CPU_FEATURES", "+avx2")  # a numba target of the user's own: that one exactly
    assert not aot._usable(elsewhere)


def test_the_build_targets_the_baseline_where_the_cpu_has_it(monkeypatch):
    baseline = {feature[1:] for feature in aot.BASELINE_FEATURES.split(",")}
    monkeypatch.setattr(aot.platform, "machine", lambda: "x86_64")
    for name in ("SUDOKIT_AHEAD_TARGET", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline | {"sha"}))
    assert aot.build_target() == "baseline"
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline | {"avx512f"}))
    assert aot.build_target() == "host"  # AVX-512 lanes: the host's own
    monkeypatch.setattr(aot, "_host_features", lambda: frozenset(baseline - {"avx2"}))
    assert aot.build_target() == "host"
    monkeypatch.setenv("SUDOKIT_AHEAD_TARGET", "baseline")
    assert aot.build_target() == "baseline"


def test_the_built_units_say_their_target():
    for unit in aot.UNITS:
        info = aot._info(unit)
        if info is None:
            continue  # not built here (SUDOKIT_AHEAD=0, an edited checkout): the JIT serves
        assert info["target"]["cpu"] in (aot.BASELINE_CPU, "host") and isinstance(info["wide"], bool)


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
        code = module.search(board, (stack, branch_cell, branch_rest, weight), module.DEFAULT_RULES,
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
    """What ``setup.py`` runs: ``ahead.py DIR``, then a fresh process that loads the result and
    solves with it, without importing numba. Where the install already built an extension for
    these very sources and this CPU (its digest says so) that extension is the build's proof, and
    the fresh process runs on it; elsewhere the build runs here, on a copy of the kernels (minutes)."""
    if all(aot.load(name) is not None for name in AHEAD):
        root = PACKAGE.parent
    else:
        # .ci/run installs the project as the README says, and that install builds the extension
        assert os.environ.get("CI") != "true" or os.environ.get("SUDOKIT_AHEAD") == "0", "the install built no usable extension"
        if shutil.which("cc") is None and shutil.which("gcc") is None:
            pytest.skip("no C compiler")
        package = tmp_path / "sudokit"
        shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "_ahead*"))
        folder = package / "kernels" / "build"
        done = subprocess.run([sys.executable, str(folder / "ahead.py"), str(folder)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        root = tmp_path
    probe = (
        "import sys, sudokit\n"
        "from sudokit.kernels.build import ahead\n"
        f"assert all(ahead.load(name) is not None for name in {AHEAD!r})\n"
        "print(sudokit.solve('.' * 81).board.to_line()[:9], 'numba' in sys.modules)\n"
        f"print(sudokit.rate({ENTRIES[0].puzzle!r}, scale='hodoku').score > 0, 'numba' in sys.modules)\n"
    )
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    env.update({k: v for k, v in os.environ.items() if k in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")})
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["123456789", "False", "True", "False"]


def _logic_boards() -> list:
    """Boards with one solution the human-style techniques take: 4x4, 6x6, 9x9 and 16x16."""
    from sudokit import as_board

    boards = []
    for size, most in ((4, 3), (6, 1), (9, 8), (16, 2)):
        boards += [as_board(e.puzzle) for e in ENTRIES if e.size == size and e.count == 1][:most]
    return boards


def _logic_walk(core, solver, board, steps: int = 60) -> list:
    """What the logic kernels make of a board: every technique's first step on the start grid,
    then the solving loop's steps (kind, step record, state after applying it)."""
    from sudokit.kernels.hodoku import record
    from sudokit.logic.grid import geometry
    from sudokit.logic.human import ORDER

    shape = board.shape
    geo = geometry(shape)
    state = record.new_state(shape.cells, shape.size, len(shape.houses))
    step = record.new_step(shape.cells, shape.size, len(shape.houses))
    givens = np.ascontiguousarray(board.cells, dtype=np.int32)
    core.load(state, geo, givens, givens != 0)
    seen = []
    for kind in ORDER.tolist():
        scratch = tuple(array.copy() for array in state)
        found = solver.find(scratch, geo, step, kind, 0)
        seen.append((kind, bool(found), [a.tolist() for a in step] if found else None))
    for _ in range(steps):
        kind = solver.next_step(state, geo, step, ORDER)
        if kind == 0:
            break
        core.apply(state, geo, step)
        seen.append((int(kind), [a.tolist() for a in step], [a.tolist() for a in state]))
    return seen


@pytest.mark.slow  # compiles HoDoKu's kernels with the JIT too: minutes from an empty cache
def test_ahead_and_jit_logic_kernels_take_the_same_steps():
    core, solver = aot.load("hodoku.core"), aot.load("hodoku.solver")
    if core is None or solver is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    from sudokit.kernels.hodoku import core as jit_core
    from sudokit.kernels.hodoku import solver as jit_solver

    assert core.new_state is jit_core.new_state and core.new_step is jit_core.new_step
    for board in _logic_boards():
        assert _logic_walk(core, solver, board) == _logic_walk(jit_core, jit_solver, board), board.to_line()


@pytest.mark.slow  # as above
def test_ahead_and_jit_logic_kernels_rate_alike():
    core, solver = aot.load("hodoku.core"), aot.load("hodoku.solver")
    if core is None or solver is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    from sudokit import solve
    from sudokit.kernels.hodoku import ids
    from sudokit.kernels.hodoku import solver as jit_solver
    from sudokit.logic.grid import geometry
    from sudokit.logic.human import ORDER

    by_shape: dict = {}
    for board in _logic_boards():
        by_shape.setdefault(board.shape, []).append(board)
    for shape, boards in by_shape.items():
        puzzles = np.array([b.cells for b in boards], dtype=np.int32)
        solutions = np.array([solve(b).board.cells for b in boards], dtype=np.int32)
        answers = []
        for kernels in (solver, jit_solver):
            state = core.new_state(shape.cells, shape.size, len(shape.houses))
            step = core.new_step(shape.cells, shape.size, len(shape.houses))
            counts = np.zeros((len(boards), ids.KINDS), dtype=np.int64)
            taken = np.zeros(len(boards), dtype=np.int64)
            kernels.rate_many(puzzles, solutions, geometry(shape), ORDER, state, step, counts, taken,
                              np.array([shape.cells * (shape.size + 1), 0, 0, 0], dtype=np.int64))
            answers.append((counts.tolist(), taken.tolist()))
        assert answers[0] == answers[1]
        assert min(answers[0][1]) > 0


def test_hints_ratings_and_explanations_load_no_numba():
    """With the kernels compiled ahead of time, the human-style commands never import numba
    (SE's scale included, on a puzzle that needs no nested chains)."""
    if any(aot.load(name) is None for name in ("hodoku.core", "hodoku.solver", "se.core", "se.rate")):
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    puzzle = next(e.puzzle for e in ENTRIES if e.size == 9 and e.count == 1)
    probe = (
        "import sys, sudokit\n"
        f"p = {puzzle!r}\n"
        "h = sudokit.hint(p)\n"
        "r = sudokit.rate(p, scale='hodoku')\n"
        "e = sudokit.explain(p)\n"
        "s = sudokit.rate(p, scale='se')\n"
        "x = sudokit.explain_se(p)\n"
        "print(h is not None, r.score > 0, s.se is not None and len(x.steps) > 0, 'numba' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "True", "True", "False"]


def test_ahead_kernels_release_the_gil():
    """As the JIT-compiled kernels do (``nogil``): threads rate boards side by side."""
    solver = aot.load("hodoku.solver")
    if solver is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    import threading
    import time

    from sudokit import as_board, solve
    from sudokit.kernels.hodoku import ids, record
    from sudokit.logic.grid import geometry
    from sudokit.logic.human import ORDER

    boards = [as_board(e.puzzle) for e in ENTRIES if e.size == 9 and e.count == 1][:10]
    shape = boards[0].shape
    puzzles = np.array([b.cells for b in boards], dtype=np.int32)
    solutions = np.array([solve(b).board.cells for b in boards], dtype=np.int32)

    def rate() -> None:
        state, step = record.new_state(81, 9, 27), record.new_step(81, 9, 27)
        counts = np.zeros((len(boards), ids.KINDS), dtype=np.int64)
        taken = np.zeros(len(boards), dtype=np.int64)
        for _ in range(5):
            solver.rate_many(puzzles, solutions, geometry(shape), ORDER, state, step, counts, taken,
                             np.array([810, 0, 0, 0], dtype=np.int64))

    thread = threading.Thread(target=rate)
    started = time.perf_counter()
    thread.start()
    ticks = 0
    while thread.is_alive():
        ticks += 1
        time.sleep(0.001)
    elapsed = time.perf_counter() - started
    # holding the GIL, the loop above would run about twice: once before, once after
    assert elapsed < 0.05 or ticks > 10, (elapsed, ticks)


def _with_kernels(monkeypatch, modules: dict) -> None:
    from sudokit import engines

    for name, module in modules.items():
        monkeypatch.setitem(engines._kernels, name, module)


#: a pencil-mark puzzle (tests/data/variants/pencilmark.jsonl, its fourth) that the learning
#: search solves in about 6,000 nodes
PENCIL_MARKS = (Path(__file__).parent / "data" / "variants" / "pencilmark.jsonl").read_text().splitlines()[3]


@pytest.mark.slow  # compiles the general and generation kernels with the JIT too
def test_ahead_and_jit_general_search_and_generation_agree(monkeypatch):
    """The general kernel (other shapes, every variant), generation, optimisation, the
    estimator and the learning search, compiled ahead of time, walk the JIT's trees: the same
    counts, nodes, guesses and solutions, the same puzzles from the same seed, the same optimum
    and estimate."""
    names = ("search.general", "search.general_batch", "search.generate", "search.optimize", "search.estimate",
             "search.learn")
    ahead = {name: aot.load(name) for name in names}
    if any(module is None for module in ahead.values()):
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    import importlib

    import sudokit
    from sudokit.results import Limits

    jit = {name: importlib.import_module(f"sudokit.kernels.{name}") for name in names}
    boards = ["." * 16, "." * 36, '{"size": 9, "diagonals": ["main", "anti"]}', '{"size": 9, "windoku": true}',
              '{"size": 4, "cages": [[3, [0, 1]], [7, [2, 3]]]}', "." * 625]
    boards += [e.puzzle for e in ENTRIES if e.size not in (9, 16)][:6]
    answers = []
    for modules in (ahead, jit):
        _with_kernels(monkeypatch, modules)
        seen = []
        for text in boards:
            from sudokit import engines

            search = engines.GeneralSearch(sudokit.as_board(text), engine="dfs")
            search.run(Limits(3, node_limit=20_000))
            seen.append((search.count, search.nodes, search.guesses, search.out.tolist()))
        for text, most in ((PENCIL_MARKS, 2), ("." * 625, 1)):  # 6,024 nodes of learning; a big board's start
            search = engines.GeneralSearch(sudokit.as_board(text), engine="learn")
            search.run(Limits(most, node_limit=20_000))
            seen.append((search.count, search.nodes, search.guesses, search.out.tolist()))
        made = sudokit.generate(3, shape="4x4", seed=5) + sudokit.generate(2, shape="6x6", seed=5)
        made += sudokit.generate(1, shape="9x9", seed=5, symmetry="rot180")
        batch = sudokit.solve_batch(np.zeros((3, 36), dtype=np.uint8), shape=sudokit.Shape(2, 3))
        seen.append(([b.to_line() for b in made], batch.solutions.tolist(), batch.nodes.tolist()))
        best = sudokit.maximize("." * 16, np.arange(16).reshape(4, 4))
        guess = sudokit.estimate("." * 36, samples=300, seed=3)
        seen.append((best.value, best.board.to_line(), best.nodes, guess.value, guess.hits))
        answers.append(seen)
    assert answers[0] == answers[1]


@pytest.mark.slow  # compiles the canonical-form kernel with the JIT too
def test_ahead_and_jit_canonical_forms_agree():
    """The canonical-form kernel compiled ahead of time gives the JIT's forms and moves, on a
    batch and on the one-line road (bytes in, a bytearray out)."""
    ahead = aot.load("search.canon")
    if ahead is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    import importlib

    jit = importlib.import_module("sudokit.kernels.search.canon")
    lines = [e.puzzle for e in ENTRIES if e.size == 9][:40] + ["." * 81]
    boards = np.array([[0 if ch in ".0" else int(ch) for ch in line] for line in lines], dtype=np.uint8)
    answers = []
    for module in (ahead, jit):
        out = np.zeros_like(boards)
        how = np.zeros((len(boards), module.HOW_SIZE), dtype=np.int8)
        module.minlex(boards, out, how)
        forms = []
        for line in lines:
            form = bytearray(81)
            forms.append((module.minlex_line(line.encode("ascii"), form), bytes(form)))
        answers.append((out.tolist(), how.tolist(), forms))
    assert answers[0] == answers[1]


def test_nested_chains_are_compiled_ahead_and_load_no_numba():
    """A puzzle rated 10.3 needs SE's nested forcing chains: with the sixth unit built, its first
    rating loads that unit and compiles nothing (it once compiled for minutes). (The 9.7 puzzle
    this test rated before takes dynamic chains only, and never loaded the unit.)"""
    if any(aot.load(name) is None for name in ("se.core", "se.rate", "se.nested")):
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    puzzle = "...4......5...9...6...2..1.2...7.9.1..5....7......8.3...6....9.7...3.1......9.327"  # tests/test_se.py
    probe = (
        "import sys, sudokit\n"
        f"r = sudokit.rate({puzzle!r}, scale='se')\n"
        "print(r.se, 'sudokit.kernels.build._ahead_nested' in sys.modules, 'numba' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["10.3/10.3/2.6", "True", "False"]
    assert "compiling" not in done.stderr


@pytest.mark.slow  # compiles SE's rating loop with the JIT too: minutes from an empty cache
def test_ahead_and_jit_se_kernels_rate_alike():
    """SE's compiled rating loop and numba's compile of the same sources take the same steps:
    the same ratings, step counts and potentials, rule by rule. (The nested chains' unit is
    left out: its JIT compile alone would add minutes of CPU to every run of the suite.)"""
    if aot.load("se.core") is None or aot.load("se.rate") is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    from types import SimpleNamespace

    from sudokit import Board
    from sudokit.kernels.se import core as jit_core
    from sudokit.kernels.se import rate as jit_rate
    from sudokit.logic import se

    rows = (line.split() for line in (DATA / "se_rated.txt").read_text().splitlines() if not line.startswith("#"))
    rated = sorted(((float(r[1]), r[0]) for r in rows if len(r) >= 2 and len(r[0]) == 81 and float(r[1]) < 9.5))
    puzzles = [puzzle for _, puzzle in rated[:: max(1, len(rated) // 24)]]  # every level up to 9.4
    answers = []
    for kernels in (None, SimpleNamespace(core=jit_core, rate=jit_rate)):
        engine = se._Engine(kernels=kernels)
        walked = []
        for puzzle in puzzles:
            engine.load(Board.from_line(puzzle))
            engine.budget(None)
            status = engine.run(1 << 30)
            walked.append((status, engine.res.tolist(), engine.rates.tolist(), engine.work))
        answers.append(walked)
    assert answers[0] == answers[1]
    assert len({tuple(rates) for _, _, rates, _ in answers[0]}) > 5  # ratings of many levels


def test_the_learning_search_is_compiled_ahead_and_loads_no_numba():
    """A hard pencil-mark puzzle sends the search to the learning kernel: with the general unit
    built, its first count compiles nothing (it once compiled for half a minute)."""
    if aot.load("search.general") is None:
        pytest.skip("no kernels compiled ahead of time for these sources and this CPU")
    probe = (
        "import sys, sudokit\n"
        "from sudokit import engines\n"
        "from sudokit.results import Limits\n"
        f"search = engines.GeneralSearch(sudokit.as_board({PENCIL_MARKS!r}))\n"
        "search.run(Limits(2))\n"
        "print(search.count, search.learner is not None, 'numba' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["1", "True", "False"]
    assert "compiling" not in done.stderr
