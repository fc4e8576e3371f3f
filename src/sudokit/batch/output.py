"""Writing the output, in the main process: sinks (a stream, an NDJSON or CSV file, a Parquet
file) and the journal, the sidecar ``OUTPUT.progress`` that makes a run resumable.

A chunk's output is appended and synced before the journal records it, so after ``kill -9`` at
any moment the journal never counts a byte the disk may not have; resuming cuts the output back
to what the journal counts."""

from __future__ import annotations

import json
import os
from typing import Any

from .chunks import OUTPUT_FORMATS, BatchError, ChunkResult
from .encoders import arrow_schema, arrow_table, csv_header
from .sources import require

JOURNAL_SUFFIX = ".progress"
JOURNAL_VERSION = 1


def output_kind(path: str | None, output_format: str | None) -> str:
    if output_format:
        if output_format not in OUTPUT_FORMATS:
            raise BatchError(f"unknown output format {output_format!r}; choose one of {', '.join(OUTPUT_FORMATS)}")
        return output_format
    lower = (path or "").lower()
    if lower.endswith(".csv"):
        return "csv"
    if lower.endswith((".parquet", ".pq")):
        return "parquet"
    return "ndjson"


class Journal:
    """The sidecar ``OUTPUT.progress``: after every commit, the records and output bytes that
    are final and the input position to go on from, replaced atomically (temporary file, fsync,
    rename, fsync of the folder)."""

    def __init__(self, output: str) -> None:
        self.path = output + JOURNAL_SUFFIX
        self.folder = os.path.dirname(os.path.abspath(output))
        self.synced = False

    def load(self) -> dict[str, Any] | None:
        try:
            with open(self.path, encoding="utf-8") as handle:
                state = json.load(handle)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise BatchError(f"{self.path}: unreadable progress file ({error}); delete it and the output to start again") from None
        if not isinstance(state, dict) or state.get("sudokit_batch") != JOURNAL_VERSION:
            raise BatchError(f"{self.path}: not a progress file of this sudokit version; delete it and the output to start again")
        return state

    def save(self, state: dict[str, Any]) -> None:
        temporary = self.path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(state, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        # the folder is synced once, for the first journal; later a lost rename (power cut)
        # leaves the previous journal, which is still true: it counts fewer bytes, and the
        # rest of the output is cut off on resume
        if not self.synced:
            _sync_folder(self.folder)
            self.synced = True

    def remove(self) -> None:
        for path in (self.path, self.path + ".tmp"):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - not POSIX
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


class Sink:
    """Where committed chunks go."""

    size = 0  #: output bytes committed

    def write(self, result: ChunkResult) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def sync(self) -> None:
        """Make what was written durable."""

    def close(self, complete: bool) -> None:
        pass


class StreamSink(Sink):
    """A binary stream (stdout): written and flushed per chunk, nothing to resume."""

    def __init__(self, stream, kind: str, rate: bool = False) -> None:
        self.stream = stream
        if kind == "csv":
            self.stream.write(csv_header(rate))

    def write(self, result: ChunkResult) -> None:
        assert result.payload is not None
        self.stream.write(result.payload)
        self.stream.flush()


class FileSink(Sink):
    """An NDJSON or CSV file written with ``os.write`` and synced per chunk, so that the
    journal never counts a byte the disk may not have."""

    def __init__(self, path: str, kind: str, size: int | None, durable: bool, rate: bool = False) -> None:
        self.durable = durable
        if size is None:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            self.size = 0
        else:
            try:
                self.fd = os.open(path, os.O_WRONLY)
            except FileNotFoundError:
                if size:
                    raise BatchError(f"{path}: the output of the interrupted run is gone; start again without resuming", "resume") from None
                self.fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
            actual = os.fstat(self.fd).st_size
            if actual < size:
                os.close(self.fd)
                raise BatchError(
                    f"{path}: {actual} bytes, but {size} were committed before the interruption; "
                    "the output was changed: start again without resuming",
                    "resume",
                )
            os.ftruncate(self.fd, size)  # drop whatever was written after the last commit
            os.lseek(self.fd, size, os.SEEK_SET)
            self.size = size
        if self.size == 0 and kind == "csv":
            self._append(csv_header(rate))
            self.sync()

    def _append(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]
        self.size += len(data)

    def write(self, result: ChunkResult) -> None:
        assert result.payload is not None
        self._append(result.payload)

    def sync(self) -> None:
        if self.durable:
            os.fsync(self.fd)

    def close(self, complete: bool) -> None:
        os.close(self.fd)


class ParquetSink(Sink):
    """Parquet, one row group per chunk, into ``OUTPUT.partial`` renamed when complete (a
    Parquet file is unreadable until its footer is written, so it cannot be resumed)."""

    def __init__(self, path: str, rate: bool = False) -> None:
        pq = require("pyarrow.parquet", "parquet", "Parquet output")
        self.path = path
        self.partial = path + ".partial"
        self.writer = pq.ParquetWriter(self.partial, arrow_schema(rate))

    def write(self, result: ChunkResult) -> None:
        assert result.columns is not None
        self.writer.write_table(arrow_table(result.columns, result.first_index))

    def close(self, complete: bool) -> None:
        self.writer.close()
        if complete:
            os.replace(self.partial, self.path)


