"""Benchmark the human-style rating against HoDoKu's own engine (hodoku-py), on the same puzzles.

For each set (QQWing's four levels, the technique exemplars, the SE-rated diabolical bank and
samples of the shared 9x9 sets), every sampled puzzle is rated by ``sudokit.rate`` and by
``hodoku.Solver().rate``, one puzzle at a time on one thread, and the script prints per set:

    puzzles  same level  same score  |score diff|  sudokit ms (median, mean)  hodoku ms  hodoku/sudokit

then the confusion matrix of levels (rows: HoDoKu, columns: sudokit) over all puzzles, and the
puzzles whose level differs (with both paths' first differing step when ``--why``). Targets:
the same level on 95% of puzzles, rating 100x faster than hodoku-py, median 9x9 in 2 ms.

    python benchmarks/rate.py                         # every set, 100 puzzles each
    python benchmarks/rate.py --sample 300 --sets qqwing_expert,diabolical_se
    python benchmarks/rate.py --why                   # show where the paths part on a miss
    python benchmarks/rate.py --scale se              # SE's ER/EP/ED: see _se_scale.py
    python benchmarks/rate.py --sets qqwing_expert --sample 700 --no-hodoku-py --hodoku-jar hodoku.jar

``--hodoku-jar PATH`` runs a HoDoKu you built (outside the project) over the same sampled puzzles
as ``java -jar PATH /bs FILE /o stdout``, one JVM a set, single thread: the file holds
``--peer-warm`` puzzles of the set first (to warm the JVM), then the sample, and HoDoKu's time a
puzzle is the time between its result lines as they arrive (JVM start and warm-up excluded). It
prints the levels and scores both give alike, both means and medians, and HoDoKu/sudokit.
``--no-hodoku-py`` leaves the pure-Python hodoku-py out (it takes seconds on the hardest sets).
``--one-core`` pins this process and the peers it starts to one core.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]
SETS = {
    "qqwing_simple": "rated/qqwing_simple.sdm",
    "qqwing_easy": "rated/qqwing_easy.sdm",
    "qqwing_intermediate": "rated/qqwing_intermediate.sdm",
    "qqwing_expert": "rated/qqwing_expert.sdm",
    "exemplars": "rated/exemplars-1.0.txt",
    "diabolical_se": "rated/diabolical_se.txt",
    "kaggle_bryanpark_sample": "9x9/kaggle_bryanpark_sample.txt",
    "norvig_top95": "9x9/norvig_top95.txt",
    "magictour_top1465": "9x9/magictour_top1465.txt",
    "forum_hardest_1106": "9x9/forum_hardest_1106.txt",
}


def puzzles(path: Path) -> list[str]:
    """One-line 9x9 puzzles of a file: the first field of each line that is 81 symbols."""
    out = []
    for line in path.read_text().splitlines():
        field = line.strip().split(" ")[0].split(",")[0]
        if len(field) == 81 and not line.startswith("#"):
            out.append(field.replace("0", "."))
    return out


def hodoku_name(step) -> str:
    return step.type.name.replace("_", " ").title()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--sets", help="comma-separated set names; default all: " + ",".join(SETS))
    parser.add_argument("--sample", type=int, help="puzzles per set (seeded sample); default 100, and with --scale se "
                        "the whole of hardest_db")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--why", action="store_true", help="print where the two solution paths part on a miss")
    parser.add_argument("--scale", choices=("hodoku", "se"), default="hodoku",
                        help="se: Sudoku Explainer's ER/EP/ED against the recorded ratings (see _se_scale.py)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="--scale se: seconds a puzzle")
    parser.add_argument("--serate", help='--scale se: a SukakuExplainer command to time beside sudokit, '
                        '"java -Xmx1g -cp DIR diuf.sudoku.test.serate"')
    parser.add_argument("--skfr", help="--scale se: a skfr binary (C++) to run beside sudokit, once over each sample")
    parser.add_argument("--hodoku-jar", help="a HoDoKu jar to run beside sudokit (its /bs), one JVM a set")
    parser.add_argument("--peer-warm", type=int, default=200, help="--hodoku-jar: puzzles rated first to warm the JVM")
    parser.add_argument("--no-hodoku-py", action="store_true", help="leave hodoku-py out (with --hodoku-jar)")
    parser.add_argument("--one-core", action="store_true", help="pin this process and the peers to one core")
    parser.add_argument("--jobs", type=int, default=1, help="--scale se: puzzles rated side by side, each in a "
                        "process of its own on one thread (times are per puzzle either way)")
    parser.add_argument("--per-puzzle", action="store_true", help="--scale se: a row for every puzzle (always for "
                        "hardest_db): recorded ER/EP/ED, sudokit's, the time")
    args = parser.parse_args()
    if args.one_core:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.scale == "se":
        import _se_scale

        return _se_scale.main(args, random.Random(args.seed), SETS, puzzles)
    args.sample = 100 if args.sample is None else args.sample

    import sudokit

    names = args.sets.split(",") if args.sets else list(SETS)
    rng = random.Random(args.seed)
    if args.no_hodoku_py:
        if not args.hodoku_jar:
            raise SystemExit("--no-hodoku-py needs --hodoku-jar")
        return jar_only(args, names, rng)
    import hodoku

    solver = hodoku.Solver()
    sudokit.rate(puzzles(args.data / SETS["qqwing_expert"])[0], scale="hodoku")  # compile (or load) the kernels first

    confusion: dict[tuple[str, str], int] = collections.Counter()
    misses, jar_lines = [], []
    totals = {"n": 0, "same": 0, "score": 0, "ours": [], "theirs": []}
    print(f"{'set':26} {'n':>5} {'level':>7} {'score':>7} {'|diff|':>7} {'sudokit ms':>17} {'hodoku ms':>17} {'ratio':>7}")
    for name in names:
        path = args.data / SETS[name]
        pool = puzzles(path)
        chosen = pool if len(pool) <= args.sample else rng.sample(pool, args.sample)
        ours_ms, theirs_ms, same, same_score, diffs, ours_rows = [], [], 0, 0, [], []
        for puzzle in chosen:
            start = time.perf_counter()
            rating = sudokit.rate(puzzle, scale="hodoku")  # HoDoKu's scale only, as hodoku-py
            ours_ms.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            theirs = solver.rate(puzzle)
            theirs_ms.append((time.perf_counter() - start) * 1e3)
            level = rating.level.value if rating.level else str(rating.status)
            ours_rows.append((level, rating.score, ours_ms[-1]))
            their_level = theirs.level.name.lower()
            confusion[(their_level, level)] += 1
            same += level == their_level
            same_score += rating.score == theirs.score
            diffs.append(abs((rating.score or 0) - theirs.score))
            if level != their_level:
                misses.append((name, puzzle, their_level, theirs.score, level, rating.score))
        n = len(chosen)
        ratio = statistics.mean(theirs_ms) / statistics.mean(ours_ms)
        print(
            f"{name:26} {n:5} {100 * same / n:6.1f}% {100 * same_score / n:6.1f}% {statistics.mean(diffs):7.0f} "
            f"{statistics.median(ours_ms):8.2f} {statistics.mean(ours_ms):8.2f} "
            f"{statistics.median(theirs_ms):8.1f} {statistics.mean(theirs_ms):8.1f} {ratio:6.0f}x",
            flush=True,
        )
        if args.hodoku_jar:
            jar_lines.append(jar_row(args, name, chosen, ours_rows))
        totals["n"] += n
        totals["same"] += same
        totals["score"] += same_score
        totals["ours"] += ours_ms
        totals["theirs"] += theirs_ms
    n = totals["n"]
    ours, theirs = totals["ours"], totals["theirs"]
    print(
        f"{'all':26} {n:5} {100 * totals['same'] / n:6.1f}% {100 * totals['score'] / n:6.1f}% {'':7} "
        f"{statistics.median(ours):8.2f} {statistics.mean(ours):8.2f} "
        f"{statistics.median(theirs):8.1f} {statistics.mean(theirs):8.1f} {statistics.mean(theirs) / statistics.mean(ours):6.0f}x"
    )
    if jar_lines:
        print(f"\nbeside HoDoKu's /bs ({args.hodoku_jar}), JVM warmed with {args.peer_warm} puzzles, start excluded")
        print(JAR_HEADER)
        print("\n".join(jar_lines))
    print("\nlevels (rows: hodoku-py, columns: sudokit)")
    print(" " * 9 + "".join(f"{level:>9}" for level in LEVELS))
    for theirs_level in LEVELS:
        print(f"{theirs_level:9}" + "".join(f"{confusion[(theirs_level, ours_level)]:9}" for ours_level in LEVELS))
    if misses:
        print(f"\n{len(misses)} puzzles rated at another level:")
        for name, puzzle, their_level, their_score, level, score in misses[:40]:
            print(f"  {name}: {puzzle} hodoku {their_level} {their_score}, sudokit {level} {score}")
            if args.why:
                ours_steps = [step.name for step in sudokit.explain(puzzle).steps]
                their_steps = [hodoku_name(step) for step in solver.solve(puzzle).steps]
                k = next((i for i, (a, b) in enumerate(zip(their_steps, ours_steps)) if a.lower() != b.lower()), None)
                if k is not None:
                    print(f"    step {k + 1}: hodoku {their_steps[k:k + 2]}, sudokit {ours_steps[k:k + 2]}")
    return 0


JAR_HEADER = (f"{'set':22} {'n':>5} {'level':>7} {'score':>7} {'sudokit ms (med, mean)':>23} "
              f"{'HoDoKu ms (med, mean)':>23} {'mean ratio':>10} {'median ratio':>12}")  # fmt: skip
RESULT = re.compile(r"^(\S{81}) #(\d+) (\w+) \((\d+)\)")


def hodoku_jar_run(jar: str, warm: list[str], chosen: list[str]) -> list[tuple[str, int, float]]:
    """(level, score, ms) per puzzle of ``chosen`` from one HoDoKu JVM that rated ``warm`` first.

    A puzzle's time is the time between its result line and the one before as they arrive
    (HoDoKu prints a result as soon as the puzzle is rated, and Java flushes each line)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "in.txt").write_text("\n".join(p.replace(".", "0") for p in warm + chosen) + "\n")
        proc = subprocess.Popen(["java", "-jar", str(Path(jar).resolve()), "/bs", "in.txt", "/o", "stdout"], cwd=folder,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)  # fmt: skip
        stamps, results = [], []
        for line in proc.stdout:
            hit = RESULT.match(line)
            if hit:
                stamps.append(time.perf_counter())
                results.append((hit[3].lower(), int(hit[4])))
        proc.wait()
    if len(results) != len(warm) + len(chosen):
        raise SystemExit(f"HoDoKu gave {len(results)} results for {len(warm) + len(chosen)} puzzles")
    k = len(warm)
    if not k:
        raise SystemExit("--peer-warm must be at least 1 (the first puzzle's time would hold the JVM's start)")
    return [(level, score, (stamps[k + i] - stamps[k + i - 1]) * 1e3) for i, (level, score) in enumerate(results[k:])]


def jar_row(args, name: str, chosen: list[str], ours: list[tuple[str, int, float]]) -> str:
    pool = puzzles(args.data / SETS[name])
    warm = [pool[i % len(pool)] for i in range(args.peer_warm)]
    theirs = hodoku_jar_run(args.hodoku_jar, warm, chosen)
    n = len(chosen)
    same = sum(o[0] == t[0] for o, t in zip(ours, theirs))
    same_score = sum(o[0] == t[0] and o[1] == t[1] for o, t in zip(ours, theirs))
    ours_ms, theirs_ms = [o[2] for o in ours], [t[2] for t in theirs]
    for puzzle, o, t in zip(chosen, ours, theirs):
        if o[:2] != t[:2]:
            print(f"  {name}: {puzzle} HoDoKu {t[0]} {t[1]}, sudokit {o[0]} {o[1]}")
    return (f"{name:22} {n:5} {100 * same / n:6.1f}% {100 * same_score / n:6.1f}% "
            f"{statistics.median(ours_ms):11.2f} {statistics.mean(ours_ms):11.2f} "
            f"{statistics.median(theirs_ms):11.2f} {statistics.mean(theirs_ms):11.2f} "
            f"{statistics.mean(theirs_ms) / statistics.mean(ours_ms):9.1f}x "
            f"{statistics.median(theirs_ms) / statistics.median(ours_ms):11.1f}x")


def jar_only(args, names: list[str], rng: random.Random) -> int:
    """sudokit beside HoDoKu's own engine (the jar) alone, sudokit's pass and HoDoKu's in turn a set."""
    import sudokit

    sudokit.rate(puzzles(args.data / SETS["qqwing_expert"])[0], scale="hodoku")  # compile (or load) the kernels first
    print(f"HoDoKu's /bs ({args.hodoku_jar}), JVM warmed with {args.peer_warm} puzzles, start excluded")
    print(JAR_HEADER, flush=True)
    for name in names:
        pool = puzzles(args.data / SETS[name])
        chosen = pool if len(pool) <= args.sample else rng.sample(pool, args.sample)
        ours = []
        for puzzle in chosen:
            start = time.perf_counter()
            rating = sudokit.rate(puzzle, scale="hodoku")
            ms = (time.perf_counter() - start) * 1e3
            ours.append((rating.level.value if rating.level else str(rating.status), rating.score, ms))
        print(jar_row(args, name, chosen, ours), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
