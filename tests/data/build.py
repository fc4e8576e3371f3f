"""Rebuild the test data in this folder from the shared public puzzle sets.

    python tests/data/build.py PATH/TO/shared/data

Writes ``puzzles.txt`` (``puzzle:count:solution`` lines; counts are exact, computed by the
reference solver in ``tests/naive.py``; the solution is given when the count is 1) and small
samples of each data set (``sample_*.txt``). Every choice is seeded, so a rebuild is identical.
Sources are listed in ``SOURCES.md``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import naive  # noqa: E402

DIGITS = "123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
COUNT_CAP = 2000  #: puzzles with more solutions than this are left out of puzzles.txt


def alphabet(size: int) -> str:
    return DIGITS[:size] if size <= 9 else LETTERS[:size]


def box(size: int) -> tuple[int, int]:
    return {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5)}[size]


def entry(line: str) -> str | None:
    """``puzzle:count:solution`` for one line-format puzzle, or None past the count cap."""
    size = int(len(line) ** 0.5)
    height, width = box(size)
    chars = alphabet(size)
    cells = naive.parse_line(line, chars)
    found = []
    for solution in naive.solutions(cells, height, width):
        found.append(solution)
        if len(found) > COUNT_CAP:
            return None
    written = "".join(chars[v - 1] for v in found[0]) if len(found) == 1 else ""
    return f"{line}:{len(found)}:{written}"


def generated(size: int, givens: int, rng: random.Random) -> str:
    """A random full grid with ``givens`` cells kept (any number of solutions)."""
    height, width = box(size)
    values = list(range(1, size + 1))
    rng.shuffle(values)
    first = next(naive.solutions([0] * (size * size), height, width))
    grid = [values[v - 1] for v in first]
    keep = set(rng.sample(range(size * size), givens))
    chars = alphabet(size)
    return "".join(chars[v - 1] if i in keep else "." for i, v in enumerate(grid))


def lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def sample(path: Path, count: int, rng: random.Random) -> list[str]:
    every = lines(path)
    if len(every) <= count:
        return every
    return [every[i] for i in sorted(rng.sample(range(len(every)), count))]


def main(shared: Path) -> None:
    rng = random.Random(20261129)
    nine = shared / "9x9"
    chosen: list[str] = []
    # 9x9: tdoku's unit-test sets (unique, several, none), then hard and easy unique ones
    for name in ("tdoku_test_unique", "tdoku_test_multi", "tdoku_test_nosolution"):
        chosen += lines(nine / f"{name}.txt")
    chosen += sample(nine / "norvig_top95.txt", 12, rng)
    chosen += sample(nine / "forum_hardest_1106.txt", 8, rng)
    chosen += sample(nine / "royle_17clue.txt", 8, rng)
    chosen += sample(nine / "serg_benchmark.txt", 6, rng)
    # small and rectangular boxes, generated: from many solutions down to none
    for size, givens in ((4, 4), (4, 6), (4, 8), (6, 10), (6, 14), (6, 18), (8, 24), (8, 30)):
        for _ in range(3):
            chosen.append(generated(size, givens, rng))
    # 16x16 and 25x25 from the public sets
    chosen += sample(shared / "16x16" / "goomii17_hexasudoku.txt", 6, rng)
    chosen += sample(shared / "16x16" / "gecode_janko.txt", 4, rng)
    chosen += lines(shared / "16x16" / "misc_16x16.txt")
    chosen += [lines(shared / "25x25" / "misc_25x25.txt")[i] for i in (0, 2, 3, 4, 5)]
    entries = [e for e in (entry(line) for line in chosen) if e is not None]
    header = (
        "# puzzle:count:solution -- exact solution counts from tests/naive.py; the solution\n"
        "# is given when the count is 1. Built by tests/data/build.py; sources in SOURCES.md.\n"
    )
    (HERE / "puzzles.txt").write_text(header + "\n".join(entries) + "\n")

    samples = {
        "sample_9x9.txt": [
            line
            for path in sorted(nine.glob("*.txt"))
            if not path.name.endswith((".sol.txt", ".counts.txt"))
            for line in sample(path, 12, rng)
        ],
        "sample_16x16.txt": sample(shared / "16x16" / "goomii17_hexasudoku.txt", 40, rng)
        + sample(shared / "16x16" / "gecode_janko.txt", 20, rng),
        "sample_25x25.txt": lines(shared / "25x25" / "misc_25x25.txt"),
    }
    for name, content in samples.items():
        (HERE / name).write_text("\n".join(content) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parents[2] / "shared" / "data"))
