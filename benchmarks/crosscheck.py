"""Cross-check the kernels against the slow reference solver on the shared data sets.

    python benchmarks/crosscheck.py [--data ../shared/data] [--sample 2000] [--time-limit 10]
                                    [--reference-limit 60] [--only PATTERN]

For every puzzle file (9x9, 16x16, 25x25; at most ``--sample`` puzzles from each, chosen with a
fixed seed), the public API (``sudokit.count(limit=2)``, which picks the classic kernel for 9x9)
and the general kernel alone each count solutions up to 2, and ``tests/naive.py`` counts them
independently; any disagreement, or a solution that is not a valid grid keeping the givens,
is a wrong answer. A puzzle the kernel does not finish within ``--time-limit`` seconds is
listed as unfinished, and the reference is not asked (it would take far longer).

The reference is plain depth-first search: on the minimal 25x25 puzzles that sudokit's
learning kernel finishes in seconds it can run for hours. After ``--reference-limit`` seconds
it is stopped; the puzzle is then counted as *solution only*: sudokit's solutions are still
checked (valid grids keeping the givens, the API and the general kernel agreeing), but the
count, i.e. uniqueness, has no independent check.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import naive  # noqa: E402
from _data import DEFAULT_DATA, puzzle_files  # noqa: E402


class ReferenceTimeout(Exception):
    pass


def _stop_reference(signum, frame):
    raise ReferenceTimeout


def reference_count(puzzle: list[int], box: tuple[int, int], seconds: float) -> int | None:
    """``naive.count(limit=2)``, or None when it runs past ``seconds``."""
    previous = signal.signal(signal.SIGALRM, _stop_reference)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return naive.count(puzzle, *box, limit=2)
    except ReferenceTimeout:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--reference-limit", type=float, default=60.0)
    parser.add_argument("--only", default="")
    args = parser.parse_args()

    import sudokit
    from sudokit.engines import GeneralSearch
    from sudokit.results import Limits
    from sudokit.kernels.search import protocol

    files = puzzle_files(args.data, only=args.only)
    total = {"checked": 0, "wrong": 0, "unfinished": 0, "solution_only": 0}
    print(f"{'set':36} {'checked':>8} {'wrong':>6} {'unfinished':>10} {'solution only':>13} {'seconds':>8}")
    for path in files:
        lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
        if len(lines) > args.sample:
            keep = np.sort(np.random.default_rng(0).choice(len(lines), args.sample, replace=False))
            lines = [lines[i] for i in keep]
        checked = wrong = unfinished = solution_only = 0
        start = time.perf_counter()
        for line in lines:
            board = sudokit.Board.from_line(line)
            api = sudokit.count(board, 2, time_limit=args.time_limit)
            general = GeneralSearch(board)
            code = general.run(Limits(2, time_limit=args.time_limit)) if board.status().valid else protocol.DONE
            if api.status is sudokit.SolveStatus.UNKNOWN or code == protocol.BUDGET:
                unfinished += 1
                continue
            puzzle = board.cells.tolist()
            box = (board.shape.box_height, board.shape.box_width)
            expected = reference_count(puzzle, box, args.reference_limit)
            if expected is None:  # the reference gave up: the kernels must at least agree
                solution_only += 1
                bad = board.status().valid and general.count != api.count
            else:
                bad = api.count != expected or (board.status().valid and general.count != expected)
            if api.board is not None:
                bad |= not naive.is_solution(api.board.cells.tolist(), puzzle, *box)
            if general.count:
                bad |= not naive.is_solution(general.out.tolist(), puzzle, *box)
            if bad:
                wrong += 1
                print(f"  WRONG: {line} api={api.count} general={general.count} reference={expected}", flush=True)
            checked += 1
        seconds = time.perf_counter() - start
        print(f"{path.parent.name + '/' + path.stem:36} {checked:8d} {wrong:6d} {unfinished:10d} "
              f"{solution_only:13d} {seconds:8.1f}", flush=True)
        total["checked"] += checked
        total["wrong"] += wrong
        total["unfinished"] += unfinished
        total["solution_only"] += solution_only
    print(f"\ntotal: {total['checked']} checked, {total['wrong']} wrong, {total['unfinished']} unfinished; "
          f"of those checked, {total['solution_only']} without the reference's count (it ran past "
          f"{args.reference_limit:g} s)")
    sys.exit(1 if total["wrong"] else 0)


if __name__ == "__main__":
    main()
