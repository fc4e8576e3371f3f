"""Compiled kernels (numba), in rooms: ``build`` (how they are compiled, the bottom floor),
``search`` (the searches and what builds on them), ``hodoku`` (HoDoKu's techniques) and ``se``
(Sudoku Explainer's rules). No validation happens here: the Python layer checks its input once
and hands the kernels fixed-shape integer arrays. See ``search/protocol.py`` for the contract
every search kernel keeps."""

import os

# Where colorama is installed (mkdocs-material brings it), numba colours its error messages,
# and each one it formats, the many it builds and drops while typing any kernel included, swaps
# sys.stdout and sys.stderr for colorama's wrappers and then puts back the streams that were
# there when colorama was first set up. sudokit compiles on daemon threads (warming.py, the
# web page's warm-up), so that swap lands in whatever the main thread is doing: a command's
# output went to a stream of another moment (under click's CliRunner: pytest's capture, or
# nowhere). Set before any kernel module imports numba, which reads it once, on import; a
# value the user set is kept.
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
