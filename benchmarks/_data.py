"""Where the benchmarks find the shared puzzle sets, and which files in them are puzzles."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the public data sets sit beside the repository (``../shared/data``); ``--data`` overrides
DEFAULT_DATA = ROOT.parent / "shared" / "data"


def puzzle_files(data: Path, folders: tuple[str, ...] = ("9x9", "16x16", "25x25"), only: str = "") -> list[Path]:
    """The one-puzzle-per-line files under ``data/<folder>``, without their solution and
    count companions, whose path contains ``only``."""
    return sorted(
        path
        for folder in folders
        for path in (data / folder).glob("*.txt")
        if not path.name.endswith((".sol.txt", ".counts.txt")) and only in str(path)
    )
