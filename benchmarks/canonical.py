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
callable and not exact), so there is no peer column; the script says so. Exit status 1
when a check fails.

    python benchmarks/canonical.py
    python benchmarks/canonical.py --limit 2000 --passes 5
"""

from __future__ import annotations

import argparse
import os
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


def best_of(passes: int, run) -> float:
    """The shortest of ``passes`` timed runs of ``run()``, in seconds."""
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


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
    parser.add_argument("--no-startup", action="store_true", help="skip the import and compile times")
    args = parser.parse_args()

    import sudokit
    from sudokit.canon import canonical_batch

    failures = 0
    if not args.no_startup:
        imported, compiled, loaded = startup()
        print(f"import sudokit {imported * 1e3:.0f} ms; first canonical form: {compiled:.1f} s compiling, {loaded * 1e3:.0f} ms from the cache")
    sudokit.canonical("." * 81)  # compiled (or loaded) before any timing
    print("peer: none (no pip-installable canonicaliser found; see this script's docstring)\n")
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
