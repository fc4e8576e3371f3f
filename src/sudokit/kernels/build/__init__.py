"""How the kernels are compiled: the ``kernel`` decorator and numba's cache (``jit``), and the
ahead-of-time build that compiles every kernel a command can reach when the package is built
(``ahead``). The bottom floor: every other room imports ``jit`` from here."""
