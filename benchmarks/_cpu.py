"""What the benchmarks say about the machine: the CPU's vector extensions and what numba
compiles for (its target can be set apart from the CPU: ``NUMBA_CPU_NAME`` and
``NUMBA_CPU_FEATURES``, e.g. AVX2 code on an AVX-512 machine), printed with every table."""

from __future__ import annotations

import os
from pathlib import Path


def cpu_flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def widest(flags: set[str]) -> str:
    return "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "no AVX2"


def cpu_line() -> str:
    """``CPU: AVX-512 (avx avx2 ...)``, and numba's target where the environment sets one."""
    flags = cpu_flags()
    if not flags:
        return "CPU: unknown (no /proc/cpuinfo)"
    vector = " ".join(sorted(f for f in flags if f.startswith(("avx", "fma", "sse4"))))
    line = f"CPU: {widest(flags)} ({vector})"
    name = os.environ.get("NUMBA_CPU_NAME")
    features = os.environ.get("NUMBA_CPU_FEATURES", "")
    if name or features:
        # numba takes NUMBA_CPU_FEATURES as the whole list; without it, the host's features
        code = widest({f[1:] for f in features.split(",") if f.startswith("+")}) if features else widest(flags)
        line += f"; numba compiles {code} code for {name or 'the host'} (NUMBA_CPU_NAME, NUMBA_CPU_FEATURES)"
    return line
