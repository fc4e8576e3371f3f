"""The command line: the seeds' exact output, markers, messages and exit statuses."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from sudokit.cli import cli

SEED_000 = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."
NO_SOLUTION = "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3.."


def run(args, stdin=None):
    runner = CliRunner()
    return runner.invoke(cli, args, input=stdin, catch_exceptions=False)


def test_seed_000_sample_byte_for_byte(data_dir):
    result = run(["solve", str(data_dir / "poj3074_sample.in")])
    assert result.exit_code == 0
    assert result.stdout_bytes == (data_dir / "poj3074_sample.out").read_bytes()


def test_seed_001_sample_byte_for_byte(data_dir):
    result = run(["solve", str(data_dir / "poj3076_sample.in")])
    assert result.exit_code == 0
    assert result.stdout_bytes == (data_dir / "poj3076_sample.out").read_bytes()


def test_stdin_and_several_files(data_dir):
    sample = (data_dir / "poj3074_sample.in").read_bytes()
    result = run(["solve", "-", str(data_dir / "poj3074_sample.in")], stdin=sample)
    assert result.stdout_bytes == (data_dir / "poj3074_sample.out").read_bytes() * 2


def test_ints_output_for_ints_input(data_dir):
    result = run(["solve", str(data_dir / "target_01.in")])
    lines = result.stdout.splitlines()
    assert lines[0] == "7 5 4 9 3 8 2 6 1" and lines[9] == "" and len(lines) == 10


def test_leetcode_in_leetcode_out():
    rows = '[["5","3",".",".","7",".",".",".","."]' + ',[".",".",".",".",".",".",".",".","."]' * 8 + "]"
    result = run(["solve"], stdin=rows)
    assert result.exit_code == 0 and result.stdout.startswith('[["5","3",')


def test_no_solution_is_marked_and_the_rest_goes_on():
    result = run(["solve"], stdin=f"{SEED_000}\n{NO_SOLUTION}\n{SEED_000}\n")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and lines[1] == "no solution" and lines[0] == lines[2]
    assert "<stdin>:2:1: no solution" in result.stderr


def test_repeated_givens_say_why():
    result = run(["solve"], stdin="55" + "." * 79 + "\n")
    assert result.exit_code == 1
    assert "<stdin>:1:1: no solution: 5 appears 2 times in row 1 (r1c1, r1c2)" in result.stderr


def test_repeated_givens_are_written_in_the_input_alphabet_at_their_place(data_dir):
    """A 16x16 letter grid names the value as its letter and points at the first cell named."""
    rows = (data_dir / "poj3076_sample.in").read_text().splitlines()
    assert rows[2][2] == "D" and "D" not in rows[1]
    rows[1] = rows[1][:2] + "D" + rows[1][3:]  # r2c3 repeats r3c3's D in column 3 and box 1
    result = run(["solve"], stdin="\n".join(rows) + "\n")
    assert result.exit_code == 1
    assert "<stdin>:2:3: no solution: D appears 2 times in column 3 (r2c3, r3c3); D appears 2 times in box 1" in result.stderr


def test_repeated_givens_in_the_integer_format_point_at_their_line_and_column(data_dir):
    rows = (data_dir / "target_01.in").read_text().splitlines()
    rows[2] = rows[0].split()[0] + rows[2][1:]  # r3c1 repeats r1c1 in column 1 and box 1
    result = run(["maximize"], stdin="\n".join(rows) + "\n")
    assert result.exit_code == 1 and result.stdout == "-1\n"
    assert "<stdin>:1:1: no solution: 7 appears 2 times in column 1 (r1c1, r3c1)" in result.stderr


def test_unique_marks_several():
    result = run(["solve", "--unique"], stdin="." * 81 + "\n" + SEED_000 + "\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "several solutions"
    assert len(result.stdout.splitlines()[1]) == 81


def test_bad_record_gives_file_line_column_and_status_2(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{SEED_000}\n{SEED_000[:40]}x{SEED_000[41:]}\n{SEED_000}\n")
    result = run(["solve", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:2:41: unexpected symbol 'x'")
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and lines[1] == "error"


def test_sixteen_by_sixteen_with_fifteen_rows(data_dir):
    rows = (data_dir / "poj3076_sample.in").read_text().splitlines()[:15]
    result = run(["solve"], stdin="\n".join(rows) + "\n")
    assert result.exit_code == 2
    assert "<stdin>:16:1: a 16x16 grid needs 16 rows, found 15" in result.stderr


def test_binary_garbage_is_refused_cleanly():
    result = run(["solve"], stdin=b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\n")
    assert result.exit_code == 2 and "<stdin>:1:1:" in result.stderr and "not a text" in result.stderr


def test_count_prints_one_line_per_puzzle():
    result = run(["count", "--limit", "1000"], stdin=f"{SEED_000}\n{NO_SOLUTION}\n{'.' * 81}\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["1", "0", "1000"]


def test_count_with_a_budget_that_runs_out():
    result = run(["count", "--limit", "1000000000", "--node-limit", "10"], stdin="." * 81 + "\n")
    assert result.exit_code == 3
    assert result.stdout.startswith("unknown (budget exhausted): at least ")
    assert "budget ran out" in result.stderr


def test_pretty_draws_boxes():
    result = run(["solve", "--pretty"], stdin=SEED_000 + "\n")
    assert result.exit_code == 0 and result.stdout.startswith("┌") and "│ 5 2 7 │" in result.stdout


def test_output_format_can_be_chosen():
    result = run(["solve", "--to", "grid"], stdin=SEED_000 + "\n" + NO_SOLUTION + "\n")
    lines = result.stdout.splitlines()
    assert lines[:2] == ["527389416", "819426735"] and lines[9] == ""
    assert lines[10:] == ["no solution", ""]
    result = run(["solve", "--to", "leetcode"], stdin=SEED_000 + "\n")
    assert result.stdout.startswith('[["5","2","7"')


def test_stats_go_to_stderr():
    result = run(["solve", "--stats"], stdin=SEED_000 + "\n")
    assert "nodes" in result.stderr and "nodes" not in result.stdout


def test_options_are_checked():
    result = CliRunner().invoke(cli, ["solve", "--shape", "3x3"], input=SEED_000)
    assert result.exit_code == 2 and "say '9'" in result.output
    result = CliRunner().invoke(cli, ["solve", "--symbols", "abc"], input="." * 81)
    assert result.exit_code == 2 and "needs 9 symbols" in result.stderr
    result = CliRunner().invoke(cli, ["solve", "no-such-file.txt"])
    assert result.exit_code == 2


def test_explicit_shape_and_symbols():
    line = "abc..." + "." * 30
    result = run(["solve", "--shape", "2x3", "--symbols", "abcdef"], stdin=line + "\n")
    assert result.exit_code == 0 and result.stdout.startswith("abc")


def test_module_entry_point_runs(data_dir):
    completed = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve", str(data_dir / "poj3074_sample.in")],
        capture_output=True,
    )
    assert completed.returncode == 0
    assert completed.stdout == (data_dir / "poj3074_sample.out").read_bytes()


def test_a_reader_that_stops_early_is_a_broken_pipe_not_an_unsolved_puzzle(tmp_path, data_dir):
    """``sudokit solve big.txt | head -1``: exit 141 (the shell's code for SIGPIPE), silently."""
    many = tmp_path / "many.txt"
    many.write_bytes((data_dir / "poj3074_sample.in").read_bytes().replace(b"end\n", b"") * 1000)
    with subprocess.Popen([sys.executable, "-m", "sudokit", "solve", str(many)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert len(process.stdout.readline()) == 82
        process.stdout.close()
        stderr = process.stderr.read()
    assert process.returncode == 141 and stderr == b""


def test_internal_errors_are_one_line(monkeypatch, capsys, data_dir):
    from sudokit.cli import base, machine

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(machine, "search", boom)
    with pytest.raises(SystemExit) as exit_info:
        base.main(["count", str(data_dir / "poj3074_sample.in")])
    assert exit_info.value.code == 70
    assert "internal error: RuntimeError: kaboom" in capsys.readouterr().err


def test_a_command_imports_its_own_module_only(tmp_path):
    """``sudokit hint`` loads no batch, Dask or setters' code: the commands' modules are
    imported when called (a tenth of a second of a 0.3 s warm call)."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(SEED_000 + "\n")
    others = ("sudokit.batch", "sudokit.cli.machine", "sudokit.cli.batch", "sudokit.cli.setters", "sudokit.setters", "dask")
    code = (
        "import atexit, sys\nfrom sudokit.cli import main\n"
        f"atexit.register(lambda: print([name for name in {others!r} if name in sys.modules]))\n"
        f"main(['hint', {str(puzzle)!r}])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("Naked Single") and done.stdout.strip().splitlines()[-1] == "[]", done.stdout


def test_every_command_is_where_the_group_looks_for_it():
    from sudokit.cli.base import COMMAND_MODULES

    commands = cli.all_commands()
    assert set(commands) == set(COMMAND_MODULES)
    for name, module in COMMAND_MODULES.items():
        assert commands[name].callback.__module__ == f"sudokit.cli.{module}", name
    assert run(["--help"]).stdout.count("\n  ") >= len(commands)  # every command listed
