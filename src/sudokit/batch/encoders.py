"""Output records as bytes: NDJSON and CSV (written by workers, so that the main process only
appends), and pyarrow tables for Parquet. The same chunk encodes to the same bytes wherever it
is encoded."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import numpy as np

from ..results import ERROR, STATUSES
from .chunks import COLUMNS


def _json_string(text: str) -> str:
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return json.dumps(text)


def encode_ndjson(columns: dict[str, Any], first_index: int) -> bytes:
    """One JSON object a line, keys in :data:`COLUMNS` order, ASCII only (``json.dumps``
    escapes the rest), so the bytes are the same wherever the chunk was encoded."""
    names = [f'"status":"{name}"' for name in STATUSES]
    status = columns["status"]
    size = len(status)
    plain = columns.get("plain")
    if plain is not None and plain.all():
        puzzles = [f'"{p}"' for p in columns["puzzle"]]
        solutions = ["" if s is None else f',"solution":"{s}"' for s in columns["solution"]]
    else:
        marks = plain.tolist() if plain is not None else [False] * size
        puzzles = [f'"{p}"' if m else _json_string(p) for p, m in zip(columns["puzzle"], marks)]
        solutions = ["" if s is None else f',"solution":{_json_string(s)}' for s in columns["solution"]]
    counts: list[Any] = columns["count"].tolist()
    guesses: list[Any] = columns["guesses"].tolist()
    tails = [""] * size
    for k, message in columns["error"].items():
        counts[k] = guesses[k] = "null"
        tails[k] = f',"error":{json.dumps(message)}'
    lines = [
        f'{{"index":{i},"puzzle":{p},{names[t]}{s},"count":{c},"guesses":{g}{e}}}\n'
        for i, p, t, s, c, g, e in zip(
            range(first_index, first_index + size), puzzles, status.tolist(), solutions, counts, guesses, tails
        )
    ]
    return "".join(lines).encode("ascii")


def csv_header() -> bytes:
    return (",".join(COLUMNS) + "\n").encode("ascii")


def encode_csv(columns: dict[str, Any], first_index: int) -> bytes:
    """CSV rows under :func:`_csv_header`; empty cells where NDJSON has null or no key."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    errors = columns["error"]
    status = columns["status"].tolist()
    counts = columns["count"].tolist()
    guesses = columns["guesses"].tolist()
    for k, (puzzle, solution) in enumerate(zip(columns["puzzle"], columns["solution"])):
        bad = status[k] == ERROR
        writer.writerow((
            first_index + k,
            puzzle,
            STATUSES[status[k]],
            solution or "",
            "" if bad else counts[k],
            "" if bad else guesses[k],
            errors.get(k, ""),
        ))
    return buffer.getvalue().encode("utf-8", "surrogateescape")


def arrow_table(columns: dict[str, Any], first_index: int):
    """The chunk as a pyarrow Table with :data:`COLUMNS` (nulls where NDJSON has none)."""
    import pyarrow as pa  # an optional extra (sudokit[parquet])

    size = len(columns["status"])
    bad = columns["status"] == ERROR
    errors = columns["error"]
    return pa.table(
        {
            "index": pa.array(np.arange(first_index, first_index + size, dtype=np.int64)),
            "puzzle": pa.array(_clean_text(columns["puzzle"]), type=pa.string()),
            "status": pa.array([STATUSES[s] for s in columns["status"].tolist()], type=pa.string()),
            "solution": pa.array(columns["solution"], type=pa.string()),
            "count": pa.array(columns["count"], mask=bad, type=pa.int64()),
            "guesses": pa.array(columns["guesses"], mask=bad, type=pa.int64()),
            "error": pa.array([errors.get(k) for k in range(size)], type=pa.string()),
        },
        schema=arrow_schema(),
    )


def arrow_schema():
    import pyarrow as pa  # an optional extra (sudokit[parquet])

    return pa.schema(
        [
            ("index", pa.int64()),
            ("puzzle", pa.string()),
            ("status", pa.string()),
            ("solution", pa.string()),
            ("count", pa.int64()),
            ("guesses", pa.int64()),
            ("error", pa.string()),
        ]
    )


def _clean_text(texts: list[str]) -> list[str]:
    """Arrow strings must be valid UTF-8: bytes that were not become U+FFFD."""
    return [t if t.isascii() else t.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for t in texts]


