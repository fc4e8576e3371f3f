"""The length of SE's forcing X- and XY-chains, measured on bit sets.

A forcing chain from a potential is as long as the distance from it to its opposite in the
implication graph, the least d(s, x) + d(s, not-x) over potentials x (the graph is symmetric:
a implies b exactly when not-b implies not-a), so a breadth-first search from the source that
grows only half as far finds it (``chains.unary_chains``). That search runs from every
candidate, both ways, in two of SE's three passes at every step that reaches the rule, so it
is done on bit sets rather than potential by potential. The grid's candidates are
numbered (a potential of candidate k is bit 2k + on, so a potential's opposite is its pair's
other bit), what each potential implies is one bit set built once a pass (``adjacency``), and a
layer of the search is the union of its potentials' sets: the same layers, so the same lengths,
and the same work counted against the budget.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from ..search.bits import popcount, trailing_zeros
from .core import CELL_POS, CELL_REGION, LOW, POP, REGION
from .record import G_CAND, G_POS, W_DISTANCE_STEPS, W_WORK

#: the even bits of a word: a pair's "off" potentials
_EVEN = np.uint64(0x5555555555555555)


@kernel
def number_candidates(g, index):
    """``index[cell * 9 + v - 1]``: candidate v of the cell's number, from 0 in cell order (-1
    where v is not a candidate); returns how many there are."""
    cand = g[G_CAND]
    index[:] = -1
    n = 0
    for cell in range(81):
        m = cand[cell]
        while m:
            v = LOW[m & -m]
            m &= m - 1
            index[cell * 9 + v - 1] = n
            n += 1
    return n


@kernel(inline="always")
def set_bit(row, k):
    row[k >> 6] |= np.uint64(1) << np.uint64(k & 63)


@kernel
def adjacency(g, y_links, index, adj):
    """Row 2k + on of ``adj``: the potentials (as bits) that potential on/off of candidate k
    implies, SE's two implications with X-links and, where ``y_links``, Y-links
    (``chains.on_to_off`` and ``chains.static_on``)."""
    cand, pos = g[G_CAND], g[G_POS]
    adj[:, :] = 0
    for cell in range(81):
        m = cand[cell]
        while m:
            v = LOW[m & -m]
            m &= m - 1
            k = index[cell * 9 + v - 1]
            on, off = adj[2 * k + 1], adj[2 * k]
            # "on": the cell's other candidates off, the value's other places off
            if y_links:
                rest = cand[cell] & ~(1 << v)
                while rest:
                    set_bit(on, 2 * index[cell * 9 + LOW[rest & -rest] - 1])
                    rest &= rest - 1
            for t in range(3):
                r = CELL_REGION[cell, t]
                others = pos[r, v] & ~(1 << CELL_POS[cell, t])
                # "off": the value's last other place in a region on
                if others != 0 and others & (others - 1) == 0:
                    set_bit(off, 2 * index[REGION[r, LOW[others]] * 9 + v - 1] + 1)
                while others:
                    set_bit(on, 2 * index[REGION[r, LOW[others & -others]] * 9 + v - 1])
                    others &= others - 1
            # "off": the cell's last other candidate on
            if y_links and POP[cand[cell]] == 2:
                set_bit(off, 2 * index[cell * 9 + LOW[cand[cell] & ~(1 << v)] - 1] + 1)


@kernel(inline="always")
def _implied(adj, layer, out):
    """The union of the rows of ``adj`` of the bits of ``layer``, into ``out``."""
    words = adj.shape[1]
    out[:] = 0
    for w in range(words):
        m = layer[w]
        while m:
            row = adj[w * 64 + trailing_zeros(m)]
            m &= m - np.uint64(1)
            for j in range(words):
                out[j] |= row[j]


@kernel
def forcing_distance(adj, source, most, depth, bits, ctr):
    """The length of the forcing chain from potential bit ``source`` (the distance to its
    opposite), or -1 if it is longer than ``most``: ``chains``' former layer-by-layer search,
    the layers as bit sets. ``bits`` (3 rows of ``adj``'s width): the layer, the next, what was
    reached; ``depth`` per potential bit."""
    words = adj.shape[1]
    layer, reached_now, seen = bits[0], bits[1], bits[2]
    layer[:] = 0
    seen[:] = 0
    set_bit(layer, source)
    set_bit(seen, source)
    depth[source] = 0
    size = 1
    best = 1 << 40
    radius = 0
    while size > 0:
        if best <= 2 * radius + 1 or 2 * radius >= most:
            break
        ctr[W_WORK] += size
        ctr[W_DISTANCE_STEPS] += size
        _implied(adj, layer, reached_now)
        size = 0
        for w in range(words):
            new = reached_now[w] & ~seen[w]
            seen[w] |= new
            layer[w] = new
            size += popcount(new)
            while new:
                depth[w * 64 + trailing_zeros(new)] = radius + 1
                new &= new - np.uint64(1)
        # a potential reached now whose opposite was reached before (or now): a chain
        for w in range(words):
            new = layer[w]
            met = (((new & _EVEN) << np.uint64(1)) | ((new >> np.uint64(1)) & _EVEN)) & seen[w]
            while met:
                best = min(best, radius + 1 + depth[w * 64 + trailing_zeros(met)])
                met &= met - np.uint64(1)
        radius += 1
    if best <= most:
        return best
    return -1
