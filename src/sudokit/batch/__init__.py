"""Batch work: arrays of boards in one compiled call, and files of millions of puzzles through
it, in chunks, in order, resumably, on every core or on a Dask cluster.

========================= =====================================================================
``arrays``                ``solve_batch``: an array (or list) of boards in one compiled call
``chunks``                the vocabulary: settings, a chunk and its result, a record, the summary
``sources``               reading the input and cutting it into chunks (text, CSV, Parquet)
``work``                  what a worker does with a chunk: parse, solve, encode
``encoders``              NDJSON, CSV and Arrow output of a chunk
``executors``             in-process, worker processes or threads; results in input order
``output``                sinks and the journal that makes a run resumable
``run``                   ``solve_file``, ``iter_results``, ``solve_column``
``cluster``               the same chunks on a Dask cluster
========================= =====================================================================

Vocabulary
----------
*record*
    one puzzle of the input (a line, a grid, a CSV row, a Parquet row), numbered from 0;
    a record the parser rejects is a *bad record* and still yields a result.
*chunk*
    ``chunk_size`` consecutive records, the unit of work: parsed, solved in one compiled call
    (:func:`sudokit.solve_batch`) and encoded by a worker, then written by the main process.
*commit*
    a chunk's output appended to the output file, synced, and only then recorded in the
    *journal*, the sidecar file ``OUTPUT.progress`` that says how many records and output
    bytes are final and where in the input the next chunk starts.

Data flows one way. The main process reads the input and cuts it into chunks (it only splits
lines, so it keeps up with every core); workers (processes, threads or a Dask cluster) parse,
solve and encode each chunk to bytes; the main process writes the results strictly in input
order, at most ``2 * workers`` chunks ahead of the writer, so memory stays flat whatever the
size of the file. Exactly one output record per input record, whatever happens: bad records
become ``status: "error"`` records.

Why the journal: after ``kill -9`` at any moment, the output may end in a chunk that was
written but not recorded, or in half a chunk. ``--resume`` truncates the output to the
journal's byte count, seeks the input to the journal's position and goes on, so the final
output is byte for byte the one an uninterrupted run writes. The journal itself is replaced
atomically (write a temporary file, sync, rename), so it is always one whole state.

Roads not taken: a temporary output renamed at the end loses the finished part of a
ten-million-record run on a crash; one output file per chunk (what Dask dataframes write)
leaves the user thousands of files and an ordering problem; parsing in the main process
caps every run at the parser's speed (about 30k records/s), a tenth of the 9x9 kernel's;
building the NDJSON lines of a chunk as one numpy byte matrix (fields padded with NUL, then
the NULs dropped) was measured no faster than f-strings (about 1 usec a record either way).
"""

from ..results import BatchResult
from ..arrays import solve_batch
from .chunks import BatchError, BatchOptions, BatchSummary, RecordResult
from .run import iter_results, solve_column, solve_file

__all__ = [
    "BatchError",
    "BatchOptions",
    "BatchResult",
    "BatchSummary",
    "RecordResult",
    "iter_results",
    "solve_batch",
    "solve_column",
    "solve_file",
]
