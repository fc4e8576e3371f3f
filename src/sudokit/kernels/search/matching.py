"""The two halves of Regin's all-different filter on one house, shared by the depth-first
kernel (``general._subsets``) and the learning kernel (``learn._gac``).

A house's empty cells must take its missing values one each: a perfect matching between
cells and values. Values are bits of a word, so each cell's candidates are one word and a
value graph is one word per value, which makes reachability word-parallel. Both functions
are inlined into their callers: a call that passes arrays costs numba a reference count on
each, about as much as the filter itself on a 25x25 house.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .bits import ONE, ZERO, lowest_bit, trailing_zeros


@kernel(inline="always")
def open_cells(cand, houses, house, local, dom):
    """The undecided cells of ``house`` (``cand`` holds one candidate mask per cell) into
    ``local[:k]`` and their masks into ``dom[:k]``; returns k and the union of the masks."""
    empty = 0
    union = ZERO
    for j in range(houses.shape[1]):
        cell = houses[house, j]
        mask = cand[cell]
        if mask & (mask - ONE):
            local[empty] = cell
            dom[empty] = mask
            union |= mask
            empty += 1
    return empty, union


@kernel(inline="always")
def perfect_matching(dom, empty, union, mate, owner, parent, bfs):
    """Match the ``empty`` cells whose candidates are ``dom[:empty]`` to distinct values of
    ``union``: greedily first, then one augmenting path (breadth first) per cell left over.

    On success ``mate[i]`` is cell i's value and ``owner[value]`` its cell, and the result is
    ``(-1, 0)``. When cell ``bfs[0]`` cannot be matched, the result is ``(k, seen)``: the k
    cells ``bfs[:k]`` its search reached have candidates only in ``seen``, which holds fewer
    than k values (a Hall violation: the house has no solution)."""
    rest = union
    while rest:
        bit = lowest_bit(rest)
        rest ^= bit
        owner[trailing_zeros(bit)] = -1
    taken = ZERO
    for i in range(empty):
        free = dom[i] & ~taken
        if free:
            bit = lowest_bit(free)
            taken |= bit
            value = trailing_zeros(bit)
            mate[i] = value
            owner[value] = i
        else:
            mate[i] = -1
    for begin in range(empty):
        if mate[begin] >= 0:
            continue
        seen = ZERO
        bfs[0] = begin
        head = 0
        tail = 1
        found = -1
        while head < tail and found < 0:
            x = bfs[head]
            head += 1
            new = dom[x] & ~seen
            seen |= new
            while new:
                bit = lowest_bit(new)
                new ^= bit
                value = trailing_zeros(bit)
                parent[value] = x
                if owner[value] < 0:
                    found = value
                    break
                bfs[tail] = owner[value]
                tail += 1
        if found < 0:
            return tail, seen
        value = found
        while True:  # flip the path back to the cell it started from
            x = parent[value]
            old = mate[x]
            mate[x] = value
            owner[value] = x
            if x == begin:
                break
            value = old
    return -1, ZERO


@kernel(inline="always")
def reach(start, edges, within):
    """The values reachable from the values ``start`` along ``edges`` (``edges[v]``: the
    values v points at), staying inside ``within``; ``start`` included."""
    seen = start
    frontier = start
    while frontier:
        bit = lowest_bit(frontier)
        frontier ^= bit
        new = edges[trailing_zeros(bit)] & within & ~seen
        seen |= new
        frontier |= new
    return seen


@kernel(inline="always")
def value_components(dom, empty, mate, union, adj, radj, comp):
    """Given a perfect matching, point each value ``u`` at the other candidates of the cell
    matched to it (``adj[u]``, and the reverse edges in ``radj``) and split ``union`` into
    the graph's strongly connected components (``comp[v]``: the component of value v).

    Cell c, matched to u, can take value w in some perfect matching exactly when u and w
    lie on one cycle, i.e. in one component; every other candidate can go. Returns True
    when all of ``union`` is one component (nothing to remove; ``comp`` is then unset)."""
    for i in range(empty):
        value = mate[i]
        adj[value] = dom[i] & ~(ONE << np.uint64(value))
        radj[value] = ZERO
    for i in range(empty):
        value = mate[i]
        edges = adj[value]
        source = ONE << np.uint64(value)
        while edges:
            bit = lowest_bit(edges)
            edges ^= bit
            radj[trailing_zeros(bit)] |= source
    remaining = union
    while remaining:
        root = lowest_bit(remaining)
        # the values reached from root both ways: its component
        back = reach(root, radj, reach(root, adj, remaining))
        if back == union:
            return True
        remaining &= ~back
        members = back
        while members:
            bit = lowest_bit(members)
            members ^= bit
            comp[trailing_zeros(bit)] = back
    return False
