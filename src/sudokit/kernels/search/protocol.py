"""The contract between search kernels and the Python layer.

A search is *resumable*: all of its state lives in arrays the caller owns, and a kernel call
runs until something the caller must see happens, then returns one of the codes below. The
caller can then resume it by calling again with the same arrays. That one design gives lazy
iteration over solutions, time limits checked between calls (numba has no clock), progress
reports, and stacks that grow only when a search goes deep.

``ctl``, an ``int64`` array of ``CTL_SIZE`` slots, holds the scalars:

    ctl[DEPTH]    current stack level; -1 before the first call (the kernel then loads givens)
    ctl[NODES]    search nodes so far: propagations run (the root, then every branch tried)
    ctl[GUESSES]  choice points so far: cells (or house/value pairs) the search branched on
    ctl[COUNT]    solutions found so far
    ctl[PHASE]    where to resume (kernel-private)

A call takes ``limit`` (stop once ``ctl[COUNT] == limit``: 1 solves, 2 proves uniqueness, N
counts up to N), ``node_budget`` (return after this many more nodes) and ``record_at`` (copy the
solution numbered ``record_at`` into ``out``: 1 keeps the first solution; the iterator passes
``count + 1`` to get each one).
"""

# ctl slots
DEPTH = 0
NODES = 1
GUESSES = 2
COUNT = 3
PHASE = 4
CTL_SIZE = 8

# return codes
DONE = 0  #: the search space is exhausted: ctl[COUNT] is the exact number of solutions
LIMIT = 1  #: ctl[COUNT] reached ``limit``; call again with a higher limit to go on
BUDGET = 2  #: the node budget of this call is spent; call again to go on
STACK_FULL = 3  #: the stack has no room for a deeper level; grow it and call again
#: not a return code: what ``driver.solution`` and ``driver.retreat`` give when the search goes on
GOING = -1

# resume points (ctl[PHASE])
PROPAGATE = 0  #: run propagation on the top level, then branch or record a solution
NEXT_BRANCH = 1  #: take the next alternative of the top level's choice
BACKTRACK = 2  #: drop the top level and resume the nearest choice with alternatives left
