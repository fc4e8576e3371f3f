"""Compiled kernels (numba), in rooms: ``build`` (how they are compiled, the bottom floor),
``search`` (the searches and what builds on them), ``hodoku`` (HoDoKu's techniques) and ``se``
(Sudoku Explainer's rules). No validation happens here: the Python layer checks its input once
and hands the kernels fixed-shape integer arrays. See ``search/protocol.py`` for the contract
every search kernel keeps."""

import os

# numba's coloured errors go through colorama, which swaps sys.stdout from the compiling thread:
# a warming thread's compile sent a command's output elsewhere. Read once, when numba loads.
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
