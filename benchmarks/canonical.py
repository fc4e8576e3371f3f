"""Benchmark canonical (minlex) forms: boards per second on one thread, by board density.

For each set (Royle's 17-clue puzzles, magictour's top 1465 at 17-28 givens, the Kaggle
sample at 30-37 givens, and the Kaggle sample's solution grids), from the shared data
(default ``../shared/data`` from the repository root), one row per way in:

    boards  boards/sec  usec/board  (canonical: one call a board)  (canonical_batch: one call)

``sudokit.canonical`` takes one puzzle line per call, parsing and checking included, as a
caller with a file of lines would; ``canonical_batch`` takes the whole set as one (N, 81)
array. Each rate is the best of ``--passes`` passes (the machine may be shared). Every answer
is checked: both ways agree, each form is its own form, a shuffled copy of each board has the
same form, and for Royle's set the share of lines that are already minlex is printed (the
file is minlex but for about 3% of its lines, see tests/data/SOURCES.md). Import and
first-compile times are measured apart, in fresh processes, with an empty and a warm cache.

No pip-installable canonicaliser was found to compare with (PyPI names with sudoku, minlex
or canon; larsdoku carries a "quick minlex approximation" inside one of its functions, not
callable and not exact). The anchor is swb01's minlex (C, exact minlex, the same form as
ours), which is no part of this project: given ``--minlex PATH`` (an executable built from
1to9only's single-program port, that reads a file of 81-character lines and prints each
line's minlex form first), the script runs it side by side on Royle's 17-clue puzzles and on
the full grids that solving them gives (and on the puzzles shuffled, as Royle's lines are in
minlex form already, which the anchor reaches sooner), checks that every form agrees with ours, and prints
both rates and their ratio. There both sides are timed in CPU seconds (the anchor's as a
child process, less the same process on one line: its start and reading), best of
``--passes``, as the machine may be shared. Exit status 1 when a check fails.

    python benchmarks/canonical.py
    python benchmarks/canonical.py --limit 2000 --passes 5
    python benchmarks/canonical.py --minlex PATH --no-startup
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"

#: (name, file under data/9x9)
SETS = [
    ("royle_17clue", "royle_17clue.txt"),
    ("magictour_top1465", "magictour_top1465.txt"),
    ("kaggle (30-37 givens)", "kaggle_bryanpark_sample.txt"),
    ("kaggle solution grids", "kaggle_bryanpark_sample.sol.txt"),
]

STARTUP = "import time; t = time.perf_counter(); import sudokit; i = time.perf_counter(); sudokit.canonical('.' * 81); print(i - t, time.perf_counter() - i)"


def lines_of(path: Path, limit: int) -> list[str]:
    """The first ``limit`` one-line 9x9 boards of a file."""
    out = []
    for line in path.read_text().splitlines():
        field = line.strip().split(" ")[0]
        if len(field) == 81 and not line.startswith("#"):
            out.append(field)
        if len(out) == limit:
            break
    return out


def best_of(passes: int, run, clock=time.perf_counter) -> float:
    """The shortest of ``passes`` timed runs of ``run()``, in seconds of ``clock`` (wall time;
    ``time.process_time`` for this process's CPU time)."""
    best = float("inf")
    for _ in range(passes):
        start = clock()
        run()
        best = min(best, clock() - start)
    return best


def anchor_run(path: Path, lines: list[str]) -> tuple[list[str], float]:
    """The forms ``path`` (swb01's minlex) prints for ``lines``, and the CPU seconds its process
    took (user + system)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("".join(line + "\n" for line in lines))
        name = handle.name
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([str(path), name], capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(name)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return [line[:81] for line in done.stdout.splitlines() if len(line) >= 81], spent


def anchor_section(path: Path, data: Path, limit: int, passes: int) -> int:
    """Ours against swb01's minlex at ``path`` on Royle's puzzles and their solution grids:
    the rates, their ratio, and whether every form agrees. Returns the number of failed checks."""
    import sudokit
    from sudokit.canon import canonical_batch

    source = data / "9x9" / "royle_17clue.txt"
    if not source.is_file():
        print(f"(missing: {source}; no anchor comparison)")
        return 1
    puzzles = lines_of(source, limit)
    solved = sudokit.solve_batch(puzzles)
    grids = ["".join(map(str, row)) for row in np.asarray(solved.solutions).reshape(len(puzzles), -1)[:, :81]]
    # Royle's lines are 99% in minlex form already, which the anchor reaches sooner (about 1.5x
    # its speed on the same puzzles shuffled); a caller's puzzles are seldom canonical
    rng = np.random.default_rng(17)
    shuffled = [sudokit.shuffle(line, rng).to_line() for line in puzzles]
    print(f"\nanchor: swb01's minlex ({path.name}); CPU time, best of {passes}; ratio = ours / anchor (above 1: ours faster)\n")
    print(f"{'set':24} {'boards':>7}  {'anchor/s':>10}  {'canonical/s':>11} {'ratio':>6}  {'batch/s':>10} {'ratio':>6}  forms")
    failures = 0
    text = np.frombuffer(b".123456789", dtype=np.uint8)
    for name, lines in (("royle_17clue", puzzles), ("royle_17clue shuffled", shuffled), ("royle_17clue grids", grids)):
        n = len(lines)
        theirs: list[str] = []
        spent = float("inf")
        for _ in range(passes):
            forms, full = anchor_run(path, lines)
            _, one = anchor_run(path, lines[:1])
            theirs = forms
            spent = min(spent, max(full - one, 1e-9))
        values = np.array([[0 if c in ".0" else int(c) for c in line] for line in lines], dtype=np.uint8)
        ours: list[str] = []
        batch: list[np.ndarray] = []
        single = best_of(passes, lambda: ours.__setitem__(slice(None), [sudokit.canonical(line) for line in lines]), time.process_time)
        whole = best_of(passes, lambda: batch.__setitem__(slice(None), [canonical_batch(values)]), time.process_time)
        batched = [text[row].tobytes().decode() for row in batch[0]]
        same = sum(a == b == c for a, b, c in zip(ours, batched, theirs))
        ok = same == n == len(theirs)
        failures += not ok
        print(f"{name:24} {n:7d}  {n / spent:10,.0f}  {n / single:11,.0f} {spent / single:6.2f}  {n / whole:10,.0f} {spent / whole:6.2f}  "
              f"{'same' if ok else f'FAIL: {same} of {n} agree'}")
    return failures


def startup() -> tuple[float, float, float]:
    """(import s, first call with an empty compile cache s, first call with a warm one s),
    each in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, SUDOKIT_QUIET="1")
        cold = subprocess.run([sys.executable, "-c", STARTUP], env=env, capture_output=True, text=True, check=True)
        warm = subprocess.run([sys.executable, "-c", STARTUP], env=env, capture_output=True, text=True, check=True)
    imported, compiled = map(float, cold.stdout.split())
    _, loaded = map(float, warm.stdout.split())
    return imported, compiled, loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder (holding 9x9/)")
    parser.add_argument("--limit", type=int, default=5000, help="boards per set (default 5000)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes, the best counts (default 3)")
    parser.add_argument("--minlex", type=Path, help="swb01's minlex executable: run it side by side and compare (see above)")
    parser.add_argument("--no-startup", action="store_true", help="skip the import and compile times")
    args = parser.parse_args()

    import sudokit
    from sudokit.canon import canonical_batch

    failures = 0
    if not args.no_startup:
        imported, compiled, loaded = startup()
        print(f"import sudokit {imported * 1e3:.0f} ms; first canonical form: {compiled:.1f} s compiling, {loaded * 1e3:.0f} ms from the cache")
    sudokit.canonical("." * 81)  # compiled (or loaded) before any timing
    if args.minlex is None:
        print("peer: none on PyPI (see this script's docstring); --minlex PATH runs swb01's minlex beside ours\n")
    else:
        failures += anchor_section(args.minlex, args.data, args.limit, args.passes)
        print()
    print(f"{'set':24} {'boards':>7}  {'canonical/s':>12} {'usec':>7}  {'batch/s':>10} {'usec':>7}  checks")
    for name, file in SETS:
        path = args.data / "9x9" / file
        if not path.is_file():
            print(f"{name:24} (missing: {path})")
            continue
        lines = lines_of(path, args.limit)
        values = np.array([[0 if c in ".0" else int(c) for c in line] for line in lines], dtype=np.uint8)
        forms: list[str] = []
        batch: list[np.ndarray] = []
        single = best_of(args.passes, lambda: forms.__setitem__(slice(None), [sudokit.canonical(line) for line in lines]))
        whole = best_of(args.passes, lambda: batch.__setitem__(slice(None), [canonical_batch(values)]))
        text = np.frombuffer(b".123456789", dtype=np.uint8)
        agree = forms == [text[row].tobytes().decode() for row in batch[0]]
        rng = np.random.default_rng(0)
        sample = lines[:: max(1, len(lines) // 500)]
        fixed = all(sudokit.canonical(form) == form for form in forms[:: max(1, len(forms) // 500)])
        invariant = all(sudokit.canonical(sudokit.shuffle(line, rng)) == sudokit.canonical(line) for line in sample)
        notes = [f"agree {'ok' if agree else 'FAIL'}", f"idempotent {'ok' if fixed else 'FAIL'}", f"shuffles {'ok' if invariant else 'FAIL'}"]
        if name == "royle_17clue":
            notes.append(f"{sum(f == line for f, line in zip(forms, lines)) / len(lines):.1%} of lines minlex already")
        failures += not (agree and fixed and invariant)
        n = len(lines)
        print(f"{name:24} {n:7d}  {n / single:12,.0f} {single / n * 1e6:7.1f}  {n / whole:10,.0f} {whole / n * 1e6:7.1f}  {', '.join(notes)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
