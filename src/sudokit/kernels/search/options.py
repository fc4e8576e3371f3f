"""The general kernel's ``options`` array for a shape, made in plain Python with numpy only: the
Python layer makes it without loading numba where the kernels were compiled ahead of time
(``kernels/build/ahead.py``). The kernels that fill it are ``general``'s, passed in."""

from __future__ import annotations

import numpy as np


def options_for(kernels, shape, rules=None, branch=None, restart=None, seed=None, lazy=None,
                values=None, variant=False) -> np.ndarray:
    """The ``options`` array for a shape (or a geometry): the rules, branching, restarts and
    value order that won on the data for its size (``variant``: for a board with variant
    rules, see ``variant_options``) unless ``rules`` / ``branch`` / ``restart`` / ``seed`` /
    ``lazy`` / ``values`` say otherwise (see ``default_options``). Locked candidates stay off
    where the regions are not boxes, whatever ``rules`` says. ``kernels``: ``general`` or what
    the build compiled of it (``variant_options``, ``default_options``, ``_boxed`` and the
    option slots)."""
    K = kernels
    options = np.zeros(K.OPTIONS_SIZE, dtype=np.int64)
    if variant:
        K.variant_options(shape.houses, options)
    else:
        K.default_options(shape.houses, options)
    chosen = ((K.RULES, rules), (K.BRANCH, branch), (K.RESTART, restart), (K.SEED, seed), (K.LAZY, lazy), (K.VALUES, values))
    for slot, value in chosen:
        if value is not None:
            options[slot] = value
    if not K._boxed(shape.houses, options[K.BOX_HEIGHT], options[K.BOX_WIDTH]):
        options[K.RULES] &= ~K.LOCKED
    return options
