"""Sudoku Explainer's rating loop: at every step, the first rule (in SE's order) that has a
hint gives the step; the puzzle's ER is the hardest step, EP the hardest up to the first
placement, ED the first step's rating (SE's "rating", "pearl" and "diamond").

The rules run in SukakuExplainer 1.18's default order (``RULES``): singles and the direct
forms first, then the rest roughly by rating, then the chains. A step is one call of ``step``;
``rate`` runs steps until the grid is solved, nothing applies, or the work budget (potentials
a chain search may process) runs out, and can be resumed after a budget stop.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import H_DIFF, H_HDR, KIND, PCELL
from .chains import ALIGNED_CACHE, LINKS_CACHE, WING_CACHE, borrow_workspace, unary_chains
from .forcing import DYNAMIC, DYNAMIC_PLUS, MULTIPLE, NISHIO, multiple_chains
from .record import (
    WS_COUNTERS, WS_DIGIT_CELLS, WS_NOTHING_CELLS, WS_NOTHING_FOUND, W_OVER, W_RULE,
)  # fmt: skip
from .core import apply_hint, borrow_grid, borrow_hint, copy_hint, solved
from .patterns import aligned_exclusion, bug, strong_links, unique_loops
from .rules import als_wing, fish, hidden_set, hidden_single, locking, naked_set, naked_single, xy_wing

#: SE's rules in its order, with the lowest rating each can give (for a lower bound when a
#: budget stops a search)
RULE_NAMES = (
    "hidden single", "direct pointing", "direct hidden pair", "naked single", "direct hidden triplet",
    "pointing and claiming", "naked pair", "x-wing", "hidden pair", "naked triplet", "swordfish",
    "hidden triplet", "two strong links", "xy-wing", "xyz-wing", "unique loop", "naked quad",
    "jellyfish", "hidden quad", "three strong links", "wxyz-wing", "bug", "four strong links",
    "vwxyz-wing", "aligned pair exclusion", "uvwxyz-wing", "forcing chains and cycles",
    "tuvwxyz-wing", "aligned triplet exclusion", "nishio", "multiple forcing chains",
    "dynamic forcing chains", "dynamic forcing chains (+)", "nested forcing chains",
    "nested multiple forcing chains", "nested dynamic forcing chains", "nested dynamic forcing chains (+)",
    "nested dynamic forcing chains (+ forcing chains)", "nested dynamic forcing chains (+ multiple forcing chains)",
)
RULE_FLOORS = np.array(
    [1.0, 1.7, 2.0, 2.3, 2.5, 2.6, 3.0, 3.2, 3.4, 3.6, 3.8, 4.0, 4.0, 4.2, 4.4, 4.5, 5.0, 5.2, 5.4,
     5.4, 5.5, 5.6, 5.8, 6.2, 6.2, 6.6, 6.5, 7.5, 7.5, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 10.5, 10.5, 10.5]
)
RULES = len(RULE_NAMES)
#: the rules this module's kernels search; the nested forcing chains after them (rated 9.5 and
#: more) are ``nested.nested_step``'s, compiled apart since they take minutes to compile
BASE_RULES = 33

# result slots (res[k])
R_ER = 0
R_EP = 1
R_ED = 2
R_STEPS = 3
R_STATUS = 4  #: 0 running, 1 solved, 2 stuck (no rule applies), 3 budget
R_RULE = 5  #: the rule the last step came from (or was being searched)
R_PEARL_SET = 6
RES = 8

RUNNING = 0
SOLVED = 1
STUCK = 2
BUDGET = 3


@kernel
def find(g, ws, h, scratch, best, rule):
    """Whether rule number ``rule`` has a hint; SE's hint in ``h`` if so."""
    g, ws, h = borrow_grid(g), borrow_workspace(ws), borrow_hint(h)
    scratch, best = borrow_hint(scratch), borrow_hint(best)
    if rule == 0:
        return hidden_single(g, h)
    if rule == 1:
        return locking(g, h, True)
    if rule == 2:
        return hidden_set(g, h, 2, True)
    if rule == 3:
        return naked_single(g, h)
    if rule == 4:
        return hidden_set(g, h, 3, True)
    if rule == 5:
        return locking(g, h, False)
    if rule == 6:
        return naked_set(g, h, 2)
    if rule == 7:
        return fish(g, h, 2)
    if rule == 8:
        return hidden_set(g, h, 2, False)
    if rule == 9:
        return naked_set(g, h, 3)
    if rule == 10:
        return fish(g, h, 3)
    if rule == 11:
        return hidden_set(g, h, 3, False)
    if rule == 12 or rule == 19 or rule == 22:
        degree = 2 if rule == 12 else (3 if rule == 19 else 4)
        k = LINKS_CACHE + degree - 2
        if strong_links(g, degree, scratch, best, ws[WS_DIGIT_CELLS], ws[WS_NOTHING_CELLS][k], ws[WS_NOTHING_FOUND][k]):
            copy_hint(best, h)
            return True
        return False
    if rule == 13:
        return xy_wing(g, h, False)
    if rule == 14:
        return xy_wing(g, h, True)
    if rule == 15:
        if unique_loops(g, scratch, best):
            copy_hint(best, h)
            return True
        return False
    if rule == 16:
        return naked_set(g, h, 4)
    if rule == 17:
        return fish(g, h, 4)
    if rule == 18:
        return hidden_set(g, h, 4, False)
    if rule == 20 or rule == 23 or rule == 25 or rule == 27:
        size = 3 if rule == 20 else (4 if rule == 23 else (5 if rule == 25 else 6))
        k = WING_CACHE + size - 3
        if als_wing(g, size, scratch, best, ws[WS_DIGIT_CELLS], ws[WS_NOTHING_CELLS][k], ws[WS_NOTHING_FOUND][k]):
            copy_hint(best, h)
            return True
        return False
    if rule == 21:
        return bug(g, h)
    if rule == 24 or rule == 28:
        degree = 2 if rule == 24 else 3
        k = ALIGNED_CACHE + degree - 2
        return aligned_exclusion(g, h, degree, ws[WS_DIGIT_CELLS], ws[WS_NOTHING_CELLS][k], ws[WS_NOTHING_FOUND][k])
    if rule == 26:
        return unary_chains(g, ws, h)
    if rule == 29:
        return multiple_chains(g, ws, h, NISHIO)
    if rule == 30:
        return multiple_chains(g, ws, h, MULTIPLE)
    if rule == 31:
        return multiple_chains(g, ws, h, DYNAMIC)
    if rule == 32:
        return multiple_chains(g, ws, h, DYNAMIC_PLUS)
    return False


@kernel
def step(g, ws, h, scratch, best, first_rule):
    """The next step: the first rule from ``first_rule`` on with a hint. Returns the rule's
    number, -1 if none applies, -2 if the work budget ran out during a search."""
    g, ws, h = borrow_grid(g), borrow_workspace(ws), borrow_hint(h)
    scratch, best = borrow_hint(scratch), borrow_hint(best)
    for rule in range(first_rule, BASE_RULES):
        ws[WS_COUNTERS][W_RULE] = rule
        found = find(g, ws, h, scratch, best, rule)
        if ws[WS_COUNTERS][W_OVER]:
            return -2
        if found:
            return rule
    return -1


@kernel
def rate(g, ws, h, scratch, best, res, rates, log, max_steps):
    """Take steps until solved, stuck, ``max_steps`` taken or the budget spent; ER, EP and ED
    (``rates``) as SE computes them, the steps and status in ``res``. ``log[k]`` gets (rule,
    technique, rating in thousandths, cell placed) of step k while it has room."""
    g, ws, h = borrow_grid(g), borrow_workspace(ws), borrow_hint(h)
    scratch, best = borrow_hint(scratch), borrow_hint(best)
    while not solved(g):
        if res[R_STEPS] >= max_steps:
            return
        rule = step(g, ws, h, scratch, best, 0)
        res[R_RULE] = ws[WS_COUNTERS][W_RULE]
        if rule == -2:
            res[R_STATUS] = BUDGET
            return
        if rule < 0:
            res[R_STATUS] = STUCK
            return
        book(g, h, res, rates, log, rule)
    res[R_STATUS] = SOLVED


@kernel
def book(g, h, res, rates, log, rule):
    """Take the step in ``h`` (found by rule ``rule``) as SE's path does: ER, EP and ED
    updated, the step logged while ``log`` has room, the grid changed. ``rate`` calls it, and
    so does the Python side for the nested chains' steps."""
    diff = h[H_DIFF][0]
    k = res[R_STEPS]
    if k < log.shape[0]:
        log[k, 0] = rule
        log[k, 1] = h[H_HDR][KIND]
        log[k, 2] = np.int64(diff * 1000.0 + 0.5)
        log[k, 3] = h[H_HDR][PCELL]
    if diff > rates[R_ER]:
        rates[R_ER] = diff
    if res[R_PEARL_SET] == 0:
        if k == 0:
            rates[R_ED] = rates[R_ER]
        if h[H_HDR][PCELL] >= 0:
            rates[R_EP] = rates[R_ER]
            res[R_PEARL_SET] = 1
    apply_hint(g, h)
    res[R_STEPS] = k + 1
