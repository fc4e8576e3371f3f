"""The Dask path (:mod:`sudokit.batch.cluster`): the same chunks on a cluster write the same bytes
as a local run. Skipped when dask.distributed is not installed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_pipeline import Crash, big_input, write_mixed

from sudokit.batch import cluster as dask_batch
from sudokit.batch import output as sinks
from sudokit.cli import cli
from sudokit.batch import solve_file

dask_distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    """Two single-thread workers in this process (no processes to start: quick and quiet)."""
    with dask_distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster, dask_distributed.Client(cluster) as client:
        yield client


@pytest.mark.parametrize("suffix", [".ndjson", ".csv"])
def test_same_bytes_as_the_local_run(client, tmp_path, suffix):
    source = big_input(tmp_path / "in.txt", copies=2)
    solve_file(source, tmp_path / f"local{suffix}", workers=1, limit=2, chunk_size=41)
    summary = dask_batch.solve_file(client, source, tmp_path / f"dask{suffix}", limit=2, chunk_size=41)
    assert (tmp_path / f"dask{suffix}").read_bytes() == (tmp_path / f"local{suffix}").read_bytes()
    assert summary.counts["error"] == 5 and summary.records == 201 * 2 + 25


def test_mixed_records_and_iteration(client, tmp_path):
    statuses = write_mixed(tmp_path / "in.txt")
    results = list(dask_batch.iter_results(client, tmp_path / "in.txt", limit=2, chunk_size=3))
    assert [r.status for r in results] == statuses
    assert [r.index for r in results] == list(range(len(statuses)))


def test_resume_on_the_cluster_after_a_local_crash(client, tmp_path, monkeypatch):
    source = big_input(tmp_path / "in.txt", copies=2)
    reference = tmp_path / "reference.ndjson"
    solve_file(source, reference, workers=1, chunk_size=30)
    output = tmp_path / "out.ndjson"
    saves = {"n": 0}
    original = sinks.Journal.save

    def crash_after_a_few(self, state):
        saves["n"] += 1
        if saves["n"] == 6:
            raise Crash
        original(self, state)

    monkeypatch.setattr(sinks.Journal, "save", crash_after_a_few)
    with pytest.raises(Crash):
        solve_file(source, output, workers=1, chunk_size=30)
    monkeypatch.undo()
    summary = dask_batch.solve_file(client, source, output, chunk_size=30, resume=True)
    assert summary.resumed_at > 0
    assert output.read_bytes() == reference.read_bytes()


def test_command_line_dask_option(client, tmp_path):
    source = big_input(tmp_path / "in.txt", copies=1)
    runner = CliRunner()
    local = runner.invoke(cli, ["batch", str(source), "--workers", "1", "--limit", "2"])
    remote = runner.invoke(cli, ["batch", str(source), "--dask", client.scheduler.address, "--limit", "2"])
    assert remote.exit_code == local.exit_code == 2, remote.stderr
    assert remote.stdout == local.stdout
    assert len([json.loads(line) for line in remote.stdout.splitlines()]) == 201 + 25


def test_the_cluster_decides_the_workers(client, tmp_path):
    with pytest.raises(TypeError, match="cluster decides"):
        dask_batch.solve_file(client, tmp_path / "in.txt", workers=2)
