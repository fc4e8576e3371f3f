"""The setters' commands (diagnose, make-unique, reduce, estimate), their JSON endpoints, and
``generate --dask`` / ``--resume``: the same bytes as a local run with the same seed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudokit
from sudokit import Board
from sudokit.cli import cli
from sudokit.making import generate_file

DATA = Path(__file__).parent / "data"
CLASH = "5.......5" + "." * 72
WRONG = "..25.4.1..8..31........9....7....4.82........641...32........5746...3....2.7.69.1"
MULTI = (DATA / "tdoku_test_multi.txt").read_text().split()[0]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_diagnose_one_line_a_record_and_errors(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(f"{CLASH}\n{WRONG}\nnot a board\n{MULTI}\n")
    result = run("diagnose", str(source))
    assert result.exit_code == 2  # the bad record
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("no solution: core of 2 givens r1c1=5,r1c9=5 (minimal) | rules: row 1")
    assert "chain: Hidden Single: r9c8=3; Contradiction: 4 has no place in box 9" in lines[1]
    assert lines[2] == "error" and "in.txt:3:1" in result.stderr
    assert lines[3].startswith("several solutions: two differ in 4 cells")
    as_json = [json.loads(line) for line in run("diagnose", "--to", "json", "-", input=f"{CLASH}\n").stdout.splitlines()]
    assert as_json[0]["core"] == [0, 8] and as_json[0]["status"] == "no solution"


def test_diagnose_budget_is_exit_3():
    result = run("diagnose", "--node-limit", "3", "-", input="." * 625 + "\n")
    assert result.exit_code == 3 and "unknown" in result.stderr


def test_make_unique_and_reduce_records(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(f"{MULTI}\n{CLASH}\n")
    result = run("make-unique", str(source))
    assert result.exit_code == 1  # the board without solution
    made, marker = result.stdout.splitlines()
    assert marker == "no solution"
    assert sudokit.is_unique(made) and "added 3 (fewest possible): " in result.stderr
    full = sudokit.solve(made).board.to_line()
    result = run("reduce", "--keep", "r1c1,r9c9", "-", input=full + "\n")
    assert result.exit_code == 0, result.output
    reduced = result.stdout.strip()
    assert sudokit.is_unique(reduced) and reduced[0] == full[0] and reduced[80] == full[80]
    assert "(minimal)" in result.stderr
    result = run("reduce", "--keep", "r10c1", "-", input=full + "\n")
    assert result.exit_code == 2 and "outside a 9x9 board" in result.stderr
    assert run("reduce", "--keep", "x1", "-", input=full + "\n").exit_code == 2


def test_make_unique_json_and_keep():
    result = run("make-unique", "--to", "json", "--keep", "r1c6", "-", input=MULTI + "\n")
    answer = json.loads(result.stdout)
    assert answer["status"] == "solved" and 5 not in answer["added"] and answer["proven"]


def test_estimate_command():
    result = run("estimate", "--samples", "500", "--seed", "1", "-", input="." * 16 + "\n" + "." * 36 + "\n")
    assert result.exit_code == 0
    first, second = result.stdout.splitlines()
    assert first.startswith("about 288 solutions")
    assert "500 samples" in second
    answer = json.loads(run("estimate", "--to", "json", "--samples", "100", "--seed", "3", "-", input="." * 81 + "\n").stdout)
    assert answer["low"] <= 6.67e21 <= answer["high"] and answer["samples"] == 100
    # the time ran out inside the first probe of an open 64x64: unknown, exit 3
    cut = run("estimate", "--time-limit", "0", "--to", "json", "-", input="." * 4096 + "\n")
    assert cut.exit_code == 3 and json.loads(cut.stdout)["samples"] == 0 and json.loads(cut.stdout)["value"] is None


# -- the JSON API ------------------------------------------------------------------------------


httpx = pytest.importorskip("httpx")


def post(endpoint: str, **body) -> httpx.Response:
    from sudokit.web import create_app

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.post(f"/api/{endpoint}", json=body)

    return asyncio.run(go())


def test_api_diagnose():
    answer = post("diagnose", puzzle=CLASH).json()
    assert answer["status"] == "no solution" and answer["core"] == [0, 8] and answer["rules"] == ["row 1"]
    answer = post("diagnose", puzzle=MULTI).json()
    assert answer["status"] == "several" and len(answer["differing"]) == 4
    assert answer["add_proven"] and len(answer["add"]) == 3
    values = list(MULTI)
    solution = answer["solutions"][0]
    for cell in answer["add"]:
        values[cell] = solution[cell]
    assert sudokit.is_unique("".join(values))
    refused = post("diagnose", puzzle="12")
    assert refused.status_code == 422 and "line" in refused.json()


def test_api_estimate():
    answer = post("estimate", puzzle="." * 36, samples=300, seed=2).json()
    assert answer["low"] <= 28_200_960 <= answer["high"] and answer["samples"] == 300
    huge = post("estimate", puzzle="." * 625, samples=4, seed=1).json()  # past a float: log10 only
    assert huge["value"] is None or huge["value"] > 1e300
    assert huge["log10"] > 300
    none = post("estimate", puzzle="11" + "." * 79, samples=10).json()
    assert none["value"] == 0 and none["log10"] is None
    assert post("estimate", puzzle="." * 81, samples=10**9).status_code == 422
    cut = post("estimate", puzzle="." * 4096, time_limit=0).json()  # no probe finished in time
    assert cut["status"] == "unknown" and cut["samples"] == 0 and cut["value"] is None


# -- generate on a Dask cluster, and resumed ---------------------------------------------------


def test_generate_resume_after_an_interruption(tmp_path):
    local = tmp_path / "local.txt"
    assert run("generate", "-n", "30", "--seed", "9", "--workers", "1", "-o", str(local)).exit_code == 0
    target = tmp_path / "resumed.txt"

    def stop(total: int) -> None:
        if total == 12:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_file(target, 30, seed=9, workers=1, on_puzzle=stop)
    assert Path(str(target) + ".progress").exists()
    assert len(target.read_text().splitlines()) >= 12
    result = run("generate", "-n", "30", "--seed", "9", "--resume", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == local.read_bytes()
    assert not Path(str(target) + ".progress").exists()
    other = run("generate", "-n", "30", "--seed", "9", "--resume", "-o", str(local))
    assert other.exit_code == 2 and "nothing to resume" in other.stderr
    assert run("generate", "-n", "3", "--resume", "-o", str(tmp_path / "x.txt")).exit_code == 2  # no seed


def test_generate_on_dask_is_the_local_stream(tmp_path):
    dask_distributed = pytest.importorskip("dask.distributed")
    local = tmp_path / "local.txt"
    assert run("generate", "-n", "25", "--seed", "4", "--shape", "6x6", "-o", str(local)).exit_code == 0
    with dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            dask_distributed.Client(cluster) as client:
        done = generate_file(tmp_path / "dask.txt", 25, seed=4, shape="6x6", client=client)
    assert done.puzzles == 25
    assert (tmp_path / "dask.txt").read_bytes() == local.read_bytes()
    assert all(sudokit.is_unique(Board.from_line(line)) for line in local.read_text().splitlines())
