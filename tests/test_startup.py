"""The command line starts without the heavy optional packages.

``import seqform.cli.main`` is what every ``python -m seqform`` run pays before it parses its
arguments; each command module is imported on dispatch, so ``--help`` and ``solve kuhn`` never
load pygambit (and with it pandas and scipy.stats), cvxpy, OpenSpiel, matplotlib or jsonschema.
A fresh interpreter is used because this test process has imported all of them already.  The
time it takes is measured by ``benchmarks/startup.py``, never here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pygambit", "cvxpy", "pyspiel", "pandas", "scipy.stats", "matplotlib", "jsonschema")

ROOT = Path(__file__).resolve().parent.parent


SOLVING = ("scipy", "highspy", "clarabel")  # what a solve needs, but --help and parsing do not


def _loaded_after(statement: str, packages: tuple[str, ...] = HEAVY) -> list[str]:
    """The ``packages`` in ``sys.modules`` after ``statement`` runs in a fresh Python."""
    probe = f"import sys; {statement}; print(' '.join(m for m in {packages!r} if m in sys.modules))"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.split()


def test_importing_the_cli_loads_no_heavy_package() -> None:
    assert _loaded_after("import seqform.cli.main") == []


def test_importing_the_cli_or_the_package_loads_no_solver() -> None:
    # the facade's names load on first use and the parser reads the option names from
    # seqform.routes.options, so scipy and the LP solvers wait for a command that solves
    assert _loaded_after("import seqform.cli.main", SOLVING) == []
    assert _loaded_after("import seqform", SOLVING) == []
    assert "scipy" in _loaded_after("import seqform; seqform.solve", SOLVING)  # the probe sees


@pytest.mark.slow
def test_help_loads_no_heavy_package() -> None:
    statement = (
        "import contextlib, io, seqform.cli.main as m\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    m.main(['--help'])"
    )
    assert _loaded_after(f"exec({statement!r})") == []


@pytest.mark.slow
def test_the_probe_sees_a_heavy_package_when_one_is_loaded() -> None:
    # The checks above could pass by never seeing anything: importing the pygambit
    # conversion (which reads .efg files through pygambit) must show pygambit.
    assert "pygambit" in _loaded_after("import seqform.game.formats.from_gambit")


@pytest.mark.slow
def test_every_command_module_imports_without_a_heavy_package() -> None:
    # each command imports what it needs when it runs, so loading its module is cheap too
    statement = "; ".join(
        f"import seqform.cli.commands.{name}"
        for name in ("solve", "compare", "export", "play", "ranges", "exploit", "iterate", "games")
    )
    assert _loaded_after(statement) == []
