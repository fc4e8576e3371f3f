"""Batch files on a Dask cluster under their first name: now :mod:`sudokit.batch.cluster`.

Code written against ``sudokit.distributed`` keeps working; new code imports from
:mod:`sudokit.batch.cluster`.
"""

from .batch.cluster import DaskExecutor, connect, iter_results, solve_file

__all__ = ["DaskExecutor", "connect", "iter_results", "solve_file"]
