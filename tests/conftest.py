"""Shared fixtures: the test data shipped in tests/data (see its SOURCES.md)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(Path(__file__).parent))  # for `import naive`


@dataclass(frozen=True)
class Entry:
    """One line of puzzles.txt: a puzzle, its exact solution count, its solution if unique."""

    puzzle: str
    count: int
    solution: str

    @property
    def size(self) -> int:
        return int(round(len(self.puzzle) ** 0.5))


def load_entries() -> list[Entry]:
    entries = []
    for line in (DATA / "puzzles.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, count, solution = line.split(":")
            entries.append(Entry(puzzle, int(count), solution))
    return entries


ENTRIES = load_entries()


def sample_lines(name: str) -> list[str]:
    return [line for line in (DATA / name).read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA
