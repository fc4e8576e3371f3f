"""The bookkeeping every search kernel does the same way under ``protocol``: beginning or
resuming, pausing with a code for the caller, backtracking to the nearest choice with
alternatives left, finishing, and for the batch loops starting a board, recording its result
and giving the stack more levels. Inlined into each kernel's loop (a call that passes arrays
costs numba a reference count on each)."""

from __future__ import annotations

import numpy as np

from . import protocol as P
from ..build.jit import kernel


@kernel(inline="always")
def pause(ctl, depth, phase, code):
    """Save where the search stands (``depth``, ``phase``) and return ``code``."""
    ctl[P.DEPTH] = depth
    ctl[P.PHASE] = phase
    return code


@kernel(inline="always")
def resume(ctl):
    """Where a search call begins: ``(depth, phase, fresh)`` as the last call paused, or
    ``(0, PROPAGATE, True)`` for a search not yet begun (``ctl[DEPTH] < 0``), whose givens
    the caller then loads."""
    if ctl[P.DEPTH] < 0:
        return 0, P.PROPAGATE, True
    return ctl[P.DEPTH], ctl[P.PHASE], False


@kernel(inline="always")
def backtrack(branch_rest, depth):
    """The deepest level below ``depth`` with alternatives left to try, or -1 when none is."""
    depth -= 1
    while depth >= 0 and branch_rest[depth] == 0:
        depth -= 1
    return depth


@kernel(inline="always")
def finish(ctl, branch_rest):
    """The search space is exhausted: pause so that a resumed call says ``DONE`` again."""
    branch_rest[0] = 0
    return pause(ctl, 0, P.BACKTRACK, P.DONE)


@kernel(inline="always")
def solution(ctl, depth, limit, record_at):
    """A solution at ``depth``, counted: ``(keep, code)``, ``keep`` whether it is the one
    numbered ``record_at`` (the caller copies it out), ``code`` ``LIMIT`` once ``limit``
    solutions are found (paused so that a resumed call backtracks), else ``GOING``. The search
    backtracks next either way."""
    ctl[P.COUNT] += 1
    keep = ctl[P.COUNT] == record_at
    if ctl[P.COUNT] >= limit:
        return keep, pause(ctl, depth, P.BACKTRACK, P.LIMIT)
    return keep, P.GOING


@kernel(inline="always")
def retreat(ctl, branch_rest, depth):
    """The backtrack phase: ``(level, GOING)``, the deepest level below ``depth`` with
    alternatives left, or ``(0, DONE)`` when none is (the search space is exhausted)."""
    depth = backtrack(branch_rest, depth)
    if depth < 0:
        return 0, finish(ctl, branch_rest)
    return depth, P.GOING


@kernel
def grown(old, length):
    """``old`` lengthened to ``length`` along its first axis: its rows kept, new rows zero."""
    new = np.zeros((length,) + old.shape[1:], dtype=old.dtype)
    new[: old.shape[0]] = old
    return new


@kernel
def grown_to(old, need):
    """``old`` doubled along its first axis until it holds ``need`` rows (see ``grown``): for
    pools that grow by what one step adds."""
    length = max(old.shape[0], 1)
    while length < need:
        length *= 2
    return grown(old, length)


@kernel(inline="always")
def start(ctl):
    """Make ``ctl`` a search not yet begun (a batch loop's next board)."""
    ctl[:] = 0
    ctl[P.DEPTH] = -1


@kernel(inline="always")
def record(ctl, code, k, counts, nodes, guesses, exhausted):
    """A batch loop's row ``k``: what the finished search of board k found and cost."""
    counts[k] = ctl[P.COUNT]
    nodes[k] = ctl[P.NODES]
    guesses[k] = ctl[P.GUESSES]
    exhausted[k] = code == P.DONE
