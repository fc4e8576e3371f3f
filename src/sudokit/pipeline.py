"""The batch pipeline under its first name: ``sudokit.pipeline`` is now :mod:`sudokit.batch`.

Code written against it keeps working; new code imports from :mod:`sudokit.batch`.
"""

from .arrays import solve_batch
from .batch.chunks import (
    COLUMNS,
    DEFAULT_CHUNK_SIZE,
    OUTPUT_FORMATS,
    TABLE_FORMATS,
    WORKERS_ENV,
    BatchError,
    BatchOptions,
    BatchSummary,
    Chunk,
    ChunkResult,
    RecordResult,
)
from .batch.executors import (
    Executor,
    InlineExecutor,
    PoolExecutor,
    WarmingPool,
    default_workers,
    make_executor,
    ordered_results,
)
from .batch.output import JOURNAL_SUFFIX, JOURNAL_VERSION, Journal
from .batch.run import iter_results, solve_column, solve_file
from .batch.sources import (
    CsvSource,
    ParquetSource,
    Position,
    Source,
    TextSource,
    open_source,
)
from .batch.work import solve_chunk
from .results import STATUSES

__all__ = [
    "COLUMNS",
    "DEFAULT_CHUNK_SIZE",
    "JOURNAL_SUFFIX",
    "JOURNAL_VERSION",
    "OUTPUT_FORMATS",
    "STATUSES",
    "TABLE_FORMATS",
    "WORKERS_ENV",
    "BatchError",
    "BatchOptions",
    "BatchSummary",
    "Chunk",
    "ChunkResult",
    "CsvSource",
    "Executor",
    "InlineExecutor",
    "Journal",
    "ParquetSource",
    "PoolExecutor",
    "Position",
    "RecordResult",
    "Source",
    "TextSource",
    "WarmingPool",
    "default_workers",
    "iter_results",
    "make_executor",
    "open_source",
    "ordered_results",
    "solve_batch",
    "solve_chunk",
    "solve_column",
    "solve_file",
]
