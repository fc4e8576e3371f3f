"""Kernels compiled ahead of time, when the package is built: the searches a first command
runs (any shape, any variant, batches of boards, the givens check), generation, the human-style
solver's (HoDoKu's techniques: ``hint``, ``explain``, ``rate`` on HoDoKu's scale, any boxed size)
and Sudoku Explainer's rating loop with its nested forcing chains, so
that neither a first run nor a warm one waits for numba (importing it and loading its cache took
most of a warm run; compiling the techniques, minutes).

``python src/sudokit/kernels/build/ahead.py DIR`` (what ``setup.py`` runs while building) compiles
``EXPORTS`` with numba's ahead-of-time compiler (``numba.pycc``), one extension module a unit
of ``UNITS`` (``_ahead_search`` ...) in DIR, the units in processes side by side on every core.
On an x86-64 CPU with AVX2 and without AVX-512 it compiles for the portable x86-64-v3 baseline
(``BASELINE_FEATURES``), so that a wheel built there serves any such machine; elsewhere, or
with ``SUDOKIT_AHEAD_TARGET=host``, for the building CPU alone (``build_target``). Beside each
unit it writes its ``.json``: the digest of the kernel sources it was compiled from (an edited
HoDoKu finder leaves the searches compiled), the building machine, the target's features, its
lane layout and the constants the Python layer reads from those modules. ``load(name)`` gives
one kernel module's compiled functions and constants (and the plain-Python functions of
``PLAIN`` it re-exports), or None where there is no extension, where it was built from other
sources (an edited checkout), for features this CPU lacks or for another lane layout
(``_runs_here``), or where the JIT is disabled or ``SUDOKIT_AHEAD=0``: the caller then imports
the kernel module and numba compiles it on first use, as everywhere else. This module imports
neither numba nor the kernels (nor llvmlite, on the machine that built the units).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import platform
import sys
import types
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
KERNELS = HERE.parent

#: the compile units, each an extension of its own, the longest to compile first; a unit's
#: digest covers its modules' sources, what they import and its entries below (``BUILD``
#: changes when the way of building does)
UNITS: dict[str, tuple[str, ...]] = {
    "_ahead_hodoku": ("hodoku.core", "hodoku.solver"),
    "_ahead_nested": ("se.nested",),
    "_ahead_se": ("se.core", "se.rate"),
    "_ahead_general": ("search.general", "search.general_batch", "search.generate", "search.optimize", "search.estimate",
                       "search.learn"),
    "_ahead_canon": ("search.canon",),
    "_ahead_search": ("search.classic", "search.hexa", "search.givens"),
}
BUILD = 3

#: the human-style solver's arrays, as ``hodoku.record`` and ``logic.grid.geometry`` make them:
#: its state, the board's geometry tables (read-only) and a step record
_STATE = "Tuple((int32[::1], uint64[::1], int32[:, ::1], int32[:, ::1], int32[:, ::1], int64[::1], uint8[::1]))"
_TABLE = "Array(int32, 2, 'C', readonly=True)"
_GEO = f"Tuple(({_TABLE}, {_TABLE}, {_TABLE}, Array(int64, 1, 'C', readonly=True)))"
_STEP = "Tuple((int64[::1], int32[:, ::1], int32[:, ::1], int32[::1], int32[::1], int32[::1], int32[:, ::1], uint64[::1]))"

#: names a signature may use for records of many arrays: the numba type of what the maker
#: (a module of plain Python, a function) returns, read at build time
RECORDS = {
    "SE_GRID": ("se.record", "new_grid"),
    "SE_HINT": ("se.record", "new_hint"),
    "SE_WS": ("se.record", "new_workspace"),
    "SE_HINTS": ("se.record", "new_hints"),
    "LEARN_STATE": ("search.learner", "state_record"),
}
_SE_STEP = "SE_GRID, SE_WS, SE_HINT, SE_HINT, SE_HINT"
#: the general kernel's tables: a geometry's (read-only) and a variant's (``kernels/search/cages.py``)
_HOUSES = "Array(int32, 2, 'C', readonly=True)"
_VARIANT = "Tuple((uint64[::1], int32[:, ::1], int64[:, ::1], uint64[::1]))"
_GRIDS = f"{_HOUSES}, {_HOUSES}, uint64, int64[::1], int64"

#: kernel module -> exported function -> numba signature (arrays C-contiguous, as the Python
#: layer makes them). The compiled functions do not check their arguments' types (a wrong
#: dtype is undefined behaviour): the Python layer converts every array it hands them.
EXPORTS: dict[str, dict[str, str]] = {
    "search.classic": {
        "search": "int64(uint8[::1], int32[::1], int64[::1], int64[::1], int64[::1], int64, int64, int64, uint8[::1])",
        "solve_many": "void(uint8[:, ::1], int64, int64, uint8[:, ::1], int64[::1], int64[::1], int64[::1], boolean[::1])",
        "repeats": "void(uint8[:, ::1], boolean[::1])",
    },
    "search.hexa": {
        "search": (
            "int64(uint8[::1], Tuple((uint64[::1], int64[::1], int64[::1], int64[::1])), int64, int64, int64[::1],"
            " int64, int64, int64, uint8[::1])"
        ),
        "solve_many": (
            "void(uint8[:, ::1], int64, int64, int64, int64, uint8[:, ::1], int64[::1], int64[::1],"
            " int64[::1], boolean[::1])"
        ),
    },
    "search.givens": {
        "repeat_in": "boolean(uint8[::1], int32[:, ::1], int64)",
        "repeats": "void(uint8[:, ::1], int32[:, ::1], uint64[::1], boolean[::1])",
    },
    "hodoku.core": {
        "load": f"void({_STATE}, {_GEO}, int32[::1], boolean[::1])",
        "remove_marks": f"void({_STATE}, {_GEO}, uint64[::1])",
        "apply": f"void({_STATE}, {_GEO}, {_STEP})",
    },
    "hodoku.solver": {
        "find": f"boolean({_STATE}, {_GEO}, {_STEP}, int64, int64)",
        "next_step": f"int64({_STATE}, {_GEO}, {_STEP}, int64[::1])",
        "rate_many": (
            f"int64(int32[:, ::1], int32[:, ::1], {_GEO}, int64[::1], {_STATE}, {_STEP},"
            " int64[:, ::1], int64[::1], int64[::1])"
        ),
    },
    "search.general": {
        "search": (
            f"int64(uint8[::1], Tuple(({_HOUSES}, {_HOUSES}, uint64)), Tuple((uint64[:, ::1], int64[::1], uint64[::1],"
            " int32[::1], uint8[::1], uint64[:, ::1], int64[:, ::1])), int64[::1], int64, int64, int64, uint8[::1],"
            f" int64[::1], {_VARIANT})"
        ),
        "scratch": f"Tuple((uint64[:, ::1], int64[:, ::1]))({_HOUSES})",
        "default_options": f"void({_HOUSES}, int64[::1])",
        "variant_options": f"void({_HOUSES}, int64[::1])",
        "_boxed": f"boolean({_HOUSES}, int64, int64)",
    },
    "search.general_batch": {
        "solve_many": (
            f"void(uint8[:, ::1], Tuple(({_HOUSES}, {_HOUSES}, uint64)), int64, int64, Tuple((uint8[:, ::1], int64[::1],"
            f" int64[::1], int64[::1], boolean[::1])), {_VARIANT}, boolean)"
        ),
    },
    "search.generate": {
        "carve": (
            f"void(int64, uint8[:, ::1], Tuple(({_HOUSES}, {_HOUSES}, uint64)), Tuple((Array(int64, 1, 'C', readonly=True),"
            " Array(int64, 1, 'C', readonly=True), int64[:, ::1])), int64, boolean, int64, int64, int64[::1],"
            " Tuple((uint8[:, ::1], int64[::1], int64[::1])))"
        ),
        "random_grids": f"void({_HOUSES}, int64, uint64, int64[::1], int64, uint8[:, ::1], boolean[::1])",
        "searched_grids": f"void({_GRIDS}, uint8[:, ::1], boolean[::1])",
        "mix": f"void({_HOUSES}, {_HOUSES}, uint64, uint64[::1], int64, int64, int64, int64[::1], uint8[:, ::1])",
        "transform": "void(uint8[:, ::1], int64[:, ::1], int64[:, ::1], boolean[::1], uint8[:, ::1], uint8[:, ::1])",
    },
    "search.optimize": {
        "search": (
            f"int64(uint8[::1], Tuple(({_HOUSES}, {_HOUSES}, uint64)), Tuple((int32[:, ::1], int64[::1])),"
            " Tuple((uint64[:, ::1], int64[::1], uint64[::1], int64[::1], int32[::1], uint8[::1], int64[:, ::1],"
            " int64[:, ::1], int64[::1], int64[::1], int64[::1], int64[::1])), int64[::1], int64, int64, uint8[::1], int64,"
            f" {_VARIANT})"
        ),
    },
    # the learning search of hard variants (pencil marks, jigsaws) and big boards: its board
    # tables and state arrays are ``learner``'s
    "search.learn": {
        "search": (
            f"int64(uint8[::1], Tuple(({_HOUSES}, {_HOUSES}, int32[:, ::1], int32[:, ::1], uint64[:, :, ::1],"
            f" int32[:, :, ::1])), int64[::1], int64, int64, int64, uint8[::1], LEARN_STATE, uint64[::1])"
        ),
    },
    "search.estimate": {
        "probes": (
            "int64(uint64[::1], Tuple((int64[:, ::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], int64[::1])), int64,"
            " uint64[::1], float64, int64, int64[::1], float64[::1], Tuple((uint64[::1], int64[::1], float64[::1])),"
            " int64[::1])"
        ),
    },
    # canon.py hands minlex_line the line's bytes and a bytearray for the form (no arrays to
    # make on the one-board road)
    "search.canon": {
        "minlex": "void(uint8[:, ::1], uint8[:, ::1], int8[:, ::1])",
        "minlex_line": "int64(Bytes(uint8, 1, 'C', readonly=True), ByteArray(uint8, 1, 'C'))",
    },
    "se.core": {
        "load": "void(SE_GRID, int64[::1])",
        "apply_hint": "void(SE_GRID, SE_HINT)",
        "solved": "boolean(SE_GRID)",
    },
    "se.rate": {
        "rate": f"void({_SE_STEP}, int64[::1], float64[::1], int64[:, ::1], int64)",
        "step": f"int64({_SE_STEP}, int64)",
        "book": "void(SE_GRID, SE_HINT, int64[::1], float64[::1], int64[:, ::1], int64)",
    },
    # the nested forcing chains: a unit of their own, the second longest to compile, so that
    # the build's processes share the work
    "se.nested": {
        "nested_step": "int64(SE_GRID, SE_WS, SE_HINT, SE_WS, SE_WS, SE_HINTS, SE_HINTS, int64)",
    },
}
#: kernel module -> (a module of plain Python that imports no numba, the functions of it the
#: kernel module re-exports for the Python layer), served beside the compiled functions
PLAIN: dict[str, tuple[str, tuple[str, ...]]] = {
    "hodoku.core": ("hodoku.record", ("new_state", "new_step")),
    "se.core": ("se.record", ("new_grid", "new_hint", "new_workspace")),
    "se.nested": ("se.record", ("new_hints",)),
}
#: the same, for functions that take the kernel module's compiled functions as their first
#: argument (they get this module's namespace)
BOUND: dict[str, tuple[str, tuple[str, ...]]] = {
    "search.general": ("search.options", ("options_for",)),
    "search.learn": ("search.learner", ("Learner",)),
}
#: the module constants the Python layer reads, kept beside the compiled functions
CONSTANTS: dict[str, tuple[str, ...]] = {
    "search.classic": ("LEVELS", "SLOTS"),
    "search.hexa": ("CELLS", "LEVELS", "SLOTS", "DEFAULT_RULES", "DEFAULT_BRANCHING", "CELL", "WDEG", "LOCKED"),
    "search.givens": (),
    "hodoku.core": (),
    "hodoku.solver": ("RC_MAX_STEPS", "RC_FIRST", "RC_RESUME", "RC_SLICE", "RC_SLOTS"),
    "search.general": ("OPTIONS_SIZE", "RULES", "BRANCH", "RESTART", "SEED", "LAZY", "VALUES", "BOX_HEIGHT",
                       "BOX_WIDTH", "LOCKED"),
    "search.general_batch": (),
    "search.generate": ("CLASSIC", "GENERAL", "SLICED", "UNIQUE", "MINIMAL", "CELL_MINIMAL"),
    "search.optimize": ("SWEEPS", "STATS_SIZE", "FOUND", "BEST"),
    "search.estimate": (),
    "search.learn": (),
    "se.core": (),
    "se.nested": (),
    "search.canon": ("HOW_SIZE",),
    "se.rate": ("RES", "R_STATUS", "R_STEPS", "R_RULE", "R_PEARL_SET", "RUNNING", "SOLVED", "STUCK", "BUDGET",
                "BASE_RULES", "RULE_FLOORS"),
}


#: the x86-64-v3 level of the x86-64 psABI (AVX2, FMA, BMI1 and 2, LZCNT, MOVBE: x86-64
#: machines since 2013-2015), in LLVM's names: the portable target a unit is compiled for where
#: the building CPU has it and lacks AVX-512, so that a wheel built on one such machine serves
#: another (``SUDOKIT_AHEAD_TARGET=host`` compiles for the building CPU alone)
BASELINE_CPU = "x86-64-v3"
BASELINE_FEATURES = ("+64bit,+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+cx16,+sahf,+popcnt,+sse3,+sse4.1,+sse4.2,+ssse3,"
                     "+avx,+avx2,+bmi,+bmi2,+f16c,+fma,+lzcnt,+movbe,+xsave")


def _switched_on(features: str) -> set[str]:
    """The features an LLVM feature string turns on (``+avx2,-avx512f`` -> ``{"avx2"}``)."""
    return {feature[1:] for feature in features.split(",") if feature.startswith("+")}


@functools.lru_cache(maxsize=None)
def _host_flags() -> str:
    """The CPU's instruction set flags as the kernel reports them (``/proc/cpuinfo``), else
    LLVM's view of the host (an import of llvmlite, ~0.05 s)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return " ".join(sorted(set(line.split(":", 1)[1].split())))
    except OSError:
        pass
    import llvmlite.binding as llvm

    return f"{llvm.get_host_cpu_name()} {llvm.get_host_cpu_features().flatten()}"


@functools.lru_cache(maxsize=None)
def _host_features() -> frozenset[str]:
    """The features LLVM finds on this CPU (``avx2``, ``bmi2``, ...)."""
    import llvmlite.binding as llvm

    return frozenset(name for name, on in llvm.get_host_cpu_features().items() if on)


def cpu() -> str:
    """What the compiled code may assume of the CPU: the instruction set flags of this machine,
    and numba's target where the environment sets one."""
    target = f"{os.environ.get('NUMBA_CPU_NAME', '')}|{os.environ.get('NUMBA_CPU_FEATURES', '')}"
    return hashlib.sha256(f"{platform.machine()}|{target}|{_host_flags()}".encode()).hexdigest()


def _wide_here() -> bool:
    """Whether this process's JIT kernels lay their lanes out for AVX-512 (``lanes.WIDE``),
    told without importing numba: its target features where the environment sets them, else
    the host's."""
    features = os.environ.get("NUMBA_CPU_FEATURES")
    if features:
        return "+avx512f" in features.split(",")
    return "avx512f" in _host_flags().split()


def _runs_here(info: dict) -> bool:
    """Whether a unit's machine code runs on this CPU with the lane layout this process's JIT
    kernels use (the Python layer and both kinds of kernel share arrays laid out so): built
    here, or built elsewhere for features this CPU has (the baseline)."""
    wide = info.get("wide")
    if info["cpu"] == cpu():
        return wide is None or wide == _wide_here()
    target = info.get("target")
    if target is None or wide is None or os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return False
    needed = _switched_on(target["features"])
    host = _host_features()
    return bool(needed) and needed <= host and ("avx512f" in host) == wide


def build_target() -> str:
    """What the build compiles for: ``SUDOKIT_AHEAD_TARGET`` (``baseline`` or ``host``), else
    the baseline where this CPU has it and lacks AVX-512 (whose lanes are laid out apart) and
    numba's environment names no target of its own, else the host."""
    chosen = os.environ.get("SUDOKIT_AHEAD_TARGET", "").strip().lower()
    if chosen in ("baseline", "host"):
        return chosen
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return "host"
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return "host"
    host = _host_features()
    return "baseline" if _switched_on(BASELINE_FEATURES) <= host and "avx512f" not in host else "host"


def sources_digest(files: list[str], entries: str = "") -> str:
    """A digest of kernel sources, each named by its path below ``kernels/`` (and of a unit's
    ``entries``)."""
    digest = hashlib.sha256(entries.encode())
    for name in files:
        digest.update(name.encode())
        digest.update((KERNELS / name).read_bytes())
    return digest.hexdigest()


def _usable(info: dict, unit: str | None = None) -> bool:
    if os.environ.get("SUDOKIT_AHEAD", "1") == "0" or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    try:
        made = entries(unit) if unit is not None else ""
        return info["sources"] == sources_digest(info["files"], made) and _runs_here(info)
    except (KeyError, OSError, TypeError, AttributeError):
        return False


_loaded: dict[str, SimpleNamespace | None] = {}


def load(name: str) -> SimpleNamespace | None:
    """The compiled functions and constants of kernel module ``name``, as attributes; None
    where they cannot serve (see the module's doc)."""
    if name in _loaded:
        return _loaded[name]
    found = None
    unit = next((unit for unit, modules in UNITS.items() if name in modules), None)
    if unit is not None:
        info = _info(unit)
        if info is not None:
            try:
                extension = importlib.import_module(f"{__package__}.{unit}")
            except ImportError:
                extension = None
            if extension is not None:
                found = SimpleNamespace(**{k: _constant(v) for k, v in info["constants"][name].items()})
                for function in EXPORTS[name]:
                    setattr(found, function, getattr(extension, _exported(name, function)))
                for table, bound in ((PLAIN, False), (BOUND, True)):
                    if name in table:
                        module, functions = table[name]
                        plain = importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.{module}")
                        for function in functions:
                            value = getattr(plain, function)
                            setattr(found, function, functools.partial(value, found) if bound else value)
    _loaded[name] = found
    return found


def _constant(value):
    """A constant as the kernel module has it: an integer, or an array kept as its list."""
    if isinstance(value, dict):
        import numpy as np

        return np.array(value["array"], dtype=value["dtype"])
    return value


def _saved(value) -> int | dict:
    if hasattr(value, "dtype") and value.ndim > 0:
        return {"array": value.tolist(), "dtype": str(value.dtype)}
    return int(value)


def _exported(module: str, function: str) -> str:
    """The extension's name for a kernel function: ``search_classic_solve_many``."""
    return f"{module.replace('.', '_')}_{function}"


_info_cache: dict[str, dict | None] = {}


def _info(unit: str) -> dict | None:
    if unit not in _info_cache:
        try:
            info = json.loads((HERE / f"{unit}.json").read_text())
        except (OSError, ValueError):
            info = None
        _info_cache[unit] = info if info is not None and _usable(info, unit) else None
    return _info_cache[unit]


def entries(unit: str) -> str:
    """What a unit's digest covers beside the sources: its entries and how they are built."""
    listed = [[m, EXPORTS[m], CONSTANTS[m], PLAIN.get(m)] + ([BOUND[m]] if m in BOUND else []) for m in UNITS[unit]]
    return json.dumps([BUILD] + listed)


# -- the build --------------------------------------------------------------------------------


def _link_callees_without_running_them(codegen, jit) -> None:
    """The build links an export's callees as LLVM IR and never runs them: numba is kept from
    optimising, generating and caching each dispatcher's module on its own (the extension's
    module gets the passes once); numba's runtime library (``nrt``) is built as usual."""
    jit.CACHE = False
    library: Any = getattr(codegen, "JITCodeLibrary", None)
    engine: Any = getattr(codegen, "JITCPUCodegen", None)
    needed = [(library, "_optimize_final_module"), (library, "_finalize_specific"), (library, "_ensure_finalized"),
              (library, "get_pointer_to_function"), (engine, "set_env"), (engine, "_scan_and_fix_unresolved_refs")]
    if not all(hasattr(owner, name) for owner, name in needed):
        return  # numba laid out otherwise: the build is only slower

    def runtime_only(method, otherwise):
        return lambda self, *args: method(self, *args) if self.name == "nrt" else otherwise(self, *args)

    library._optimize_final_module = runtime_only(library._optimize_final_module, lambda self: None)
    # what numba does to a module before generating its code, which callers then link
    library._finalize_specific = runtime_only(
        library._finalize_specific, lambda self: self._codegen._scan_and_fix_unresolved_refs(self._final_module))
    # a dispatcher's entry and environment: never called in the build
    library.get_pointer_to_function = runtime_only(
        library.get_pointer_to_function, lambda self, name: self._ensure_finalized() or 0)
    engine.set_env = lambda self, env_name, env: None


def build(folder: Path, unit: str, machine: str | None = None) -> None:
    """Compile ``unit``'s entries of ``EXPORTS`` into ``folder/<unit>*.so`` and write
    ``folder/<unit>.json``. Run in a process of its own: the kernels are imported from this
    file's folder. ``machine``: the building machine's ``cpu()`` before the build chose its
    target (the JSON's ``cpu``, which spares a load there asking LLVM)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc is "pending deprecation" in numba 0.57+
        from numba.pycc import CC

    import numba
    from numba import types as numba_types
    from numba.core import codegen
    from numba.pycc import compiler as pycc_compiler

    from sudokit.kernels.build import jit
    from sudokit.kernels.search import lanes

    # the features the JIT would compile for (the host's, or NUMBA_CPU_FEATURES), which the
    # kernels chose their lane layouts by, rather than the CPU model's defaults (a machine
    # may lack what its model name implies)
    features = lanes.codegen_features()
    codegen.AOTCPUCodegen._customize_tm_features = lambda self: features  # type: ignore[method-assign]
    # the exported functions release the GIL while they run, as the JIT-compiled kernels do
    # (``nogil``): pycc's wrappers keep it by default, which made threads rate one board at a time
    class ReleasingFlags(pycc_compiler.Flags):
        def __init__(self, *args, **options):
            super().__init__(*args, **options)
            self.release_gil = True

    pycc_compiler.Flags = ReleasingFlags  # type: ignore[misc]
    _link_callees_without_running_them(codegen, jit)
    compiler = CC(unit, source_module="sudokit.kernels")
    compiler.output_dir = str(folder)
    compiler.target_cpu = os.environ.get("NUMBA_CPU_NAME") or "host"
    constants: dict[str, dict[str, int | dict]] = {}
    files: set[str] = set()
    names = dict(numba_types.__dict__)
    for record, (maker_module, maker) in RECORDS.items():
        made = getattr(importlib.import_module(f"sudokit.kernels.{maker_module}"), maker)()
        names[record] = numba.typeof(made)
    for name in UNITS[unit]:
        module = importlib.import_module(f"sudokit.kernels.{name}")
        files |= jit.kernel_closure(name)
        constants[name] = {constant: _saved(getattr(module, constant)) for constant in CONSTANTS[name]}
        for table in (PLAIN, BOUND):
            if name in table:
                files |= jit.kernel_closure(table[name][0])
        for function, text in EXPORTS[name].items():
            signature = eval(text, {}, names)  # numba's own signature syntax, with the records' names
            compiler.export(_exported(name, function), signature)(getattr(module, function).py_func)
    compiler.compile()
    listed = sorted(module.replace(".", "/") + ".py" for module in files)
    info = {"sources": sources_digest(listed, entries(unit)), "files": listed, "cpu": machine or cpu(),
            "target": {"cpu": compiler.target_cpu, "features": features}, "wide": bool(lanes.WIDE),
            "constants": constants}
    (folder / f"{unit}.json").write_text(json.dumps(info, indent=1) + "\n")


def build_all(folder: Path) -> int:
    """Build every unit into ``folder``, each in a process of its own, as many at once as
    there are CPUs; say on stdout what each prepares and how long it took. Returns the
    failures' count (a unit that failed leaves the others usable)."""
    import subprocess
    import time

    try:
        width = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        width = os.cpu_count() or 1
    waiting, failed = list(UNITS), 0
    running: dict[str, subprocess.Popen] = {}
    began = time.perf_counter()
    while waiting or running:
        while waiting and len(running) < max(1, width):
            unit = waiting.pop(0)
            print(f"sudokit: compiling {', '.join(UNITS[unit])} ahead of time", flush=True)
            command = [sys.executable, __file__, str(folder), "--unit", unit]
            running[unit] = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.2)
        for unit, process in list(running.items()):
            if process.poll() is None:
                continue
            _, errors = process.communicate()
            del running[unit]
            spent = time.perf_counter() - began
            if process.returncode:
                failed += 1
                reason = (errors.strip().splitlines() or [f"exit status {process.returncode}"])[-1]
                print(f"sudokit: {unit} not compiled ({reason})", file=sys.stderr, flush=True)
            else:
                print(f"sudokit: {unit} compiled ({spent:.0f} s since the build began)", flush=True)
    return failed


def _main(argv: list[str]) -> int:
    """``ahead.py DIR``: build every unit into DIR; ``ahead.py DIR --unit NAME``: one unit,
    importing the kernels from beside this file without running the package's ``__init__``
    (the build environment has numba and numpy only)."""
    import tempfile

    folder = Path(argv[0]).resolve()
    if len(argv) < 3:
        return 1 if build_all(folder) else 0
    package = types.ModuleType("sudokit")
    setattr(package, "__path__", [str(KERNELS.parent)])
    sys.modules["sudokit"] = package
    # an empty cache: a callee loaded from numba's cache cannot be linked into the extension
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="sudokit-ahead-")
    os.environ.pop("NUMBA_DISABLE_JIT", None)
    machine = cpu()
    if build_target() == "baseline":  # before numba is imported: it reads its target then
        os.environ["NUMBA_CPU_NAME"], os.environ["NUMBA_CPU_FEATURES"] = BASELINE_CPU, BASELINE_FEATURES
    build(folder, argv[2], machine)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
