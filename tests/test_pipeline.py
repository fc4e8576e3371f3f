"""Batch files (``sudokit batch``, :mod:`sudokit.pipeline`): one result per record, in order,
whatever the input holds, however many workers, and after any interruption."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ENTRIES, sample_lines

import sudokit
from sudokit import results
from sudokit.batch import chunks, executors, sources, work
from sudokit.batch import output as sinks
from sudokit.cli import cli
from sudokit.batch import BatchError, iter_results, solve_column, solve_file
from sudokit.results import ExitCode

SEED_000 = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."
NO_SOLUTION = "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3.."
REPEATED = "55" + "." * 79
SEVERAL = "." * 81
#: (line, status) for a text file that has every kind of record and of non-record
MIXED = [
    (SEED_000, "solved"),
    ("", None),  # blank lines are not records
    ("# a comment is not a record", None),
    (NO_SOLUTION, "no solution"),
    ("12345", "error"),  # too short for any board
    (SEED_000[:-1] + "x", "error"),  # a symbol outside the alphabet
    ("   " + SEED_000 + "  \r", "solved"),  # spaces and a CR around a good line
    (REPEATED, "no solution"),
    ("1...", "error"),
    ("AB.DC.AB.ADCDCB.", "solved"),  # a 4x4 line, in letters, among the 9x9 ones
    ("1234341221434321", "solved"),  # a complete 4x4 board
    ("\x00" * 81, "error"),  # binary
    (SEVERAL, "several"),
]


def run(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)


def read_ndjson(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_mixed(path: Path) -> list[str | None]:
    path.write_bytes("".join(line + "\n" for line, _ in MIXED).encode())
    return [status for _, status in MIXED if status is not None]


# -- one result per record, in order ----------------------------------------------------------


def test_mixed_good_and_bad_records(tmp_path):
    statuses = write_mixed(tmp_path / "in.txt")
    result = run(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.ndjson"), "--workers", "1", "--limit", "2"])
    rows = read_ndjson(tmp_path / "out.ndjson")
    assert [row["index"] for row in rows] == list(range(len(statuses)))
    assert [row["status"] for row in rows] == statuses
    assert result.exit_code == ExitCode.BAD_INPUT
    for row in rows:
        assert list(row)[:3] == ["index", "puzzle", "status"]
        if row["status"] == "error":
            assert row["count"] is None and row["guesses"] is None and "solution" not in row
            assert row["error"].split(":")[0].isdigit()  # line:column: message
        else:
            assert "error" not in row and isinstance(row["count"], int)
            assert ("solution" in row) == (row["count"] >= 1)
    assert rows[0]["solution"] == sudokit.solve(SEED_000).board.to_line()
    assert rows[4]["puzzle"] == SEED_000  # the record as read, spaces stripped
    assert rows[-1]["count"] == 2  # several, counted up to the limit
    assert rows[2]["error"].startswith("5:1:")  # the line in the file, blank and comment lines counted
    assert rows[3]["error"].startswith("6:81:")
    assert rows[7]["solution"] == "ABCDCDABBADCDCBA"
    assert "no solution" in result.stderr and "error" in result.stderr
    assert f"{len(statuses)} records" in result.stderr


def test_results_agree_with_the_single_board_api(tmp_path):
    """Counts and solutions for every size in the shared test file, against exact counts."""
    entries = [e for e in ENTRIES if e.size <= 16]
    (tmp_path / "in.txt").write_text("".join(e.puzzle + "\n" for e in entries))
    result = run(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.ndjson"), "--workers", "1", "--limit", "1000", "--chunk-size", "17"])
    assert result.exit_code == ExitCode.OK, result.stderr
    rows = read_ndjson(tmp_path / "out.ndjson")
    assert len(rows) == len(entries)
    for entry, row in zip(entries, rows):
        assert row["count"] == entry.count, entry.puzzle
        if entry.count == 1:
            assert row["solution"] == entry.solution and row["status"] == "solved"
        elif entry.count == 0:
            assert row["status"] == "no solution" and "solution" not in row
        else:
            assert row["status"] == "several"
            solution = sudokit.Board.from_line(row["solution"])
            assert solution.is_solution_of(sudokit.Board.from_line(entry.puzzle))


def test_the_fast_reader_reads_zeros_as_the_parser_does(tmp_path):
    """On a 9x9 board '0' is a blank even beside '.' blanks, in both readers."""
    odd = "1234567.0" + "." * 72
    columns = work._solve_texts([odd.encode() + b"\n", SEED_000.encode() + b"\n"], [1, 2], chunks.BatchOptions())
    expected = sudokit.solve(odd).board.to_line()
    assert columns["solution"][0] == expected and expected[:7] == "1234567"
    assert columns["plain"].tolist() == [True, True]


def test_summary_and_exit_statuses(tmp_path):
    (tmp_path / "good.txt").write_text(SEED_000 + "\n")
    (tmp_path / "several.txt").write_text(SEED_000 + "\n" + SEVERAL + "\n")
    assert run(["batch", str(tmp_path / "good.txt"), "--workers", "1"]).exit_code == ExitCode.OK
    assert run(["batch", str(tmp_path / "several.txt"), "--workers", "1"]).exit_code == ExitCode.OK
    assert run(["batch", str(tmp_path / "several.txt"), "--workers", "1", "--limit", "2"]).exit_code == ExitCode.UNSOLVED
    assert run(["batch", str(tmp_path / "several.txt"), "--workers", "1", "--limit", "5"]).exit_code == ExitCode.OK
    budget = run(["batch", str(tmp_path / "several.txt"), "--workers", "1", "--limit", "1000", "--node-limit", "5"])
    assert budget.exit_code == ExitCode.UNKNOWN and '"status":"unknown"' in budget.stdout
    summary = run(["batch", str(tmp_path / "several.txt"), "--workers", "1", "--limit", "2"]).stderr
    assert "2 records" in summary and "1 solved" in summary and "1 several" in summary and "records/s" in summary


def test_empty_input(tmp_path):
    (tmp_path / "in.txt").write_text("# nothing here\n\n")
    result = run(["batch", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.ndjson"), "--workers", "1"])
    assert result.exit_code == 0 and (tmp_path / "out.ndjson").read_bytes() == b""
    assert not (tmp_path / "out.ndjson.progress").exists()


def test_end_line_stops_the_input_and_stdin_works(data_dir):
    sample = (data_dir / "poj3074_sample.in").read_bytes()  # two puzzles, then "end"
    result = run(["batch", "-", "--workers", "1"], stdin=sample + SEED_000.encode() + b"\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    expected = (data_dir / "poj3074_sample.out").read_text().split()
    assert [row["solution"] for row in rows] == expected


def test_block_formats_become_one_line_puzzles(data_dir, tmp_path):
    result = run(["batch", str(data_dir / "poj3076_sample.in"), "--workers", "1"])
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(row["puzzle"]) == 256 and row["status"] == "solved"
    assert row["solution"] == "".join((data_dir / "poj3076_sample.out").read_text().split())
    grids = (data_dir / "target_01.in").read_text() + "\n1 2 3\n\n" + (data_dir / "target_02.in").read_text()
    (tmp_path / "grids.txt").write_text(grids)
    result = run(["batch", str(tmp_path / "grids.txt"), "--workers", "1", "--limit", "2", "--chunk-size", "2"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["several", "error", "several"]
    assert rows[1]["error"].startswith("11:") and rows[0]["puzzle"].startswith("7..9")


# -- CSV, Parquet, columns ---------------------------------------------------------------------


def kaggle_rows() -> list[tuple[str, str]]:
    unique = [e for e in ENTRIES if e.size == 9 and e.count == 1]
    return [(e.puzzle.replace(".", "0"), e.solution) for e in unique]


def test_kaggle_csv_picks_the_quizzes_column(tmp_path):
    rows = kaggle_rows()
    with open(tmp_path / "sudoku.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["quizzes", "solutions"])
        writer.writerows(rows)
    result = run(["batch", str(tmp_path / "sudoku.csv"), "-o", str(tmp_path / "out.csv"), "--workers", "1", "--chunk-size", "7"])
    assert result.exit_code == 0, result.stderr
    with open(tmp_path / "out.csv", newline="") as handle:
        out = list(csv.DictReader(handle))
    assert list(out[0]) == list(chunks.COLUMNS)
    assert [r["puzzle"] for r in out] == [quiz for quiz, _ in rows]
    assert [r["solution"] for r in out] == [solution for _, solution in rows]
    assert {r["status"] for r in out} == {"solved"} and {r["count"] for r in out} == {"1"}
    # --column picks another column; a solved grid is its own solution
    result = run(["batch", str(tmp_path / "sudoku.csv"), "--column", "solutions", "--workers", "1"])
    assert [json.loads(line)["solution"] for line in result.stdout.splitlines()] == [s for _, s in rows]


def test_csv_without_header_with_bad_rows(tmp_path):
    text = (
        f'7,{SEED_000},x\n'
        f'8,"{NO_SOLUTION}",y\n'
        "\n"  # a blank line is not a record
        "9\n"  # a short row: an error record
        f'10,"{SEED_000[:40]}\n{SEED_000[40:]}",z\n'  # a quoted field across lines
        f"11,{SEED_000}\n"
    )
    (tmp_path / "in.csv").write_text(text)
    result = run(["batch", str(tmp_path / "in.csv"), "--workers", "1", "--chunk-size", "2"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["status"] for row in rows] == ["solved", "no solution", "error", "error", "solved"]
    assert "no column '1'" in rows[2]["error"] and rows[2]["error"].startswith("4:")
    assert result.exit_code == ExitCode.BAD_INPUT


def test_csv_with_no_puzzle_column_is_refused(tmp_path):
    (tmp_path / "in.csv").write_text("a,b\n1,2\n")
    result = run(["batch", str(tmp_path / "in.csv"), "--workers", "1"])
    assert result.exit_code == ExitCode.BAD_INPUT and "--column" in result.stderr
    result = run(["batch", str(tmp_path / "in.csv"), "--workers", "1", "--column", "c"])
    assert result.exit_code == ExitCode.BAD_INPUT and "no column 'c'" in result.stderr


def test_parquet_in_and_out(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = kaggle_rows()
    table = pa.table({"id": list(range(len(rows))), "quizzes": [q for q, _ in rows], "solutions": [s for _, s in rows]})
    pq.write_table(table, tmp_path / "in.parquet", row_group_size=5)
    result = run(["batch", str(tmp_path / "in.parquet"), "-o", str(tmp_path / "out.parquet"), "--workers", "1", "--chunk-size", "3"])
    assert result.exit_code == 0, result.stderr
    out = pq.read_table(tmp_path / "out.parquet")
    assert out.column_names == list(chunks.COLUMNS)
    assert out.column("solution").to_pylist() == [s for _, s in rows]
    assert out.column("index").to_pylist() == list(range(len(rows)))
    assert not (tmp_path / "out.parquet.partial").exists()
    # the same records as NDJSON, and Parquet output cannot be resumed
    ndjson = run(["batch", str(tmp_path / "in.parquet"), "--workers", "1"]).stdout
    assert [json.loads(line)["solution"] for line in ndjson.splitlines()] == [s for _, s in rows]
    refused = run(["batch", str(tmp_path / "in.parquet"), "-o", str(tmp_path / "again.parquet"), "--resume"])
    assert refused.exit_code == ExitCode.BAD_INPUT and "Parquet" in refused.stderr


def test_iter_results_from_a_file(tmp_path):
    statuses = write_mixed(tmp_path / "in.txt")
    results = list(iter_results(tmp_path / "in.txt", limit=2, chunk_size=4))
    assert [r.status for r in results] == statuses
    assert [r.index for r in results] == list(range(len(statuses)))
    solve_file(tmp_path / "in.txt", tmp_path / "out.ndjson", limit=2, workers=1)
    assert [r.to_dict() for r in results] == read_ndjson(tmp_path / "out.ndjson")


def test_solve_column_pandas():
    pd = pytest.importorskip("pandas")
    series = pd.Series([SEED_000, None, "bad", NO_SOLUTION], index=[10, 11, 12, 13])
    frame = solve_column(series, chunk_size=3)
    assert list(frame.index) == [10, 11, 12, 13]
    assert frame["status"].tolist() == ["solved", "error", "error", "no solution"]
    assert frame.loc[10, "solution"] == sudokit.solve(SEED_000).board.to_line()
    assert "missing value" in frame.loc[11, "error"]
    assert pd.isna(frame.loc[12, "count"]) and frame.loc[13, "count"] == 0


def test_solve_column_pyarrow_and_lists():
    pa = pytest.importorskip("pyarrow")
    table = solve_column(pa.chunked_array([[SEED_000, "bad"], [SEVERAL]]), limit=2)
    assert table.column("status").to_pylist() == ["solved", "error", "several"]
    assert table.column("count").to_pylist() == [1, None, 2]
    results = solve_column([SEED_000, SEVERAL], limit=3)
    assert [r.count for r in results] == [1, 3]


# -- workers -----------------------------------------------------------------------------------


def big_input(path: Path, copies: int = 8) -> Path:
    """Every 9x9 sample puzzle and some bad lines, shuffled with a fixed seed."""
    lines = sample_lines("sample_9x9.txt") * copies + ["bad line"] * 5 + [SEVERAL] * 20
    random.Random(6).shuffle(lines)
    path.write_text("".join(line + "\n" for line in lines))
    return path


EXECUTORS = {
    "processes": lambda: executors.PoolExecutor(2, "processes"),
    "threads": lambda: executors.PoolExecutor(2, "threads"),
    # the first chunk in this process, the rest in worker processes
    "warming": lambda: executors.WarmingPool(2, "processes", start_after=1e-9),
}


@pytest.mark.parametrize("kind", sorted(EXECUTORS))
def test_order_is_kept_with_several_workers(tmp_path, kind):
    source = big_input(tmp_path / "in.txt")
    solve_file(source, tmp_path / "one.ndjson", workers=1, chunk_size=37, limit=2)
    executor = EXECUTORS[kind]()
    try:
        solve_file(source, tmp_path / "two.ndjson", executor=executor, chunk_size=37, limit=2)
    finally:
        executor.close()
    assert (tmp_path / "one.ndjson").read_bytes() == (tmp_path / "two.ndjson").read_bytes()
    indexes = [row["index"] for row in read_ndjson(tmp_path / "two.ndjson")]
    assert indexes == list(range(len(indexes)))


def test_warming_pool_solves_here_until_the_workers_are_up():
    options = chunks.BatchOptions()
    chunk = chunks.Chunk(0, 0, [SEED_000], [1])
    pool = executors.WarmingPool(2, "processes", start_after=0.0)
    try:
        first = pool.submit(chunk, options, "ndjson")  # starts the workers, solves here meanwhile
        assert isinstance(first, executors._Done) and pool.pool is not None
        for future in pool.warming:
            future.result()
        later = pool.submit(chunk, options, "ndjson")
        assert not isinstance(later, executors._Done) and pool.slots == 4
        assert later.result().payload == first.result().payload
    finally:
        pool.close()


@pytest.mark.parametrize("how", [["--workers", "2"], ["--workers", "2", "--threads"]])
def test_workers_option(tmp_path, how, monkeypatch):
    source = big_input(tmp_path / "in.txt", copies=1)
    one = run(["batch", str(source), "--workers", "1", "--chunk-size", "37"])
    two = run(["batch", str(source), "--chunk-size", "37", *how])
    assert one.exit_code == two.exit_code == ExitCode.BAD_INPUT
    assert one.stdout == two.stdout
    monkeypatch.setenv(chunks.WORKERS_ENV, "2")
    assert run(["batch", str(source), "--chunk-size", "37"]).stdout == one.stdout


def test_workers_fall_back_to_the_environment(monkeypatch):
    monkeypatch.setenv(chunks.WORKERS_ENV, "3")
    assert executors.default_workers() == 3
    monkeypatch.setenv(chunks.WORKERS_ENV, "many")
    with pytest.raises(BatchError, match="whole number"):
        executors.default_workers()
    monkeypatch.delenv(chunks.WORKERS_ENV)
    assert executors.default_workers() >= 1
    assert isinstance(executors.make_executor(1), executors.InlineExecutor)
    assert isinstance(executors.make_executor(2), executors.WarmingPool)  # nothing started yet


# -- resuming ------------------------------------------------------------------------------------


class Crash(BaseException):
    """Stands for the process dying: nothing after it runs (BaseException, like SystemExit)."""


@pytest.mark.parametrize("where", ["after-write", "after-sync", "in-journal"])
@pytest.mark.parametrize("commit", [0, 3])
def test_resume_after_a_crash_at_each_step_of_a_commit(tmp_path, monkeypatch, where, commit):
    source = big_input(tmp_path / "in.txt", copies=2)
    reference = tmp_path / "reference.ndjson"
    solve_file(source, reference, workers=1, chunk_size=50, limit=2)
    output = tmp_path / "out.ndjson"
    calls = {"n": 0}

    def crash_at(target, name):
        original = getattr(target, name)

        def wrapper(self, *args):
            if where == "in-journal":  # a half-written temporary journal, then death
                if calls["n"] == commit + 2:  # the first two saves precede any chunk
                    Path(self.path + ".tmp").write_text('{"sudokit_batch": 1, "rec')
                    raise Crash
                calls["n"] += 1
                return original(self, *args)
            result = original(self, *args)
            if calls["n"] == commit:
                if where == "after-write":  # half of the next record too
                    os.write(self.fd, b'{"index":12345,"puz')
                raise Crash
            calls["n"] += 1
            return result

        monkeypatch.setattr(target, name, wrapper)

    if where == "in-journal":
        crash_at(sinks.Journal, "save")
    else:
        crash_at(sinks.FileSink, "write" if where == "after-write" else "sync")
    with pytest.raises(Crash):
        solve_file(source, output, workers=1, chunk_size=50, limit=2)
    monkeypatch.undo()
    assert output.read_bytes() != reference.read_bytes()
    summary = solve_file(source, output, workers=1, chunk_size=50, limit=2, resume=True)
    assert output.read_bytes() == reference.read_bytes()
    assert summary.records == len(read_ndjson(reference)) and summary.resumed_at <= summary.records
    assert not Path(str(output) + ".progress").exists()


@pytest.mark.parametrize("saves", [1, 2, 4])  # before the header is recorded, after it, later
def test_resume_csv_output_writes_the_header_once(tmp_path, monkeypatch, saves):
    source = big_input(tmp_path / "in.txt", copies=1)
    solve_file(source, tmp_path / "reference.csv", workers=1, chunk_size=40)
    output = tmp_path / "out.csv"
    original, calls = sinks.Journal.save, {"n": 0}

    def save(self, state):
        if calls["n"] == saves:
            raise Crash
        calls["n"] += 1
        original(self, state)

    monkeypatch.setattr(sinks.Journal, "save", save)
    with pytest.raises(Crash):
        solve_file(source, output, workers=1, chunk_size=40)
    monkeypatch.undo()
    solve_file(source, output, workers=1, chunk_size=40, resume=True)
    assert output.read_bytes() == (tmp_path / "reference.csv").read_bytes()


def test_parquet_output_needs_a_file(tmp_path):
    (tmp_path / "in.txt").write_text(SEED_000 + "\n")
    result = run(["batch", str(tmp_path / "in.txt"), "--to", "parquet"])
    assert result.exit_code == ExitCode.BAD_INPUT and "needs an output file" in result.stderr


def test_resume_checks_what_it_resumes(tmp_path):
    source = big_input(tmp_path / "in.txt", copies=1)
    output = tmp_path / "out.ndjson"
    # nothing to resume and no output yet: a fresh start
    solve_file(source, output, workers=1, resume=True)
    reference = output.read_bytes()
    # a finished output has no journal: nothing to resume, and nothing is touched
    with pytest.raises(BatchError, match="nothing to resume"):
        solve_file(source, output, workers=1, resume=True)
    assert output.read_bytes() == reference
    # an interrupted run resumed with other options is refused
    journal = sinks.Journal(str(output))
    state = {"sudokit_batch": 1, "records": 0, "offset": 0, "line": 0, "output_bytes": 0,
             "counts": dict.fromkeys(results.STATUSES, 0),
             "fingerprint": {"options": chunks.BatchOptions(limit=2).fingerprint(), "input": sources._file_identity(str(source)), "output_format": "ndjson"}}
    journal.save(state)
    with pytest.raises(BatchError, match="limit: 2 then, 1 now"):
        solve_file(source, output, workers=1, resume=True)
    # an output shorter than the journal says was changed by someone else
    journal.save(dict(state, output_bytes=len(reference) + 10))
    with pytest.raises(BatchError, match="changed"):
        solve_file(source, output, workers=1, resume=True, limit=2)
    journal.save({"something": "else"})
    with pytest.raises(BatchError, match="not a progress file"):
        solve_file(source, output, workers=1, resume=True)


def batch_command(source: Path, output: Path, *more: str) -> list[str]:
    return [sys.executable, "-m", "sudokit", "batch", str(source), "-o", str(output), "--limit", "300", "--chunk-size", "31", *more]


def slow_input(path: Path) -> Path:
    """Puzzles with hundreds of solutions (counting them takes a while) and bad records."""
    rng = random.Random(5)
    lines = []
    for line in sample_lines("sample_9x9.txt") * 5:
        cells = list(line)
        for _ in range(12):  # blank some givens: many solutions
            cells[rng.randrange(81)] = "."
        lines.append("".join(cells))
    lines[7::97] = ["not a puzzle"] * len(lines[7::97])
    path.write_text("".join(line + "\n" for line in lines))
    return path


@pytest.fixture(scope="module")
def slow_reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("slow")
    source = slow_input(folder / "in.txt")
    output = folder / "reference.ndjson"
    done = subprocess.run(batch_command(source, output, "--workers", "1"), capture_output=True, text=True)
    assert done.returncode == ExitCode.BAD_INPUT, done.stderr
    return source, output.read_bytes()


def _spawn_interruptible(command: list[str]) -> subprocess.Popen:
    """Start ``command`` with Ctrl-C as a terminal delivers it. A suite run as a background job
    (``pytest &`` from a script) has SIGINT ignored and a child inherits that; a handler, unlike
    an ignore, is reset to the default at exec (no ``preexec_fn``, unsafe with threads)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_midway(command: list[str], output: Path, at_bytes: int, sig: int, expect: int) -> str:
    """Run ``command`` and send it ``sig`` as soon as its output holds ``at_bytes`` bytes; its
    stderr once it exits with ``expect``. A run that finished before the signal landed (a busy
    machine can be slow to poll) is started again from nothing with an earlier point."""
    for _ in range(5):
        for stale in (output, Path(str(output) + ".progress")):
            stale.unlink(missing_ok=True)
        with _spawn_interruptible(command) as process:
            while process.poll() is None:
                if output.exists() and output.stat().st_size >= at_bytes:
                    process.send_signal(sig)
                    break
                time.sleep(0.002)
            _, stderr = process.communicate()
        if process.returncode == expect:
            return stderr
        assert process.returncode == ExitCode.BAD_INPUT, stderr  # finished: too late
        at_bytes //= 2
    pytest.fail(f"the run always finished before signal {sig} landed")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_resume_after_kill_9_at_a_random_point(tmp_path, slow_reference, seed):
    source, reference = slow_reference
    output = tmp_path / "out.ndjson"
    rng = random.Random(seed)
    workers = ["--workers", str(rng.choice([1, 2]))]
    point = int(rng.uniform(0.0, 0.9) * len(reference))
    stop_midway(batch_command(source, output, *workers), output, point, signal.SIGKILL, -signal.SIGKILL)
    assert output.read_bytes() != reference
    resumed = subprocess.run(batch_command(source, output, *workers, "--resume"), capture_output=True, text=True)
    assert resumed.returncode == ExitCode.BAD_INPUT, resumed.stderr
    assert output.read_bytes() == reference
    assert not Path(str(output) + ".progress").exists()


@pytest.mark.slow
def test_ctrl_c_then_resume(tmp_path, slow_reference):
    source, reference = slow_reference
    output = tmp_path / "out.ndjson"
    command = batch_command(source, output, "--workers", "2")
    stderr = stop_midway(command, output, len(reference) // 3, signal.SIGINT, ExitCode.INTERRUPTED)
    assert "--resume" in stderr and "Traceback" not in stderr, stderr
    assert len(output.read_bytes()) < len(reference), stderr
    resumed = subprocess.run(batch_command(source, output, "--workers", "2", "--resume"), capture_output=True, text=True)
    assert output.read_bytes() == reference, (stderr, resumed.stderr)
    assert "resumed at" in resumed.stderr, (stderr, resumed.stderr)


# -- the progress bar ----------------------------------------------------------------------------


def test_progress_bar_only_when_asked_or_on_a_terminal(tmp_path):
    source = big_input(tmp_path / "in.txt", copies=1)
    quiet = run(["batch", str(source), "-o", str(tmp_path / "a.ndjson"), "--workers", "1"])
    assert "records/s" in quiet.stderr and "eta" not in quiet.stderr  # not a terminal: no bar
    shown = run(["batch", str(source), "-o", str(tmp_path / "b.ndjson"), "--workers", "1", "--chunk-size", "100", "--progress"])
    assert "records" in shown.stderr and "eta" in shown.stderr
    assert (tmp_path / "a.ndjson").read_bytes() == (tmp_path / "b.ndjson").read_bytes()


# -- a time limit per record ----------------------------------------------------------------------


def _full(size: int) -> str:
    return sudokit.solve("." * size * size).board.to_line()


def test_a_time_limit_stops_one_record_and_leaves_the_others_exact():
    full = _full(6)  # a complete board: its own only solution
    empty = "." * 36  # 28,200,960 solutions: counting them all takes minutes
    result = sudokit.solve_batch([full, empty, full], limit=10**8, time_limit=0.05)
    assert result.counts[[0, 2]].tolist() == [1, 1] and result.exhausted[[0, 2]].all()
    assert 2 <= result.counts[1] < 10**8 and not result.exhausted[1]
    assert result.status(1) == "several"  # as a node limit would leave it
    assert result.elapsed < 30


@pytest.mark.parametrize("size,limit", [(9, 30_000), (16, 30_000), (6, 30_000), (25, 3_000)])
def test_a_generous_time_limit_changes_nothing(size, limit):
    """Records that outlive the batch loop's first slice are searched again under the clock on
    the same kernel: counts, nodes, guesses and solutions are those of an uncut search."""
    puzzles = [_full(size), "." * size * size, _full(size)]
    plain = sudokit.solve_batch(puzzles, limit=limit)
    timed = sudokit.solve_batch(puzzles, limit=limit, time_limit=600)
    assert plain.nodes[1] > 2000  # the record went through the second pass
    for name in ("counts", "nodes", "guesses", "exhausted", "solutions"):
        assert (getattr(plain, name) == getattr(timed, name)).all(), name


def test_batch_time_limit_option(tmp_path):
    (tmp_path / "in.txt").write_text(f"{_full(6)}\n{'.' * 36}\n")
    result = run(["batch", str(tmp_path / "in.txt"), "--limit", "100000000", "--time-limit", "0.05", "--workers", "1"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    # a count the budget stopped short of its limit is a lower bound, said as unknown (as
    # sudokit count says "at least"), not a count that looks exact
    assert [row["status"] for row in rows] == ["solved", "unknown"]
    assert 2 <= rows[1]["count"] < 10**8 and result.exit_code == ExitCode.UNKNOWN
    summary = solve_file(tmp_path / "in.txt", tmp_path / "out.ndjson", workers=1, limit=2, time_limit=1.0)
    assert summary.counts["solved"] == 1 and summary.counts["several"] == 1


def test_the_first_names_of_the_batch_package_still_import():
    """The README promises ``sudokit.pipeline`` and ``sudokit.distributed``: the same objects
    as ``sudokit.batch`` (the tests use the new names)."""
    from sudokit import batch, pipeline
    from sudokit.batch import chunks

    assert pipeline.solve_file is batch.solve_file and pipeline.BatchOptions is chunks.BatchOptions
    pytest.importorskip("dask.distributed")
    from sudokit import distributed
    from sudokit.batch import cluster

    assert distributed.solve_file is cluster.solve_file
