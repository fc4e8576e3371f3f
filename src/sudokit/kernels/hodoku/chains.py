"""Chains and loops: X-chains, XY-chains, nice loops and AICs (grouped too), and forcing
chains and nets, the last resort before giving up.

A *chain* walks over candidates (a value in a cell) along two kinds of link. A *strong* link
joins two candidates of which at least one is true: the two places of a value in a house (a
conjugate pair) or the two values of a bivalue cell. A *weak* link joins two candidates that
cannot both be true: one value in two cells of a house, or two values of one cell. Read as
implications, "a is false, so b is true" crosses a strong link and "a is true, so b is false" a
weak one; an *alternating inference chain* (AIC) switches between the two, so its two ends
cannot both be false, and any candidate that would kill both ends goes.

  X-chain     one value only, strong link first and last: the value goes from every cell that
              sees both ends (a chain closing on its start proves the start).
  XY-chain    bivalue cells only, every strong link inside a cell, every weak link between
              cells on a shared value; its ends hold one value x, which goes from every cell
              seeing both ends.
  nice loop   a chain back to its start cell. *Continuous* when every link holds all the way
              round: each weak link then works as a strong one in the other direction, so the
              link's value goes from the cells seeing both its ends, and a cell the loop enters
              and leaves by strong links keeps only those two values. *Discontinuous* when the
              links meet badly at the start: the start candidate is either proved or removed.
  AIC         HoDoKu's name for an open chain found the same way: same value at both ends (its
              peers that see both ends go), or two values at two ends that see each other (each
              end loses the other end's value).
  grouped     a node may also be a *group*: the places of a value where a line crosses a box,
              when there are two or more; a group is "on" when one of its cells holds the value.
  forcing     follow every candidate both ways ("is set", "is removed") as far as the links
              reach. A premise whose consequences clash (a value twice in a house, a cell or a
              house left without a place, a candidate both set and removed) is false; a
              consequence that follows from both ways of a candidate, or from every value of a
              cell, or from every place of a value in a house, is true (verity). A *net* follows
              each premise further by applying the naked and hidden singles it causes, four
              rounds deep.

How HoDoKu (and so this engine) searches, which decides what the solving loop takes:

* X- and XY-chains: every chain of at most 20 nodes (a bivalue cell counts two), cells not
  repeated; chains with the same eliminations count once. The loop takes the step that removes
  the most candidates, ties going to the one whose removals weigh least (cell numbers of the
  removals, sorted by value then cell, the k-th weighted 1 + 80k).
* Nice loops, AICs and forcing chains use *tables*: each premise (a candidate on, or off) is
  followed breadth-first over the implication graph, the first route to a node being the one
  kept, 1000 entries at most. A loop is a route back to the premise's cell, an AIC a route from
  an "off" premise to an "on" node; the route must not cross itself. Again one step per set of
  eliminations, the most eliminations first, and for forcing chains: placements before
  eliminations, the lowest cell first.

Here the search is breadth-first over nodes kept in flat arrays: states ``2 * node + on`` with
``node = cell * n + value - 1`` (groups after the cells), the direct implications of every state
in one compressed adjacency list built once per call, in HoDoKu's order so that the routes
(and so a continuous loop's eliminations) are the ones HoDoKu keeps. X- and XY-chains find the
shortest route to every end with one breadth-first search per start and fall back to a bounded
depth-first search only when that route repeats a cell.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    BOX_HEIGHT, BOX_WIDTH, DIGITS, GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, GEO_PEERS, SIZE, ST_CAND,
    ST_FIXED, ST_FREE, ST_HSQ, ST_NSQ, ST_QCTL, ST_VALUES, SUB, S_DIGS, S_HDR,
)  # fmt: skip
from ..search.bits import ONE, ZERO, full_mask, plain, popcount, trailing_zeros
from ..search.driver import grown_to
from .als import _als_sets, _collect_als
from .core import (
    HS_HEAD, HS_TAIL, NS_HEAD, NS_TAIL, add_cell, add_elim, add_link, add_place, bit, clear, del_cand,
    set_cell,
)  # fmt: skip


#: HoDoKu's limits
CHAIN_NODES = 20  #: nodes of an X-chain or XY-chain (chain_max_length)
TABLE_CAP = 1000  #: entries of one implication table
LOOK_AHEAD = 4  #: rounds of singles a forcing net follows
DFS_BUDGET = 200_000  #: moves a fallback search for a simple chain may make

#: step variants (SUB)
CONTINUOUS = 1
DISCONTINUOUS = 2
AIC = 3
CONTRADICTION = 1
VERITY = 2

# result-store columns
R_NE = 0  # eliminations (duplicates included, as HoDoKu counts them)
R_OFF = 1  # where they start in the pool
R_LEN = 2  # chain length
R_WSUM = 3  # HoDoKu's weighted index sum
R_SEQ = 4  # discovery order
R_KEY = 5  # what else a duplicate must share (a nice loop's type)
R_A = 6  # four numbers to rebuild the chain with
R_B = 7
R_C = 8
R_D = 9
R_NEXT = 10  # hash chain
R_COLS = 11
HASH_SIZE = 4096


# -- bit sets and small helpers -------------------------------------------------------------


@kernel(inline="always")
def _bget(bits, i):
    return (bits[i >> 6] >> np.uint64(i & 63)) & ONE != ZERO


@kernel(inline="always")
def _bset(bits, i):
    bits[i >> 6] |= ONE << np.uint64(i & 63)


@kernel
def _cell_sets(st, geo):
    """``peer[c]``: the peers of cell c; ``where[v]``: the cells holding candidate v."""
    cand, peers, n = st[ST_CAND], geo[GEO_PEERS], geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    words = (cells + 63) >> 6
    peer = np.zeros((cells, words), dtype=np.uint64)
    for c in range(cells):
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if p < 0:
                break
            _bset(peer[c], p)
    where = np.zeros((n + 1, words), dtype=np.uint64)
    for c in range(cells):
        m = cand[c]
        while m != ZERO:
            v = trailing_zeros(m) + 1
            m &= m - ONE
            _bset(where[v], c)
    return peer, where


@kernel
def _other(mask, value):
    """The other value of a bivalue cell."""
    rest = mask & ~bit(value)
    return trailing_zeros(rest) + 1


# -- results: one per set of eliminations, ranked as HoDoKu ranks them -----------------------


@kernel
def _new_store():
    return (
        np.zeros((64, R_COLS), dtype=np.int64),
        np.zeros((256, 2), dtype=np.int32),
        np.full(HASH_SIZE, -1, dtype=np.int64),
    )


@kernel
def _sort_elims(ec, ev, ne):
    """Sort removals by value, then cell (HoDoKu's candidate order)."""
    for i in range(1, ne):
        c, v = ec[i], ev[i]
        j = i - 1
        while j >= 0 and (ev[j] > v or (ev[j] == v and ec[j] > c)):
            ec[j + 1] = ec[j]
            ev[j + 1] = ev[j]
            j -= 1
        ec[j + 1] = c
        ev[j + 1] = v


@kernel
def _store(meta, pool, heads, nres, npool, ec, ev, ne, length, seq, key, a, b, c, d, cells):
    """Record a step's sorted removals unless the same removals (and key) are known; a shorter
    chain for known removals replaces the old one. Returns the grown store and its counts."""
    wsum = 0
    for k in range(ne):
        wsum += ec[k] * (1 + (cells - 1) * k) + ev[k]
    slot = (wsum * 31 + ne * 1009 + key * 7919) & (HASH_SIZE - 1)
    r = heads[slot]
    while r >= 0:
        if meta[r, R_NE] == ne and meta[r, R_WSUM] == wsum and meta[r, R_KEY] == key:
            off = meta[r, R_OFF]
            same = True
            for k in range(ne):
                if pool[off + k, 0] != ec[k] or pool[off + k, 1] != ev[k]:
                    same = False
                    break
            if same:
                if length < meta[r, R_LEN]:
                    meta[r, R_LEN] = length
                    meta[r, R_A] = a
                    meta[r, R_B] = b
                    meta[r, R_C] = c
                    meta[r, R_D] = d
                return meta, pool, nres, npool
        r = meta[r, R_NEXT]
    if nres >= meta.shape[0]:
        meta = grown_to(meta, nres + 1)
    if npool + ne > pool.shape[0]:
        pool = grown_to(pool, npool + ne)
    for k in range(ne):
        pool[npool + k, 0] = ec[k]
        pool[npool + k, 1] = ev[k]
    meta[nres, R_NE] = ne
    meta[nres, R_OFF] = npool
    meta[nres, R_LEN] = length
    meta[nres, R_WSUM] = wsum
    meta[nres, R_SEQ] = seq
    meta[nres, R_KEY] = key
    meta[nres, R_A] = a
    meta[nres, R_B] = b
    meta[nres, R_C] = c
    meta[nres, R_D] = d
    meta[nres, R_NEXT] = heads[slot]
    heads[slot] = nres
    return meta, pool, nres + 1, npool + ne


@kernel(inline="always")
def _before(meta, r, s):
    """Whether result r ranks before result s: more removals, lighter removals, found first."""
    if meta[r, R_NE] != meta[s, R_NE]:
        return meta[r, R_NE] > meta[s, R_NE]
    if meta[r, R_WSUM] != meta[s, R_WSUM]:
        return meta[r, R_WSUM] < meta[s, R_WSUM]
    return meta[r, R_SEQ] < meta[s, R_SEQ]


@kernel
def _pick(meta, nres, nth, allowed):
    """The nth result in rank order among those with ``allowed[r]`` (nth < 0: the best), or -1."""
    if nth < 0:
        best = -1
        for r in range(nres):
            if allowed[r] and (best < 0 or _before(meta, r, best)):
                best = r
        return best
    order = np.empty(nres, dtype=np.int64)
    count = 0
    for r in range(nres):
        if not allowed[r]:
            continue
        j = count
        while j > 0 and _before(meta, r, order[j - 1]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = r
        count += 1
    if nth >= count:
        return -1
    return order[nth]


@kernel
def _write_elims(step, pool, off, ne):
    """The removals of a result, each once."""
    for k in range(ne):
        c, v = pool[off + k, 0], pool[off + k, 1]
        if k > 0 and pool[off + k - 1, 0] == c and pool[off + k - 1, 1] == v:
            continue
        add_elim(step, c, v)


# -- X-chains ----------------------------------------------------------------------------------


@kernel
def _x_links(st, geo, value, nbr, strong, deg):
    """The links of one value, HoDoKu's way: each cell's row, column and box neighbours, a box
    neighbour sharing the row or column left to that line (so such a pair is strong only when
    the line has the value twice)."""
    cand, free = st[ST_CAND], st[ST_FREE]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    b = bit(value)
    for c in range(cand.shape[0]):
        deg[c] = 0
        if cand[c] & b == ZERO:
            continue
        for k in range(cell_houses.shape[1]):
            h = cell_houses[c, k]
            if h < 0:
                break
            is_strong = free[h, value] == 2
            for j in range(houses.shape[1]):
                p = houses[h, j]
                if p == c or cand[p] & b == ZERO:
                    continue
                earlier = False
                for kk in range(k):
                    hh = cell_houses[c, kk]
                    for m in range(cell_houses.shape[1]):
                        if cell_houses[p, m] == hh:
                            earlier = True
                if earlier:
                    continue
                nbr[c, deg[c]] = p
                strong[c, deg[c]] = is_strong
                deg[c] += 1


@kernel
def _x_bfs(s, nbr, strong, deg, mark, stamp, dist, par, queue, max_links):
    """Shortest alternating walks from cell s over states ``2 * cell + p`` (p = 1: reached by a
    strong link, so any link may follow; p = 0: the next link must be strong). Returns the
    number of states reached; a walk back into s ends there, as HoDoKu's does."""
    root = 2 * s
    mark[root] = stamp
    dist[root] = 0
    par[root] = -1
    queue[0] = root
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        cu = u >> 1
        pu = u & 1
        if dist[u] >= max_links or (pu == 1 and cu == s):
            continue
        for k in range(deg[cu]):
            if pu == 0 and not strong[cu, k]:
                continue
            v = nbr[cu, k]
            if pu == 1 and v == s:
                continue
            t = 2 * v + (1 - pu)
            if mark[t] == stamp:
                continue
            mark[t] = stamp
            dist[t] = dist[u] + 1
            par[t] = u
            queue[tail] = t
            tail += 1
    return tail


@kernel
def _x_dfs(s, e, nbr, strong, deg, lowest, max_links, path, it, onpath):
    """The shortest simple alternating chain s = ... = e of ``lowest`` to ``max_links`` links
    (iterative deepening); its cells go to ``path``. Returns its links, -1 if there is none,
    -2 if the search ran out of budget."""
    work = 0
    for limit in range(lowest, max_links + 1, 2):
        onpath[:] = False
        onpath[s] = True
        depth = 0
        path[0] = s
        it[0] = 0
        while depth >= 0:
            u = path[depth]
            k = it[depth]
            if k >= deg[u] or depth >= limit:
                if depth > 0:
                    onpath[u] = False
                depth -= 1
                continue
            it[depth] = k + 1
            work += 1
            if work > DFS_BUDGET:
                return -2
            need_strong = depth % 2 == 0
            if need_strong and not strong[u, k]:
                continue
            v = nbr[u, k]
            if v == e:
                if need_strong and depth + 1 == limit:
                    path[depth + 1] = v
                    return depth + 1
                continue
            if v == s or onpath[v]:
                continue
            depth += 1
            path[depth] = v
            it[depth] = 0
            onpath[v] = True
    return -1


@kernel
def _x_route(s, e, t, nbr, strong, deg, dist, par, seen, sstamp, path, it, onpath):
    """The chain from s to end state t of the last search: the breadth-first walk when it is a
    simple chain of 3 links or more, else the shortest simple one. Fills ``path`` with its
    cells and returns its links (-1: none within the limit)."""
    links = dist[t]
    simple = links >= 3
    if simple:
        if e != s:
            seen[e] = sstamp
        x = par[t]
        while x != -1:
            cx = x >> 1
            if seen[cx] == sstamp:
                simple = False
                break
            seen[cx] = sstamp
            x = par[x]
    if simple:
        x = t
        k = links
        while x != -1:
            path[k] = x >> 1
            k -= 1
            x = par[x]
        return links
    found = _x_dfs(s, e, nbr, strong, deg, max(3, links), plain(CHAIN_NODES - 1), path, it, onpath)
    if found == -2:  # too many routes to check: the walk itself is a sound chain
        x = t
        k = links
        while x != -1:
            path[k] = x >> 1
            k -= 1
            x = par[x]
        return links
    return found


@kernel
def x_chain(st, geo, step, kind, nth):
    """X-chains: one value, strong links first and last, at most 20 cells."""
    cand = st[ST_CAND]
    peers, n = geo[GEO_PEERS], geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    peer, where = _cell_sets(st, geo)
    words = peer.shape[1]
    width = peers.shape[1]
    nbr = np.empty((cells, width), dtype=np.int32)
    strong = np.zeros((cells, width), dtype=np.bool_)
    deg = np.zeros(cells, dtype=np.int32)
    mark = np.zeros(2 * cells, dtype=np.int64)
    dist = np.zeros(2 * cells, dtype=np.int32)
    par = np.zeros(2 * cells, dtype=np.int32)
    queue = np.zeros(2 * cells, dtype=np.int32)
    seen = np.zeros(cells, dtype=np.int64)
    path = np.zeros(CHAIN_NODES + 1, dtype=np.int32)
    it = np.zeros(CHAIN_NODES + 1, dtype=np.int32)
    onpath = np.zeros(cells, dtype=np.bool_)
    ec = np.zeros(cells, dtype=np.int32)
    ev = np.zeros(cells, dtype=np.int32)
    meta, pool, heads = _new_store()
    nres = 0
    npool = 0
    stamp = 0
    sstamp = 0
    seq = 0
    for value in range(1, n + 1):
        b = bit(value)
        _x_links(st, geo, value, nbr, strong, deg)
        for s in range(cells):
            if cand[s] & b == ZERO:
                continue
            reach = False
            for w in range(words):
                if where[value, w] & peer[s, w] != ZERO:
                    reach = True
            starts = False
            for k in range(deg[s]):
                if strong[s, k]:
                    starts = True
            if not reach or not starts:
                continue
            stamp += 1
            tail = _x_bfs(s, nbr, strong, deg, mark, stamp, dist, par, queue, plain(CHAIN_NODES - 1))
            for qi in range(1, tail):
                t = queue[qi]
                if t & 1 == 0:
                    continue
                e = t >> 1
                ne = 0
                for w in range(words):
                    m = where[value, w] & peer[s, w]
                    if e != s:
                        m &= peer[e, w]
                    while m != ZERO:
                        ec[ne] = (w << 6) + trailing_zeros(m)
                        ev[ne] = value
                        ne += 1
                        m &= m - ONE
                if ne == 0:
                    continue
                sstamp += 1
                links = _x_route(s, e, t, nbr, strong, deg, dist, par, seen, sstamp, path, it, onpath)
                if links < 0:
                    continue
                meta, pool, nres, npool = _store(
                    meta, pool, heads, nres, npool, ec, ev, ne, links + 1, seq, plain(0), value, s, e, plain(0), cells
                )
                seq += 1
    r = _pick(meta, nres, nth, np.ones(nres, dtype=np.bool_))
    if r < 0:
        return False
    value, s, e = meta[r, R_A], meta[r, R_B], meta[r, R_C]
    _x_links(st, geo, value, nbr, strong, deg)
    stamp += 1
    _x_bfs(s, nbr, strong, deg, mark, stamp, dist, par, queue, plain(CHAIN_NODES - 1))
    t = 2 * e + 1
    sstamp += 1
    links = _x_route(s, e, t, nbr, strong, deg, dist, par, seen, sstamp, path, it, onpath)
    clear(step, kind)
    step[S_DIGS][DIGITS] = bit(value)
    _write_elims(step, pool, meta[r, R_OFF], meta[r, R_NE])
    for k in range(links + 1):
        add_link(step, path[k], value, 1 if (k % 2 == 0 and k < links) else 0)
    return True


# -- XY-chains ---------------------------------------------------------------------------------


@kernel
def _xy_bfs(st, geo, s, a, two, mark, stamp, dist, par, queue, max_cells):
    """Shortest XY walks from bivalue cell s entered by value a (states ``cell * n + in - 1``,
    the cell's other value being the one it passes on). Returns the states reached."""
    cand, peers, n = st[ST_CAND], geo[GEO_PEERS], geo[GEO_INFO][SIZE]
    root = s * n + a - 1
    mark[root] = stamp
    dist[root] = 0
    par[root] = -1
    queue[0] = root
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        if dist[u] >= max_cells:
            continue
        cu = u // n
        out = _other(cand[cu], u % n + 1)
        b = bit(out)
        for j in range(peers.shape[1]):
            v = peers[cu, j]
            if v < 0:
                break
            if v == s or not two[v] or cand[v] & b == ZERO:
                continue
            t = v * n + out - 1
            if mark[t] == stamp:
                continue
            mark[t] = stamp
            dist[t] = dist[u] + 1
            par[t] = u
            queue[tail] = t
            tail += 1
    return tail


@kernel
def _xy_dfs(st, geo, s, a, e, two, max_cells, path, pin, it, onpath):
    """The shortest simple XY chain from s (entered by a) to e (left by a), at most
    ``max_cells`` cells after s: cells to ``path``, entering values to ``pin``. Returns the
    cells after s, -1 if none, -2 if the search ran out of budget."""
    cand, peers = st[ST_CAND], geo[GEO_PEERS]
    work = 0
    for limit in range(1, max_cells + 1):
        onpath[:] = False
        onpath[s] = True
        depth = 0
        path[0] = s
        pin[0] = a
        it[0] = 0
        while depth >= 0:
            u = path[depth]
            out = _other(cand[u], pin[depth])
            if depth > 0 and u == e:
                if out == a and depth == limit:
                    return depth
                onpath[u] = False
                depth -= 1
                continue
            k = it[depth]
            if k >= peers.shape[1] or peers[u, k] < 0 or depth >= limit:
                if depth > 0:
                    onpath[u] = False
                depth -= 1
                continue
            it[depth] = k + 1
            work += 1
            if work > DFS_BUDGET:
                return -2
            v = peers[u, k]
            if v == s or onpath[v] or not two[v] or cand[v] & bit(out) == ZERO:
                continue
            depth += 1
            path[depth] = v
            pin[depth] = out
            it[depth] = 0
            onpath[v] = True
    return -1


@kernel
def _xy_route(st, geo, s, a, t, two, dist, par, seen, sstamp, path, pin, it, onpath):
    """Cells and entering values of the chain to end state t: the breadth-first walk when no
    cell repeats, else the shortest simple chain. Returns the cells after s (-1: none)."""
    n = geo[GEO_INFO][SIZE]
    steps = dist[t]
    simple = True
    x = t
    while x != -1:
        cx = x // n
        if seen[cx] == sstamp:
            simple = False
            break
        seen[cx] = sstamp
        x = par[x]
    if not simple:
        found = _xy_dfs(st, geo, s, a, t // n, two, plain(CHAIN_NODES // 2 - 1), path, pin, it, onpath)
        if found != -2:
            return found
    x = t
    k = steps
    while x != -1:
        path[k] = x // n
        pin[k] = x % n + 1
        k -= 1
        x = par[x]
    return steps


@kernel
def xy_chain(st, geo, step, kind, nth):
    """XY-chains: bivalue cells, at most 20 nodes (10 cells)."""
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    peer, where = _cell_sets(st, geo)
    words = peer.shape[1]
    two = np.zeros(cells, dtype=np.bool_)
    for c in range(cells):
        two[c] = popcount(cand[c]) == 2
    states = cells * n
    mark = np.zeros(states, dtype=np.int64)
    dist = np.zeros(states, dtype=np.int32)
    par = np.zeros(states, dtype=np.int32)
    queue = np.zeros(states, dtype=np.int32)
    seen = np.zeros(cells, dtype=np.int64)
    path = np.zeros(CHAIN_NODES, dtype=np.int32)
    pin = np.zeros(CHAIN_NODES, dtype=np.int32)
    it = np.zeros(CHAIN_NODES, dtype=np.int32)
    onpath = np.zeros(cells, dtype=np.bool_)
    ec = np.zeros(cells, dtype=np.int32)
    ev = np.zeros(cells, dtype=np.int32)
    meta, pool, heads = _new_store()
    nres = 0
    npool = 0
    stamp = 0
    sstamp = 0
    seq = 0
    max_cells = CHAIN_NODES // 2 - 1
    for s in range(cells):
        if not two[s]:
            continue
        lo = trailing_zeros(cand[s]) + 1
        hi = _other(cand[s], lo)
        for turn in range(2):
            a = lo if turn == 0 else hi
            reach = False
            for w in range(words):
                if where[a, w] & peer[s, w] != ZERO:
                    reach = True
            if not reach:
                continue
            stamp += 1
            tail = _xy_bfs(st, geo, s, a, two, mark, stamp, dist, par, queue, max_cells)
            for qi in range(1, tail):
                t = queue[qi]
                e = t // n
                if _other(cand[e], t % n + 1) != a:
                    continue
                ne = 0
                for w in range(words):
                    m = where[a, w] & peer[s, w] & peer[e, w]
                    while m != ZERO:
                        ec[ne] = (w << 6) + trailing_zeros(m)
                        ev[ne] = a
                        ne += 1
                        m &= m - ONE
                if ne == 0:
                    continue
                sstamp += 1
                steps = _xy_route(st, geo, s, a, t, two, dist, par, seen, sstamp, path, pin, it, onpath)
                if steps < 0:
                    continue
                meta, pool, nres, npool = _store(
                    meta, pool, heads, nres, npool, ec, ev, ne, 2 * (steps + 1), seq, plain(0), s, a, e, plain(0), cells
                )
                seq += 1
    r = _pick(meta, nres, nth, np.ones(nres, dtype=np.bool_))
    if r < 0:
        return False
    s, a, e = meta[r, R_A], meta[r, R_B], meta[r, R_C]
    stamp += 1
    _xy_bfs(st, geo, s, a, two, mark, stamp, dist, par, queue, max_cells)
    t = e * n + _other(cand[e], a) - 1
    sstamp += 1
    steps = _xy_route(st, geo, s, a, t, two, dist, par, seen, sstamp, path, pin, it, onpath)
    clear(step, kind)
    step[S_DIGS][DIGITS] = bit(a)
    _write_elims(step, pool, meta[r, R_OFF], meta[r, R_NE])
    for k in range(steps + 1):
        c = path[k]
        add_link(step, c, pin[k], 1)
        add_link(step, c, _other(cand[c], pin[k]), 0)
    return True


# -- the implication graph (HoDoKu's tables) ------------------------------------------------


@kernel
def _groups(st, geo, peer, where):
    """HoDoKu's group nodes: for every line (rows, then columns), value and box in turn, the
    places of the value where the line crosses the box, when there are two or more.
    Returns ``(value, line, box, size, cells, buddies, visible, box_single, line_single)``:
    ``buddies`` the cells seeing every cell of the group, ``visible`` those holding the value,
    ``box_single``/``line_single`` the one visible cell of the box/line (else -1): the group
    being off puts the value there."""
    cand = st[ST_CAND]
    houses, cell_houses, info = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_INFO]
    n = info[SIZE]
    size = max(info[BOX_HEIGHT], info[BOX_WIDTH])
    words = peer.shape[1]
    per_line = max(n // info[BOX_HEIGHT], n // info[BOX_WIDTH])
    cap = 2 * n * n * per_line + 1
    gval = np.zeros(cap, dtype=np.int32)
    gline = np.zeros(cap, dtype=np.int32)
    gbox = np.zeros(cap, dtype=np.int32)
    gsize = np.zeros(cap, dtype=np.int32)
    gcells = np.zeros((cap, size), dtype=np.int32)
    bucket = np.zeros((n, size), dtype=np.int32)
    bcount = np.zeros(n, dtype=np.int32)
    count = 0
    for line in range(2 * n):
        for value in range(1, n + 1):
            b = bit(value)
            bcount[:] = 0
            for j in range(houses.shape[1]):
                c = houses[line, j]
                if cand[c] & b:
                    bx = cell_houses[c, 2] - 2 * n
                    if bcount[bx] < size:
                        bucket[bx, bcount[bx]] = c
                        bcount[bx] += 1
            for bx in range(n):
                if bcount[bx] < 2:
                    continue
                gval[count] = value
                gline[count] = line
                gbox[count] = 2 * n + bx
                gsize[count] = bcount[bx]
                for k in range(bcount[bx]):
                    gcells[count, k] = bucket[bx, k]
                count += 1
    buddies = np.zeros((count, words), dtype=np.uint64)
    visible = np.zeros((count, words), dtype=np.uint64)
    box_single = np.full(count, -1, dtype=np.int32)
    line_single = np.full(count, -1, dtype=np.int32)
    for g in range(count):
        for w in range(words):
            m = peer[gcells[g, 0], w]
            for k in range(1, gsize[g]):
                m &= peer[gcells[g, k], w]
            buddies[g, w] = m
            visible[g, w] = m & where[gval[g], w]
        for which in range(2):
            h = gbox[g] if which == 0 else gline[g]
            seen = 0
            last = -1
            for j in range(houses.shape[1]):
                c = houses[h, j]
                if _bget(visible[g], c):
                    seen += 1
                    last = c
            if seen == 1:
                if which == 0:
                    box_single[g] = last
                else:
                    line_single[g] = last
    return gval[:count], gline[:count], gbox[:count], gsize[:count], gcells[:count], buddies, visible, box_single, line_single


@kernel(inline="always")
def _overlap(gcells, gsize, g, h):
    for i in range(gsize[g]):
        for j in range(gsize[h]):
            if gcells[g, i] == gcells[h, j]:
                return True
    return False


@kernel
def _graph(st, geo, groups, with_groups, xlinks):
    """Every state's direct implications in one adjacency list (``start``, ``edges``, and the
    ``weight`` HoDoKu gives each: 2, more out of an ALS), each in the order HoDoKu's tables
    list them: for a candidate set, its cell's other values off, then the value off in its row,
    column and box, then groups off, then ALS nodes; for a candidate removed, the bivalue
    partner on, the conjugate partners in row, column and box on, then groups on. ALS nodes
    (``xlinks``, see ``_als_links``) come after the groups."""
    cand, free = st[ST_CAND], st[ST_FREE]
    houses, cell_houses, n = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_INFO][SIZE]
    gval, gline, gbox, gsize, gcells, buddies, visible, box_single, line_single = groups
    cells = cand.shape[0]
    ng = gval.shape[0] if with_groups else 0
    base = cells * n
    nx, tstart, tlist, ostart, otarget, oweight = xlinks
    nodes = base + ng + nx
    # groups listed by value, in group order
    vstart = np.zeros(n + 2, dtype=np.int32)
    for g in range(ng):
        vstart[gval[g] + 1] += 1
    for v in range(1, n + 2):
        vstart[v] += vstart[v - 1]
    vlist = np.zeros(max(ng, 1), dtype=np.int32)
    fill = vstart.copy()
    for g in range(ng):
        vlist[fill[gval[g]]] = g
        fill[gval[g]] += 1
    start = np.zeros(2 * nodes + 1, dtype=np.int32)
    edges = np.zeros(max(64, 16 * nodes), dtype=np.int32)
    weight = np.zeros(0, dtype=np.int32)
    ne = 0
    for node in range(nodes):
        for on in range(2):
            sidx = 2 * node + on
            start[sidx] = ne
            more = 4 * cells + 2 * ng + 8
            if nx > 0:
                if node < base + ng:
                    more += tstart[sidx + 1] - tstart[sidx]
                else:
                    more += ostart[node - base - ng + 1] - ostart[node - base - ng]
            if ne + more > edges.shape[0]:
                edges = grown_to(edges, ne + more)
            if node >= base + ng:
                if on == 0:
                    x = node - base - ng
                    for k in range(ostart[x], ostart[x + 1]):
                        edges[ne] = otarget[k]
                        ne += 1
                continue
            if node < base:
                c = node // n
                value = node % n + 1
                b = bit(value)
                if cand[c] & b == ZERO:
                    continue
                if on == 1:
                    m = cand[c] & ~b
                    while m != ZERO:
                        w = trailing_zeros(m)
                        m &= m - ONE
                        edges[ne] = 2 * (c * n + w)
                        ne += 1
                    for k in range(cell_houses.shape[1]):
                        h = cell_houses[c, k]
                        if h < 0:
                            break
                        if free[h, value] < 2:
                            continue
                        for j in range(houses.shape[1]):
                            p = houses[h, j]
                            if p != c and cand[p] & b:
                                edges[ne] = 2 * (p * n + value - 1)
                                ne += 1
                    for i in range(vstart[value], vstart[value + 1]):
                        g = vlist[i]
                        if _bget(visible[g], c):
                            edges[ne] = 2 * (base + g)
                            ne += 1
                else:
                    rest = cand[c] & ~b
                    if rest != ZERO and rest & (rest - ONE) == ZERO:
                        edges[ne] = 2 * (c * n + trailing_zeros(rest)) + 1
                        ne += 1
                    for k in range(cell_houses.shape[1]):
                        h = cell_houses[c, k]
                        if h < 0:
                            break
                        if free[h, value] != 2:
                            continue
                        for j in range(houses.shape[1]):
                            p = houses[h, j]
                            if p != c and cand[p] & b:
                                edges[ne] = 2 * (p * n + value - 1) + 1
                                ne += 1
                    for i in range(vstart[value], vstart[value + 1]):
                        g = vlist[i]
                        if box_single[g] == c:
                            edges[ne] = 2 * (base + g) + 1
                            ne += 1
                        if line_single[g] == c:
                            edges[ne] = 2 * (base + g) + 1
                            ne += 1
            else:
                g = node - base
                value = gval[g]
                if on == 1:
                    for w in range(visible.shape[1]):
                        m = visible[g, w]
                        while m != ZERO:
                            p = (w << 6) + trailing_zeros(m)
                            m &= m - ONE
                            edges[ne] = 2 * (p * n + value - 1)
                            ne += 1
                    for i in range(vstart[value], vstart[value + 1]):
                        h = vlist[i]
                        if h == g or _overlap(gcells, gsize, g, h):
                            continue
                        if gline[h] == gline[g] or gbox[h] == gbox[g]:
                            edges[ne] = 2 * (base + h)
                            ne += 1
                else:
                    if box_single[g] >= 0:
                        edges[ne] = 2 * (box_single[g] * n + value - 1) + 1
                        ne += 1
                    if line_single[g] >= 0:
                        edges[ne] = 2 * (line_single[g] * n + value - 1) + 1
                        ne += 1
                    for which in range(2):
                        partner = -1
                        count = 0
                        for i in range(vstart[value], vstart[value + 1]):
                            h = vlist[i]
                            if h == g or _overlap(gcells, gsize, g, h):
                                continue
                            if (which == 0 and gline[h] == gline[g]) or (which == 1 and gbox[h] == gbox[g]):
                                count += 1
                                if count == 1:
                                    partner = h
                        if count != 1:
                            continue
                        house = gline[g] if which == 0 else gbox[g]
                        if free[house, value] == gsize[g] + gsize[partner]:
                            edges[ne] = 2 * (base + partner) + 1
                            ne += 1
            if nx > 0 and on == 1:
                for k in range(tstart[sidx], tstart[sidx + 1]):
                    edges[ne] = 2 * (base + ng + tlist[k])
                    ne += 1
    start[2 * nodes] = ne
    if nx > 0:  # HoDoKu's distances: 2 a link, plus the ALS's penalty out of an ALS node
        weight = np.full(ne, 2, dtype=np.int32)
        for x in range(nx):
            s0 = start[2 * (base + ng + x)]
            for k in range(ostart[x], ostart[x + 1]):
                weight[s0 + k - ostart[x]] = oweight[k]
    return start, edges, weight


@kernel
def _bfs_w(root, start, edges, weight, mark, stamp, order, parent, depth, dist, pos, cap):
    """``_bfs`` with HoDoKu's distances, for graphs with ALS nodes: a state reached again by a
    shorter route (not a direct consequence of the root) takes that route."""
    mark[root] = stamp
    order[0] = root
    parent[0] = -1
    depth[0] = 0
    dist[0] = 0
    pos[root] = 0
    count = 1
    j = 0
    while j < count:
        u = order[j]
        for e in range(start[u], start[u + 1]):
            t = edges[e]
            d = dist[j] + weight[e]
            if mark[t] == stamp:
                q = pos[t]
                if q > 0 and parent[q] != 0 and dist[q] > d:
                    parent[q] = j
                    dist[q] = d
                    depth[q] = depth[j] + 1
                continue
            if count >= cap:
                return count
            mark[t] = stamp
            pos[t] = count
            order[count] = t
            parent[count] = j
            depth[count] = depth[j] + 1
            dist[count] = d
            count += 1
        j += 1
    return count


@kernel
def _append(a, n, x):
    if n >= a.shape[0]:
        a = grown_to(a, n + 1)
    a[n] = x
    return a


@kernel
def _als_links(st, geo, groups, peer, where, use):
    """HoDoKu's ALS nodes (its "all steps" setting; its solving loop leaves them out). An ALS
    node (A, j) stands for "ALS A has lost value j", so A is locked on its other values: it is
    reached from a candidate j that sees all of A's j cells (or a group that does), and it
    removes each other value k from the cells that see all of A's k cells, removes groups inside
    those, triggers other ALS whose l cells all lie in them, and sets a cell left with one
    value. Returns ``(xlinks, ext)``: the links for ``_graph`` and the extra nodes' table
    (groups first, then ALS nodes) for the chain helpers."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    base = cells * n
    words = peer.shape[1]
    gval, gline, gbox, gsize, gcells, gbud, visible, box_single, line_single = groups
    ng = gval.shape[0]
    if use:
        count, a_cells, a_size, a_cand, a_house = _collect_als(st, geo)
    else:
        count = 0
        a_cells = np.zeros((1, geo[GEO_HOUSES].shape[1]), dtype=np.int32)
        a_size = np.zeros(1, dtype=np.int64)
        a_cand = np.zeros(1, dtype=np.uint64)
    bits, held, sees = _als_sets(st, geo, count, a_cells, a_size, a_cand)
    keep = np.zeros(count + 1, dtype=np.int64)
    na = 0
    for a in range(count):
        if a_size[a] >= 2:
            keep[na] = a
            na += 1
    xid = np.full(na * n + 1, -1, dtype=np.int32)
    x_als = np.zeros(na * n + 1, dtype=np.int32)
    x_val = np.zeros(na * n + 1, dtype=np.int32)
    nx = 0
    t_src = np.zeros(64, dtype=np.int32)
    t_x = np.zeros(64, dtype=np.int32)
    nt = 0
    o_x = np.zeros(64, dtype=np.int32)
    o_t = np.zeros(64, dtype=np.int32)
    o_w = np.zeros(64, dtype=np.int32)
    no = 0
    gmark = np.full(ng + 1, -1, dtype=np.int32)
    elim = np.zeros((n + 1, words), dtype=np.uint64)
    for ia in range(na):
        a = keep[ia]
        size = popcount(a_cand[a])
        penalty = 0 if size <= 1 else (1 if size == 2 else (size - 1) * 2)
        for j in range(1, n + 1):
            if a_cand[a] & bit(j) == ZERO:
                continue
            any_elim = False
            for k in range(1, n + 1):
                for w in range(words):
                    elim[k, w] = ZERO
                    if k != j and a_cand[a] & bit(k):
                        elim[k, w] = sees[a, k - 1, w]
                        if elim[k, w] != ZERO:
                            any_elim = True
            if not any_elim:
                continue
            if xid[ia * n + j - 1] < 0:
                xid[ia * n + j - 1] = nx
                x_als[nx] = ia
                x_val[nx] = j
                nx += 1
            x = xid[ia * n + j - 1]
            for w in range(words):  # what reaches it
                m = sees[a, j - 1, w]
                while m != ZERO:
                    c = (w << 6) + trailing_zeros(m)
                    m &= m - ONE
                    t_src = _append(t_src, nt, 2 * (c * n + j - 1) + 1)
                    t_x = _append(t_x, nt, x)
                    nt += 1
                    for g in range(ng):
                        if gval[g] != j or gmark[g] == x:
                            continue
                        inside = False
                        for k in range(gsize[g]):
                            if gcells[g, k] == c:
                                inside = True
                        if not inside:
                            continue
                        ok = True
                        for k in range(gsize[g]):
                            if _bget(bits[a], gcells[g, k]):
                                ok = False
                        for ww in range(words):
                            if held[a, j - 1, ww] & ~gbud[g, ww] != ZERO:
                                ok = False
                        if not ok:
                            continue
                        gmark[g] = x
                        t_src = _append(t_src, nt, 2 * (base + g) + 1)
                        t_x = _append(t_x, nt, x)
                        nt += 1
            for k in range(1, n + 1):  # what it removes
                for w in range(words):
                    m = elim[k, w]
                    while m != ZERO:
                        c = (w << 6) + trailing_zeros(m)
                        m &= m - ONE
                        o_x = _append(o_x, no, x)
                        o_t = _append(o_t, no, 2 * (c * n + k - 1))
                        o_w = _append(o_w, no, 2 + penalty)
                        no += 1
                for g in range(ng):
                    if gval[g] != k:
                        continue
                    ok = True
                    for q in range(gsize[g]):
                        if not _bget(elim[k], gcells[g, q]):
                            ok = False
                    if ok:
                        o_x = _append(o_x, no, x)
                        o_t = _append(o_t, no, 2 * (base + g))
                        o_w = _append(o_w, no, 2 + penalty)
                        no += 1
            for ib in range(na):  # other ALS it locks
                b = keep[ib]
                if ib == ia:
                    continue
                overlap = False
                for w in range(words):
                    if bits[a, w] & bits[b, w]:
                        overlap = True
                if overlap:
                    continue
                for l in range(1, n + 1):
                    if a_cand[b] & bit(l) == ZERO:
                        continue
                    some = False
                    covered = True
                    for w in range(words):
                        if elim[l, w] != ZERO:
                            some = True
                        if held[b, l - 1, w] & ~elim[l, w] != ZERO:
                            covered = False
                    if not some or not covered:
                        continue
                    if xid[ib * n + l - 1] < 0:
                        xid[ib * n + l - 1] = nx
                        x_als[nx] = ib
                        x_val[nx] = l
                        nx += 1
                    o_x = _append(o_x, no, x)
                    o_t = _append(o_t, no, 2 * (base + ng + xid[ib * n + l - 1]))
                    o_w = _append(o_w, no, 2 + penalty)
                    no += 1
            for w in range(words):  # cells it leaves with one value
                m = ZERO
                for d in range(1, n + 1):
                    if a_cand[a] & bit(d):
                        m |= sees[a, d - 1, w]
                while m != ZERO:
                    c = (w << 6) + trailing_zeros(m)
                    m &= m - ONE
                    if values[c] != 0 or popcount(cand[c]) <= 2:
                        continue
                    rest = cand[c]
                    for l in range(1, n + 1):
                        if _bget(elim[l], c):
                            rest &= ~bit(l)
                    if popcount(rest) == 1:
                        o_x = _append(o_x, no, x)
                        o_t = _append(o_t, no, 2 * (c * n + trailing_zeros(rest)) + 1)
                        o_w = _append(o_w, no, 3 + penalty)
                        no += 1
    # links into ALS nodes by source state, links out by node (stable)
    src_states = 2 * (base + ng) + 1
    tstart = np.zeros(src_states + 1, dtype=np.int32)
    for k in range(nt):
        tstart[t_src[k] + 1] += 1
    for k in range(src_states):
        tstart[k + 1] += tstart[k]
    tlist = np.zeros(max(nt, 1), dtype=np.int32)
    fill = tstart.copy()
    for k in range(nt):
        tlist[fill[t_src[k]]] = t_x[k]
        fill[t_src[k]] += 1
    ostart = np.zeros(nx + 1, dtype=np.int32)
    for k in range(no):
        ostart[o_x[k] + 1] += 1
    for k in range(nx):
        ostart[k + 1] += ostart[k]
    otarget = np.zeros(max(no, 1), dtype=np.int32)
    oweight = np.zeros(max(no, 1), dtype=np.int32)
    fill2 = ostart.copy()
    for k in range(no):
        otarget[fill2[o_x[k]]] = o_t[k]
        oweight[fill2[o_x[k]]] = o_w[k]
        fill2[o_x[k]] += 1
    # the extra nodes: groups, then ALS nodes
    width = max(gcells.shape[1], a_cells.shape[1])
    total = ng + nx
    ecell = np.zeros(total + 1, dtype=np.int32)
    evalue = np.zeros(total + 1, dtype=np.int32)
    ecells = np.zeros((total + 1, width), dtype=np.int32)
    esize = np.zeros(total + 1, dtype=np.int32)
    eals = np.full(total + 1, -1, dtype=np.int32)
    for g in range(ng):
        ecell[g] = gcells[g, 0]
        evalue[g] = gval[g]
        esize[g] = gsize[g]
        for k in range(gsize[g]):
            ecells[g, k] = gcells[g, k]
    for x in range(nx):
        a = keep[x_als[x]]
        e = ng + x
        evalue[e] = x_val[x]
        eals[e] = a
        esize[e] = a_size[a]
        for k in range(a_size[a]):
            ecells[e, k] = a_cells[a, k]
        for w in range(words):  # named by its first cell holding the value
            m = held[a, x_val[x] - 1, w]
            if m != ZERO:
                ecell[e] = (w << 6) + trailing_zeros(m)
                break
    xlinks = (nx, tstart, tlist, ostart, otarget, oweight)
    ext = (ecell, evalue, ecells, esize, eals, gbud, sees)
    return xlinks, ext


@kernel
def _bfs(root, start, edges, mark, stamp, order, parent, depth, cap):
    """Breadth-first from state ``root``: ``order`` the states in the order reached (at most
    ``cap``), ``parent[i]`` the position of the state that reached ``order[i]``, ``depth[i]``
    its links from the root. Returns how many were reached."""
    mark[root] = stamp
    order[0] = root
    parent[0] = -1
    depth[0] = 0
    count = 1
    j = 0
    while j < count:
        u = order[j]
        for e in range(start[u], start[u + 1]):
            t = edges[e]
            if mark[t] == stamp:
                continue
            if count >= cap:
                return count
            mark[t] = stamp
            order[count] = t
            parent[count] = j
            depth[count] = depth[j] + 1
            count += 1
        j += 1
    return count


@kernel(inline="always")
def _cell_of(node, base, n, ext):
    """A node's cell (a group or ALS node goes by its first cell, as HoDoKu names it)."""
    if node < base:
        return node // n
    return ext[0][node - base]


@kernel(inline="always")
def _value_of(node, base, n, ext):
    if node < base:
        return node % n + 1
    return ext[1][node - base]


@kernel
def _route(order, parent, i, chain):
    """The states from the root to position i, in order; returns how many."""
    length = 0
    j = i
    while j >= 0:
        length += 1
        j = parent[j]
    j = i
    k = length - 1
    while j >= 0:
        chain[k] = order[j]
        k -= 1
        j = parent[j]
    return length


@kernel
def _no_lasso(chain, length, base, n, ext, lmark, lstamp, aic):
    """HoDoKu's lasso test: no node may come back to a cell an earlier node (not the one just
    before) stood on; a loop may pass its start cell, an AIC may not."""
    ecells, esize = ext[2], ext[3]
    first = _cell_of(chain[0] >> 1, base, n, ext)
    last = -1
    last_node = -1
    for i in range(length):
        node = chain[i] >> 1
        c = _cell_of(node, base, n, ext)
        if lmark[c] == lstamp:
            return False
        if last >= 0 and (last != first or aic):
            lmark[last] = lstamp
            if last_node >= base:
                e = last_node - base
                for k in range(esize[e]):
                    lmark[ecells[e, k]] = lstamp
        last = c
        last_node = node
    return True


@kernel
def _node_buddies(node, value, base, n, peer, ext, w):
    """Cells seeing a node (for an ALS node: seeing all its cells holding ``value``)."""
    if node < base:
        return peer[node // n, w]
    e = node - base
    a = ext[4][e]
    if a < 0:
        return ext[5][e, w]
    return ext[6][a, value - 1, w]


@kernel
def _loop_elims(st, chain, length, base, n, ext, peer, where, cmark, cstamp, ec, ev):
    """A continuous loop's removals, as HoDoKu finds them: every weak link between two cells
    clears its value from the cells that see both ends (not the loop's own), and a cell the
    loop enters and leaves by strong links keeps only those two values; an ALS entered by a
    weak link is locked on its other values. Returns the count, duplicates kept (HoDoKu counts
    them)."""
    cand = st[ST_CAND]
    ecells, esize, eals, asees = ext[2], ext[3], ext[4], ext[6]
    words = peer.shape[1]
    cap = ec.shape[0]
    for i in range(length):
        node = chain[i] >> 1
        if node < base:
            cmark[node // n] = cstamp
        else:
            e = node - base
            for k in range(esize[e]):
                cmark[ecells[e, k]] = cstamp
    s_cell = (chain[0] >> 1) // n
    first_on = chain[1] & 1 == 1
    last_on = chain[length - 1] & 1 == 1
    ne = 0
    for i in range(length):
        node = chain[i] >> 1
        on = chain[i] & 1 == 1
        c = _cell_of(node, base, n, ext)
        if (i == 0 and first_on and last_on) or (
            i > 0 and on and i <= length - 3 and _cell_of(chain[i - 1] >> 1, base, n, ext) != c
        ):
            if i == 0 or (
                chain[i + 1] & 1 == 0
                and _cell_of(chain[i + 1] >> 1, base, n, ext) == c
                and chain[i + 2] & 1 == 1
                and _cell_of(chain[i + 1] >> 1, base, n, ext) != _cell_of(chain[i + 2] >> 1, base, n, ext)
            ):
                if i == 0:
                    keep = bit((chain[0] >> 1) % n + 1) | bit((chain[length - 1] >> 1) % n + 1)
                else:
                    keep = bit(_value_of(chain[i] >> 1, base, n, ext)) | bit(_value_of(chain[i + 2] >> 1, base, n, ext))
                m = cand[c] & ~keep
                while m != ZERO and ne < cap:
                    ec[ne] = c
                    ev[ne] = trailing_zeros(m) + 1
                    ne += 1
                    m &= m - ONE
        if i > 0 and not on:
            prev = chain[i - 1] >> 1
            if _cell_of(prev, base, n, ext) != c:
                value = _value_of(node, base, n, ext)
                for w in range(words):
                    m = _node_buddies(prev, value, base, n, peer, ext, w) & _node_buddies(node, value, base, n, peer, ext, w)
                    m &= where[value, w]
                    while m != ZERO:
                        x = (w << 6) + trailing_zeros(m)
                        m &= m - ONE
                        if cmark[x] == cstamp or x == s_cell or ne >= cap:
                            continue
                        ec[ne] = x
                        ev[ne] = value
                        ne += 1
                if node >= base and eals[node - base] >= 0:
                    a = eals[node - base]
                    exits = ZERO
                    forced = i < length - 1 and chain[i + 1] & 1 == 1
                    nxt = -1
                    if i < length - 1:
                        nxt = _cell_of(chain[i + 1] >> 1, base, n, ext)
                        nv = _value_of(chain[i + 1] >> 1, base, n, ext)
                        exits = (cand[nxt] & ~bit(nv)) if forced else bit(nv)
                    for d in range(1, n + 1):
                        if exits & bit(d) or d == value:
                            continue
                        for w in range(words):
                            m = asees[a, d - 1, w]
                            while m != ZERO and ne < cap:
                                ec[ne] = (w << 6) + trailing_zeros(m)
                                ev[ne] = d
                                ne += 1
                                m &= m - ONE
                    if forced:
                        mm = exits
                        while mm != ZERO:
                            d = trailing_zeros(mm) + 1
                            mm &= mm - ONE
                            for w in range(words):
                                m = asees[a, d - 1, w] & peer[nxt, w]
                                while m != ZERO and ne < cap:
                                    ec[ne] = (w << 6) + trailing_zeros(m)
                                    ev[ne] = d
                                    ne += 1
                                    m &= m - ONE
    return ne


@kernel
def _has_group(chain, length, base):
    for i in range(length):
        if chain[i] >> 1 >= base:
            return True
    return False


@kernel
def _write_chain(step, chain, length, base, n, ext):
    """A route as chain nodes; a group or ALS is written as its first cell, its cells go to
    the step's cells."""
    ecells, esize = ext[2], ext[3]
    for i in range(length):
        node = chain[i] >> 1
        strong = 1 if i + 1 < length and chain[i + 1] & 1 == 1 else 0
        if node < base:
            add_link(step, node // n, node % n + 1, strong)
        else:
            e = node - base
            add_link(step, ext[0][e], ext[1][e], strong)
            for k in range(esize[e]):
                add_cell(step, ecells[e, k])


@kernel
def _loops(st, geo, peer, where, groups, with_groups, use_als, meta, pool, heads, nres, npool, seq):
    """Every nice loop and AIC of the tables (with group nodes, and ALS nodes when
    ``use_als``), into the result store; returns it."""
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    xlinks, ext = _als_links(st, geo, groups, peer, where, use_als)
    start, edges, weight = _graph(st, geo, groups, with_groups, xlinks)
    weighted = xlinks[0] > 0
    base = cells * n
    states = start.shape[0] - 1
    mark = np.zeros(states, dtype=np.int64)
    pos = np.zeros(states, dtype=np.int32)
    order = np.zeros(TABLE_CAP, dtype=np.int32)
    parent = np.zeros(TABLE_CAP, dtype=np.int32)
    depth = np.zeros(TABLE_CAP, dtype=np.int32)
    dist = np.zeros(TABLE_CAP, dtype=np.int32)
    chain = np.zeros(TABLE_CAP, dtype=np.int32)
    lmark = np.zeros(cells, dtype=np.int64)
    ec = np.zeros(4 * cells * n, dtype=np.int32)
    ev = np.zeros(4 * cells * n, dtype=np.int32)
    stamp = 0
    lstamp = 0
    tag = 2 if use_als else 0
    for on in range(1, -1, -1):  # HoDoKu checks the "set" tables, then the "removed" ones
        for node in range(base):
            c = node // n
            v = node % n + 1
            if cand[c] & bit(v) == ZERO:
                continue
            root = 2 * node + on
            stamp += 1
            if weighted:
                count = _bfs_w(root, start, edges, weight, mark, stamp, order, parent, depth, dist, pos, plain(TABLE_CAP))
            else:
                count = _bfs(root, start, edges, mark, stamp, order, parent, depth, plain(TABLE_CAP))
            for i in range(1, count):
                t = order[i]
                tn = t >> 1
                if tn >= base:
                    continue
                tc = tn // n
                te = tn % n + 1
                t_on = t & 1 == 1
                if tc == c:
                    if depth[i] <= 1:
                        continue
                    length = _route(order, parent, i, chain)
                    if _cell_of(chain[length - 2] >> 1, base, n, ext) == c:
                        continue
                    lstamp += 1
                    if not _no_lasso(chain, length, base, n, ext, lmark, lstamp, plain(False)):
                        continue
                    if _cell_of(chain[1] >> 1, base, n, ext) == c:
                        continue
                    first_on = on == 0
                    shape = 0
                    ne = 0
                    if not first_on and not t_on and v == te:
                        shape = DISCONTINUOUS
                        ec[0] = c
                        ev[0] = v
                        ne = 1
                    elif first_on and t_on and v == te:
                        shape = DISCONTINUOUS
                        m = cand[c] & ~bit(v)
                        while m != ZERO:
                            ec[ne] = c
                            ev[ne] = trailing_zeros(m) + 1
                            ne += 1
                            m &= m - ONE
                    elif first_on != t_on and v != te:
                        shape = DISCONTINUOUS
                        ec[0] = c
                        ev[0] = v if not first_on else te
                        ne = 1
                    elif (
                        (not first_on and not t_on and popcount(cand[c]) == 2 and v != te)
                        or (first_on and t_on and v != te)
                        or (first_on != t_on and v == te)
                    ):
                        shape = CONTINUOUS
                        lstamp += 1
                        ne = _loop_elims(st, chain, length, base, n, ext, peer, where, lmark, lstamp, ec, ev)
                    if ne == 0:
                        continue
                    grouped = 1 if _has_group(chain, length, base) else 0
                    _sort_elims(ec, ev, ne)
                    meta, pool, nres, npool = _store(
                        meta, pool, heads, nres, npool, ec, ev, ne, length, seq,
                        shape + 4 * grouped, root, t, shape, grouped + tag, cells,
                    )
                    seq += 1
                elif on == 0 and t_on:
                    # AIC from a removed candidate to a set one in another cell
                    ne = 0
                    if te == v:
                        for w in range(peer.shape[1]):
                            m = peer[c, w] & peer[tc, w] & where[v, w]
                            while m != ZERO:
                                ec[ne] = (w << 6) + trailing_zeros(m)
                                ev[ne] = v
                                ne += 1
                                m &= m - ONE
                        if ne < 2:
                            continue
                    else:
                        if not _bget(peer[c], tc):
                            continue
                        if cand[tc] & bit(v) == ZERO or cand[c] & bit(te) == ZERO:
                            continue
                        ec[0] = c
                        ev[0] = te
                        ec[1] = tc
                        ev[1] = v
                        ne = 2
                    if depth[i] <= 1:
                        continue
                    length = _route(order, parent, i, chain)
                    lstamp += 1
                    if not _no_lasso(chain, length, base, n, ext, lmark, lstamp, plain(True)):
                        continue
                    grouped = 1 if _has_group(chain, length, base) else 0
                    _sort_elims(ec, ev, ne)
                    # after every loop, as HoDoKu looks for AICs last
                    meta, pool, nres, npool = _store(
                        meta, pool, heads, nres, npool, ec, ev, ne, length, seq + (1 << 40),
                        AIC + 4 * grouped, root, t, plain(AIC), grouped + tag, cells,
                    )
                    seq += 1
    return meta, pool, nres, npool, seq


@kernel
def _loop_write(st, geo, step, kind, peer, where, groups, with_groups, use_als, meta, pool, r):
    """Write result r: its chain rebuilt from the tables it was found in."""
    n = geo[GEO_INFO][SIZE]
    cells = st[ST_CAND].shape[0]
    xlinks, ext = _als_links(st, geo, groups, peer, where, use_als)
    start, edges, weight = _graph(st, geo, groups, with_groups, xlinks)
    weighted = xlinks[0] > 0
    base = cells * n
    states = start.shape[0] - 1
    mark = np.zeros(states, dtype=np.int64)
    pos = np.zeros(states, dtype=np.int32)
    order = np.zeros(TABLE_CAP, dtype=np.int32)
    parent = np.zeros(TABLE_CAP, dtype=np.int32)
    depth = np.zeros(TABLE_CAP, dtype=np.int32)
    dist = np.zeros(TABLE_CAP, dtype=np.int32)
    chain = np.zeros(TABLE_CAP, dtype=np.int32)
    root, t = meta[r, R_A], meta[r, R_B]
    stamp = 1
    if weighted:
        count = _bfs_w(root, start, edges, weight, mark, stamp, order, parent, depth, dist, pos, plain(TABLE_CAP))
    else:
        count = _bfs(root, start, edges, mark, stamp, order, parent, depth, plain(TABLE_CAP))
    length = 0
    for i in range(count):
        if order[i] == t:
            length = _route(order, parent, i, chain)
            break
    clear(step, kind)
    step[S_HDR][SUB] = meta[r, R_C]
    values = ZERO
    off = meta[r, R_OFF]
    for k in range(meta[r, R_NE]):
        values |= bit(pool[off + k, 1])
    step[S_DIGS][DIGITS] = values
    _write_elims(step, pool, off, meta[r, R_NE])
    _write_chain(step, chain, length, base, n, ext)


@kernel
def nice_loop(st, geo, step, kind, nth, variant):
    """Nice loops and AICs (variant 1: grouped), found in HoDoKu's tables. Listing grouped
    ones (``nth >= 0``) gives those found without ALS nodes and then those that need them (as
    HoDoKu's regression tester allows ALS nodes only where a case says so)."""
    with_groups = variant == 1
    peer, where = _cell_sets(st, geo)
    groups = _groups(st, geo, peer, where)
    meta, pool, heads = _new_store()
    meta, pool, nres, npool, seq = _loops(
        st, geo, peer, where, groups, with_groups, plain(False), meta, pool, heads, plain(0), plain(0), plain(0)
    )
    listing = with_groups and nth >= 0
    if listing:
        meta, pool, nres, npool, seq = _loops(
            st, geo, peer, where, groups, with_groups, plain(True), meta, pool, heads, nres, npool, seq
        )
    allowed = np.ones(nres, dtype=np.bool_)
    if listing:  # the grouped ones only (the solving loop takes any)
        for r in range(nres):
            allowed[r] = meta[r, R_D] & 1 != 0
    r = _pick(meta, nres, nth, allowed)
    if r < 0:
        return False
    _loop_write(st, geo, step, kind, peer, where, groups, with_groups, meta[r, R_D] & 2 != 0, meta, pool, r)
    return True


# -- forcing chains and nets ---------------------------------------------------------------------


@kernel
def _allowed_counts(st, geo):
    """``allowed[h, v]``: cells of house h where the placed values still allow v (HoDoKu asks
    whether a premise removes every one of them, not only the candidates left)."""
    values = st[ST_VALUES]
    houses, cell_houses, peers, n = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_PEERS], geo[GEO_INFO][SIZE]
    allowed = np.zeros((houses.shape[0], n + 1), dtype=np.int32)
    full = full_mask(n)
    for c in range(values.shape[0]):
        if values[c] != 0:
            continue
        seen = ZERO
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if p < 0:
                break
            if values[p] != 0:
                seen |= bit(values[p])
        m = full & ~seen
        while m != ZERO:
            v = trailing_zeros(m) + 1
            m &= m - ONE
            for k in range(cell_houses.shape[1]):
                h = cell_houses[c, k]
                if h < 0:
                    break
                allowed[h, v] += 1
    return allowed


@kernel
def _clash(st, geo, knode, p, onb, offb, allowed, cmark, hmark, ccount, hcount, stamp):
    """Whether premise p's consequences clash (HoDoKu's six tests); returns a witness node
    (set or removed in the clash) or -1."""
    cand = st[ST_CAND]
    cell_houses, n = geo[GEO_CELL_HOUSES], geo[GEO_INFO][SIZE]
    words = onb.shape[1]
    k0 = p >> 1
    if p & 1:
        if _bget(offb[p], k0):
            return 2 * knode[k0]
    else:
        if _bget(onb[p], k0):
            return 2 * knode[k0] + 1
    for w in range(words):
        m = onb[p, w] & offb[p, w]
        if m != ZERO:
            return 2 * knode[(w << 6) + trailing_zeros(m)] + 1
    nh = hcount.shape[0]
    for w in range(words):
        m = onb[p, w]
        while m != ZERO:
            k = (w << 6) + trailing_zeros(m)
            m &= m - ONE
            node = knode[k]
            c = node // n
            v = node % n + 1
            if cmark[c] == stamp:
                return 2 * node + 1
            cmark[c] = stamp
            for j in range(cell_houses.shape[1]):
                h = cell_houses[c, j]
                if h < 0:
                    break
                if hmark[h, v] == stamp:
                    return 2 * node + 1
                hmark[h, v] = stamp
    for w in range(words):
        m = offb[p, w]
        while m != ZERO:
            k = (w << 6) + trailing_zeros(m)
            m &= m - ONE
            node = knode[k]
            c = node // n
            v = node % n + 1
            if ccount[c, 0] != stamp:
                ccount[c, 0] = stamp
                ccount[c, 1] = 0
            ccount[c, 1] += 1
            if ccount[c, 1] == popcount(cand[c]) and cmark[c] != stamp:
                return 2 * node
            for j in range(cell_houses.shape[1]):
                h = cell_houses[c, j]
                if h < 0 or h >= nh:
                    break
                if hcount[h, v, 0] != stamp:
                    hcount[h, v, 0] = stamp
                    hcount[h, v, 1] = 0
                hcount[h, v, 1] += 1
                if hcount[h, v, 1] == allowed[h, v]:
                    return 2 * node
    return -1


@kernel
def _add_fact(facts, nfacts, place, cell, value, shape, premise, witness):
    """Record a proved placement or removal once (the first proof kept)."""
    for i in range(nfacts):
        if facts[i, 0] == place and facts[i, 1] == cell and facts[i, 2] == value:
            return facts, nfacts
    if nfacts >= facts.shape[0]:
        facts = grown_to(facts, nfacts + 1)
    facts[nfacts, 0] = place
    facts[nfacts, 1] = cell
    facts[nfacts, 2] = value
    facts[nfacts, 3] = shape
    facts[nfacts, 4] = premise
    facts[nfacts, 5] = witness
    return facts, nfacts + 1


@kernel
def _verities(onb, offb, premises, count, knode, n, facts, nfacts, exclude_cell, tmp_on, tmp_off):
    """What every premise in ``premises[:count]`` implies (besides its own cell's nodes when
    ``exclude_cell`` >= 0) is true: set nodes are placed, removed nodes removed."""
    words = onb.shape[1]
    for w in range(words):
        tmp_on[w] = onb[premises[0], w]
        tmp_off[w] = offb[premises[0], w]
        for i in range(1, count):
            tmp_on[w] &= onb[premises[i], w]
            tmp_off[w] &= offb[premises[i], w]
    for which in range(2):
        for w in range(words):
            m = tmp_on[w] if which == 0 else tmp_off[w]
            while m != ZERO:
                k = (w << 6) + trailing_zeros(m)
                m &= m - ONE
                node = knode[k]
                c = node // n
                if c == exclude_cell:
                    continue
                facts, nfacts = _add_fact(
                    facts, nfacts, 1 - which, c, node % n + 1, plain(VERITY), premises[0], 2 * node + 1 - which
                )
    return facts, nfacts


@kernel
def _net_set(st, geo, saved, c, v, kid, row):
    """Set (c, v) on a net's working grid, noting it set, its peers' v removed (as the grid
    stood before the premise) and the cell's other values removed."""
    cand = st[ST_CAND]
    peers, n = geo[GEO_PEERS], geo[GEO_INFO][SIZE]
    b = bit(v)
    k = kid[c * n + v - 1]
    if k >= 0:
        _bset(row, 2 * k + 1)
    for j in range(peers.shape[1]):
        p = peers[c, j]
        if p < 0:
            break
        if saved[p] & b:
            _bset(row, 2 * kid[p * n + v - 1])
    m = cand[c] & ~b
    while m != ZERO:
        w = trailing_zeros(m)
        m &= m - ONE
        if kid[c * n + w] >= 0:
            _bset(row, 2 * kid[c * n + w])
    set_cell(st, geo, c, v)


@kernel
def _net_tables(st, geo, kid, knode, nk, direct, found):
    """Each premise's direct consequences in a forcing net: the premise applied to a copy of
    the grid, then the naked and hidden singles it causes, LOOK_AHEAD rounds deep."""
    values0, cand0, free0, nsq0, hsq0, qctl0 = st[ST_VALUES], st[ST_CAND], st[ST_FREE], st[ST_NSQ], st[ST_HSQ], st[ST_QCTL]
    cell_houses, n = geo[GEO_CELL_HOUSES], geo[GEO_INFO][SIZE]
    work = (values0.copy(), cand0.copy(), free0.copy(), np.zeros_like(nsq0), np.zeros_like(hsq0), qctl0.copy(), st[ST_FIXED])
    cells = cand0.shape[0]
    single_c = np.zeros(2 * cells * n + cells, dtype=np.int32)
    single_v = np.zeros(2 * cells * n + cells, dtype=np.int32)
    for p in range(2 * nk):
        node = knode[p >> 1]
        c = node // n
        v = node % n + 1
        work[ST_VALUES][:] = values0
        work[ST_CAND][:] = cand0
        work[ST_FREE][:] = free0
        ns = qctl0[NS_TAIL] - qctl0[NS_HEAD]
        hs = qctl0[HS_TAIL] - qctl0[HS_HEAD]
        work[ST_NSQ][:ns] = nsq0[qctl0[NS_HEAD] : qctl0[NS_TAIL]]
        work[ST_HSQ][:hs] = hsq0[qctl0[HS_HEAD] : qctl0[HS_TAIL]]
        work[ST_QCTL][NS_HEAD] = 0
        work[ST_QCTL][NS_TAIL] = ns
        work[ST_QCTL][HS_HEAD] = 0
        work[ST_QCTL][HS_TAIL] = hs
        row = direct[p]
        if p & 1:
            _net_set(work, geo, cand0, c, v, kid, row)
        else:
            del_cand(work, geo, c, v)
            _bset(row, p)
            rest = work[ST_CAND][c]
            if rest != ZERO and rest & (rest - ONE) == ZERO:
                _net_set(work, geo, cand0, c, trailing_zeros(rest) + 1, kid, row)
        for _ in range(LOOK_AHEAD):
            count = 0
            for q in range(work[ST_QCTL][NS_HEAD], work[ST_QCTL][NS_TAIL]):
                x = work[ST_NSQ][q, 0]
                if work[ST_VALUES][x] == 0:
                    single_c[count] = x
                    single_v[count] = work[ST_NSQ][q, 1]
                    count += 1
            naked = count
            for q in range(work[ST_QCTL][HS_HEAD], work[ST_QCTL][HS_TAIL]):
                x, y = work[ST_HSQ][q, 0], work[ST_HSQ][q, 1]
                if work[ST_VALUES][x] != 0 or found[x] == p + 1 or work[ST_CAND][x] & bit(y) == ZERO:
                    continue
                for j in range(cell_houses.shape[1]):
                    h = cell_houses[x, j]
                    if h >= 0 and work[ST_FREE][h, y] == 1:
                        found[x] = p + 1
                        single_c[count] = x
                        single_v[count] = y
                        count += 1
                        break
            for q in range(naked, count):
                found[single_c[q]] = 0
            if count == 0:
                break
            for q in range(count):
                _net_set(work, geo, cand0, single_c[q], single_v[q], kid, row)


@kernel
def _closure(direct, p, reach, stack):
    """Every state premise p leads to through the direct consequences (``reach``)."""
    words = reach.shape[0]
    for w in range(words):
        reach[w] = direct[p, w]
    top = 0
    for w in range(words):
        m = reach[w]
        while m != ZERO:
            stack[top] = (w << 6) + trailing_zeros(m)
            top += 1
            m &= m - ONE
    while top > 0:
        top -= 1
        t = stack[top]
        for w in range(words):
            new = direct[t, w] & ~reach[w]
            if new != ZERO:
                reach[w] |= new
                while new != ZERO:
                    stack[top] = (w << 6) + trailing_zeros(new)
                    top += 1
                    new &= new - ONE
    return reach


@kernel
def _net_route(direct, root, target, order, parent):
    """A shortest route through the direct consequences from root to target; returns its
    length in ``order`` (root first), 0 if none."""
    states = direct.shape[0]
    if states > order.shape[0]:
        return 0
    mark = np.zeros(states, dtype=np.bool_)
    mark[root] = True
    order[0] = root
    parent[0] = -1
    count = 1
    j = 0
    hit = -1
    while j < count and hit < 0:
        u = order[j]
        for w in range(direct.shape[1]):
            m = direct[u, w]
            while m != ZERO:
                t = (w << 6) + trailing_zeros(m)
                m &= m - ONE
                if mark[t]:
                    continue
                mark[t] = True
                order[count] = t
                parent[count] = j
                if t == target:
                    hit = count
                count += 1
        j += 1
    if hit < 0:
        return 0
    length = 0
    x = hit
    while x >= 0:
        length += 1
        x = parent[x]
    route = np.zeros(length, dtype=np.int32)
    x = hit
    k = length - 1
    while x >= 0:
        route[k] = order[x]
        k -= 1
        x = parent[x]
    order[:length] = route
    return length


@kernel
def forcing(st, geo, step, kind, nth, variant):
    """Forcing chains (variant 0) and forcing nets (variant 1): contradictions and verities."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, n = geo[GEO_HOUSES], geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    nets = variant == 1
    peer, where = _cell_sets(st, geo)
    groups = _groups(st, geo, peer, where)
    xlinks, ext = _als_links(st, geo, groups, peer, where, plain(False))
    start, edges, weight = _graph(st, geo, groups, plain(True), xlinks)
    base = cells * n
    ng = groups[0].shape[0]
    # candidates numbered compactly: node <-> k
    kid = np.full(base, -1, dtype=np.int32)
    knode = np.zeros(base, dtype=np.int32)
    nk = 0
    for node in range(base):
        if cand[node // n] & bit(node % n + 1):
            kid[node] = nk
            knode[nk] = node
            nk += 1
    if nk == 0:
        return False
    words = (nk + 63) >> 6
    onb = np.zeros((2 * nk, words), dtype=np.uint64)
    offb = np.zeros((2 * nk, words), dtype=np.uint64)
    states = start.shape[0] - 1
    order = np.zeros(max(TABLE_CAP, 2 * (nk + ng) + 1), dtype=np.int32)
    parent = np.zeros(order.shape[0], dtype=np.int32)
    depth = np.zeros(order.shape[0], dtype=np.int32)
    mark = np.zeros(states, dtype=np.int64)
    stamp = 0
    direct = np.zeros((1, 1), dtype=np.uint64)
    if not nets:
        for p in range(2 * nk):
            stamp += 1
            count = _bfs(2 * knode[p >> 1] + (p & 1), start, edges, mark, stamp, order, parent, depth, plain(TABLE_CAP))
            for i in range(count):
                t = order[i]
                node = t >> 1
                if node < base:
                    if t & 1:
                        _bset(onb[p], kid[node])
                    else:
                        _bset(offb[p], kid[node])
    else:
        # compact states: 2 * k + on for candidates, 2 * (nk + g) + on for groups
        total = 2 * (nk + ng)
        dwords = (total + 63) >> 6
        direct = np.zeros((total, dwords), dtype=np.uint64)
        found = np.zeros(cells, dtype=np.int64)
        _net_tables(st, geo, kid, knode, nk, direct, found)
        for x in range(total):  # the groups' links, and links into groups, as in the chains
            if x < 2 * nk:
                s = 2 * knode[x >> 1] + (x & 1)
            else:
                s = 2 * (base + (x >> 1) - nk) + (x & 1)
            for e in range(start[s], start[s + 1]):
                t = edges[e]
                node = t >> 1
                if node < base:
                    if x >= 2 * nk:
                        _bset(direct[x], 2 * kid[node] + (t & 1))
                else:
                    _bset(direct[x], 2 * (nk + node - base) + (t & 1))
        reach = np.zeros(dwords, dtype=np.uint64)
        stack = np.zeros(total + 1, dtype=np.int32)
        for p in range(2 * nk):
            _closure(direct, p, reach, stack)
            for w in range(dwords):
                m = reach[w]
                while m != ZERO:
                    x = (w << 6) + trailing_zeros(m)
                    m &= m - ONE
                    if x < 2 * nk:
                        if x & 1:
                            _bset(onb[p], x >> 1)
                        else:
                            _bset(offb[p], x >> 1)
            _bset(onb[p] if p & 1 else offb[p], p >> 1)
    # contradictions
    allowed = _allowed_counts(st, geo)
    cmark = np.zeros(cells, dtype=np.int64)
    hmark = np.zeros((houses.shape[0], n + 1), dtype=np.int64)
    ccount = np.zeros((cells, 2), dtype=np.int64)
    hcount = np.zeros((houses.shape[0], n + 1, 2), dtype=np.int64)
    facts = np.zeros((64, 6), dtype=np.int64)
    nfacts = 0
    cstamp = 0
    for p in range(2 * nk):
        cstamp += 1
        witness = _clash(st, geo, knode, p, onb, offb, allowed, cmark, hmark, ccount, hcount, cstamp)
        if witness >= 0:
            node = knode[p >> 1]
            facts, nfacts = _add_fact(
                facts, nfacts, 1 - (p & 1), node // n, node % n + 1, plain(CONTRADICTION), p, witness
            )
    # verities: both ways of a candidate, every value of a cell, every place of a value in a house
    premises = np.zeros(max(n, 2), dtype=np.int64)
    tmp_on = np.zeros(words, dtype=np.uint64)
    tmp_off = np.zeros(words, dtype=np.uint64)
    for k in range(nk):
        premises[0] = 2 * k + 1
        premises[1] = 2 * k
        facts, nfacts = _verities(onb, offb, premises, plain(2), knode, n, facts, nfacts, knode[k] // n, tmp_on, tmp_off)
    for c in range(cells):
        if values[c] != 0 or cand[c] == ZERO:
            continue
        count = 0
        m = cand[c]
        while m != ZERO:
            premises[count] = 2 * kid[c * n + trailing_zeros(m)] + 1
            count += 1
            m &= m - ONE
        facts, nfacts = _verities(onb, offb, premises, count, knode, n, facts, nfacts, plain(-1), tmp_on, tmp_off)
    for h in range(houses.shape[0]):
        for v in range(1, n + 1):
            count = 0
            for j in range(houses.shape[1]):
                c = houses[h, j]
                if cand[c] & bit(v):
                    premises[count] = 2 * kid[c * n + v - 1] + 1
                    count += 1
            if count > 0:
                facts, nfacts = _verities(onb, offb, premises, count, knode, n, facts, nfacts, plain(-1), tmp_on, tmp_off)
    if nfacts == 0:
        return False
    # HoDoKu's order: placements first, by cell; then removals by cell and value
    rank = np.empty(nfacts, dtype=np.int64)
    for i in range(nfacts):
        rank[i] = (1 - facts[i, 0]) * (cells * (n + 1)) + facts[i, 1] * (n + 1) + facts[i, 2]
    pick = -1
    if nth < 0:
        for i in range(nfacts):
            if pick < 0 or rank[i] < rank[pick]:
                pick = i
    else:
        idx = np.argsort(rank, kind="mergesort")
        if nth < nfacts:
            pick = idx[nth]
    if pick < 0:
        return False
    clear(step, kind)
    step[S_HDR][SUB] = facts[pick, 3]
    c, v = facts[pick, 1], facts[pick, 2]
    step[S_DIGS][DIGITS] = bit(v)
    if facts[pick, 0] == 1:
        add_place(step, c, v)
    else:
        add_elim(step, c, v)
    # one chain of the proof: from the premise to the node that settles it
    p = facts[pick, 4]
    witness = facts[pick, 5]
    root = 2 * knode[p >> 1] + (p & 1)
    length = 0
    chain = np.zeros(order.shape[0], dtype=np.int32)
    if not nets:
        stamp += 1
        count = _bfs(root, start, edges, mark, stamp, order, parent, depth, plain(TABLE_CAP))
        for i in range(count):
            if order[i] == witness:
                length = _route(order, parent, i, chain)
                break
    else:
        target = 2 * kid[witness >> 1] + (witness & 1)
        length = _net_route(direct, p, target, order, parent)
        for i in range(length):
            x = order[i]
            if x < 2 * nk:
                chain[i] = 2 * knode[x >> 1] + (x & 1)
            else:
                chain[i] = 2 * (base + (x >> 1) - nk) + (x & 1)
    _write_chain(step, chain, length, base, n, ext)
    return True
