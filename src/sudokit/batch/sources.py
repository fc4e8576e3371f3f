"""Reading the input: sources that cut it into chunks, in the main process (text, CSV, TSV,
Parquet). A source only splits one-line records (workers parse them); the block formats are
parsed here, since only the streaming reader knows where a grid ends."""

from __future__ import annotations

import csv
import importlib
import itertools
import os
import sys
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

from ..board import Record, read
from ..errors import FormatError
from ..formats import FORMATS, clean_lines, judge, read_head
from ..formats import line as line_format
from .chunks import TABLE_FORMATS, BatchError, BatchOptions, Chunk, SourceProblem


@dataclass(frozen=True)
class Position:
    """Where a run stands: records done, and where the next record starts in the input."""

    records: int = 0
    offset: int = 0  #: byte offset (text, CSV) or record count (block formats, Parquet)
    line: int = 0  #: lines of the input consumed (the next record's line numbers follow)


class Source:
    """An input cut into chunks; ``chunks(start)`` resumes at a :class:`Position`."""

    #: what the progress bar counts: input bytes or rows (None: unknown)
    total: int | None = None
    #: what is read, for the progress bar: the file name (and column)
    description: str = ""

    def chunks(self, start: Position) -> Iterator[Chunk]:  # pragma: no cover - interface
        raise NotImplementedError

    def identity(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass


def _input_kind(path: str, options: BatchOptions) -> str:
    if options.format:
        return options.format
    lower = path.lower()
    for ext, kind in ((".csv", "csv"), (".tsv", "tsv"), (".parquet", "parquet"), (".pq", "parquet")):
        if lower.endswith(ext):
            return kind
    return "text"


def open_source(path: str | os.PathLike, options: BatchOptions) -> Source:
    """The right reader for ``path`` (``-`` is stdin, read as text)."""
    path = os.fspath(path)
    kind = _input_kind(path, options)
    if kind in ("csv", "tsv"):
        return CsvSource(path, options, delimiter="\t" if kind == "tsv" else ",")
    if kind == "parquet":
        return ParquetSource(path, options)
    return TextSource(path, options)


def _file_identity(path: str) -> dict[str, Any]:
    info = os.stat(path)
    return {"input": os.path.abspath(path), "size": info.st_size, "mtime_ns": info.st_mtime_ns}


class TextSource(Source):
    """Puzzles in a text format of :mod:`sudokit.formats`. One-line puzzles (the bulk case) are
    only split into lines here; grids and the other block formats are parsed here, by the
    streaming reader, since only it knows where a grid ends."""

    def __init__(self, path: str, options: BatchOptions) -> None:
        self.path = path
        self.options = options
        self.stdin = path == "-"
        self.handle = sys.stdin.buffer if self.stdin else open(path, "rb")
        if options.format is not None and options.format not in FORMATS:
            raise BatchError(f"unknown input format {options.format!r}; choose one of {', '.join(FORMATS + TABLE_FORMATS)}")
        try:
            self.format = options.format or self._detect()
        except BatchError:
            self.close()  # refused before any reading: the caller never gets it to close
            raise
        self.description = "<stdin>" if self.stdin else os.path.basename(path)
        if not self.stdin and self.format == "line":  # positions are bytes only there
            self.total = os.fstat(self.handle.fileno()).st_size

    def _detect(self) -> str:
        """The format, judged from the first four meaningful lines by
        :func:`sudokit.formats.judge`, as :func:`sudokit.formats.scan` judges it (a garbled
        row read as a record of its own would break one output record per input record); the
        input is then read again from the start."""
        if self.stdin:  # cannot seek: keep what was read ahead
            self.handle = _Rewound(self.handle)
        head = read_head(clean_lines(self.handle))
        self.handle.seek(0)
        o = self.options
        judged = judge(head, o.shape, o.symbols)
        if isinstance(judged, FormatError):
            raise BatchError(f"{'<stdin>' if self.stdin else self.path}:{judged.line}:1: {judged.message}")
        return judged or "line"

    def identity(self) -> dict[str, Any]:
        return {} if self.stdin else _file_identity(self.path)

    def chunks(self, start: Position) -> Iterator[Chunk]:
        if self.format == "line":
            return self._line_chunks(start)
        return self._record_chunks(start)

    def _line_chunks(self, start: Position) -> Iterator[Chunk]:
        """Records of the line format, exactly as :func:`sudokit.formats.scan` finds them:
        blank lines and ``#`` comments skipped, a line ``end`` stops the input. Blocks of
        clean 81-symbol lines (the bulk case) are taken whole, without a look at each line."""
        size = self.options.chunk_size
        if start.offset:
            self.handle.seek(start.offset)
        offset, number, index = start.offset, start.line, start.records
        chunk_number = start.records // size  # for the record only: chunks may change size on resume
        texts: list[bytes] = []
        lines: list[int] = []
        ended = False
        while not ended:
            block = list(itertools.islice(self.handle, size - len(texts)))
            if not block:
                break
            if number == 0 and block[0].startswith(b"\xef\xbb\xbf"):
                block[0] = block[0][3:]
                offset += 3
            used = _plain_block(block)
            if used:
                texts += block
                lines += range(number + 1, number + len(block) + 1)
                number += len(block)
                offset += used
            else:
                for raw in block:
                    number += 1
                    offset += len(raw)
                    stripped = raw.decode("utf-8", "surrogateescape").strip()
                    if not stripped or stripped.startswith("#"):
                        continue
                    if stripped == "end":
                        ended = True
                        break
                    texts.append(raw)
                    lines.append(number)
            if len(texts) == size or (ended and texts):
                yield Chunk(chunk_number, index, texts, lines, end_position=offset, end_line=number)
                chunk_number, index, texts, lines = chunk_number + 1, index + len(texts), [], []
        if texts:
            yield Chunk(chunk_number, index, texts, lines, end_position=offset, end_line=number)

    def _record_chunks(self, start: Position) -> Iterator[Chunk]:
        """Block formats: the streaming reader parses here; a resumed run reads past the
        records already done (positions are record counts)."""
        o = self.options
        size = o.chunk_size
        batch: list[Record] = []
        chunk_number = start.records // size
        index = start.records
        for record in read(self.handle, format=self.format, shape=o.shape, symbols=o.symbols):  # type: ignore[arg-type]
            if record.index < start.records:
                continue
            batch.append(record)
            if len(batch) == size:
                yield Chunk(chunk_number, index, records=batch, end_position=index + size, end_line=record.line)
                chunk_number, index, batch = chunk_number + 1, index + size, []
        if batch:
            yield Chunk(chunk_number, index, records=batch, end_position=index + len(batch), end_line=batch[-1].line)

    def close(self) -> None:
        if not self.stdin:
            self.handle.close()


def _plain_block(block: list[bytes]) -> int:
    """The bytes in ``block`` when every line is 81 bytes and a line end (``\\n`` or
    ``\\r\\n``) and starts with a character that only a record can start with (so none is
    blank, a comment or ``end``); else 0."""
    width = len(block[0])
    blob = b"".join(block)
    if width not in (82, 83) or len(blob) != width * len(block):
        return 0
    rows = np.frombuffer(blob, dtype=np.uint8).reshape(len(block), width)
    first = rows[:, 0]
    ends = (rows[:, -1] == 10).all() and (width == 82 or (rows[:, 81] == 13).all())
    starts = ((first > 0x20) & (first < 0x7F) & (first != ord("#")) & (first != ord("e"))).all()
    return len(blob) if ends and starts else 0


class _Rewound:
    """A stream that can be read again once from its start (stdin during format detection)."""

    def __init__(self, handle) -> None:
        self.handle = handle
        self.seen: list[bytes] = []
        self.replay: list[bytes] | None = None

    def __iter__(self):
        return self

    def __next__(self) -> bytes:
        if self.replay:
            return self.replay.pop(0)
        line = self.handle.readline()
        if not line:
            raise StopIteration
        if self.replay is None:
            self.seen.append(line)
        return line

    def seek(self, offset: int) -> None:
        if offset != 0 or self.replay is not None:
            raise OSError("stdin can only be read again once, from its start")
        self.replay = self.seen


class _CountingLines:
    """Lines of a binary file as text, counting the bytes and lines handed out, so that the
    position after every CSV row is known exactly (``csv.reader`` reads no further ahead)."""

    def __init__(self, handle, offset: int, line: int) -> None:
        self.handle = handle
        self.offset = offset
        self.line = line

    def __iter__(self):
        return self

    def __next__(self) -> str:
        raw = self.handle.readline()
        if not raw:
            raise StopIteration
        if self.offset == 0 and raw.startswith(b"\xef\xbb\xbf"):
            raw_text = raw[3:]
        else:
            raw_text = raw
        self.offset += len(raw)
        self.line += 1
        return raw_text.decode("utf-8", "surrogateescape")


def _looks_like_puzzle(value: Any, options: BatchOptions) -> bool:
    if not isinstance(value, str) or not value.strip():
        return False
    try:
        line_format.parse(value.strip(), options.shape, options.symbols)
    except (FormatError, ValueError):
        return False
    return True


def _pick_column(names: list[str], rows: list[list[Any]], options: BatchOptions, where: str) -> int:
    """The column ``options.column`` names (or numbers), else the first whose values read as
    puzzles in the first rows."""
    if options.column is not None:
        if options.column in names:
            return names.index(options.column)
        if options.column.isdigit() and int(options.column) < len(names):
            return int(options.column)
        raise BatchError(f"{where}: no column {options.column!r}; the columns are {', '.join(map(repr, names))}", "column")
    for column in range(len(names)):
        if any(column < len(row) and _looks_like_puzzle(row[column], options) for row in rows):
            return column
    raise BatchError(f"{where}: no column of puzzles found in the first {len(rows)} rows; name the column", "column")


class CsvSource(Source):
    """A CSV (or TSV) file: one record per row, the puzzle in one column. A first row with no
    puzzle in it is a header (the Kaggle ``quizzes,solutions`` files have one)."""

    sample_rows = 20

    def __init__(self, path: str, options: BatchOptions, delimiter: str = ",") -> None:
        self.path = path
        self.options = options
        self.delimiter = delimiter
        self.handle = open(path, "rb")
        self.total = os.fstat(self.handle.fileno()).st_size
        lines = _CountingLines(self.handle, 0, 0)
        reader = csv.reader(lines, delimiter=delimiter)
        first = next(reader, None)
        self.data_offset, self.data_line = 0, 0
        if first is None:
            self.column, self.names = 0, []
            self.description = os.path.basename(path)
            return
        header_offset, header_line = lines.offset, lines.line
        sample = [row for _, row in zip(range(self.sample_rows), reader)]
        named = options.column is not None and options.column in first
        has_header = named or not any(_looks_like_puzzle(value, options) for value in first)
        if has_header:
            self.names = first
            self.data_offset, self.data_line = header_offset, header_line
        else:
            self.names = [str(k) for k in range(len(first))]
            sample.insert(0, first)
        try:
            self.column = _pick_column(self.names, sample, options, path)
        except BatchError:
            self.handle.close()  # refused: nobody else will close it
            raise
        self.description = f"{os.path.basename(path)}, column {self.names[self.column]!r}"

    def identity(self) -> dict[str, Any]:
        return _file_identity(self.path)

    def chunks(self, start: Position) -> Iterator[Chunk]:
        size = self.options.chunk_size
        offset = max(start.offset, self.data_offset)
        line = start.line if start.offset else self.data_line
        self.handle.seek(offset)
        lines = _CountingLines(self.handle, offset, line)
        reader = csv.reader(lines, delimiter=self.delimiter)
        column = self.column
        texts: list[Any] = []
        numbers: list[int] = []
        index, chunk_number = start.records, start.records // size
        while True:
            row: list[Any]
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as error:  # e.g. a NUL byte: the row is a bad record
                row = [None] * (column + 1)
                row[column] = SourceProblem(str(error))
            if not row:
                continue  # a blank line is not a record
            texts.append(row[column] if column < len(row) else SourceProblem(f"the row has {len(row)} field(s), no column {self.names[column]!r}"))
            numbers.append(lines.line)
            if len(texts) == size:
                yield Chunk(chunk_number, index, texts, numbers, end_position=lines.offset, end_line=lines.line)
                chunk_number, index, texts, numbers = chunk_number + 1, index + size, [], []
        if texts:
            yield Chunk(chunk_number, index, texts, numbers, end_position=lines.offset, end_line=lines.line)

    def close(self) -> None:
        self.handle.close()


class ParquetSource(Source):
    """A Parquet file (needs pyarrow): one record per row of the puzzle column, read a
    chunk at a time; positions are row numbers."""

    def __init__(self, path: str, options: BatchOptions) -> None:
        pq = require("pyarrow.parquet", "parquet", "Parquet input")
        self.path = path
        self.options = options
        self.file = pq.ParquetFile(path)
        self.total = self.file.metadata.num_rows
        names = list(self.file.schema_arrow.names)
        sample: list[list[Any]] = []
        if self.total:
            first = next(self.file.iter_batches(batch_size=20))
            sample = [list(row.values()) for row in first.to_pylist()]
        if not names:
            raise BatchError(f"{path}: no columns")
        self.column = _pick_column(names, sample, options, path)
        self.name = names[self.column]
        self.description = f"{os.path.basename(path)}, column {self.name!r}"

    def identity(self) -> dict[str, Any]:
        return _file_identity(self.path)

    def chunks(self, start: Position) -> Iterator[Chunk]:
        size = self.options.chunk_size
        row = 0
        index, chunk_number = start.records, start.records // size
        pending: list[Any] = []
        for group in range(self.file.num_row_groups):
            rows = self.file.metadata.row_group(group).num_rows
            if row + rows <= start.records:  # skip whole row groups already done
                row += rows
                continue
            for batch in self.file.iter_batches(batch_size=size, row_groups=[group], columns=[self.name]):
                values = batch.column(0).to_pylist()
                skip = max(0, start.records - row)
                row += len(values)
                pending.extend(values[skip:])
                while len(pending) >= size:
                    head, pending = pending[:size], pending[size:]
                    yield Chunk(chunk_number, index, head, range(index + 1, index + size + 1), end_position=index + size, end_line=index + size)
                    chunk_number, index = chunk_number + 1, index + size
        if pending:
            n = len(pending)
            yield Chunk(chunk_number, index, pending, range(index + 1, index + n + 1), end_position=index + n, end_line=index + n)


def require(module: str, extra: str, what: str):
    """An optional extra's module, or a :class:`BatchError` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise BatchError(f"{what} needs {module.split('.')[0]}: pip install 'sudokit[{extra}]'") from None


