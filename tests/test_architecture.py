"""The layout rules of ARCHITECTURE.md, checked on the source so the shape cannot silently decay.

The package is read with :mod:`ast`, never imported.  Every ``import`` counts, including those
inside functions and those under ``if TYPE_CHECKING:`` (they never run, but a cycle of types
is still a cycle of ideas, and an upward type still ties a room to one above it).

Rules
-----
1. No import cycle between modules.
2. Imports point downward: a module imports only from its own room or a lower one, in the order
   of ``ROOMS`` (lowest first).  ``seqform/version.py`` sits below every room; the facade
   (``seqform/__init__.py``, ``seqform/__main__.py``) may import anything, and nothing inside the
   package imports the facade (``seqform`` itself).
3. Every module belongs to a known room; a new room or top-level module must be placed in the
   order here and in ARCHITECTURE.md first.
4. No module over ``MAX_MODULE_LINES`` lines unless its docstring has a line starting ``Size:``
   giving the reason; no function over ``MAX_FUNCTION_LINES`` lines unless its docstring says
   ``Length:`` with the reason.

The checker takes the package directory as an argument, so the self-tests at the bottom feed it
a synthetic package with each kind of fault and check that the fault is reported.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "seqform"

# Lowest first: a room may import only from itself and the rooms before it.
ROOMS = (
    "base",
    "game",
    "forms",
    "lp",
    "certify",
    "iterative",
    "structured",
    "holdem",
    "io",
    "routes",
    "abstraction",
    "resolving",
    "questions",
    "qre",
    "documents",
    "play",
    "cli",
)
DOORS = frozenset({"holdem", "certify"})  # rooms the others enter through the package itself only
BOTTOM = frozenset({"version"})  # top-level modules anyone may import
FACADE = frozenset({"__init__", "__main__"})  # may import anything; nobody imports them

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


# ---------------------------------------------------------------------------------------------
# Reading the package
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One resolved import edge: ``importer`` imports ``imported`` at ``line``."""

    importer: str
    imported: str
    line: int


@dataclass(frozen=True)
class Package:
    """The modules of a package (dotted names → files) and the import edges between them."""

    name: str
    files: dict[str, Path] = field(repr=False)
    imports: tuple[Import, ...] = field(default=(), repr=False)

    def graph(self) -> dict[str, set[str]]:
        edges: dict[str, set[str]] = {module: set() for module in self.files}
        for edge in self.imports:
            edges[edge.importer].add(edge.imported)
        return edges


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (``if TYPE_CHECKING:`` bodies included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """Dotted names a statement may load: ``from a import b`` may load ``a.b`` or just ``a``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    return [f"{source}.{alias.name}" for alias in node.names]


def _resolve(name: str, files: dict[str, Path]) -> str | None:
    """The module a dotted name lands in: the longest prefix that is a module of the package."""
    while name and name not in files:
        name = name.rpartition(".")[0]
    return name or None


def read_package(root: Path) -> Package:
    """Parse every ``.py`` file under ``root`` and collect the package-internal import edges."""
    files = {_module_name(root, path): path for path in sorted(root.rglob("*.py"))}
    imports = []
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in _import_nodes(tree):
            for target in _targets(node, module, is_package):
                if target.split(".")[0] != root.name:
                    continue
                imported = _resolve(target, files)
                if imported is not None and imported != module:
                    imports.append(Import(module, imported, node.lineno))
    return Package(
        root.name, files, tuple(sorted(set(imports), key=lambda e: (e.importer, e.line)))
    )


# ---------------------------------------------------------------------------------------------
# The rules
# ---------------------------------------------------------------------------------------------


def room_of(module: str, package: str, rooms: Sequence[str] = ROOMS) -> str | None:
    """The room of a dotted module name: ``bottom``, ``facade``, a name in ``rooms``, or None."""
    parts = module.split(".")
    if parts[0] != package:
        return None
    if len(parts) == 1:
        return "facade"
    head = parts[1]
    if len(parts) == 2 and head in FACADE:
        return "facade"
    if len(parts) == 2 and head in BOTTOM:
        return "bottom"
    return head if head in rooms else None


def _rank(room: str, rooms: Sequence[str]) -> int:
    if room == "bottom":
        return -1
    if room == "facade":
        return len(rooms)
    return rooms.index(room)


def unplaced_modules(package: Package, rooms: Sequence[str] = ROOMS) -> list[str]:
    """Modules whose room is not in the order: each must be placed before it can be checked."""
    return [
        f"{module} ({package.files[module].name}) belongs to no known room: place "
        f"{module.split('.')[1]!r} in the order ROOMS in tests/test_architecture.py "
        "and in ARCHITECTURE.md"
        for module in package.files
        if room_of(module, package.name, rooms) is None
    ]


def upward_imports(package: Package, rooms: Sequence[str] = ROOMS) -> list[str]:
    """Imports from a lower room to a higher one, and imports of the facade from inside."""
    problems = []
    for edge in package.imports:
        source = room_of(edge.importer, package.name, rooms)
        target = room_of(edge.imported, package.name, rooms)
        if source is None or target is None or source == "facade":
            continue
        where = f"{edge.importer} (room {source}) imports {edge.imported}"
        if target == "facade":
            problems.append(
                f"{where} (the facade) at line {edge.line}: import from the defining submodule"
            )
        elif _rank(target, rooms) > _rank(source, rooms):
            problems.append(
                f"{where} (room {target}) at line {edge.line}: "
                f"{target} is above {source}; move the shared code down or the importer up"
            )
    return problems


def doors_passed_by(package: Package, doors: frozenset[str] = DOORS) -> list[str]:
    """Imports of a door room's submodules from outside it: the room's package is its door."""
    problems = []
    for edge in package.imports:
        target = room_of(edge.imported, package.name)
        if target not in doors or room_of(edge.importer, package.name) == target:
            continue
        door = f"{package.name}.{target}"
        if edge.imported != door:
            problems.append(
                f"{edge.importer} imports {edge.imported} at line {edge.line}: "
                f"import it from {door}, the room's door (add the name there)"
            )
    return problems


def import_cycles(package: Package) -> list[str]:
    """Each strongly connected component of more than one module, as one shortest cycle."""
    graph = package.graph()
    problems = []
    for component in _strong_components(graph):
        if len(component) > 1:
            cycle = _shortest_cycle(min(component), graph, component)
            problems.append("import cycle: " + " -> ".join(cycle))
    return sorted(problems)


def _strong_components(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (no recursion limit on deep graphs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def _shortest_cycle(start: str, graph: dict[str, set[str]], within: set[str]) -> list[str]:
    """Breadth-first search from ``start`` back to itself, staying inside one component."""
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & within):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if succ not in parents:
                    parents[succ] = node
                    following.append(succ)
        frontier = following
    return [start]


def _has_reason(docstring: str | None, label: str) -> bool:
    return any(line.strip().startswith(label) for line in (docstring or "").splitlines())


def oversized_modules(package: Package, limit: int = MAX_MODULE_LINES) -> list[str]:
    """Modules over ``limit`` lines whose docstring has no line starting ``Size:``."""
    problems = []
    for module, path in package.files.items():
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > limit and not _has_reason(ast.get_docstring(ast.parse(text)), "Size:"):
            problems.append(
                f"{module}: {lines} lines > {limit}; split it, or give the reason on a line "
                "starting 'Size:' in its module docstring"
            )
    return problems


def long_functions(package: Package, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Functions (methods and nested ones included) over ``limit`` lines without ``Length:``."""
    problems = []
    for module, path in package.files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit and "Length:" not in (ast.get_docstring(node) or ""):
                problems.append(
                    f"{module}.{node.name} (line {node.lineno}): {lines} lines > {limit}; "
                    "split it, or give the reason after 'Length:' in its docstring"
                )
    return problems


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n  " + "\n  ".join(problems)


# ---------------------------------------------------------------------------------------------
# The rules on seqform/
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seqform() -> Package:
    return read_package(PACKAGE)


def test_the_package_is_read(seqform: Package) -> None:
    assert "seqform.game.model" in seqform.files
    # the facade re-exports solve, so the reader must have seen that import (at any line)
    assert any(
        (i.importer, i.imported) == ("seqform", "seqform.routes.solve") for i in seqform.imports
    )


RULES = {
    "every-module-has-a-room": unplaced_modules,
    "no-import-cycles": import_cycles,
    "imports-point-downward": upward_imports,
    "holdem-through-its-door": doors_passed_by,
    "no-oversized-module": oversized_modules,
    "no-overlong-function": long_functions,
}


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
def test_seqform_keeps_the_rule(seqform: Package, rule: Callable[[Package], list[str]]) -> None:
    problems = rule(seqform)
    assert not problems, _report(problems)


def test_architecture_md_gives_the_same_order() -> None:
    text = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert " < ".join(["version", *ROOMS, "facade"]) in text


def unnamed_modules(package: Package, page: str) -> list[str]:
    """Modules that the room table of ``page`` (ARCHITECTURE.md) does not name.

    A room's row starts ``| `room/` |`` (or ``| `room` |`` for a one-module room) and names
    each of its modules in backticks, subfolders' modules included.
    """
    rows = {}
    for line in page.splitlines():
        if line.startswith("| `"):
            head = line.split("`")[1].rstrip("/")
            rows[head] = line
    problems = []
    for module in package.files:
        parts = module.split(".")[1:]
        if not parts or parts[-1] in FACADE | BOTTOM:
            continue
        room = parts[0]
        row = rows.get(room)
        if row is None:
            problems.append(f"{module}: ARCHITECTURE.md has no row for the room {room!r}")
        elif len(parts) > 1 and f"`{parts[-1]}`" not in row and f"`{parts[-1]}/`" not in row:
            problems.append(f"{module}: not named in the row of {room!r} in ARCHITECTURE.md")
    return problems


def test_architecture_md_names_every_module(seqform: Package) -> None:
    page = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    problems = unnamed_modules(seqform, page)
    assert not problems, _report(problems)


# ---------------------------------------------------------------------------------------------
# The checker can fail: a synthetic package with each fault
# ---------------------------------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def faulty(tmp_path: Path) -> Package:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    root = _write(
        tmp_path / "toy",
        {
            "__init__.py": "from toy.forms.plan import V\n",
            "version.py": "V = 1\n",
            "game/__init__.py": "",
            # upward (game -> forms), inside a function, and half of a cycle
            "game/model.py": "def f():\n    from toy.forms import plan\n    return plan\n",
            # downward, relative, the other half of the cycle
            "forms/__init__.py": "",
            "forms/plan.py": "from ..game import model\nfrom toy.version import V\n",
            # upward for the type checker only: counted all the same
            "lp/__init__.py": "",
            "lp/minmax.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from toy.cli import main\n",
            # a cycle closed by a type only: counted all the same
            "routes/__init__.py": "",
            "routes/solve.py": "from toy.routes.normal import N\nS = 1\n",
            "routes/normal.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from toy.routes.solve import S\nN = 1\n",
            # imports the facade from inside the package
            "cli/__init__.py": "",
            "cli/main.py": "import toy\ndef run():\n    pass\n",
            # a room that is not in the order
            "misc/__init__.py": "",
            "misc/cfr.py": "from toy.game.model import f\n",
            # too long, with and without a reason
            "certify.py": '"""Short."""\n' + "x = 1\n" * MAX_MODULE_LINES,
            "io/__init__.py": "",
            "io/big.py": '"""Big.\n\nSize: one table.\n"""\n' + "x = 1\n" * MAX_MODULE_LINES,
            "io/funcs.py": f"def long():\n{body}\n\n"
            f'def reasoned():\n    """Length: one formula."""\n{body}\n',
        },
    )
    return read_package(root)


def test_checker_reports_a_module_missing_from_the_map(faulty: Package) -> None:
    page = "| `game/` | `model`, `plan` |\n| `forms/` | `plan` |\n"
    problems = unnamed_modules(faulty, page)
    assert "toy.routes.normal: ARCHITECTURE.md has no row for the room 'routes'" in problems
    assert not [p for p in problems if p.startswith(("toy.game.", "toy.forms."))]


def test_checker_reports_a_door_passed_by(faulty: Package) -> None:
    assert doors_passed_by(faulty, frozenset({"game"})) == [
        "toy.forms.plan imports toy.game.model at line 1: import it from toy.game, "
        "the room's door (add the name there)",
        "toy.misc.cfr imports toy.game.model at line 1: import it from toy.game, "
        "the room's door (add the name there)",
    ]


def test_checker_reports_a_cycle(faulty: Package) -> None:
    assert sorted(import_cycles(faulty)) == [
        "import cycle: toy.forms.plan -> toy.game.model -> toy.forms.plan",
        "import cycle: toy.routes.normal -> toy.routes.solve -> toy.routes.normal",
    ]


def test_checker_reports_an_upward_import(faulty: Package) -> None:
    problems = upward_imports(faulty)
    assert len(problems) == 3, problems
    upward = next(p for p in problems if p.startswith("toy.game.model"))
    assert "(room game) imports toy.forms.plan (room forms) at line 2" in upward
    typed = next(p for p in problems if p.startswith("toy.lp.minmax"))
    assert "(room lp) imports toy.cli.main (room cli) at line 3" in typed
    facade = next(p for p in problems if p.startswith("toy.cli.main"))
    assert "imports toy (the facade)" in facade


def test_checker_counts_type_checking_and_allows_the_bottom_and_the_facade(
    faulty: Package,
) -> None:
    edges = {(edge.importer, edge.imported) for edge in faulty.imports}
    assert ("toy.lp.minmax", "toy.cli.main") in edges
    assert ("toy.forms.plan", "toy.version") in edges
    assert ("toy", "toy.forms.plan") in edges
    assert not any(p.startswith(("toy.forms", "toy (")) for p in upward_imports(faulty))


def test_checker_reports_a_module_without_a_room(faulty: Package) -> None:
    problems = unplaced_modules(faulty)
    assert len(problems) == 2
    assert all("'misc'" in p and "place" in p for p in problems)


def test_checker_reports_size_and_length_without_a_reason(faulty: Package) -> None:
    assert [p.split(":")[0] for p in oversized_modules(faulty)] == ["toy.certify"]
    assert [p.split(" ")[0] for p in long_functions(faulty)] == ["toy.io.funcs.long"]


def test_a_door_name_is_no_submodule_name() -> None:
    # ``from seqform.holdem import x`` would return the submodule ``x`` once it is imported,
    # not the door's lazily loaded name ``x``: the two must never share a name.
    for room in DOORS:
        init = PACKAGE / room / "__init__.py"
        tree = ast.parse(init.read_text(encoding="utf-8"))
        exported = {
            element.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            and any(
                isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
            )
            for element in getattr(node.value, "elts", [])
            if isinstance(element, ast.Constant)
        }
        submodules = {path.stem for path in (PACKAGE / room).glob("*.py")}
        assert exported, f"{init} has no __all__"
        assert not exported & submodules, sorted(exported & submodules)
