"""Compiled search kernels (numba). No validation happens here: the Python layer checks its
input once and hands the kernels fixed-shape integer arrays. See ``protocol`` for the contract
every search kernel keeps."""
