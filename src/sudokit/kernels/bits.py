"""Bit tricks on 64-bit candidate masks: population count and lowest set bit.

Compiled, they map to single instructions (``llvm.ctpop``, ``llvm.cttz``); with
``NUMBA_DISABLE_JIT=1`` they fall back to plain Python so the kernels still run.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import JIT_DISABLED, kernel

ZERO = np.uint64(0)
ONE = np.uint64(1)

if JIT_DISABLED:

    def plain(value):
        """The value, unchanged."""
        return value

    def popcount(mask):
        """The number of set bits."""
        return bin(int(mask)).count("1")

    def trailing_zeros(mask):
        """The index of the lowest set bit (``mask`` must not be 0)."""
        value = int(mask)
        return (value & -value).bit_length() - 1

else:

    @intrinsic
    def _plain(typingctx, value):
        def codegen(context, builder, signature, args):
            return args[0]

        return types.unliteral(value)(value), codegen

    @kernel(inline="always")
    def plain(value):
        """The value typed as a run-time value, not a compile-time constant: numba compiles a
        callee again for every literal argument it is called with (``f(x, 2)`` and ``f(x, 3)``
        are two compilations), which made a dispatcher over many finders compile for minutes."""
        return _plain(value)

    @intrinsic
    def _ctpop(typingctx, mask):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.uint64(types.uint64), codegen

    @intrinsic
    def _cttz(typingctx, mask):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.uint64(types.uint64), codegen

    @kernel(inline="always")
    def popcount(mask):
        """The number of set bits."""
        return np.int64(_ctpop(mask))

    @kernel(inline="always")
    def trailing_zeros(mask):
        """The index of the lowest set bit (``mask`` must not be 0)."""
        return np.int64(_cttz(mask))


@kernel(inline="always")
def lowest_bit(mask):
    """The lowest set bit of a nonzero mask, alone."""
    return mask & ~(mask - ONE)
