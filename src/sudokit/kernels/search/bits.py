"""Bit tricks on 64-bit candidate masks: population count and lowest set bit.

Compiled, they map to single instructions (``llvm.ctpop``, ``llvm.cttz``); with
``NUMBA_DISABLE_JIT=1`` they fall back to plain Python so the kernels still run.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..build.jit import JIT_DISABLED, kernel

ZERO = np.uint64(0)
ONE = np.uint64(1)

if JIT_DISABLED:

    def plain(value):
        """The value, unchanged."""
        return value

    def borrowed(array):
        """The array itself."""
        return array

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
    def borrowed(typingctx, array):
        """A view of ``array`` that numba does not reference-count: every array taken out of a
        tuple costs an atomic increment and decrement per call, which made the logic engine's
        small helpers 20x slower than their arithmetic. Only for arrays that outlive the call
        (the arguments of the kernel entry that borrows them)."""
        if not isinstance(array, types.Array):
            return None

        def codegen(context, builder, signature, args):
            view = context.make_array(signature.args[0])(context, builder, value=args[0])
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            return view._getvalue()

        return array(array), codegen

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
def full_mask(n):
    """The ``n`` low bits set, for 1 <= n <= 64 (``(ONE << n) - ONE`` is 0 at 64: a shift by
    the word's width is undefined, and x86 shifts by 0)."""
    return ~ZERO >> np.uint64(64 - n)


@kernel(inline="always")
def lowest_bit(mask):
    """The lowest set bit of a nonzero mask, alone."""
    return mask & ~(mask - ONE)
