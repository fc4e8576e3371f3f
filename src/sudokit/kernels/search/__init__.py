"""The search kernels and what builds on them: bit helpers and vector lanes, the protocol and
driver every search shares, the 9x9 (``classic``), 16x16 (``hexa``) and general kernels, batches,
clause learning (``learn``), killer cages, optimisation, the givens check, generation and
canonical forms."""
