"""The JSON documents built by the library (:mod:`seqform.documents`).

``seqform.document(result)`` is the document ``--format json`` prints for the same result:
for every kind, the command line's output equals the library's document of the same library
call, timings aside, and both pass their schema.  ``seqform.write_document`` writes it
atomically, through the one atomic writer (:mod:`seqform.io.atomic`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_holdem_cli import SPOT  # the river spot of docs/spots.md

import seqform
from seqform.cli.main import main
from seqform.io.atomic import ReadOnlyTargetError
from seqform.io.documents import document_text, validate_document

TIMINGS = frozenset({"seconds", "solver_seconds", "timings", "build_seconds", "lp_seconds"})
"""The keys whose values are measured times: equal documents may differ there."""

COUNTS = "player,infoset,action,count\n1,J,p,40\n1,J,b,10\n2,Kb,b,12\n"  # as docs/qre.md


def _masked(node: Any) -> Any:
    """``node`` with every measured time replaced by ``"<time>"``, the rest as it is."""
    if isinstance(node, dict):
        return {key: "<time>" if key in TIMINGS else _masked(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_masked(value) for value in node]
    return node


def _printed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The document the command line prints for ``argv``."""
    main([*argv, "--format", "json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


# --- each document kind: the library's call and the command that prints it ----------------------

Built = tuple[Any, dict[str, Any]]  # a result and the context its document takes


def _solve(**options: Any) -> Callable[[Path], Built]:
    return lambda _folder: (seqform.solve("kuhn", **options), {})


def _spot(folder: Path) -> Built:
    # the solution of a spot file carries its players' summary: no context
    return seqform.solve(str(folder / "river.toml")), {}


def _compare(_folder: Path) -> Built:
    structured = seqform.load_structured_game("kuhn")
    return seqform.compare(seqform.load_game("kuhn"), structured=structured), {}


def _sizes(_folder: Path) -> Built:
    from seqform.questions.compare import compare_sizes

    # too large for its tree (about 4·10^7 nodes), small on the structured route
    return compare_sizes(seqform.load_structured_game("kuhn(cards=2000)")), {}


def _ranges(exact: bool) -> Callable[[Path], Built]:
    return lambda _folder: (seqform.equilibrium_ranges(seqform.load_game("kuhn"), exact=exact), {})


def _exploit(name: str, exact: bool) -> Callable[[Path], Built]:
    def build(_folder: Path) -> Built:
        game = seqform.load_game("kuhn")
        fixed = seqform.named_opponent(game, name, 0)
        return seqform.exploit(game, fixed, source=name, exact=exact), {}

    return build


def _iterate(algorithm: str, seed: int | None = None) -> Callable[[Path], Built]:
    # every=100: the command's default --every
    return lambda _folder: (
        seqform.iterate("kuhn", algorithm, iterations=20, every=100, seed=seed),
        {},
    )


def _games(_folder: Path) -> Built:
    return seqform.builtin_games(), {}


def _many(folder: Path) -> Built:
    from seqform.routes.many import solve_many

    return solve_many(folder / "spots"), {}


def _qre_trace(_folder: Path) -> Built:
    from seqform.qre.equilibria import trace_logit

    return trace_logit(seqform.load_game("kuhn"), compare=True), {}


def _qre_points(_folder: Path) -> Built:
    from seqform.qre.equilibria import logit_qre

    return logit_qre(seqform.load_game("kuhn"), [0.0, 1.0, 10.0]), {}


def _qre_fit(folder: Path) -> Built:
    from seqform.io.action_counts import read_action_counts
    from seqform.qre.fit import fit_logit

    game = seqform.load_game("kuhn")
    return fit_logit(game, read_action_counts(game, str(folder / "counts.csv"))), {}


KINDS = [
    pytest.param(["solve", "kuhn"], _solve(), id="solve"),
    pytest.param(["solve", "kuhn", "--method", "normal"], _solve(method="normal"), id="normal"),
    pytest.param(["solve", "kuhn", "--exact"], _solve(exact=True), id="exact"),
    pytest.param(["solve", "kuhn", "--refine"], _solve(refine=True), id="refine"),
    pytest.param(["solve", "kuhn", "--fix", "K:b=1"], _solve(fix="K:b=1"), id="fix"),
    pytest.param(["solve", "kuhn", "--exact", "--fix", "J:b<=1/4"],
                 _solve(exact=True, fix="J:b<=1/4"), id="exact-fix"),
    pytest.param(["solve", "kuhn", "--method", "structured"], _solve(method="structured"),
                 id="structured"),
    pytest.param(["solve", "kuhn", "--method", "structured", "--exact"],
                 _solve(method="structured", exact=True), id="structured-exact"),
    pytest.param(["solve", "{folder}/river.toml"], _spot, id="spot"),
    pytest.param(["compare", "kuhn"], _compare, id="compare"),
    pytest.param(["compare", "--no-solve", "kuhn(cards=2000)"], _sizes, id="compare-sizes"),
    pytest.param(["ranges", "kuhn"], _ranges(exact=False), id="ranges"),
    pytest.param(["ranges", "kuhn", "--exact"], _ranges(exact=True), id="ranges-exact",
                 marks=pytest.mark.slow),
    pytest.param(["exploit", "kuhn", "--opponent", "always-bluff"],
                 _exploit("always-bluff", exact=False), id="exploit"),
    pytest.param(["exploit", "kuhn", "--opponent", "never-bluff", "--exact"],
                 _exploit("never-bluff", exact=True), id="exploit-exact"),
    pytest.param(["iterate", "kuhn", "--algorithm", "cfr+", "--iterations", "20"],
                 _iterate("cfr+"), id="iterate"),
    pytest.param(["iterate", "kuhn", "--algorithm", "mccfr", "--iterations", "20", "--seed", "3"],
                 _iterate("mccfr", seed=3), id="iterate-mccfr"),
    pytest.param(["games"], _games, id="games"),
    pytest.param(["solve-many", "{folder}/spots"], _many, id="solve-many",
                 marks=pytest.mark.slow),
    pytest.param(["qre", "kuhn", "--quiet"], _qre_trace, id="qre-trace", marks=pytest.mark.slow),
    pytest.param(["qre", "kuhn", "--lambda", "0,1", "--lambda", "10"], _qre_points,
                 id="qre-points"),
    pytest.param(["qre", "kuhn", "--fit", "{folder}/counts.csv", "--quiet"], _qre_fit,
                 id="qre-fit"),
]  # fmt: skip


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A spot file, a folder holding one, and observed counts for ``qre --fit``."""
    (tmp_path / "river.toml").write_text(SPOT)
    (tmp_path / "spots").mkdir()
    (tmp_path / "spots" / "river.toml").write_text(SPOT)
    (tmp_path / "counts.csv").write_text(COUNTS)
    return tmp_path


@pytest.mark.parametrize(("argv", "build"), KINDS)
def test_the_library_builds_the_document_the_command_prints(
    argv: list[str],
    build: Callable[[Path], Built],
    folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    printed = _printed([part.format(folder=folder) for part in argv], capsys)
    result, context = build(folder)
    built = seqform.document(result, **context)
    validate_document(built)
    assert json.dumps(_masked(built)) == json.dumps(_masked(printed))  # key order included


# --- writing a document -----------------------------------------------------------------------


def test_write_document_writes_the_document_through_the_atomic_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from seqform.documents import build
    from seqform.io import atomic

    writes: list[Path] = []

    def spy(path: Any, content: Any) -> None:
        writes.append(Path(path))
        atomic.write_atomically(path, content)

    monkeypatch.setattr(build, "write_atomically", spy)
    solution = seqform.solve("kuhn")
    path = tmp_path / "kuhn.json"
    written = seqform.write_document(solution, path)
    assert writes == [path]
    assert path.read_text(encoding="utf-8") == document_text(written)
    validate_document(json.loads(path.read_text(encoding="utf-8")))
    assert written == seqform.document(solution)  # the same result, the same document


def test_write_document_replaces_a_file_whole_and_leaves_nothing_beside_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kuhn.json"
    path.write_text("an earlier result\n")
    seqform.write_document(seqform.solve("kuhn"), path)
    validate_document(json.loads(path.read_text(encoding="utf-8")))
    assert sorted(os.listdir(tmp_path)) == ["kuhn.json"]  # no temporary file left behind


def test_write_document_leaves_a_read_only_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    path.write_text("kept\n")
    path.chmod(0o444)
    with pytest.raises(ReadOnlyTargetError):
        seqform.write_document(seqform.solve("kuhn"), path)
    assert path.read_text() == "kept\n"
    assert sorted(os.listdir(tmp_path)) == ["kept.json"]


# --- what has no document ---------------------------------------------------------------------


def test_a_result_with_no_document_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="no seqform document for a Game; documents are built"):
        seqform.document(seqform.load_game("kuhn"))


def test_a_keyword_the_document_does_not_take_is_refused() -> None:
    with pytest.raises(TypeError, match="takes no keyword 'spot' \\(it takes: none\\)"):
        seqform.document(seqform.solve("kuhn"), spot=None)


def test_the_facade_names_the_entry_points() -> None:
    from seqform.documents.build import document, write_document

    assert seqform.document is document and seqform.write_document is write_document
    assert {"document", "write_document", "builtin_games"} <= set(seqform.__all__)
