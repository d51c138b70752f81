"""The machine a benchmark ran on: processor, cores, memory, Python and package versions.

Read from ``/proc`` where it exists (Linux) and from :mod:`platform` otherwise, so that a
results file says what produced its numbers.
"""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["PACKAGES", "Machine", "describe_machine"]

# The distributions whose versions decide the numbers, as pip names them.
PACKAGES: tuple[str, ...] = (
    "seqform",
    "numpy",
    "scipy",
    "highspy",
    "cvxpy",
    "ecos",
    "open_spiel",
    "pygambit",
    "matplotlib",
)

# Environment variables that change how fast numerical code runs.
_ENVIRONMENT: tuple[str, ...] = (
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
)


@dataclass(frozen=True)
class Machine:
    """What the numbers were measured on.

    cpu : the processor's model name
    logical_cores : processors the operating system reports
    usable_cores : processors this process may run on (its affinity mask)
    memory_gb : physical memory, in GiB
    system : operating system and kernel, as :func:`platform.platform` gives them
    python : the interpreter's version and implementation
    packages : installed version of each of :data:`PACKAGES` ("not installed" if absent)
    environment : the variables in ``_ENVIRONMENT`` that are set, with their values
    commit : the seqform checkout's git commit, with ``-dirty`` for uncommitted changes
    """

    cpu: str
    logical_cores: int
    usable_cores: int
    memory_gb: float
    system: str
    python: str
    packages: dict[str, str]
    environment: dict[str, str]
    commit: str

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Machine:
        """Rebuild a description written by :func:`dataclasses.asdict`."""
        return cls(**data)


def _cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or platform.machine() or "unknown"
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Hardware", "cpu model"):
            return value.strip()
    return platform.processor() or platform.machine() or "unknown"


def _memory_gb() -> float:
    try:
        text = Path("/proc/meminfo").read_text(encoding="utf-8")
    except OSError:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        return pages * page_size / 2**30
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024 / 2**30
    return float("nan")


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def _commit(directory: Path) -> str:
    try:
        described = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=directory,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return described.stdout.strip() or "unknown"


def describe_machine() -> Machine:
    """Describe this machine, this interpreter and the installed packages."""
    return Machine(
        cpu=_cpu_model(),
        logical_cores=os.cpu_count() or 1,
        usable_cores=_usable_cores(),
        memory_gb=round(_memory_gb(), 1),
        system=platform.platform(),
        python=f"{platform.python_implementation()} {platform.python_version()}",
        packages={name: _version(name) for name in PACKAGES},
        environment={name: os.environ[name] for name in _ENVIRONMENT if name in os.environ},
        commit=_commit(Path(__file__).resolve().parent),
    )
