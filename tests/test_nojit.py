"""The kernels are plain Python underneath: with NUMBA_DISABLE_JIT=1 they give the same
answers (slowly), which is how coverage sees inside them and how a kernel bug is debugged."""

import json
import os
import subprocess
import sys

from conftest import ENTRIES

import sudokit
from sudokit.results import Limits

SCRIPT = r"""
import json, sys
import sudokit
from sudokit.kernels.build import jit
from sudokit.engines import GeneralSearch
from sudokit.results import Limits
assert jit.JIT_DISABLED
out = []
for puzzle, limit in json.loads(sys.stdin.read()):
    board = sudokit.Board.from_line(puzzle)
    search = GeneralSearch(board)
    search.run(Limits(limit))
    result = sudokit.count(board, limit)
    out.append([search.count, search.nodes, search.guesses, result.count,
                result.board.to_line() if result.board else None])
print(json.dumps(out))
"""


def test_general_kernel_gives_the_same_answers_without_jit():
    picks = [e for e in ENTRIES if e.size <= 6][:6]
    picks += [e for e in ENTRIES if e.size == 9 and e.count == 0][:1]
    picks += [e for e in ENTRIES if e.size == 9 and e.count > 1][:1]
    picks += [e for e in ENTRIES if e.size == 16][:1]
    cases = [(e.puzzle, min(e.count, 3) + 1) for e in picks]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SUDOKIT_QUIET="1")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    from sudokit.engines import GeneralSearch

    for (puzzle, limit), entry, (count, nodes, guesses, api_count, board) in zip(
        cases, picks, json.loads(done.stdout)
    ):
        compiled = GeneralSearch(sudokit.Board.from_line(puzzle))
        compiled.run(Limits(limit))
        assert (count, nodes, guesses) == (compiled.count, compiled.nodes, compiled.guesses)
        assert count == api_count == min(entry.count, limit)
        if entry.count == 1:
            assert board == entry.solution
