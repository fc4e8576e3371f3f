"""Compiled kernels (numba), in rooms: ``build`` (how they are compiled, the bottom floor),
``search`` (the searches and what builds on them), ``hodoku`` (HoDoKu's techniques) and ``se``
(Sudoku Explainer's rules). No validation happens here: the Python layer checks its input once
and hands the kernels fixed-shape integer arrays. See ``search/protocol.py`` for the contract
every search kernel keeps."""
