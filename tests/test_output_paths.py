"""Where the command line writes, checked before any work: no output may replace one of the
command's inputs or another output (``show r.json --output r.json`` replaced the saved result
with its report), an output that cannot be written is refused before a long run rather than
after it, ``show`` and ``export`` refuse files whose suffix names another kind, and a file
that is not a game is refused as ``GAME`` by what it is (seqform/cli/resolve.py's
``check_files``, seqform/io/atomic.py's ``check_writable``, seqform/io/export.py's
``check_export_file``, seqform/io/loader.py's ``NOT_GAMES``)."""

from __future__ import annotations

import argparse
import errno
import os
import shutil
from pathlib import Path

import pytest
from spot_files import RIVER

import seqform.cli.main as cli
from seqform.cli.main import main
from seqform.cli.parser import build_parser
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.errors import UnknownGameError
from seqform.io.export import export_game
from seqform.io.loader import load_game
from tests.spot_files import SMALL


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of the files a run reads: a spot, its saved result, a game file, a solve
    document (a strategy), restrictions, a folder of spots; made once for the module."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "spot.toml").write_text(SMALL)
    assert (
        main(["solve", str(folder / "spot.toml"), "--quiet", "--output", str(folder / "r.json")])
        == 0
    )
    export_game(kuhn_poker(), "efg", folder / "k.efg")
    assert main(["solve", "kuhn", "--quiet", "--output", str(folder / "s.json")]) == 0
    (folder / "spots").mkdir()
    (folder / "spots" / "river.toml").write_text(RIVER)
    (folder / "f.json").write_text('{"K": {"b": 1}}')
    (folder / "data.json").write_text("{}")
    return folder


@pytest.fixture
def work(inputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of :func:`inputs`, where the test runs."""
    folder = tmp_path / "work"
    shutil.copytree(inputs, folder)
    monkeypatch.chdir(folder)
    return folder


def _never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make running the command itself a test failure: the refusal must come first."""

    def run_command(args: argparse.Namespace) -> int:
        raise AssertionError(f"{args.command} ran before its files were checked")

    monkeypatch.setattr(cli, "run_command", run_command)


def _contents(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# --- an output naming an input or another output ------------------------------------------


@pytest.mark.parametrize(
    ("argv", "first", "second"),
    [
        pytest.param(["show", "r.json", "--output", "r.json"], "RESULT", "--output", id="show"),
        pytest.param(
            ["show", "r.json", "--html", "same.html", "--output", "same.html"],
            "--output",
            "--html",
            id="show-html",
        ),
        pytest.param(
            ["solve", "spot.toml", "--output", "spot.toml"], "GAME", "--output", id="spot"
        ),
        pytest.param(
            ["iterate", "k.efg", "--algorithm", "cfr", "--output", "k.efg"],
            "GAME",
            "--output",
            id="iterate-efg",
        ),
        pytest.param(
            ["qre", "kuhn", "--plot", "q.png", "--output", "q.png"], "--output", "--plot", id="qre"
        ),
        pytest.param(
            ["qre", "kuhn", "--fit", "data.json", "--output", "data.json"],
            "--fit",
            "--output",
            id="qre-fit",
        ),
        pytest.param(
            ["exploit", "kuhn", "--strategy", "s.json", "--output", "./s.json"],
            "--strategy",
            "--output",
            id="exploit",
        ),
        pytest.param(
            ["resolve", "kuhn", "--blueprint", "s.json", "--output", "s.json"],
            "--blueprint",
            "--output",
            id="resolve",
        ),
        pytest.param(
            ["solve", "kuhn", "--fix-file", "f.json", "--output", "f.json"],
            "--fix-file",
            "--output",
            id="fix-file",
        ),
        pytest.param(
            ["solve", "kuhn", "--lock-file", "f.json", "--output", "f.json"],
            "--lock-file",
            "--output",
            id="lock-file",
        ),
        pytest.param(["export", "k.efg", "--to", "efg", "k.efg"], "GAME", "FILE", id="export"),
        pytest.param(
            ["export", "k.efg", "--to", "efg", "--output", "k.efg"],
            "GAME",
            "--output",
            id="export-output",
        ),
        pytest.param(
            ["solve-many", "spots", "--output", "spots/river.toml"],
            "a spot file of DIR",
            "--output",
            id="solve-many",
        ),
    ],
)
def test_an_output_naming_an_input_or_another_output_is_refused(
    work: Path,
    argv: list[str],
    first: str,
    second: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _contents(work)
    _never_run(monkeypatch)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"seqform: error: {first} and {second} both name " in err and err.count("\n") == 1
    assert _contents(work) == before  # nothing replaced, nothing written


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symbolic-link", "hard-link"])
def test_a_link_to_an_input_is_the_input(
    work: Path, link, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    link(work / "r.json", work / "view.txt")
    _never_run(monkeypatch)
    assert main(["show", "r.json", "--output", "view.txt"]) == 2
    assert "RESULT and --output both name view.txt" in capsys.readouterr().err


def test_outputs_written_directly_replace_nothing(work: Path) -> None:
    # /dev/null is written in place (seqform/io/atomic.py): two options may name it
    assert main(["show", "r.json", "--html", "/dev/null", "--output", "/dev/null"]) == 0
    assert main(["solve", "kuhn", "--quiet", "--output", "/dev/null"]) == 0


def test_only_an_existing_device_or_proc_path_is_written_in_place(work: Path) -> None:
    # `export kuhn --to npz /dev/full.npz` wrote a new regular file in /dev in place, not
    # atomically: every path under /dev was taken for a device, existing or not
    from seqform.io.atomic import written_directly

    assert written_directly("/dev/null") and written_directly("/dev/stdout")
    assert not written_directly("/dev/seqform-missing-file.npz")
    assert not written_directly(str(work / "r.json"))  # a regular file: replaced
    assert written_directly(str(work))  # a folder is not replaced (and refused elsewhere)


def test_a_game_name_is_not_a_file_unless_one_exists(work: Path) -> None:
    # `solve kuhn --output kuhn` writes the report to a file named kuhn; once it exists,
    # GAME kuhn is still the built-in game (seqform/io/loader.py), whatever the file holds
    assert main(["solve", "kuhn", "--quiet", "--output", "kuhn"]) == 0
    assert Path("kuhn").read_text().startswith("Game: kuhn")


def test_every_file_option_of_the_parser_is_checked() -> None:
    # a new option naming a file must join one of check_files's tables, or say here why not
    from seqform.cli.resolve import INPUT_FILES, NAMES_OR_FILES, OUTPUT_FILES

    files = {"FILE", "DATA", "RESULT", "GAME", "STRATEGY", "DIR"}
    known = {*INPUT_FILES, *NAMES_OR_FILES, *OUTPUT_FILES, "directory"}
    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = set()
    for name, command in commands.choices.items():
        for action in command._actions:
            if action.metavar in files:
                found.add(action.dest)
                assert action.dest in known, (name, action.dest)
    assert found == known


# --- an output that cannot be written, refused before the work ------------------------------


@pytest.mark.parametrize(
    ("argv", "option", "path", "reason"),
    [
        pytest.param(
            ["solve", "leduc", "--output", "missing/x.json"],
            "--output",
            "missing/x.json",
            "there is no folder",
            id="solve-missing-folder",
        ),
        pytest.param(
            ["iterate", "leduc", "--algorithm", "cfr", "--no-reference", "--output", "spots"],
            "--output",
            "spots",
            "it is a folder; name a file in it",
            id="iterate-folder",
        ),
        pytest.param(
            ["solve", "kuhn", "--output", "x.json/"],
            "--output",
            "x.json/",
            "a file name cannot end in '/'",
            id="trailing-slash",
        ),
        pytest.param(
            ["solve", "kuhn", "--output", "spot.toml/x.json"],
            "--output",
            "spot.toml/x.json",
            "is not a folder",
            id="file-as-folder",
        ),
        pytest.param(
            ["qre", "kuhn", "--plot", "missing/q.png"],
            "--plot",
            "missing/q.png",
            "there is no folder",
            id="qre-plot",
        ),
        pytest.param(
            ["show", "r.json", "--html", "missing/r.html"],
            "--html",
            "missing/r.html",
            "there is no folder",
            id="show-html",
        ),
        pytest.param(
            ["solve-many", "spots", "--csv", "missing/x.csv"],
            "--csv",
            "missing/x.csv",
            "there is no folder",
            id="solve-many-csv",
        ),
        pytest.param(
            ["export", "kuhn", "--to", "npz", "missing/k.npz"],
            "FILE",
            "missing/k.npz",
            "there is no folder",
            id="export",
        ),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_work(
    work: Path,
    argv: list[str],
    option: str,
    path: str,
    reason: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _never_run(monkeypatch)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"seqform: error: cannot write {path!r} ({option}): ")
    assert reason in err and err.count("\n") == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write in any folder")
def test_a_folder_without_write_permission_is_refused_before_the_work(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = work / "locked"
    locked.mkdir(mode=0o555)
    _never_run(monkeypatch)
    assert main(["solve", "kuhn", "--output", "locked/x.json"]) == 1
    assert "is not writable" in capsys.readouterr().err


def test_a_read_only_file_is_refused_before_the_work(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "old.json").write_text("{}")
    (work / "old.json").chmod(0o444)
    _never_run(monkeypatch)
    assert main(["solve", "kuhn", "--output", "old.json"]) == 1
    assert "the file is read-only" in capsys.readouterr().err


# --- suffixes naming another kind of file -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "written"), [("shown.csv", "csv"), ("shown.json", "json")], ids=["csv", "json"]
)
def test_show_refuses_an_output_it_cannot_write(
    work: Path, name: str, written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/cli.md: a suffix naming a format the command does not write is a usage error
    assert main(["show", "r.json", "--output", name]) == 2
    assert f"--output {name}: show writes text, not {written}; name a .txt file" in (
        capsys.readouterr().err
    )
    assert not Path(name).exists()
    assert main(["show", "r.json", "--output", "shown.txt"]) == 0
    assert "river spot on Ks7h2d9c4s" in Path("shown.txt").read_text()


@pytest.mark.parametrize(
    ("to", "name", "kind"),
    [
        ("npz", "a.efg", "a Gambit game"),
        ("efg", "a.npz", "a sequence form"),
        ("efg", "a.MPS", "an LP"),
        ("npz", "a.json", "a JSON document"),
        ("efg", "a.toml", "a spot file"),
        ("gambit-profile", "a.efg", "a Gambit game"),
        ("gambit-profile", "a.json", "a JSON document"),
    ],
)
def test_export_refuses_a_file_whose_suffix_names_another_kind(
    tmp_path: Path,
    to: str,
    name: str,
    kind: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `export kuhn --to npz a.efg` wrote a ZIP archive into a.efg (exit 0)
    target = tmp_path / name
    assert main(["export", "kuhn", "--to", to, str(target)]) == 2
    err = capsys.readouterr().err
    assert f"--to {to} would write {str(target)!r}, whose suffix" in err and kind in err
    assert not target.exists()


@pytest.mark.parametrize(
    ("to", "name"),
    [("efg", "k.efg"), ("efg", "k.txt"), ("npz", "k.npz"), ("npz", "k"), ("gambit-profile", "k")],
)
def test_export_writes_its_own_suffix_or_one_naming_no_kind(
    tmp_path: Path, to: str, name: str
) -> None:
    assert main(["export", "kuhn", "--to", to, str(tmp_path / name)]) == 0
    assert (tmp_path / name).stat().st_size > 0


def test_export_game_refuses_another_kind_before_building_anything(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"whose suffix \.efg is that of a Gambit game"):
        export_game(kuhn_poker(), "npz", tmp_path / "a.efg")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("name", "holds"),
    [
        ("game.npz", "is a sequence form (export --to npz)"),
        ("game.mps", "is an LP (export --to mps)"),
        ("game.json", "is a JSON document"),
    ],
)
def test_a_file_that_is_not_a_game_is_refused_by_what_it_is(
    tmp_path: Path, name: str, holds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `solve r.npz` said it could not read r.npz "as a Gambit .efg file"
    path = tmp_path / name
    if name.endswith(".npz"):
        export_game(kuhn_poker(), "npz", path)
    else:
        path.write_text("{}")
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"seqform: error: {str(path)!r} {holds}") and err.count("\n") == 1
    assert "not a game: GAME is a built-in name, a Gambit .efg file" in err
    with pytest.raises(UnknownGameError, match="not a game"):
        load_game(path)  # a path object too


# --- an error about a file says whether it was read or written ------------------------------


@pytest.mark.parametrize(
    ("failed", "says"),
    [
        pytest.param("out.json", "cannot write 'out.json'", id="output"),
        pytest.param("other.json", "cannot read 'other.json'", id="any-other-file"),
    ],
)
def test_a_file_error_says_read_or_write_by_the_file(
    failed: str,
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a write that failed unwrapped (a disk full as the report is written) was reported as
    # "cannot read 'out.json'"; the wrapped writes (seqform/cli/output.py) say it themselves
    monkeypatch.chdir(tmp_path)

    def run_command(args: argparse.Namespace) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", failed)

    monkeypatch.setattr(cli, "run_command", run_command)
    assert main(["solve", "kuhn", "--quiet", "--output", "out.json"]) == 1
    assert capsys.readouterr().err == f"seqform: error: {says}: No space left on device\n"


def test_solve_many_writes_no_csv_beside_an_output_written_in_place(tmp_path: Path) -> None:
    # `solve-many DIR --output /dev/null` wrote a regular file /dev/null.csv beside it
    from seqform.cli.resolve import csv_beside

    def beside(*argv: str) -> str | None:
        return csv_beside(build_parser().parse_args(["solve-many", str(tmp_path), *argv]))

    assert beside("--output", "/dev/null") is None
    assert beside("--output", "/dev/stdout") is None
    assert beside("--output", "r.json") == "r.csv"
    assert (
        beside("--output", "r.csv") is None and beside("--output", "r.json", "--csv", "c") is None
    )


def test_solve_many_refuses_a_csv_beside_it_cannot_write_before_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the spots were solved and r.json written before "cannot write 'r.csv': Is a directory"
    spots = tmp_path / "spots"
    spots.mkdir()
    (spots / "river.toml").write_text(RIVER)
    (tmp_path / "r.csv").mkdir()
    monkeypatch.chdir(tmp_path)
    _never_run(monkeypatch)
    assert main(["solve-many", "spots", "--quiet", "--output", "r.json"]) == 1
    assert "'r.csv' (the CSV beside --output): it is a folder" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()
