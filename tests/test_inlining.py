"""numba's inliner, made to copy a callee's scope once (``kernels/build/inlining.py``): the same
IR and the same answers, without a copy of every variable for every block."""

from __future__ import annotations

import copy

import numba
import pytest
from numba.core import compiler, inline_closurecall

from sudokit.kernels.build import inlining, jit  # noqa: F401 - jit applies the change


def _callee(x):
    total = 0
    if x > 0:
        total = x * 2
    else:
        total = -x
    for i in range(3):
        if i % 2:
            total += i
    return total


def test_the_kernels_compile_with_the_change_applied():
    assert getattr(inline_closurecall.InlineWorker.inline_ir, "_sudokit_shared_scope", False)
    assert inlining.apply()  # and once is enough


def test_blocks_copied_together_share_one_copy_of_their_scope():
    blocks = list(compiler.run_frontend(_callee).blocks.values())
    assert len(blocks) > 3 and len({id(block.scope) for block in blocks}) == 1
    with inlining.shared_copies():
        together = [copy.deepcopy(block) for block in blocks]
    apart = [copy.deepcopy(block) for block in blocks]
    assert len({id(block.scope) for block in together}) == 1
    assert len({id(block.scope) for block in apart}) == len(blocks)  # numba's own way, outside
    for copies in (together, apart):
        for original, copied in zip(blocks, copies):
            assert copied is not original and copied.scope is not original.scope
            assert copied.body is not original.body and [str(s) for s in copied.body] == [str(s) for s in original.body]
            assert set(copied.scope.localvars._con) == set(original.scope.localvars._con)


@pytest.mark.parametrize("x", [-5, 0, 7])
def test_an_inlined_callee_gives_what_it_gives_uninlined(x):
    inlined = numba.njit(inline="always")(_callee)
    called = numba.njit(_callee)

    @numba.njit
    def twice_inlined(v):
        return inlined(v) + inlined(v + 1)

    @numba.njit
    def twice_called(v):
        return called(v) + called(v + 1)

    assert twice_inlined(x) == twice_called(x) == _callee(x) + _callee(x + 1)
