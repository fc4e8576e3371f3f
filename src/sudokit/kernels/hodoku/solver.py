"""The human-style solver's entry points: find a step of a technique, take the next step, rate.

Techniques are numbered here (the ids ``sudokit.logic.techniques`` names and scores); ``find``
dispatches to their finders (``logic_basic``, ``logic_fish``, ``logic_patterns``,
``logic_chains``, ``logic_als``). The solving loop is HoDoKu's: try the techniques in a fixed
order, take the first step found, apply it, start again from the first technique, until the
board is solved or nothing applies. ``rate`` runs that loop without recording steps, adding
each technique's score and counting its uses.
"""

from __future__ import annotations


from . import ids as T
from ..build.jit import kernel
from .record import GEO_INFO, KIND, SIZE, ST_CAND, ST_FIXED, ST_FREE, ST_QCTL, ST_VALUES
from ..search.bits import full_mask, plain
from .basic import full_house, hidden_single, hidden_subset, locked_claiming, locked_pointing, naked_single, naked_subset
from .core import (
    apply, borrow_geo, borrow_state, borrow_step, load, set_cell, unsolved,
)  # fmt: skip
from .als import als_xy_chain, als_xy_wing, als_xz, sue_de_coq
from .chains import forcing, nice_loop, x_chain, xy_chain
from .fish import BASIC, FINNED, SASHIMI, fish
from .patterns import (
    bug_plus_1,
    empty_rectangle,
    multi_colors,
    remote_pair,
    simple_colors,
    skyscraper,
    turbot_fish,
    two_string_kite,
    w_wing,
    xy_wing,
    xyz_wing,
)
from .unique import avoidable_rectangle, hidden_rectangle, uniqueness


@kernel
def find(st, geo, step, kind, nth):
    """The nth step of technique ``kind`` (nth < 0: the one the solving loop takes next)."""
    st, geo, step = borrow_state(st), borrow_geo(geo), borrow_step(step)
    if kind == T.FULL_HOUSE:
        return full_house(st, geo, step, kind, nth)
    if kind == T.NAKED_SINGLE:
        return naked_single(st, geo, step, kind, nth)
    if kind == T.HIDDEN_SINGLE:
        return hidden_single(st, geo, step, kind, nth)
    if kind == T.LOCKED_PAIR:
        return naked_subset(st, geo, step, kind, nth, plain(2), plain(True))
    if kind == T.LOCKED_TRIPLE:
        return naked_subset(st, geo, step, kind, nth, plain(3), plain(True))
    if kind == T.LOCKED_CANDIDATES_1:
        return locked_pointing(st, geo, step, kind, nth)
    if kind == T.LOCKED_CANDIDATES_2:
        return locked_claiming(st, geo, step, kind, nth)
    if kind == T.NAKED_PAIR:
        return naked_subset(st, geo, step, kind, nth, plain(2), plain(False))
    if kind == T.NAKED_TRIPLE:
        return naked_subset(st, geo, step, kind, nth, plain(3), plain(False))
    if kind == T.NAKED_QUADRUPLE:
        return naked_subset(st, geo, step, kind, nth, plain(4), plain(False))
    if kind == T.HIDDEN_PAIR:
        return hidden_subset(st, geo, step, kind, nth, plain(2))
    if kind == T.HIDDEN_TRIPLE:
        return hidden_subset(st, geo, step, kind, nth, plain(3))
    if kind == T.HIDDEN_QUADRUPLE:
        return hidden_subset(st, geo, step, kind, nth, plain(4))
    if kind == T.X_WING:
        return fish(st, geo, step, kind, nth, plain(2), plain(BASIC))
    if kind == T.SWORDFISH:
        return fish(st, geo, step, kind, nth, plain(3), plain(BASIC))
    if kind == T.JELLYFISH:
        return fish(st, geo, step, kind, nth, plain(4), plain(BASIC))
    if kind == T.FINNED_X_WING:
        return fish(st, geo, step, kind, nth, plain(2), plain(FINNED))
    if kind == T.SASHIMI_X_WING:
        return fish(st, geo, step, kind, nth, plain(2), plain(SASHIMI))
    if kind == T.FINNED_SWORDFISH:
        return fish(st, geo, step, kind, nth, plain(3), plain(FINNED))
    if kind == T.SASHIMI_SWORDFISH:
        return fish(st, geo, step, kind, nth, plain(3), plain(SASHIMI))
    if kind == T.FINNED_JELLYFISH:
        return fish(st, geo, step, kind, nth, plain(4), plain(FINNED))
    if kind == T.SASHIMI_JELLYFISH:
        return fish(st, geo, step, kind, nth, plain(4), plain(SASHIMI))
    if kind == T.REMOTE_PAIR:
        return remote_pair(st, geo, step, kind, nth)
    if kind == T.BUG_PLUS_1:
        return bug_plus_1(st, geo, step, kind, nth)
    if kind == T.SKYSCRAPER:
        return skyscraper(st, geo, step, kind, nth)
    if kind == T.TWO_STRING_KITE:
        return two_string_kite(st, geo, step, kind, nth)
    if kind == T.TURBOT_FISH:
        return turbot_fish(st, geo, step, kind, nth)
    if kind == T.EMPTY_RECTANGLE:
        return empty_rectangle(st, geo, step, kind, nth)
    if kind == T.W_WING:
        return w_wing(st, geo, step, kind, nth)
    if kind == T.XY_WING:
        return xy_wing(st, geo, step, kind, nth)
    if kind == T.XYZ_WING:
        return xyz_wing(st, geo, step, kind, nth)
    if T.UNIQUENESS_1 <= kind <= T.UNIQUENESS_6:
        return uniqueness(st, geo, step, kind, nth, kind - T.UNIQUENESS_1 + 1)
    if kind == T.HIDDEN_RECTANGLE:
        return hidden_rectangle(st, geo, step, kind, nth)
    if kind == T.AVOIDABLE_RECTANGLE_1 or kind == T.AVOIDABLE_RECTANGLE_2:
        return avoidable_rectangle(st, geo, step, kind, nth, kind - T.AVOIDABLE_RECTANGLE_1 + 1)
    if kind == T.SUE_DE_COQ:
        return sue_de_coq(st, geo, step, kind, nth)
    if kind == T.SIMPLE_COLORS:
        return simple_colors(st, geo, step, kind, nth)
    if kind == T.MULTI_COLORS:
        return multi_colors(st, geo, step, kind, nth)
    if kind == T.X_CHAIN:
        return x_chain(st, geo, step, kind, nth)
    if kind == T.XY_CHAIN:
        return xy_chain(st, geo, step, kind, nth)
    if kind == T.NICE_LOOP or kind == T.GROUPED_NICE_LOOP:
        return nice_loop(st, geo, step, kind, nth, kind - T.NICE_LOOP)
    if kind == T.ALS_XZ:
        return als_xz(st, geo, step, kind, nth)
    if kind == T.ALS_XY_WING:
        return als_xy_wing(st, geo, step, kind, nth)
    if kind == T.ALS_XY_CHAIN:
        return als_xy_chain(st, geo, step, kind, nth)
    if kind == T.FORCING_CHAIN or kind == T.FORCING_NET:
        return forcing(st, geo, step, kind, nth, kind - T.FORCING_CHAIN)
    return False


@kernel
def next_step(st, geo, step, order):
    """The step the solving loop takes next: the first technique of ``order`` that finds one.
    Returns its kind, or 0 when none applies."""
    st, geo, step = borrow_state(st), borrow_geo(geo), borrow_step(step)
    for i in range(order.shape[0]):
        if find(st, geo, step, order[i], plain(-1)):
            return order[i]
    return 0


@kernel
def solve_logically(st, geo, step, order, counts, max_steps):
    """Take steps until the board is solved, nothing applies or ``max_steps`` are taken;
    ``counts[kind]`` adds one per step of each technique. Returns the steps taken."""
    st, geo, step = borrow_state(st), borrow_geo(geo), borrow_step(step)
    taken = 0
    while taken < max_steps and unsolved(st) > 0:
        kind = next_step(st, geo, step, order)
        if kind == 0:
            break
        apply(st, geo, step)
        counts[kind] += 1
        taken += 1
    return taken


@kernel
def _brute_force(st, geo, solution):
    """HoDoKu's last resort when no technique applies: the middle empty cell (in cell order)
    takes its solution value."""
    values = st[ST_VALUES]
    empty = 0
    for cell in range(values.shape[0]):
        if values[cell] == 0:
            empty += 1
    target = empty // 2
    for cell in range(values.shape[0]):
        if values[cell] == 0:
            if target == 0:
                set_cell(st, geo, cell, solution[cell])
                return
            target -= 1


#: ``rate_many``'s control slots
RC_MAX_STEPS = 0  #: the steps a board may take at most
RC_FIRST = 1  #: the row to start from
RC_RESUME = 2  #: 1: that row's rating goes on from the state
RC_SLICE = 3  #: the steps of this call at most, all rows together (0: no cap)
RC_SLOTS = 4


@kernel
def rate_many(puzzles, solutions, geo, order, state, step, counts, taken, ctl):
    """Rate the rows of ``puzzles`` (givens) from row ``ctl[RC_FIRST]`` on as HoDoKu does: take
    steps of the techniques in ``order``; where none applies, give the middle empty cell its
    value from ``solutions`` (HoDoKu's brute force, counted under ``BRUTE_FORCE``).
    ``counts[k, kind]`` the steps of each technique, ``taken[k]`` the steps in all. ``state``
    and ``step`` are scratch (the arrays of ``core.new_state`` and ``new_step``); each board
    starts from an empty grid, but the first row where ``ctl[RC_RESUME]``: its rating goes on
    from ``state``. At most ``ctl[RC_SLICE]`` steps in all (0: no cap), so that a caller with a
    deadline looks at the clock between calls: returns the row it stopped in (its state kept),
    or the number of rows once every one is rated."""
    st, geo, step = borrow_state(state), borrow_geo(geo), borrow_step(step)
    values, cand, free, qctl, fixed = st[ST_VALUES], st[ST_CAND], st[ST_FREE], st[ST_QCTL], st[ST_FIXED]
    n = geo[GEO_INFO][SIZE]
    full = full_mask(n)
    max_steps, first, slice_steps = ctl[RC_MAX_STEPS], ctl[RC_FIRST], ctl[RC_SLICE]
    left = slice_steps
    for k in range(first, puzzles.shape[0]):
        steps = 0
        if ctl[RC_RESUME] and k == first:
            steps = taken[k]
        else:
            values[:] = 0
            cand[:] = full
            free[:, 0] = 0
            free[:, 1:] = n
            qctl[:] = 0
            fixed[:] = 0
            load(st, geo, puzzles[k], puzzles[k] != 0)
        while steps < max_steps and unsolved(st) > 0:
            if slice_steps > 0:
                if left == 0:
                    taken[k] = steps
                    return k
                left -= 1
            kind = next_step(st, geo, step, order)
            if kind == 0:
                _brute_force(st, geo, solutions[k])
                kind = T.BRUTE_FORCE
            else:
                apply(st, geo, step)
            counts[k, kind] += 1
            steps += 1
        taken[k] = steps
    return puzzles.shape[0]


__all__ = ["KIND", "RC_FIRST", "RC_MAX_STEPS", "RC_RESUME", "RC_SLICE", "RC_SLOTS", "find", "next_step", "rate_many", "solve_logically"]
