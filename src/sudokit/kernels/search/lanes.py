"""Thirty-two 32-bit lanes as one value in numba kernels: LLVM's ``<32 x i32>``.

numba types every integer operation at 64 bits, so its loops vectorize at half width or not at
all once they hold a comparison or a reduction. A kernel that wants whole-board bit operations
in a few instructions (the classic kernel keeps 27 band words in one such value) writes them on
this type instead: ``vload``/``vstore`` move 32 consecutive 32-bit words of an array, the
operators ``& | ^ ~ + - * << >>`` work lane by lane (an int operand counts for every lane),
``veq0``/``vnz`` give all-ones lanes where a lane is zero / not zero, ``vpopcnt`` counts bits in
each lane, ``vor_all``/``vadd_all``/``vumin_all`` reduce the lanes to one int, ``vlane`` reads one
lane, and ``shuffle(mask)`` makes a function that moves lanes (lane ``i`` takes lane ``mask[i]``,
or zero where ``mask[i]`` is -1). LLVM lowers all of it to whatever the machine has: two
AVX-512 registers, four AVX2 ones, plain scalar code elsewhere.

Two helpers move between bytes (a board's values) and bit sets: ``bytes_equal(arr, offset,
value)`` is the 32 bytes from ``offset`` compared with ``value``, as the bits of an int (one
compare and a mask move), and ``store_digits(out, offset, w1, ..., w9)`` writes 27 bytes from
``offset``: byte ``i`` the digit ``d`` whose set ``wd`` has bit ``i`` (0 where none has).

With ``NUMBA_DISABLE_JIT=1`` a lane value is a numpy ``uint32`` array of 32 and the same kernels
run as Python.
"""

from __future__ import annotations

import operator

import numpy as np
from numba.core import codegen, config

from ..build.jit import JIT_DISABLED

N = 32


def codegen_features() -> str:
    """The CPU features numba compiles for, as LLVM spells them (``+avx2,-avx512f,...``):
    ``NUMBA_CPU_FEATURES`` where set, else the host's."""
    features = config.CPU_FEATURES  # type: ignore[attr-defined]
    return features if features is not None else codegen.get_host_cpu_features()


def target_features() -> frozenset[str]:
    """The features of ``codegen_features`` that are on (numba's cache is per CPU, so a
    choice made from these at import stays right for the code it keeps)."""
    return frozenset(feature[1:] for feature in codegen_features().split(",") if feature.startswith("+"))


#: whether numba compiles for AVX-512, where a lanes value fills two registers (four AVX2 ones
#: elsewhere, or more): kernels may lay their lanes out for the one or the other
WIDE = "avx512f" in target_features()

if JIT_DISABLED:
    _ALL = np.uint32(0xFFFFFFFF)

    def vload(arr, offset):
        return np.array(arr[offset : offset + N], dtype=np.uint32)

    def vstore(arr, offset, v):
        arr[offset : offset + N] = v

    def veq0(v):
        return np.where(v == 0, _ALL, np.uint32(0))

    def vnz(v):
        return np.where(v != 0, _ALL, np.uint32(0))

    def vpopcnt(v):
        if hasattr(np, "bitwise_count"):  # numpy >= 2.0
            return np.bitwise_count(v).astype(np.uint32)
        return np.array([bin(int(x)).count("1") for x in v], dtype=np.uint32)

    def vor_all(v):
        return int(np.bitwise_or.reduce(v))

    def vadd_all(v):
        return int(v.sum(dtype=np.uint64)) & 0xFFFFFFFF

    def vumin_all(v):
        return int(v.min())

    def vlane(v, i):
        return int(v[i])

    def shuffle(mask):
        index = np.array([m if m >= 0 else N for m in mask])

        def moved(v):
            return np.concatenate([v, np.zeros(1, dtype=np.uint32)])[index]

        return moved

    def bytes_equal(arr, offset, value):
        bits = np.asarray(arr[offset : offset + 32]) == value
        return int(np.packbits(bits, bitorder="little").view("<u4")[0])

    def store_digits(out, offset, w1, w2, w3, w4, w5, w6, w7, w8, w9):
        for digit, word in enumerate((w1, w2, w3, w4, w5, w6, w7, w8, w9), 1):
            for i in range(27):
                if (int(word) >> i) & 1:
                    out[offset + i] = digit

else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic, models, overload, register_model

    _I32 = ir.IntType(32)
    _VEC = ir.VectorType(_I32, N)

    class LanesType(types.Type):
        def __init__(self):
            super().__init__(name="Lanes32")

    lanes = LanesType()

    @register_model(LanesType)
    class _LanesModel(models.PrimitiveModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, _VEC)

    def _splat(builder, value):
        width = value.type.width
        if width > 32:
            value = builder.trunc(value, _I32)
        elif width < 32:
            value = builder.zext(value, _I32)
        one = builder.insert_element(ir.Constant(_VEC, None), value, ir.Constant(_I32, 0))
        return builder.shuffle_vector(one, ir.Constant(_VEC, None), ir.Constant(_VEC, [0] * N))

    def _pointer(context, builder, arrtype, arr, offset):
        data = context.make_array(arrtype)(context, builder, arr).data
        return builder.bitcast(builder.gep(data, [offset]), _VEC.as_pointer())

    def _check_words(arr):
        if not (isinstance(arr, types.Array) and isinstance(arr.dtype, types.Integer) and arr.dtype.bitwidth == 32):
            raise TypeError("lanes move 32-bit words")

    @intrinsic
    def vload(typingctx, arr, offset):
        _check_words(arr)

        def codegen(context, builder, sig, args):
            return builder.load(_pointer(context, builder, sig.args[0], args[0], args[1]), align=4)

        return lanes(arr, offset), codegen

    @intrinsic
    def vstore(typingctx, arr, offset, v):
        _check_words(arr)

        def codegen(context, builder, sig, args):
            builder.store(args[2], _pointer(context, builder, sig.args[0], args[0], args[1]), align=4)
            return context.get_dummy_value()

        return types.none(arr, offset, v), codegen

    def _binary(method):
        def make(left_scalar, right_scalar):
            @intrinsic
            def op(typingctx, a, b):
                def codegen(context, builder, sig, args):
                    x = _splat(builder, args[0]) if left_scalar else args[0]
                    y = _splat(builder, args[1]) if right_scalar else args[1]
                    return getattr(builder, method)(x, y)

                return lanes(a, b), codegen

            return op

        both, with_int, int_with = make(False, False), make(False, True), make(True, False)

        def typer(a, b):
            if a is lanes and b is lanes:
                return lambda a, b: both(a, b)
            if a is lanes and isinstance(b, types.Integer):
                return lambda a, b: with_int(a, b)
            if isinstance(a, types.Integer) and b is lanes:
                return lambda a, b: int_with(a, b)
            return None

        return typer

    for _operator, _method in (
        (operator.and_, "and_"),
        (operator.or_, "or_"),
        (operator.xor, "xor"),
        (operator.add, "add"),
        (operator.sub, "sub"),
        (operator.mul, "mul"),
        (operator.lshift, "shl"),
        (operator.rshift, "lshr"),
    ):
        overload(_operator)(_binary(_method))

    @intrinsic
    def _invert(typingctx, a):
        def codegen(context, builder, sig, args):
            return builder.not_(args[0])

        return lanes(a), codegen

    @overload(operator.invert)
    def _ol_invert(a):
        if a is lanes:
            return lambda a: _invert(a)
        return None

    def _compare(predicate):
        @intrinsic
        def cmp(typingctx, a):
            def codegen(context, builder, sig, args):
                bits = builder.icmp_unsigned(predicate, args[0], ir.Constant(_VEC, None))
                return builder.sext(bits, _VEC)

            return lanes(a), codegen

        return cmp

    veq0 = _compare("==")
    vnz = _compare("!=")

    @intrinsic
    def vpopcnt(typingctx, a):
        def codegen(context, builder, sig, args):
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_VEC, [_VEC]), "llvm.ctpop.v32i32")
            return builder.call(fn, [args[0]])

        return lanes(a), codegen

    def _reduce(kind):
        @intrinsic
        def reduce(typingctx, a):
            def codegen(context, builder, sig, args):
                fn = cgutils.get_or_insert_function(
                    builder.module, ir.FunctionType(_I32, [_VEC]), f"llvm.vector.reduce.{kind}.v32i32"
                )
                return builder.zext(builder.call(fn, [args[0]]), ir.IntType(64))

            return types.int64(a), codegen

        return reduce

    vor_all = _reduce("or")
    vadd_all = _reduce("add")
    vumin_all = _reduce("umin")

    @intrinsic
    def vlane(typingctx, a, i):
        def codegen(context, builder, sig, args):
            index = builder.trunc(args[1], _I32) if args[1].type.width > 32 else args[1]
            return builder.zext(builder.extract_element(args[0], index), ir.IntType(64))

        return types.int64(a, i), codegen

    _I8 = ir.IntType(8)
    _BYTES = ir.VectorType(_I8, 32)

    def _byte_splat(builder, value):
        one = builder.insert_element(ir.Constant(_BYTES, None), builder.trunc(value, _I8), ir.Constant(_I32, 0))
        return builder.shuffle_vector(one, ir.Constant(_BYTES, None), ir.Constant(_VEC, [0] * 32))

    def _check_bytes(arr):
        if not (isinstance(arr, types.Array) and isinstance(arr.dtype, types.Integer) and arr.dtype.bitwidth == 8):
            raise TypeError("bytes_equal and store_digits work on byte arrays")

    @intrinsic
    def bytes_equal(typingctx, arr, offset, value):
        _check_bytes(arr)

        def codegen(context, builder, sig, args):
            data = context.make_array(sig.args[0])(context, builder, args[0]).data
            pointer = builder.bitcast(builder.gep(data, [args[1]]), _BYTES.as_pointer())
            value = args[2] if args[2].type.width >= 8 else builder.zext(args[2], ir.IntType(64))
            equal = builder.icmp_unsigned("==", builder.load(pointer, align=1), _byte_splat(builder, value))
            return builder.zext(builder.bitcast(equal, _I32), ir.IntType(64))

        return types.int64(arr, offset, value), codegen

    @intrinsic
    def store_digits(typingctx, out, offset, w1, w2, w3, w4, w5, w6, w7, w8, w9):
        _check_bytes(out)

        def codegen(context, builder, sig, args):
            acc = ir.Constant(_BYTES, None)
            for digit, word in enumerate(args[2:], 1):
                bits = builder.trunc(word, _I32) if word.type.width > 32 else builder.zext(word, _I32)
                mask = builder.bitcast(bits, ir.VectorType(ir.IntType(1), 32))
                acc = builder.select(mask, ir.Constant(_BYTES, [digit] * 32), acc)
            scratch = cgutils.alloca_once(builder, _BYTES)
            builder.store(acc, scratch)
            data = context.make_array(sig.args[0])(context, builder, args[0]).data
            cgutils.raw_memcpy(builder, builder.gep(data, [args[1]]), scratch, ir.Constant(ir.IntType(64), 27), 1)
            return context.get_dummy_value()

        return types.none(out, offset, w1, w2, w3, w4, w5, w6, w7, w8, w9), codegen

    def shuffle(mask):
        order = [m if m >= 0 else N for m in mask]  # lane N of the pair is the zero vector's

        @intrinsic
        def moved(typingctx, a):
            def codegen(context, builder, sig, args):
                return builder.shuffle_vector(args[0], ir.Constant(_VEC, None), ir.Constant(_VEC, order))

            return lanes(a), codegen

        return moved
