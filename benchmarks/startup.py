"""Start-up: how long a first run and a warm run of sudokit take, and where the time goes.

    python benchmarks/startup.py                       # every case, median of 5 fresh processes
    python benchmarks/startup.py --skip install,rate   # quicker: no fresh install, no logic kernels
    python benchmarks/startup.py --only solve9 --repeat 3

Each case runs in fresh processes. *Cold* is an empty compile cache: every run gets a new
temporary ``NUMBA_CACHE_DIR``; *warm* runs again on a cache the cold run filled. The cases:

- ``import``: ``python -c "import sudokit"``;
- ``help``: ``sudokit --help``;
- ``solve9``, ``solve16``, ``solve25``: ``sudokit solve`` of one 9x9 line (the first of
  ``examples/classic.txt``), one 16x16 line (``examples/hexadoku.txt`` on one line) and one
  25x25 line (the first of the shared ``25x25/misc_25x25.txt``);
- ``readme``: the README's first command, ``sudokit solve examples/classic.txt
  examples/hexadoku.txt``, in the checkout's environment;
- ``install``: the same command after ``pip install .`` into a new virtual environment (the
  install is timed once; the command then runs cold and warm as above);
- ``rate``, ``hint``, ``explain``: the logic commands on one 9x9 line (HoDoKu's kernels);
- ``library``: ``python -c "import sudokit; print(sudokit.rate(P))"``, a first rating from the
  library;
- ``se``: ``sudokit rate --scale se --time-limit 1`` of a puzzle whose rating needs nested
  forcing chains (a budgeted call: its target is the budget plus 1.5 s; exit 3, "unknown", is
  an answer here);
- ``generate``, ``generate16``: ``sudokit generate -n 3 --seed 1``, and one 16x16 puzzle;
- ``canon``: ``sudokit canon`` of one 9x9 line;
- ``xsolve``: ``sudokit solve`` of one X-Sudoku JSON line (the general kernel);
- ``maximize``: ``sudokit maximize`` of the seed's target-sudoku example;
- ``serve``: ``sudokit serve`` from its start to the first answer of ``POST /api/rate`` (a
  small stdlib client starts it, polls, and stops it).

Then where the time goes: which functions a cold run compiles and for how long (numba's
compile events, nested calls indented), and what a warm run spends importing numpy, numba,
llvmlite, click, rich and sudokit itself (``-X importtime``, each module's own time summed by
package). The CPU's vector extensions head the report (numba compiles for the host CPU, and
its cache is per CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cpu import cpu_line  # noqa: E402  (needs the line above)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
CASES = ("import", "help", "solve9", "solve16", "solve25", "readme", "install", "rate", "hint", "explain",
         "library", "se", "generate", "generate16", "canon", "xsolve", "maximize", "serve")
#: cases with an exit status other than 0 that is still an answer (3: "unknown", the budget ran out)
ANSWERS = {"se": (0, 3)}
#: a puzzle whose SE rating needs nested forcing chains (10.3/10.3/2.6, tests/test_se.py's FORUM;
#: the 9.0 puzzle here before never reached them)
NESTED = "...4......5...9...6...2..1.2...7.9.1..5....7......8.3...6....9.7...3.1......9.327"
#: the library's first rating, as the issue's table has it (HoDoKu's scale, the default)
LIBRARY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
#: an X-Sudoku (both diagonals), one JSON line: the givens of a published X-Windoku (the shared
#: variants data) with its windoku rule left out; a solve needs no uniqueness
X_SUDOKU = {"givens": ".......1.....2...3.........4....3.......5...6....1.........78......6........32...",
            "diagonals": ["main", "anti"]}
#: packages whose import time the warm breakdown reports
PACKAGES = ("numpy", "numba", "llvmlite", "click", "rich", "sudokit")

#: run in a child with numba's compile events recorded: the main of the command line
COMPILES = r"""
import json, sys, time
from numba.core import event

open_events, done = [], []


class Listener(event.Listener):
    def on_start(self, ev):
        open_events.append((ev.data["dispatcher"].py_func.__qualname__, time.process_time()))

    def on_end(self, ev):
        name, began = open_events.pop()
        done.append((len(open_events), name, time.process_time() - began))


event.register("numba:compile", Listener())
sys.argv = ["sudokit"] + json.loads(sys.argv[1])
from sudokit.cli import main

try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print("\nCOMPILES " + json.dumps(done[::-1]), file=sys.stderr)
"""

#: run as a child: start ``sudokit serve``, poll ``POST /api/rate`` until it answers, stop it
SERVE_FIRST = r"""
import json, socket, subprocess, sys, time, urllib.request
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
server = subprocess.Popen(sys.argv[1:] + ["serve", "--port", str(port)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
body = json.dumps({"puzzle": sys.stdin.read().strip()}).encode()
try:
    for _ in range(6000):
        if server.poll() is not None:
            sys.exit("serve stopped: " + server.stderr.read().decode()[-300:])
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/rate", data=body,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as answer:
                json.load(answer)
            break
        except OSError:
            time.sleep(0.02)
    else:
        sys.exit("no answer in two minutes")
finally:
    server.terminate()
    server.wait()
"""


def lines() -> dict[str, Path]:
    """One-line input files for the solve cases, written into a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="sudokit-startup-"))
    hexa = "".join((ROOT / "examples" / "hexadoku.txt").read_text().split())
    inputs = {
        "solve9": (ROOT / "examples" / "classic.txt").read_text().split()[0],
        "solve16": hexa,
    }
    big = DATA / "25x25" / "misc_25x25.txt"
    if big.exists():
        inputs["solve25"] = big.read_text().split()[0]
    inputs["nested"] = NESTED
    inputs["xsudoku"] = json.dumps(X_SUDOKU)
    files = {}
    for name, text in inputs.items():
        files[name] = folder / f"{name}.txt"
        files[name].write_text(text + "\n")
    return files


def command(case: str, files: dict[str, Path], python: str, sudokit: list[str]) -> list[str] | None:
    if case == "import":
        return [python, "-c", "import sudokit"]
    if case == "library":
        return [python, "-c", f"import sudokit; print(sudokit.rate({LIBRARY!r}))"]
    if case == "help":
        return sudokit + ["--help"]
    if case in ("solve9", "solve16", "solve25"):
        return sudokit + ["solve", str(files[case])]
    if case in ("readme", "install"):
        return sudokit + ["solve", str(ROOT / "examples" / "classic.txt"), str(ROOT / "examples" / "hexadoku.txt")]
    if case in ("rate", "hint", "explain", "canon"):
        return sudokit + [case, str(files["solve9"])]
    if case == "se":
        return sudokit + ["rate", "--scale", "se", "--time-limit", "1", str(files["nested"])]
    if case == "generate":
        return sudokit + ["generate", "-n", "3", "--seed", "1"]
    if case == "generate16":
        return sudokit + ["generate", "--shape", "16x16", "--seed", "1"]
    if case == "xsolve":
        return sudokit + ["solve", str(files["xsudoku"])]
    if case == "maximize":
        return sudokit + ["maximize", str(ROOT / "examples" / "target.txt")]
    if case == "serve":
        return [python, "-c", SERVE_FIRST] + sudokit
    return None


def timed(argv: list[str], env: dict[str, str],
          stdin: str | None = None) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall seconds, CPU seconds of the child, its result). On a shared machine the CPU time
    is what an idle one would take (compiling runs on one thread)."""
    before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, input=stdin)
    return time.perf_counter() - start, _children_cpu() - before, done


def _children_cpu() -> float:
    try:
        import resource
    except ImportError:  # not POSIX: no CPU times
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_and_warm(argv: list[str], repeat: int, cold_runs: int, base_env: dict[str, str],
                  answers: tuple[int, ...] = (0,), stdin: str | None = None,
                  ) -> tuple[list[tuple[float, float]], list[tuple[float, float]], str]:
    """(wall, CPU) seconds of ``cold_runs`` cold runs (each on a new empty cache) and
    ``repeat`` warm runs (on the last cold run's cache), and the first failure's message."""
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    error = ""
    for run in range(cold_runs):
        cache = tempfile.mkdtemp(prefix="sudokit-cache-")
        env = dict(base_env, NUMBA_CACHE_DIR=cache)
        seconds, cpu, done = timed(argv, env, stdin)
        cold.append((seconds, cpu))
        if done.returncode not in answers and not error:
            error = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        if run < cold_runs - 1:
            shutil.rmtree(cache, ignore_errors=True)
    for _ in range(repeat):
        seconds, cpu, done = timed(argv, env, stdin)
        warm.append((seconds, cpu))
        if done.returncode not in answers and not error:
            error = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    shutil.rmtree(cache, ignore_errors=True)
    return cold, warm, error


def compiles(args_: list[str], python: str, base_env: dict[str, str]) -> list[tuple[int, str, float]]:
    """What a cold run of ``sudokit ARGS`` compiles: (depth, function, seconds), in order."""
    with tempfile.TemporaryDirectory(prefix="sudokit-cache-") as cache:
        done = subprocess.run([python, "-c", COMPILES, json.dumps(args_)], capture_output=True, text=True,
                              env=dict(base_env, NUMBA_CACHE_DIR=cache))
    for line in done.stderr.splitlines():
        if line.startswith("COMPILES "):
            return [tuple(row) for row in json.loads(line[len("COMPILES "):])]  # type: ignore[misc]
    raise RuntimeError(done.stderr.strip()[-500:])


def import_breakdown(argv: list[str], python: str, env: dict[str, str]) -> tuple[dict[str, float], float]:
    """Seconds each package's own modules take to import in a warm run of ``argv`` (a
    ``sudokit`` command run as ``python -X importtime -m sudokit``), and the run's wall time."""
    seconds, _, done = timed([python, "-X", "importtime", "-m", "sudokit"] + argv[1:], env)
    totals = {name: 0.0 for name in PACKAGES}
    other = 0.0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = line[len("import time:"):].split("|")
        top = name.strip().split(".")[0]
        if top in totals:
            totals[top] += int(own) / 1e6
        else:
            other += int(own) / 1e6
    totals["everything else"] = other
    return totals, seconds


def fresh_install(python: str) -> tuple[str, str, str]:
    """A new virtual environment with ``pip install ROOT``: (its python, seconds, error)."""
    folder = Path(tempfile.mkdtemp(prefix="sudokit-venv-"))
    subprocess.run([python, "-m", "venv", str(folder)], check=True)
    venv_python = str(folder / "bin" / "python")
    seconds, cpu, done = timed([venv_python, "-m", "pip", "install", "--quiet", str(ROOT)], dict(os.environ))
    error = "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["pip failed"])[-1]
    return venv_python, f"{seconds:.1f} s ({cpu:.1f} s CPU)", error


def _cell(runs: list[tuple[float, float]]) -> str:
    wall = statistics.median(seconds for seconds, _ in runs)
    cpu = statistics.median(cpu for _, cpu in runs)
    return f"{wall:.2f} ({cpu:.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per measurement (the median counts)")
    parser.add_argument("--only", help="comma-separated cases: " + ",".join(CASES))
    parser.add_argument("--skip", default="", help="comma-separated cases to leave out")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the compile and import breakdowns")
    args = parser.parse_args(argv)

    cases = [c for c in (args.only.split(",") if args.only else CASES) if c not in args.skip.split(",")]
    unknown = set(cases) - set(CASES)
    if unknown:
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
    files = lines()
    python = sys.executable
    here = [python, "-m", "sudokit"]
    script = shutil.which("sudokit", path=str(Path(python).parent))
    # Python's bytecode cache as a user has it: where the environment forbids writing it
    # (PYTHONDONTWRITEBYTECODE, as some CI images set), every run of the checkout compiles
    # sudokit's modules from source again, 0.1-0.2 s that no installed copy pays
    base_env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    base_env["SUDOKIT_QUIET"] = "1"
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("PYTHONDONTWRITEBYTECODE is set here; the runs below write Python's bytecode cache as a user's do")

    print(cpu_line())
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start; median of {args.repeat} fresh processes\n")
    print("Each cell: wall seconds (CPU seconds of the process); on a busy machine the CPU time is")
    print("what an idle one takes.\n")
    print("| case | cold (empty cache) | warm | runs cold / warm | note |")
    print("| --- | ---: | ---: | ---: | --- |")
    failed = False
    for case in cases:
        if case == "solve25" and "solve25" not in files:
            print(f"| {case} | - | - | - | no {DATA / '25x25' / 'misc_25x25.txt'} |")
            continue
        note = ""
        py, sudokit = python, [script] if script else here
        if case == "install":
            py, seconds, error = fresh_install(python)
            if error:
                print(f"| install | - | - | - | pip install failed: {error} |")
                failed = True
                continue
            sudokit = [str(Path(py).parent / "sudokit")]
            note = f"after pip install . ({seconds})"
        argv_ = command(case, files, py, sudokit)
        assert argv_ is not None
        stdin = files["solve9"].read_text() if case == "serve" else None
        cold, warm, error = cold_and_warm(argv_, args.repeat, args.repeat, base_env, ANSWERS.get(case, (0,)), stdin)
        if error:
            note = (note + "; " if note else "") + f"FAILED: {error}"
            failed = True
        print(f"| {case} | {_cell(cold)} | {_cell(warm)} | {len(cold)} / {len(warm)} | {note} |", flush=True)
        if case == "install":
            shutil.rmtree(Path(py).parent.parent, ignore_errors=True)

    if not args.no_breakdown:
        print("\n## What a cold run compiles (CPU seconds; nested compiles indented, counted in their caller)\n")
        for case in ("solve9", "solve16", "solve25"):
            if case not in files or case not in cases:
                continue
            try:
                rows = compiles(["solve", str(files[case])], python, base_env)
            except RuntimeError as error:
                print(f"- {case}: failed: {error}")
                continue
            top = sum(seconds for depth, _, seconds in rows if depth == 0)
            print(f"- {case}: {top:.2f} s in {sum(1 for r in rows if r[0] == 0)} top-level compiles, {len(rows)} in all")
            for depth, name, seconds in rows:
                if seconds >= 0.05:
                    print(f"  {'  ' * depth}- {name} {seconds:.2f}")
        print("\n## Where a warm run's time goes (each package's own import time)\n")
        with tempfile.TemporaryDirectory(prefix="sudokit-cache-") as cache:
            env = dict(base_env, NUMBA_CACHE_DIR=cache)
            warm_argv = command("solve9", files, python, [script or "sudokit"])
            assert warm_argv is not None
            timed(warm_argv, env)  # fill the cache
            rows_ = [import_breakdown(warm_argv, python, env) for _ in range(args.repeat)]
        wall = statistics.median(seconds for _, seconds in rows_)
        print(f"`sudokit solve` of one 9x9 line, warm: {wall:.2f} s in all (with -X importtime)\n")
        print("| package | import, s |")
        print("| --- | ---: |")
        for name in list(PACKAGES) + ["everything else"]:
            print(f"| {name} | {statistics.median(t[name] for t, _ in rows_):.3f} |")
    shutil.rmtree(next(iter(files.values())).parent, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
