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
from .chunks import columns_of


def _json_string(text: str) -> str:
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return json.dumps(text)


def encode_ndjson(columns: dict[str, Any], first_index: int) -> bytes:
    """One JSON object a line, keys in the order of :func:`~sudokit.batch.chunks.columns_of`, ASCII only (``json.dumps``
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
    if "level" in columns:
        tails = [
            tail + (',"level":null,"score":null' if level is None else f',"level":"{level}","score":{score}')
            + (',"er":null,"ep":null,"ed":null,"se_status":null' if er is None
               else f',"er":{er:.1f},"ep":{ep:.1f},"ed":{ed:.1f},"se_status":"{se}"')
            for tail, level, score, er, ep, ed, se in zip(
                tails, columns["level"], columns["score"], columns["er"], columns["ep"], columns["ed"], columns["se_status"]
            )
        ]
    lines = [
        f'{{"index":{i},"puzzle":{p},{names[t]}{s},"count":{c},"guesses":{g}{e}}}\n'
        for i, p, t, s, c, g, e in zip(
            range(first_index, first_index + size), puzzles, status.tolist(), solutions, counts, guesses, tails
        )
    ]
    return "".join(lines).encode("ascii")


def csv_header(rate: bool = False) -> bytes:
    return (",".join(columns_of(rate)) + "\n").encode("ascii")


def encode_csv(columns: dict[str, Any], first_index: int) -> bytes:
    """CSV rows under :func:`csv_header`; empty cells where NDJSON has null or no key."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    errors = columns["error"]
    status = columns["status"].tolist()
    counts = columns["count"].tolist()
    guesses = columns["guesses"].tolist()
    levels, scores = columns.get("level"), columns.get("score")
    ses = [columns[name] for name in ("er", "ep", "ed", "se_status")] if levels is not None else []
    for k, (puzzle, solution) in enumerate(zip(columns["puzzle"], columns["solution"])):
        bad = status[k] == ERROR
        row = [
            first_index + k,
            puzzle,
            STATUSES[status[k]],
            solution or "",
            "" if bad else counts[k],
            "" if bad else guesses[k],
            errors.get(k, ""),
        ]
        if levels is not None and scores is not None:
            row += ["" if levels[k] is None else levels[k], "" if scores[k] is None else scores[k]]
            row += ["" if ses[0][k] is None else f"{ses[j][k]:.1f}" for j in range(3)]
            row += ["" if ses[3][k] is None else ses[3][k]]
        writer.writerow(row)
    return buffer.getvalue().encode("utf-8", "surrogateescape")


def arrow_table(columns: dict[str, Any], first_index: int):
    """The chunk as a pyarrow Table with the output columns (nulls where NDJSON has none)."""
    import pyarrow as pa  # an optional extra (sudokit[parquet])

    size = len(columns["status"])
    bad = columns["status"] == ERROR
    errors = columns["error"]
    rated = "level" in columns
    data = {
        "index": pa.array(np.arange(first_index, first_index + size, dtype=np.int64)),
        "puzzle": pa.array(_clean_text(columns["puzzle"]), type=pa.string()),
        "status": pa.array([STATUSES[s] for s in columns["status"].tolist()], type=pa.string()),
        "solution": pa.array(columns["solution"], type=pa.string()),
        "count": pa.array(columns["count"], mask=bad, type=pa.int64()),
        "guesses": pa.array(columns["guesses"], mask=bad, type=pa.int64()),
        "error": pa.array([errors.get(k) for k in range(size)], type=pa.string()),
    }
    if rated:
        data["level"] = pa.array(columns["level"], type=pa.string())
        data["score"] = pa.array(columns["score"], type=pa.int64())
        for name in ("er", "ep", "ed"):
            data[name] = pa.array(columns[name], type=pa.float64())
        data["se_status"] = pa.array(columns["se_status"], type=pa.string())
    return pa.table(data, schema=arrow_schema(rated))


def arrow_schema(rate: bool = False):
    import pyarrow as pa  # an optional extra (sudokit[parquet])

    types = {
        "index": pa.int64(), "puzzle": pa.string(), "status": pa.string(), "solution": pa.string(),
        "count": pa.int64(), "guesses": pa.int64(), "error": pa.string(), "level": pa.string(), "score": pa.int64(),
        "er": pa.float64(), "ep": pa.float64(), "ed": pa.float64(), "se_status": pa.string(),
    }  # fmt: skip
    return pa.schema([(name, types[name]) for name in columns_of(rate)])


def _clean_text(texts: list[str]) -> list[str]:
    """Arrow strings must be valid UTF-8: bytes that were not become U+FFFD."""
    return [t if t.isascii() else t.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for t in texts]


