"""What compiling the kernels costs, family by family: CPU seconds and peak memory of a fresh
process that loads one family's kernels on an empty numba cache, with nothing compiled ahead
of time (``SUDOKIT_AHEAD=0``), so that numba compiles each kernel the family runs.

    python benchmarks/compile_cost.py                  # every family, one process each
    python benchmarks/compile_cost.py --only hodoku,se

Families share callees (bit helpers, the search driver): each process compiles what its
family needs, so the sum counts a shared callee once per family, as separate compile units
(``pip install`` builds families in parallel processes) do. CPU seconds are what an idle
machine takes, whatever else runs beside; peak memory is the process's maximum resident set.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

#: family -> the Python that loads (and so compiles) its kernels
FAMILIES: dict[str, str] = {
    "search": """
import numpy as np, sudokit
from sudokit import Board, Shape
for size in (4, 9, 16, 25):
    empty = Board(np.zeros(size * size, dtype=np.uint8), Shape.for_size(size))
    sudokit.count(empty, 2, node_limit=10_000)
    sudokit.solve_batch(empty.cells[None, :], limit=1, shape=empty.shape, node_limit=10_000)
""",
    "learning": """
import numpy as np
from sudokit import Board, Shape
from sudokit.engines import GeneralSearch
from sudokit.results import Limits
GeneralSearch(Board(np.zeros(625, dtype=np.uint8), Shape(5, 5)), engine="learn").run(Limits(1, node_limit=1_000))
""",
    "optimisation": """
import sudokit
sudokit.maximize("." * 16, weights=[[1] * 4] * 4)
""",
    "variants": """
import sudokit
from sudokit import Board
killer = Board.from_line("." * 81, cages=[(3, (0, 1)), (15, (2, 3, 4))])
sudokit.count(killer, 2, node_limit=10_000)
jigsaw = Board.parse("{\\"givens\\": \\"" + "." * 81 + "\\", \\"diagonals\\": true}")
sudokit.count(jigsaw, 2, node_limit=10_000)
""",
    "generation": """
import sudokit
sudokit.generate(1, shape="4x4", seed=1)
sudokit.generate(1, seed=1)
""",
    "canonical": """
import sudokit
sudokit.canonical("." * 81)
""",
    "hodoku": """
import sudokit
sudokit.rate("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", scale="hodoku")
""",
    "se": """
import sudokit
sudokit.rate("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", scale="se")
""",
    "se_nested": """
from sudokit.logic import se
se.warm_nested()
""",
}


def measure(code: str, env: dict[str, str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak resident MiB, error) of ``python -c code``."""
    wrapped = (
        code
        + "\nimport resource, sys\n"
        + "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", wrapped], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = 0.0
    for line in done.stderr.splitlines():
        if line.startswith("PEAK "):
            peak = int(line.split()[1]) / 1024
    error = "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["failed"])[-1]
    return wall, cpu, peak, error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="comma-separated families: " + ",".join(FAMILIES))
    parser.add_argument("--ahead", action="store_true", help="keep what was compiled ahead of time (measure what is left)")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(FAMILIES)
    print(f"load average {os.getloadavg()[0]:.2f} at the start\n")
    print("| family | CPU s | wall s | peak MiB | note |")
    print("| --- | ---: | ---: | ---: | --- |")
    total = 0.0
    peak_all = 0.0
    failed = False
    for name in names:
        with tempfile.TemporaryDirectory(prefix="sudokit-cost-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, SUDOKIT_QUIET="1")
            if not args.ahead:
                env["SUDOKIT_AHEAD"] = "0"
            wall, cpu, peak, error = measure(FAMILIES[name], env)
        total += cpu
        peak_all = max(peak_all, peak)
        failed |= bool(error)
        print(f"| {name} | {cpu:.1f} | {wall:.1f} | {peak:.0f} | {error} |", flush=True)
    print(f"| all | {total:.1f} | | {peak_all:.0f} | sum of CPU; largest peak |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
