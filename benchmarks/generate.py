"""Benchmark puzzle generation against the pip-installable generators, in one run.

Sections (each can be skipped, see ``--help``):

1. *Unique minimal 9x9*: puzzles/s of ``sudokit.generate`` on one thread and on every core,
   beside hodoku-py's generator (``SudokuGenerator.generate_sudoku``, HoDoKu's own: unique and
   minimal, without symmetry) and the other generators that work: lib-sudoku
   (``gen_unsolved(25)``: unique, a fixed number of givens, not minimal) and py-sudoku
   (``Sudoku(3).difficulty``: not even unique). A sample of every generator's output is
   checked here for uniqueness and minimality (sudokit's own counting), and the table says
   what each delivers.
2. *Per level*: ``sudokit.generate(level=...)`` against ``hodoku.Generator().generate`` at
   HoDoKu's five levels, each for up to ``--level-seconds``, sudokit on one thread and on every
   core; sudokit's puzzles are then rated by hodoku-py, which must agree on the level
   (HoDoKu's own judgement of the output).
3. *Levels of unconstrained output*: ``--rated`` puzzles of each generator, rated by sudokit
   and by hodoku-py.
4. *Big boards*: the median time of one unique minimal 16x16 and 25x25 puzzle.
5. *Canonical forms*: ``sudokit.canonical`` per second on Royle's 17-clue puzzles (one call a
   puzzle) and ``canonical_batch`` on the whole sample; with ``--minlex PATH``, swb01's minlex
   (the anchor, not part of this project) side by side on those puzzles and their solution
   grids, every form compared (``benchmarks/canonical.py``, which says how).
6. *Dask*: ``generate --dask`` on a local cluster of 1 and 2 worker processes against the
   local run, the files compared byte for byte.
7. *HoDoKu 2.2.0's own generator* (only with ``--hodoku-jar PATH``, a HoDoKu jar you built
   outside the project): at each of the five levels, ``java -jar PATH /s /sl LEVEL /o stdout``
   (HoDoKu's console generator: it draws unique minimal puzzles without symmetry, rates each
   with its solver and prints those at the level asked, as ``PUZZLE #Level``, until ``q`` on
   its stdin), one JVM a level, single thread. Its first ``--jar-warm`` puzzles warm the JVM;
   the clock runs from that puzzle's line to the line of the ``--jar-count``-th after it, as
   the lines arrive, so the JVM's start and warm-up are left out. HoDoKu's ms a puzzle is the
   JVM's CPU time over that stretch (all its threads, from ``/proc/PID/stat``; wall time where
   there is no /proc), its wall time beside it. sudokit's is ``time.process_time()`` around
   ``sudokit.generate(N, level=..., workers=1, seed=...)``, the level's kernels loaded first
   (one puzzle made before the clock). Every HoDoKu line must carry the level asked; the
   table then says how many of HoDoKu's puzzles ``sudokit.rate`` puts at that level and how
   many of sudokit's HoDoKu itself does (its ``/bs``, one more JVM). To pin both to the same
   core, run the script under ``taskset -c 1`` (the JVM inherits the affinity).

Targets (issue): >= 100x hodoku-py on unique minimal 9x9, >= 10x at level hard and above, a
unique minimal 25x25 in <= 5 s median, minlex >= 20,000 puzzles/s on one thread; issue 32:
minlex at or above swb01's (>= 500k puzzles/s, >= 125k full grids/s batched on one thread, one
call a board within 2x of that).

    python benchmarks/generate.py
    python benchmarks/generate.py --count 2000 --level-seconds 30 --big 25x25:3
    python benchmarks/generate.py --skip levels,big
    taskset -c 1 python benchmarks/generate.py --skip minimal,levels,rated,big,canonical,dask --hodoku-jar PATH
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]


def unique(line: str) -> bool:
    import sudokit

    return sudokit.count(line, 2).count == 1


def minimal(line: str) -> bool:
    """No given can go without a second solution."""
    for k, char in enumerate(line):
        if char != ".":
            if unique(line[:k] + "." + line[k + 1 :]):
                return False
    return True


def as_line(cells) -> str:
    return "".join(str(int(v)) if int(v) else "." for v in cells)


def peers() -> dict[str, object]:
    """name -> a function making one 9x9 puzzle line, for each peer that imports."""
    found: dict[str, object] = {}
    try:
        from hodoku.generator.generator import SudokuGenerator

        raw = SudokuGenerator()

        def hodoku_raw() -> str:
            return raw.generate_sudoku(False).replace("0", ".")

        found["hodoku-py (SudokuGenerator)"] = hodoku_raw
    except ImportError:
        print("hodoku-py is missing (pip install -e '.[bench-peers]')", file=sys.stderr)
    try:
        import lib_sudoku

        def lib() -> str:
            return as_line(lib_sudoku.gen_unsolved(25))

        found["lib-sudoku gen_unsolved(25)"] = lib
    except ImportError:
        pass
    try:
        from sudoku import Sudoku

        def py_sudoku() -> str:
            board = Sudoku(3).difficulty(0.6).board
            return "".join(str(v) if v else "." for row in board for v in row)

        found["py-sudoku difficulty(0.6)"] = py_sudoku
    except ImportError:
        pass
    return found


def timed(make, seconds: float, most: int) -> tuple[list[str], float]:
    """Call ``make`` until ``seconds`` pass or ``most`` puzzles are made: (puzzles, seconds)."""
    made = []
    start = time.perf_counter()
    while len(made) < most and time.perf_counter() - start < seconds:
        made.append(make())
    return made, time.perf_counter() - start


def quietly(function, *args, **kwargs):
    """Call with stdout and stderr sent to /dev/null (lib-sudoku prints its restarts)."""
    sys.stdout.flush()
    saved = os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        return function(*args, **kwargs)
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(null)


def section_minimal(args) -> None:
    import sudokit

    print(f"\n## unique minimal 9x9 ({args.count} puzzles from sudokit, up to {args.peer_seconds:.0f} s a peer)\n")
    print(f"{'generator':34} {'puzzles':>8} {'per sec':>10} {'ms each':>9} {'unique':>8} {'minimal':>8} {'givens':>7} {'sudokit/this':>13}")
    rows = []
    start = time.perf_counter()
    ours = sudokit.generate(args.count, seed=args.seed, workers=1)
    ours_s = time.perf_counter() - start
    lines = [board.to_line() for board in ours]
    rows.append(("sudokit (1 thread)", lines, ours_s))
    start = time.perf_counter()
    everyone = sudokit.generate(args.count, seed=args.seed + 1, workers=None)
    rows.append((f"sudokit ({os.cpu_count()} threads)", [b.to_line() for b in everyone], time.perf_counter() - start))
    for name, make in peers().items():
        made, spent = quietly(timed, make, args.peer_seconds, args.count)
        rows.append((name, made, spent))
    base = len(rows[0][1]) / rows[0][2]
    for name, made, spent in rows:
        sample = made[: args.check]
        uniq = sum(unique(line) for line in sample)
        mini = sum(minimal(line) for line in sample if unique(line))
        rate = len(made) / spent
        givens = statistics.mean(81 - line.count(".") for line in made) if made else 0
        print(
            f"{name:34} {len(made):8} {rate:10.1f} {1e3 / rate:9.3f} {uniq:4}/{len(sample):<3} {mini:4}/{len(sample):<3} "
            f"{givens:7.1f} {base / rate:12.1f}x",
            flush=True,
        )


def section_levels(args) -> None:
    import hodoku

    import sudokit

    solver = hodoku.Solver()
    generator = hodoku.Generator()
    print(f"\n## by level (up to {args.level_seconds:.0f} s each; sudokit's puzzles rated again by hodoku-py)\n")
    threads = os.cpu_count()
    print(f"{'level':8} {'sudokit ms':>11} {f'{threads} threads ms':>13} {'hodoku-py ms':>13} {'made':>9} {'hodoku/sudokit':>15}"
          f" {'hodoku-py agrees':>17}")

    def made_by_sudokit(level: str, workers: int | None, seed: int) -> tuple[list[str], float]:
        ours: list[str] = []
        start = time.perf_counter()
        stream = sudokit.generate_iter(None, level=level, seed=seed, workers=workers)
        while time.perf_counter() - start < args.level_seconds and len(ours) < args.level_count:
            ours.append(next(stream).to_line())
        spent = time.perf_counter() - start
        stream.close()
        return ours, spent

    for level in LEVELS:
        wanted = getattr(hodoku.DifficultyType, level.upper())
        ours, spent = made_by_sudokit(level, 1, args.seed)
        everyone, everyone_spent = made_by_sudokit(level, None, args.seed + 1)
        theirs, their_spent = timed(lambda: generator.generate(wanted, symmetric=False), args.level_seconds, args.level_count)
        agree = sum(solver.rate(line).level.name.lower() == level for line in ours + everyone)
        ours_ms = 1e3 * spent / max(len(ours), 1)
        everyone_ms = 1e3 * everyone_spent / max(len(everyone), 1)
        theirs_ms = 1e3 * their_spent / max(len(theirs), 1)
        ratio = f"{theirs_ms / ours_ms:14.1f}x" if theirs else f"{'none made':>15}"
        print(f"{level:8} {ours_ms:11.2f} {everyone_ms:13.2f} {theirs_ms:13.1f} {len(ours):4}/{len(theirs):<4} {ratio}"
              f" {agree:8}/{len(ours) + len(everyone):<8}", flush=True)


def section_rated(args) -> None:
    import hodoku

    import sudokit

    solver = hodoku.Solver()
    print(f"\n## levels of unconstrained output ({args.rated} puzzles each; rows: the generator and the rater)\n")
    print(f"{'':42}" + "".join(f"{level:>9}" for level in LEVELS) + f"{'same':>8}")
    sources = {"sudokit": [b.to_line() for b in sudokit.generate(args.rated, seed=args.seed + 2)]}
    hodoku_raw = peers().get("hodoku-py (SudokuGenerator)")
    if hodoku_raw is not None:
        sources["hodoku-py (SudokuGenerator)"] = [hodoku_raw() for _ in range(args.rated)]  # type: ignore[operator]
    for name, lines in sources.items():
        ours = [sudokit.rate(line).level.value for line in lines]
        theirs = [solver.rate(line).level.name.lower() for line in lines]
        same = sum(a == b for a, b in zip(ours, theirs))
        for rater, levels in (("sudokit", ours), ("hodoku-py", theirs)):
            counts = collections.Counter(levels)
            print(f"{name + ', rated by ' + rater:42}" + "".join(f"{counts[level]:9}" for level in LEVELS) + (f"{same:5}/{len(lines)}" if rater == "sudokit" else ""))


def section_big(args) -> None:
    import sudokit

    print("\n## big boards: one unique minimal puzzle at a time\n")
    print(f"{'shape':8} {'puzzles':>8} {'median s':>9} {'min s':>7} {'max s':>7} {'givens':>7}")
    for item in args.big.split(","):
        shape, _, count = item.partition(":")
        times, givens = [], []
        for k in range(int(count or 3)):
            start = time.perf_counter()
            [puzzle] = sudokit.generate(1, shape=shape, seed=args.seed + k, workers=1)
            times.append(time.perf_counter() - start)
            givens.append(puzzle.givens)
        print(f"{shape:8} {len(times):8} {statistics.median(times):9.2f} {min(times):7.2f} {max(times):7.2f} {statistics.mean(givens):7.1f}", flush=True)


def section_canonical(args) -> None:
    import sudokit
    from sudokit.canon import canonical_batch

    path = args.data / "9x9" / "royle_17clue.txt"
    if not path.exists():
        print(f"\n(no {path}: canonical forms skipped)")
        return
    lines = [line.split()[0] for line in path.read_text().splitlines()[: args.canon] if len(line.split()[0]) == 81]
    sudokit.canonical(lines[0])
    start = time.perf_counter()
    for line in lines:
        sudokit.canonical(line)
    single = len(lines) / (time.perf_counter() - start)
    values = np.array([[0 if c in ".0" else int(c) for c in line] for line in lines], dtype=np.uint8)
    start = time.perf_counter()
    canonical_batch(values)
    batched = len(lines) / (time.perf_counter() - start)
    print(f"\n## canonical forms (royle_17clue, {len(lines)} puzzles, one thread)\n")
    print(f"sudokit.canonical, one call a puzzle: {single:,.0f}/s; canonical_batch: {batched:,.0f}/s")
    if args.minlex is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from canonical import anchor_section

        if anchor_section(args.minlex, args.data, args.canon, 3):
            raise SystemExit("canonical forms: the anchor and sudokit disagree (see above)")


def section_dask(args) -> None:
    """``generate --dask``: the same seeded stream carved on a local Dask cluster of 1 and 2
    worker processes, against the local run on one thread; every file must be the same bytes."""
    import tempfile

    from dask.distributed import Client, LocalCluster

    from sudokit.making import generate_file

    print(f"\n## generate on a local Dask cluster ({args.dask_count} unique minimal 9x9 puzzles, seed {args.seed})\n")
    print(f"{'run':28} {'seconds':>8} {'puzzles/s':>10} {'x local':>8} {'same bytes':>11}")
    with tempfile.TemporaryDirectory() as folder:
        local = Path(folder) / "local.txt"
        start = time.perf_counter()
        generate_file(local, args.dask_count, seed=args.seed, workers=1)
        base = time.perf_counter() - start
        print(f"{'local, one thread':28} {base:8.2f} {args.dask_count / base:10.1f} {1.0:8.2f} {'-':>11}", flush=True)
        for workers in (1, 2):
            with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
                client.run(lambda: __import__("sudokit").generate(1, seed=1))  # kernels loaded before the clock
                target = Path(folder) / f"dask{workers}.txt"
                start = time.perf_counter()
                generate_file(target, args.dask_count, seed=args.seed, client=client)
                spent = time.perf_counter() - start
            same = target.read_bytes() == local.read_bytes()
            print(f"{f'dask, {workers} worker process(es)':28} {spent:8.2f} {args.dask_count / spent:10.1f} "
                  f"{base / spent:8.2f} {str(same):>11}", flush=True)


HODOKU_LINE = re.compile(r"^([.1-9]{81}) #(\w+)\s*$")  # /s: a puzzle and its level
HODOKU_RATED = re.compile(r"^(\S{81}) #(\d+) (\w+) \((\d+)\)")  # /bs: puzzle, number, level, score


def jvm_seconds(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) of a running process, or None without /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hodoku_generate(jar: Path, level: str, warm: int, count: int) -> tuple[list[str], float, float | None]:
    """``count`` puzzles of HoDoKu's ``/s /sl LEVEL`` from one JVM that made ``warm`` first:
    (puzzles, wall seconds, JVM CPU seconds or None), both from the ``warm``-th line to the last.

    HoDoKu reads and writes its options (``hodoku.hcfg``) in ``java.io.tmpdir``: a fresh
    folder, so it runs on its defaults."""
    import subprocess
    import tempfile

    made: list[str] = []
    start = cpu = None
    with tempfile.TemporaryDirectory() as folder:
        command = ["java", f"-Djava.io.tmpdir={folder}", "-jar", str(jar.resolve()), "/s", "/sl", str(LEVELS.index(level)),
                   "/o", "stdout"]  # fmt: skip
        proc = subprocess.Popen(command, cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, bufsize=1)  # fmt: skip
        try:
            if warm == 0:
                start, cpu = time.perf_counter(), jvm_seconds(proc.pid)
            for line in proc.stdout:  # type: ignore[union-attr]
                hit = HODOKU_LINE.match(line)
                if not hit:
                    continue
                if hit[2].lower() != level:
                    raise SystemExit(f"HoDoKu asked for {level} printed {line.strip()}")
                if start is None:
                    warm -= 1
                    if warm == 0:
                        start, cpu = time.perf_counter(), jvm_seconds(proc.pid)
                    continue
                made.append(hit[1])
                if len(made) == count:
                    break
            wall = time.perf_counter() - (start or 0.0)
            end = jvm_seconds(proc.pid)
        finally:
            proc.kill()  # the puzzle it is drawing now may take long; "q" waits for it
            proc.wait()
    if len(made) < count:
        raise SystemExit(f"HoDoKu ({' '.join(command)}) stopped after {len(made)} puzzles")
    return made, wall, None if cpu is None or end is None else end - cpu


def hodoku_levels(jar: Path, lines: list[str]) -> list[str]:
    """HoDoKu's level of each puzzle, from one ``/bs FILE /o stdout`` run."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "in.txt").write_text("\n".join(lines) + "\n")
        out = subprocess.run(["java", f"-Djava.io.tmpdir={folder}", "-jar", str(jar.resolve()), "/bs", "in.txt", "/o", "stdout"],
                             cwd=folder, capture_output=True, text=True, check=True).stdout  # fmt: skip
    levels = [hit[3].lower() for hit in map(HODOKU_RATED.match, out.splitlines()) if hit]
    if len(levels) != len(lines):
        raise SystemExit(f"HoDoKu's /bs gave {len(levels)} results for {len(lines)} puzzles")
    return levels


def section_jar(args) -> None:
    """HoDoKu 2.2.0's own generator (``--hodoku-jar``) against ``sudokit.generate`` at each level."""
    if args.hodoku_jar is None:
        return
    import sudokit

    print(f"\n## by level beside HoDoKu's own generator (java -jar {args.hodoku_jar.name} /s /sl LEVEL /o stdout), "
          f"{args.jar_count} puzzles a level, after {args.jar_warm} to warm the JVM\n")  # fmt: skip
    if hasattr(os, "sched_getaffinity"):
        print(f"this process and the JVMs run on CPU(s) {sorted(os.sched_getaffinity(0))}")
    print(f"{'level':8} {'n':>5} {'HoDoKu ms':>10} {'(wall)':>8} {'sudokit ms':>11} {'HoDoKu/sudokit':>15}"
          f" {'sudokit.rate agrees':>20}")  # fmt: skip
    ours_all: dict[str, list[str]] = {}
    levels = [level for level in LEVELS if level in args.jar_levels.split(",")]
    for level in levels:
        sudokit.generate(1, level=level, workers=1, seed=args.seed + 99)  # the level's kernels loaded before the clock
        start = time.process_time()
        ours = [board.to_line() for board in sudokit.generate(args.jar_count, level=level, workers=1, seed=args.seed)]
        ours_ms = 1e3 * (time.process_time() - start) / len(ours)
        theirs, wall, cpu = hodoku_generate(args.hodoku_jar, level, args.jar_warm, args.jar_count)
        theirs_ms = 1e3 * (cpu if cpu is not None else wall) / len(theirs)
        agree = sum(sudokit.rate(line).level.value == level for line in theirs)
        ours_all[level] = ours
        print(f"{level:8} {len(theirs):5} {theirs_ms:10.2f} {1e3 * wall / len(theirs):8.2f} {ours_ms:11.2f} "
              f"{theirs_ms / ours_ms:14.1f}x {agree:12}/{len(theirs):<7}", flush=True)  # fmt: skip
    judged = hodoku_levels(args.hodoku_jar, [line for level in levels for line in ours_all[level]])
    print("\nHoDoKu's /bs on sudokit's puzzles (at the level asked / made):", end="")
    k = 0
    for level in levels:
        n = len(ours_all[level])
        print(f" {level} {sum(j == level for j in judged[k:k + n])}/{n}", end="")
        k += n
    print(flush=True)


SECTIONS = {"minimal": section_minimal, "levels": section_levels, "rated": section_rated, "big": section_big,
            "canonical": section_canonical, "dask": section_dask, "jar": section_jar}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--count", type=int, default=1000, help="unique minimal 9x9 puzzles sudokit makes (section 1)")
    parser.add_argument("--peer-seconds", type=float, default=20.0, help="time each peer gets in section 1")
    parser.add_argument("--check", type=int, default=50, help="puzzles of each generator checked for uniqueness and minimality")
    parser.add_argument("--level-seconds", type=float, default=20.0, help="time each generator gets per level")
    parser.add_argument("--level-count", type=int, default=50, help="puzzles at most per level and generator")
    parser.add_argument("--rated", type=int, default=300, help="puzzles rated in section 3")
    parser.add_argument("--big", default="16x16:5,25x25:2", help="shape:count pairs for section 4")
    parser.add_argument("--canon", type=int, default=20000, help="Royle puzzles in section 5")
    parser.add_argument("--minlex", type=Path, help="swb01's minlex executable, run beside section 5 on the same boards")
    parser.add_argument("--dask-count", type=int, default=2000, help="puzzles made on the Dask cluster (section 6)")
    parser.add_argument("--hodoku-jar", type=Path, help="a HoDoKu jar (built outside the project): its generator "
                        "beside sudokit's at each level (section 7)")
    parser.add_argument("--jar-count", type=int, default=200, help="--hodoku-jar: puzzles a level, each generator")
    parser.add_argument("--jar-warm", type=int, default=50, help="--hodoku-jar: puzzles HoDoKu makes before its clock")
    parser.add_argument("--jar-levels", default=",".join(LEVELS), help="--hodoku-jar: comma-separated levels to run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip", default="", help="comma-separated sections to skip: " + ",".join(SECTIONS))
    args = parser.parse_args()

    import sudokit

    skip = set(filter(None, args.skip.split(",")))
    sudokit.generate(1, seed=1)  # compile (or load) the kernels before any clock starts
    sudokit.rate(sudokit.generate(1, seed=1)[0])
    print(f"sudokit {sudokit.__version__}, {os.cpu_count()} CPUs")
    for name, section in SECTIONS.items():
        if name not in skip:
            section(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
