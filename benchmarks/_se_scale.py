"""``benchmarks/rate.py --scale se``: Sudoku Explainer's ER/EP/ED from ``sudokit.rate`` against
the ratings recorded in the shared data, and (``--serate``) against SukakuExplainer's own run.

Two sets carry SE ratings: ``diabolical_se`` (2,080 Sudoku Exchange puzzles, ER 5.0-9.1, rated by
SukakuExplainer) and ``hardest_db`` (the forum's hardest list, ER/EP/ED recorded for 269 of 375
puzzles, 9.7-11.9). For every sampled puzzle the script prints nothing; per set and per band of
the recorded ER (below 4, 4-6, 6-7.5, 7.5-9, 9-10, above 10) it prints

    puzzles  same ER  ER within 0.3  within 0.5  same ER/EP/ED  unknown  sudokit ms (median, mean, max)

where ``unknown`` counts puzzles whose budget (``--time-limit``) ran out (their ER is then a
lower bound). Targets (issue 20): 90% of puzzles rated up to 9.0 within 0.3 and 70% equal, every
forum puzzle within 0.5, 100x SE's own time.

``--serate "java -Xmx1g -cp DIR diuf.sudoku.test.serate"`` runs a SukakuExplainer the user built
(outside the project) over the same sampled puzzles, one JVM a set, and adds its mean time a
puzzle and the ratio to sudokit's; SE's own ratings are compared with the recorded ones too.

``--skfr PATH`` runs a skfr (the C++ rater of SE 1.2.1's rules) the user built outside the project
over the same sampled puzzles, once over the file a set, single thread (built without OpenMP), with
``-e``: its time is the total it prints (process start and option parsing excluded, file reading
and writing included), its median a puzzle the median of the per-puzzle times it prints (to the
millisecond only). It is run before and after sudokit's pass and the faster run is kept. The
script prints how often skfr's ER (and ER/EP/ED) is sudokit's, both means and medians, and
skfr/sudokit. With ``--skfr`` any 9x9 set of ``rate.py`` may be named, rated or not.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

BANDS = ((0.0, 4.0, "<4"), (4.0, 6.0, "4-6"), (6.0, 7.5, "6-7.5"), (7.5, 9.0, "7.5-9"),
         (9.0, 10.0, "9-10"), (10.0, 99.0, ">10"))  # fmt: skip


def recorded(data: Path, name: str, sets=None, read=None) -> list[tuple[str, float | None, float | None, float | None]]:
    """(puzzle, ER, EP, ED) of a set; EP and ED None where the set records only ER, all three
    None for the other sets of ``sets`` (read with ``read``)."""
    out: list[tuple[str, float | None, float | None, float | None]] = []
    if name == "diabolical_se":
        for line in (data / "rated" / "diabolical_se.txt").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 2 and len(fields[0]) == 81:
                out.append((fields[0], float(fields[1]), None, None))
    elif name == "hardest_db":
        for line in (data / "rated" / "HardestDatabase110626.txt").read_text().splitlines():
            fields = line.split(",")
            if line.startswith("#") or len(fields) < 8 or not fields[5]:
                continue
            ep, ed = (float(x) if x else None for x in fields[6:8])  # a few record ER alone
            out.append((fields[0], float(fields[5]), ep, ed))
    elif sets and name in sets:
        out = [(puzzle, None, None, None) for puzzle in read(data / sets[name])]
    else:
        raise SystemExit(f"no SE ratings recorded for set {name!r}: diabolical_se, hardest_db")
    return out


def band(er: float) -> str:
    return next(label for low, high, label in BANDS if low <= er < high)


def serate_run(command: str, puzzles: list[str]) -> tuple[float, list[str]]:
    """Wall seconds of one SukakuExplainer run over ``puzzles``, and its ER/EP/ED per puzzle."""
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "in.txt", Path(folder) / "out.txt"
        source.write_text("\n".join(puzzles) + "\n")
        start = time.perf_counter()
        subprocess.run(command.split() + [f"--input={source}", f"--output={target}", "--format=%r/%p/%d"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        wall = time.perf_counter() - start
        return wall, target.read_text().split()


SKFR_LINE = re.compile(r"^(\S{81}) ED=(\d+)\.(\d)/(\d+)\.(\d)/(\d+)\.(\d)(?:;(\d+)\.(\d+)s)?")


def skfr_run(binary: str, puzzles: list[str]) -> tuple[float, float, dict[str, tuple[tuple[float, float, float], float]]]:
    """skfr's own total seconds and the process's wall seconds over ``puzzles``, and per puzzle
    its ((ER, EP, ED), seconds) as it prints them (ms resolution)."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "in.txt").write_text("\n".join(puzzles) + "\n")
        start = time.perf_counter()
        done = subprocess.run([str(Path(binary).resolve()), "-iin", "-e"], cwd=folder, check=True,
                              capture_output=True, text=True)  # fmt: skip
        wall = time.perf_counter() - start
        total = re.search(r"total elapsed time (?:(\d+)h )?(?:(\d+)m )?(\d+)s (\d+)ms", done.stdout)
        if not total:
            raise SystemExit(f"skfr printed no total time:\n{done.stdout[-2000:]}")
        h, m, s, ms = (int(x or 0) for x in total.groups())
        own = 3600 * h + 60 * m + s + ms / 1e3
        out = {}
        for file in ("in_rat.txt", "in_N_rat.txt"):
            for line in (Path(folder) / file).read_text().splitlines():
                hit = SKFR_LINE.match(line)
                if hit:
                    g = [int(x) if x else 0 for x in hit.groups()[1:]]
                    ratings = (g[0] + g[1] / 10, g[2] + g[3] / 10, g[4] + g[5] / 10)
                    secs = g[6] + int(hit[9]) / 10 ** len(hit[9]) if hit[8] else float("nan")
                    out[hit[1]] = (ratings, secs)
    return own, wall, out


def skfr_report(binary: str, name: str, chosen: list[str], ours: list[tuple], ours_ms: list[float],
                ours_cpu: list[float], before: tuple, misses: list[str]) -> None:
    """Run skfr again after sudokit's pass and print the comparison, each of skfr's times the
    lower of its two runs. skfr times itself in CPU time (``clock()``), so sudokit's CPU time is
    set beside it; the wall times (skfr's process start included) are there too."""
    after = skfr_run(binary, chosen)
    own, wall = min(before[0], after[0]), min(before[1], after[1])
    theirs = before[2]
    n = len(chosen)
    missing = [p for p in chosen if p not in theirs]
    rated = [(theirs[p][0], o) for p, o in zip(chosen, ours) if p in theirs]
    same_er = sum(abs(t[0] - o[0]) < 0.05 for t, o in rated)
    near = sum(abs(t[0] - o[0]) <= 0.3 + 1e-9 for t, o in rated)
    same_all = sum(all(abs(a - b) < 0.05 for a, b in zip(t, o)) for t, o in rated)
    their_ms = [1e3 * min(before[2][p][1], after[2][p][1]) for p in chosen if p in theirs and p in after[2]]
    mean, median = statistics.mean, statistics.median
    their_cpu_mean = 1e3 * own / n
    their_median = median(their_ms) if their_ms else float("nan")
    print(f"skfr ({binary}): {own:.3f} s CPU by its own count for {n} puzzles, {wall:.3f} s wall with the process "
          f"(the lower of two runs, before and after sudokit's); no rating for {len(missing)}")
    print(f"  same ER as sudokit {100 * same_er / n:.1f}%, within 0.3 {100 * near / n:.1f}%, same ER/EP/ED "
          f"{100 * same_all / n:.1f}%")
    print(f"  {'ms a puzzle':14} {'CPU mean':>9} {'CPU median':>11} {'wall mean':>10} {'wall median':>12}")
    print(f"  {'sudokit':14} {mean(ours_cpu):9.2f} {median(ours_cpu):11.2f} {mean(ours_ms):10.2f} {median(ours_ms):12.2f}")
    print(f"  {'skfr':14} {their_cpu_mean:9.2f} {their_median:11.1f} {1e3 * wall / n:10.2f} {'-':>12}"
          "   (its median to the ms; its wall with the process start)")
    print(f"  skfr/sudokit (above 1: sudokit is faster): CPU mean {their_cpu_mean / mean(ours_cpu):.2f}x, CPU median "
          f"{their_median / median(ours_cpu):.2f}x, wall mean {1e3 * wall / n / mean(ours_ms):.2f}x")
    for p, o in zip(chosen, ours):
        if p in theirs and abs(theirs[p][0][0] - o[0]) >= 0.05:
            t = theirs[p][0]
            misses.append(f"  {name}: {p} skfr {t[0]}/{t[1]}/{t[2]}, sudokit {o[0]}/{o[1]}/{o[2]}")


def table_row(label: str, rows: list[dict]) -> str:
    n = len(rows)
    if not n:
        return f"{label:18} {0:5}"
    ms = [row["ms"] for row in rows]
    share = lambda key: 100 * sum(row[key] for row in rows) / n  # noqa: E731
    full = [row for row in rows if row["full"] is not None]
    full_share = f"{100 * sum(row['full'] for row in full) / len(full):6.1f}%" if full else f"{'-':>7}"
    return (f"{label:18} {n:5} {share('same'):6.1f}% {share('near'):6.1f}% {share('half'):6.1f}% {full_share} "
            f"{sum(row['unknown'] for row in rows):7} {statistics.median(ms):8.1f} {statistics.mean(ms):8.1f} {max(ms):9.0f}")  # fmt: skip


def main(args, rng, sets=None, read=None) -> int:
    import sudokit

    names = args.sets.split(",") if args.sets else ["diabolical_se", "hardest_db"]
    sudokit.rate(recorded(args.data, "diabolical_se")[0][0], scale="se")  # compile (or load) first
    print(f"time limit {args.time_limit} s a puzzle; rows: set, then bands of the recorded ER")
    header = (f"{'set / band':18} {'n':>5} {'sameER':>7} {'±0.3':>7} {'±0.5':>7} {'ER/EP/ED':>7} {'unknown':>7} "
              f"{'median ms':>8} {'mean ms':>8} {'max ms':>9}")  # fmt: skip
    misses = []
    for name in names:
        pool = recorded(args.data, name, sets if args.skfr else None, read)
        chosen = pool if len(pool) <= args.sample else rng.sample(pool, args.sample)
        rows, ours_er, ours_all, ours_cpu = [], [], [], []
        if args.skfr:
            skfr_before = skfr_run(args.skfr, [puzzle for puzzle, *_ in chosen])
        for puzzle, er, ep, ed in chosen:
            start, cpu = time.perf_counter(), time.process_time()
            rating = sudokit.rate(puzzle, scale="se", time_limit=args.time_limit)
            ms = (time.perf_counter() - start) * 1e3
            ours_cpu.append((time.process_time() - cpu) * 1e3)
            assert rating.er is not None, (puzzle, rating.status)
            ours_er.append(rating.er)
            ours = (rating.er, rating.ep, rating.ed)
            ours_all.append(ours)
            if er is None:  # a set without recorded SE ratings: timed beside skfr only
                rows.append({"ms": ms})
                continue
            full = None if ep is None or ed is None else ours == (er, ep, ed)
            rows.append({"er": er, "ms": ms, "same": abs(rating.er - er) < 0.05, "near": abs(rating.er - er) <= 0.3 + 1e-9,
                         "half": abs(rating.er - er) <= 0.5 + 1e-9, "full": full,
                         "unknown": rating.se_status is sudokit.SolveStatus.UNKNOWN})  # fmt: skip
            if not rows[-1]["same"] or full is False:
                theirs = f"{er}" if ep is None else f"{er}/{ep}/{ed}"
                misses.append(f"  {name}: {puzzle} SE {theirs}, sudokit {rating.se}{' (unknown)' if rows[-1]['unknown'] else ''}")
        if chosen and chosen[0][1] is None:
            ms = [row["ms"] for row in rows]
            print(f"\n{name}: {len(rows)} puzzles, no recorded SE ratings; sudokit median {statistics.median(ms):.1f} ms, "
                  f"mean {statistics.mean(ms):.1f} ms, max {max(ms):.0f} ms")
            skfr_report(args.skfr, name, [p for p, *_ in chosen], ours_all, ms, ours_cpu, skfr_before, misses)
            continue
        print(f"\n{name}\n{header}")
        print(table_row("all", rows))
        for _, _, label in BANDS:
            picked = [row for row in rows if band(row["er"]) == label]
            if picked:
                print(table_row(f"  {label}", picked))
        capped = [row for row in rows if row["er"] <= 9.0]
        if capped and len(capped) != len(rows):
            print(table_row("  ER <= 9.0", capped))
        if args.skfr:
            skfr_report(args.skfr, name, [p for p, *_ in chosen], ours_all, [row["ms"] for row in rows], ours_cpu,
                        skfr_before, misses)  # fmt: skip
        if args.serate:
            wall, theirs = serate_run(args.serate, [puzzle for puzzle, *_ in chosen])
            their_er = [float(t.split("/")[0]) for t in theirs]
            same = sum(abs(t - er) < 0.05 for t, (_, er, _, _) in zip(their_er, chosen))
            agree = sum(abs(t - o) < 0.05 for t, o in zip(their_er, ours_er))
            near = sum(abs(t - o) <= 0.3 + 1e-9 for t, o in zip(their_er, ours_er))
            ours_s = sum(row["ms"] for row in rows) / 1e3
            n = len(chosen)
            print(f"SukakuExplainer: {wall:.1f} s for {n} puzzles ({1e3 * wall / n:.0f} ms a puzzle, JVM start "
                  f"included); its ER as recorded {100 * same / n:.1f}%; sudokit's ER as its {100 * agree / n:.1f}%, "
                  f"within 0.3 {100 * near / n:.1f}%; SE/sudokit time {wall / ours_s:.1f}x")
            for t, o, (puzzle, *_) in zip(their_er, ours_er, chosen):
                if abs(t - o) >= 0.05:
                    misses.append(f"  {name}: {puzzle} SukakuExplainer's run {t}, sudokit {o}")
    if misses:
        print(f"\n{len(misses)} puzzles with another ER (or EP/ED):")
        print("\n".join(misses[:60]))
    return 0
