"""The package's layering, read from its source with ``ast``: data flows one way.

Each module sits on a floor; it may import modules of its own floor or lower ones, never
higher, and no chain of imports comes back to where it started. Imports run at the top of a
module; the few inside functions are listed below with their reason (an optional extra, or
start-up cost), so a new one has to say why. Outside ``kernels/`` (numba code that stays
whole for speed) no module is over 700 lines.

``python tests/test_architecture.py`` prints the floors and every import edge.
"""

from __future__ import annotations

import ast
import importlib
import types
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "sudokit"

#: the floors, lowest first; a module belongs to the first prefix that names it
FLOORS: list[tuple[str, ...]] = [
    # ground: no sudokit above; ``warming`` keeps a first compile within a caller's deadline
    ("sudokit.errors", "sudokit.symbols", "sudokit.shape", "sudokit.variants", "sudokit.kernels", "sudokit.warming",
     "sudokit.threads"),
    ("sudokit.formats",),  # text <-> plain data
    ("sudokit.board",),  # the value type, and streams of boards
    ("sudokit.results",),  # statuses, limits, results, exit codes
    ("sudokit.engines",),  # the one place that picks a kernel
    ("sudokit.arrays",),  # solve_batch: many boards of one shape in one kernel call
    ("sudokit.solver", "sudokit.optimize", "sudokit.logic", "sudokit.leetcode", "sudokit.render", "sudokit.canon",
     "sudokit.setters", "sudokit.printing"),
    ("sudokit.batch",),  # files and columns of records, over the solver, the logic and the arrays
    ("sudokit.generator", "sudokit.making"),  # new puzzles: carving over the solver, levels from the logic; at scale
    ("sudokit.cli", "sudokit.web", "sudokit.pipeline", "sudokit.distributed", "sudokit.__main__", "sudokit"),
]

#: the rooms of ``kernels/``, lowest floor first: how a kernel is compiled (the decorator and
#: its cache), the searches (with the bit helpers everything uses), then HoDoKu's techniques and
#: Sudoku Explainer's rules, two families that never import each other, and on top the
#: ahead-of-time build, which compiles every room (a run imports it only to load what it built)
KERNEL_ROOMS: list[tuple[str, ...]] = [
    ("sudokit.kernels.build",),
    ("sudokit.kernels.search",),
    ("sudokit.kernels.hodoku", "sudokit.kernels.se"),
    ("sudokit.kernels.build.ahead",),
]

#: imports inside functions, and why they are there
LATE_IMPORTS = {
    ("sudokit.warming", "subprocess"): "start-up cost: 4 ms of every command, used at exit only",
    ("sudokit.warming", "hashlib"): "start-up cost: 6 ms, used in the detached compile only",
    ("sudokit.warming", "tempfile"): "start-up cost: 6 ms, used in the detached compile only",
    ("sudokit.warming", "importlib"): "used in the detached compile only",
    ("sudokit.warming", "fcntl"): "POSIX only, used in the detached compile only",
    ("sudokit.batch.cluster", "dask.distributed"): "optional extra (sudokit[dask])",
    ("sudokit.batch.encoders", "pyarrow"): "optional extra (sudokit[parquet])",
    ("sudokit.batch.run", "pyarrow"): "optional extra: a pyarrow column brings it",
    ("sudokit.batch.run", "pandas"): "optional extra: a pandas column brings it",
    ("sudokit.batch.executors", "concurrent.futures"): "start-up cost: 26 ms, runs with workers only",
    ("sudokit.batch.executors", "multiprocessing"): "start-up cost: 12 ms, runs with workers only",
    ("sudokit.threads", "concurrent.futures"): "start-up cost: 26 ms, work on threads only",
    ("sudokit.cli.machine", "rich.console"): "start-up cost: only boxed grids draw",
    ("sudokit.cli.batch", "rich.console"): "start-up cost: only a batch on a terminal shows a bar",
    ("sudokit.cli.batch", "rich.progress"): "start-up cost: only a batch on a terminal shows a bar",
    ("sudokit.cli.machine", "sudokit.render"): "start-up cost: render imports rich",
    ("sudokit.cli.people", "rich.console"): "start-up cost: only candidate grids and progress bars draw",
    ("sudokit.cli.people", "rich.progress"): "start-up cost: only generate on a terminal shows a bar",
    ("sudokit.cli.people", "sudokit.render"): "start-up cost: render imports rich",
    ("sudokit.cli.people", "sudokit.web"): "optional extra (sudokit[web]): starlette and uvicorn serve the page",
    ("sudokit.cli.people", "sudokit.cli.setters"): "start-up cost: only generate --to pdf, --dask or --resume need it",
    ("sudokit.printing", "reportlab.lib.pagesizes"): "optional extra (sudokit[print])",
    ("sudokit.printing", "reportlab.pdfgen.canvas"): "optional extra (sudokit[print])",
    ("sudokit.kernels.build.jit", "numba.core"): "numba's private cache API, which may be missing",
    ("sudokit.kernels.build.ahead", "llvmlite.binding"): "start-up cost: the CPU from LLVM only where /proc/cpuinfo is missing",
    ("sudokit.kernels.build.ahead", "numba.pycc"): "the build only: numba's ahead-of-time compiler (a run never imports numba here)",
    ("sudokit.kernels.build.ahead", "sudokit.kernels.build.jit"): "the build only: jit imports numba",
    ("sudokit.kernels.build.ahead", "sudokit.kernels.search.lanes"): "the build only: lanes imports numba",
    ("sudokit.kernels.build.ahead", "numba.core"): "the build only: the target features of numba's code generator",
    ("sudokit.kernels.build.ahead", "tempfile"): "the build only",
    ("sudokit.kernels.build.ahead", "subprocess"): "the build only: a process per compile unit",
    ("sudokit.kernels.build.ahead", "time"): "the build only: how long each unit took",
    ("sudokit.kernels.build.ahead", "numba"): "the build only: the records' types (numba.typeof)",
    ("sudokit.kernels.build.ahead", "numpy"): "start-up cost: only a unit with an array constant (SE's rule floors) reads one",
}

#: kernel modules ``engines`` loads on first use through ``_kernel(name)`` (start-up cost:
#: numba loads only when a search runs); they count as edges of the graph
LAZY_LOADER = ("sudokit.engines", "_kernel")

MAX_LINES = 700


def module_name(path: Path) -> str:
    parts = ("sudokit",) + path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute name an ``ImportFrom`` reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def scan() -> tuple[dict[str, set[str]], dict[tuple[str, str], int], dict[str, int]]:
    """(module -> sudokit modules it imports, (module, imported) -> line of each import inside
    a function, module -> lines of source)."""
    modules = {module_name(path): path for path in SRC.rglob("*.py")}
    edges: dict[str, set[str]] = {name: set() for name in modules}
    late: dict[tuple[str, str], int] = {}
    sizes = {}
    for name, path in modules.items():
        text = path.read_text()
        sizes[name] = len(text.splitlines())
        tree = ast.parse(text)
        is_package = path.name == "__init__.py"
        in_function = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                in_function.update(id(inner) for inner in ast.walk(node) if inner is not node)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = resolve(name, node, is_package)
                # ``from . import x`` names a module when x is one
                targets = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                    for alias in node.names
                ]
            elif (
                name == LAZY_LOADER[0]
                and isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == LAZY_LOADER[1]
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                edges[name].add(f"sudokit.kernels.{node.args[0].value}")
                continue
            else:
                continue
            if id(node) in in_function:
                for target in targets:
                    late[(name, target)] = node.lineno
            for target in targets:
                if target.startswith("sudokit"):
                    edges[name].add(target)
    return edges, late, sizes


def floor(module: str) -> int:
    for number, prefixes in enumerate(FLOORS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return number
    raise AssertionError(f"{module} is on no floor: add it to FLOORS")


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by depth-first search (one per back edge)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


EDGES, LATE, SIZES = scan()


def test_no_import_cycle():
    assert cycles(EDGES) == []


def test_no_module_imports_a_higher_floor():
    upward = [
        f"{module} (floor {floor(module)}) imports {target} (floor {floor(target)})"
        for module, targets in EDGES.items()
        for target in targets
        if floor(target) > floor(module)
    ]
    assert upward == []


def test_kernels_import_no_other_part_of_sudokit():
    outside = [
        (module, target)
        for module, targets in EDGES.items()
        if module.startswith("sudokit.kernels")
        for target in targets
        if not target.startswith("sudokit.kernels")
    ]
    assert outside == []


def room(module: str) -> tuple[int, str]:
    """(floor, room) of a kernel module: the room of the longest prefix that names it."""
    found = [
        (len(prefix), number, prefix)
        for number, rooms in enumerate(KERNEL_ROOMS)
        for prefix in rooms
        if module.startswith(prefix + ".") or module == prefix
    ]
    assert found, f"{module} is in no room of kernels/: add its folder to KERNEL_ROOMS"
    _, number, prefix = max(found)
    return number, prefix


def test_every_kernel_module_is_in_a_room():
    rooms = {prefix for floor_rooms in KERNEL_ROOMS for prefix in floor_rooms}
    loose = [module for module in EDGES if module.startswith("sudokit.kernels.") and module.count(".") == 2 and module not in rooms]
    assert loose == [], "kernel modules outside the rooms"
    for module in EDGES:
        if module.startswith("sudokit.kernels."):
            room(module)


def test_no_kernel_imports_a_higher_room_or_its_sibling():
    wrong = [
        f"{module} ({room(module)[1]}) imports {target} ({room(target)[1]})"
        for module, targets in EDGES.items()
        if module.startswith("sudokit.kernels.")
        for target in targets
        if target.startswith("sudokit.kernels.")
        and (room(target)[0] > room(module)[0] or (room(target)[0] == room(module)[0] and room(target)[1] != room(module)[1]))
    ]
    assert wrong == []


def test_imports_inside_functions_are_listed_with_their_reason():
    found = {key for key in LATE}
    assert found == set(LATE_IMPORTS), (
        f"unlisted: {sorted(found - set(LATE_IMPORTS))}; listed but gone: {sorted(set(LATE_IMPORTS) - found)}"
    )


def test_no_module_outside_the_kernels_is_over_700_lines():
    big = {name: lines for name, lines in SIZES.items() if lines > MAX_LINES and ".kernels" not in name}
    assert big == {}


def test_no_public_name_shadows_a_module():
    """``sudokit.x`` is the module ``x`` wherever there is one (a function named like a module
    once made code reach the module through ``importlib``)."""
    import sudokit

    submodules = {name.split(".")[1] for name in EDGES if name.startswith("sudokit.")} - {"__main__"}
    for name in submodules:
        importlib.import_module(f"sudokit.{name}")
    shadowed = [name for name in submodules if not isinstance(getattr(sudokit, name), types.ModuleType)]
    assert shadowed == []


#: the kernels the Python layer calls that are compiled on first use rather than ahead of time
#: (every other entry is in ``kernels/build/ahead.py``'s ``EXPORTS``): none since the learning
#: search joined the build
JIT_ENTRIES: dict[str, tuple[str, ...]] = {}
MAX_KERNEL_PARAMETERS = 10


def _kernel_parameters(module: str) -> dict[str, int]:
    tree = ast.parse((SRC / "kernels" / Path(*module.split("."))).with_suffix(".py").read_text())
    return {node.name: len(node.args.args) for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_no_kernel_entry_takes_more_than_ten_parameters():
    """A kernel the Python layer calls takes its state as named groups (tuples of arrays the
    docstring names) rather than long positional lists: at most ten parameters."""
    from sudokit.kernels.build.ahead import EXPORTS

    counts: dict[str, int] = {}
    for module in {*EXPORTS, *JIT_ENTRIES}:
        parameters = _kernel_parameters(module)  # -1: no such function there
        counts.update({f"{module}.{name}": parameters.get(name, -1) for name in (*EXPORTS.get(module, ()), *JIT_ENTRIES.get(module, ()))})
    assert [entry for entry, count in counts.items() if count < 0] == []
    assert {entry: count for entry, count in counts.items() if count > MAX_KERNEL_PARAMETERS} == {}


#: the records the human-side kernels pass around (tuples of arrays) and their headers (arrays
#: of slots), by the names the code gives them; each has named slots in its family's ``record``
RECORD_NAMES = {
    "kernels/hodoku": {"st", "geo", "step", "hdr", "digs"},
    "kernels/se": {"g", "h", "best", "scratch", "src", "dst", "hdr", "ws"},
    "logic": {"step", "hdr", "digs", "h", "state", "g"},
}
#: slots that hold a header, read by a second subscript (``step[S_HDR][NE]``)
HEADER_SLOTS = {"S_HDR", "S_DIGS", "GEO_INFO", "H_HDR", "WS_COUNTERS"}


def _named(node: ast.expr, names: set[str]) -> bool:
    """``node`` is a record by its name: ``step``, or an attribute such as ``self.step``."""
    return (isinstance(node, ast.Name) and node.id in names) or (isinstance(node, ast.Attribute) and node.attr in names)


def _bare_slot_reads(path: Path, names: set[str]) -> list[str]:
    """``record[3]`` and ``record[HEADER][3]`` reads in a file, where ``record`` is one of the
    names the code gives records (``names``), outside the ``borrow_*`` helpers (which take a
    record apart in the order its maker builds it)."""
    found = []
    tree = ast.parse(path.read_text())
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or function.name.startswith("borrow"):
            continue
        for node in ast.walk(function):
            if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)):
                continue
            outer = node.value
            if _named(outer, names):
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
            elif (isinstance(outer, ast.Subscript) and _named(outer.value, names)
                  and isinstance(outer.slice, (ast.Name, ast.Attribute))
                  and (outer.slice.id if isinstance(outer.slice, ast.Name) else outer.slice.attr) in HEADER_SLOTS):
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_record_slot_is_read_by_a_bare_number():
    """HoDoKu's and SE's state, step and hint records are read by slot names (``st[ST_CAND]``,
    ``h[H_HDR][NE]``), in the kernels and in the Python layer that decodes them."""
    found = []
    for folder, names in RECORD_NAMES.items():
        for path in sorted((SRC / folder).glob("*.py")):
            found += _bare_slot_reads(path, names)
    assert found == []


def _ids(module) -> dict[str, int]:
    """A technique id module's ids by name (its upper-case integers but the bounds)."""
    return {name: value for name, value in vars(module).items()
            if name.isupper() and isinstance(value, int) and name not in {"KINDS", "LEVEL_STRIDE"}}


def _dispatched(function: str, path: Path, by_name: dict[str, int]) -> list[int]:
    """The ids ``function`` in ``path`` tells apart (``kind == T.NAME`` or
    ``T.FIRST <= kind <= T.LAST``), in order."""
    tree = ast.parse(path.read_text())
    body = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function)
    found = []
    for compare in ast.walk(body):
        if not isinstance(compare, ast.Compare):
            continue
        terms = [compare.left, *compare.comparators]
        named = [by_name[term.attr] for term in terms if isinstance(term, ast.Attribute)]
        if not any(isinstance(term, ast.Name) and term.id == "kind" for term in terms):
            continue
        if isinstance(compare.ops[0], ast.Eq):
            found += named
        elif len(named) == 2 and all(isinstance(op, ast.LtE) for op in compare.ops):
            found += range(named[0], named[1] + 1)
    return found


def test_one_technique_registry_for_hodoku():
    """The technique table (``logic/techniques.py``) is the registry: every id the kernels know
    has exactly one row there, and the kernels' dispatch (``solver.find``) finds steps of every
    technique the solving loop tries, and of nothing else."""
    from sudokit.kernels.hodoku import ids
    from sudokit.logic.techniques import BRUTE_FORCE, SOLVING_ORDER, TECHNIQUES

    by_name = _ids(ids)
    assert len(set(by_name.values())) == len(by_name)
    assert sorted(technique.id for technique in TECHNIQUES) == sorted(by_name.values())
    assert all(0 < value < ids.KINDS for value in by_name.values())
    dispatched = _dispatched("find", SRC / "kernels" / "hodoku" / "solver.py", by_name)
    assert len(dispatched) == len(set(dispatched))
    assert set(dispatched) == {technique.id for technique in SOLVING_ORDER}
    assert BRUTE_FORCE.id not in dispatched


def test_one_technique_registry_for_se():
    """Every rule id of SE's kernels (``kernels/se/ids.py``) has its name in ``logic/se.py``."""
    import numpy as np

    from sudokit.kernels.se import ids
    from sudokit.logic.se import technique_name

    header = np.zeros(16, dtype=np.int64)
    unnamed = [name for name, kind in _ids(ids).items() if technique_name(kind, 1, header, 4) == f"technique {kind}"]
    assert unnamed == []
    assert technique_name(ids.KINDS, 1, header, 4) == f"technique {ids.KINDS}"  # the fallback the check reads



def _functions_naming(path: Path, names: set[str]) -> list[str]:
    """The functions of a file that name every one of ``names`` (as ``module.NAME`` or bare)."""
    found = []
    for function in ast.walk(ast.parse(path.read_text())):
        if isinstance(function, ast.FunctionDef):
            named = {node.attr for node in ast.walk(function) if isinstance(node, ast.Attribute)}
            named |= {node.id for node in ast.walk(function) if isinstance(node, ast.Name)}
            if names <= named:
                found.append(f"{path.name}:{function.name}")
    return found


def test_one_chaining_and_one_multiple_chain_search_for_every_se_tier():
    """SE's doChaining and its multiple-chain search (cell and region forcing chains, the
    contradictions and double implications of the dynamic forms) are written once each, and
    every tier of nesting is a compiled copy of them (``instantiate``), not a second text."""
    se = sorted((SRC / "kernels" / "se").glob("*.py"))
    searches = [name for path in se for name in _functions_naming(path, {"CELL_FORCING", "REGION_FORCING"})]
    assert searches == ["forcing.py:_multiple"]
    chainings = [name for path in se for name in _functions_naming(path, {"on_to_off", "off_to_on", "ADVANCED"})]
    assert chainings == ["chains.py:chaining"]
    copies = {}
    for path in se:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "instantiate":
                copies.setdefault(node.args[0].id, []).append(node.args[1].value)
    assert sorted(copies["_multiple"]) == ["mc_g0", "mc_g1", "mc_g2", "mc_g3"]
    assert sorted(copies["chaining"]) == ["dc_g2", "dc_g3", "do_chaining"]


def main() -> None:
    for number, prefixes in enumerate(FLOORS):
        members = sorted(module for module in EDGES if floor(module) == number and not module.startswith("sudokit.kernels."))
        print(f"floor {number}: {', '.join(members)}")
    print("\nkernels/, in rooms:")
    for number, rooms in enumerate(KERNEL_ROOMS):
        for prefix in rooms:
            members = sorted(module for module in EDGES if module.startswith("sudokit.kernels.") and room(module) == (number, prefix))
            names = [module.removeprefix(prefix + ".") for module in members if module != prefix]
            where = prefix.removeprefix("sudokit.kernels.").replace(".", "/")
            print(f"  floor {number}: {where}/ {', '.join(names)}" if names else f"  floor {number}: {where}.py")
    print()
    for module in sorted(EDGES):
        targets = sorted(EDGES[module])
        if targets:
            print(f"{module} -> {', '.join(targets)}")
    print()
    for (module, target), line in sorted(LATE.items()):
        print(f"late import {module}:{line} {target}: {LATE_IMPORTS.get((module, target), 'UNLISTED')}")


if __name__ == "__main__":
    main()

