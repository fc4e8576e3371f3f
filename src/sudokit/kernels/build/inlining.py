"""numba's IR inliner copies a callee's scope once per block (B x V copies, most of the canon
unit's compile); here the blocks of one ``inline_ir`` copy share one scope copy, as a function's
blocks do. numba's issues #8989 and #9204 describe the cost; elsewhere ``apply`` does nothing."""

from __future__ import annotations

import contextlib
import copy
import functools
import threading
from collections.abc import Iterator

from numba.core import inline_closurecall, ir

_local = threading.local()


@contextlib.contextmanager
def shared_copies() -> Iterator[None]:
    """Within it, deep copies of blocks that share a scope share one copy of it (what one
    ``inline_ir`` is run in)."""
    outer = getattr(_local, "memos", None)
    _local.memos = {}
    try:
        yield
    finally:
        _local.memos = outer


def apply() -> bool:
    """Make numba's inliner copy a scope once a callee copy; True when it took effect."""
    worker = inline_closurecall.InlineWorker
    inline_ir = getattr(worker, "inline_ir", None)
    if inline_ir is None or getattr(inline_ir, "_sudokit_shared_scope", False):
        return inline_ir is not None
    if "__deepcopy__" in vars(ir.Block):  # pragma: no cover - numba copies blocks its own way
        return False

    def block_deepcopy(block, memo):
        shared = getattr(_local, "memos", None)
        if shared is not None:  # inside inline_ir: one memo (so one scope copy) a source scope
            memo = shared.setdefault(id(block.scope), memo)
        copied = ir.Block.__new__(ir.Block)
        memo[id(block)] = copied
        copied.__dict__.update(copy.deepcopy(block.__dict__, memo))
        return copied

    @functools.wraps(inline_ir)
    def sharing_inline_ir(self, *args, **kwargs):
        with shared_copies():
            return inline_ir(self, *args, **kwargs)

    sharing_inline_ir._sudokit_shared_scope = True  # type: ignore[attr-defined]
    ir.Block.__deepcopy__ = block_deepcopy  # type: ignore[attr-defined]
    worker.inline_ir = sharing_inline_ir  # type: ignore[method-assign]
    return True
