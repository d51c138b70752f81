"""Strategy-arrays documents (seqform.io.strategy_arrays): written, read back, certified,
and every bad input refused with the file and the information set named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from seqform.cli.main import main
from seqform.documents.build import document
from seqform.documents.text.render import render_text
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.registry import load_structured_game
from seqform.io.documents import validate_document
from seqform.io.json_input import StrategyFileError
from seqform.io.strategy_arrays import read_strategy_arrays
from seqform.questions.stored_certificate import (
    certify_profile,
    certify_stored,
    save_strategy_arrays,
)
from seqform.structured.reductions.suit_classes import canonical_boards, class_tables
from seqform.structured.responses import sequence_tables

LEDUC = "leduc(ranks=3, suits=2)"


def _random_behaviour(table: Any, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Positive probabilities on ``table``, each information set summing to 1."""
    weights = rng.uniform(0.1, 1.0, table.num_sequences)
    infoset = np.asarray(table.sequence_infoset[1:])
    weights[1:] /= np.bincount(infoset, weights=weights[1:])[infoset]
    weights[0] = 1.0
    return weights, np.zeros(table.num_infosets, dtype=bool)


def _class_profile(seed: int = 1) -> tuple[Any, Any, tuple[BehaviouralStrategy, ...]]:
    """Leduc 3×2, its canonical boards and a random profile of G' that is the same on every
    member of a hand class."""
    game = load_structured_game(LEDUC)
    boards = canonical_boards(game)
    assert boards is not None
    rng = np.random.default_rng(seed)
    strategies = []
    for table, classes, canonical in zip(
        class_tables(boards), boards.classes, sequence_tables(boards.canonical), strict=True
    ):
        per_class, _ = _random_behaviour(table, rng)
        strategies.append(
            BehaviouralStrategy(
                canonical,
                per_class[classes.sequences],
                np.zeros(canonical.num_infosets, dtype=bool),
            )
        )
    return game, boards, tuple(strategies)


@pytest.fixture(scope="module")
def leduc_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    game, boards, strategies = _class_profile()
    path = tmp_path_factory.mktemp("arrays") / "leduc.npz"
    saved = save_strategy_arrays(
        path, LEDUC, game, boards, (strategies[0], strategies[1]), algorithm="random",
        iterations=7,
    )  # fmt: skip
    return path, (game, boards, strategies, saved)


def _rewritten(source: Path, target: Path, **changes: Any) -> Path:
    """``source``'s arrays with ``changes`` (a key set to None is left out), as ``target``."""
    with np.load(source) as archive:
        contents = {key: archive[key] for key in archive.files}
    for key, value in changes.items():
        if value is None:
            contents.pop(key)
        else:
            contents[key] = value
    np.savez(target, **contents)
    return target


def _meta(source: Path, **changes: Any) -> np.ndarray:
    with np.load(source) as archive:
        meta = json.loads(str(archive["meta"][()]))
    meta.update(changes)
    return np.array(json.dumps(meta))


def test_a_profile_per_hand_class_round_trips(leduc_file: tuple[Path, Any]) -> None:
    path, (_, boards, strategies, saved) = leduc_file
    stored = read_strategy_arrays(path)
    assert stored.spec == LEDUC and stored.boards is not None
    assert stored.provenance == saved.provenance
    assert saved.provenance.algorithm == "random" and saved.provenance.iterations == 7
    with np.load(path) as archive:  # one entry per hand class, in float32
        assert archive["p0"].dtype == np.float32
        assert len(archive["p0"]) == boards.classes[0].num_sequences
    for before, after in zip(strategies, stored.strategies, strict=True):
        assert after.table.num_sequences == before.table.num_sequences
        np.testing.assert_allclose(after.probabilities, before.probabilities, atol=1e-6)
        np.testing.assert_array_equal(after.unreached, before.unreached)


def test_the_file_certifies_as_its_writer_certified_it(leduc_file: tuple[Path, Any]) -> None:
    path, (game, boards, strategies, saved) = leduc_file
    checked = certify_stored(path)
    assert checked.agrees
    assert float(checked.certificate.nash_conv) == saved.provenance.nash_conv
    assert checked.value_lower == saved.provenance.value_lower
    assert checked.value_upper == saved.provenance.value_upper
    # the run's own (float64) profile: float32 storage moves the certificate by round-off
    run, _ = certify_profile(game, boards, strategies)
    assert float(checked.certificate.nash_conv) == pytest.approx(float(run.nash_conv), abs=1e-5)
    # on G' the hand classes give the lifted profile's certificate on G
    lifted = certify_stored(path, on_game=True)
    assert float(lifted.certificate.nash_conv) == pytest.approx(saved.provenance.nash_conv)


def test_a_game_without_suit_symmetry_is_stored_per_sequence(tmp_path: Path) -> None:
    game = load_structured_game("kuhn")
    rng = np.random.default_rng(3)
    strategies = []
    for table in sequence_tables(game):
        probabilities, unreached = _random_behaviour(table, rng)
        strategies.append(BehaviouralStrategy(table, probabilities, unreached))
    saved = save_strategy_arrays(
        tmp_path / "kuhn.npz", "kuhn", game, None, (strategies[0], strategies[1]),
        algorithm="random", iterations=0, storage="float64", compression="deflate",
    )  # fmt: skip
    with np.load(tmp_path / "kuhn.npz") as archive:  # numpy.savez_compressed's own layout
        assert archive["p0"].dtype == np.float64
    stored = read_strategy_arrays(tmp_path / "kuhn.npz")
    assert stored.boards is None
    np.testing.assert_allclose(stored.strategies[1].probabilities, strategies[1].probabilities)
    assert certify_stored(stored).certificate == saved.certificate


def test_a_profile_that_differs_inside_a_hand_class_is_refused(tmp_path: Path) -> None:
    game, boards, strategies = _class_profile()
    first = strategies[0]
    probabilities = first.probabilities.copy()
    members = np.flatnonzero(boards.classes[0].sequences == boards.classes[0].sequences[1])
    assert len(members) > 1  # a class of two hands at least
    probabilities[members[1]] = 0.5 * probabilities[members[1]]
    changed = BehaviouralStrategy(first.table, probabilities, first.unreached)
    with pytest.raises(ValueError, match="differs between members of a hand class"):
        save_strategy_arrays(
            tmp_path / "x.npz", LEDUC, game, boards, (changed, strategies[1]),
            algorithm="random", iterations=0,
        )  # fmt: skip


def _bad_cases(path: Path, tmp: Path) -> list[tuple[Path, str]]:
    with np.load(path) as archive:
        p0, u0 = archive["p0"], archive["u0"]
    nan = p0.copy()
    nan[5] = np.nan
    off = p0.copy()
    off[5] = off[5] + 0.01
    text = tmp / "text.npz"
    text.write_text("{}")
    return [
        (text, "not a seqform.strategy-arrays .*not a zip archive$"),  # no numpy pickle advice
        (_rewritten(path, tmp / "fmt.npz", meta=_meta(path, format="other")), "format 'other'"),
        (_rewritten(path, tmp / "ver.npz", meta=_meta(path, version=2)), "version 2"),
        (_rewritten(path, tmp / "game.npz", meta=_meta(path, game="nosuch")), "not a known game"),
        (
            _rewritten(path, tmp / "params.npz", meta=_meta(path, game="leduc(ranks=1)")),
            "not a known game",
        ),
        (_rewritten(path, tmp / "short.npz", p0=p0[:-1]), "player 1's probabilities have"),
        (_rewritten(path, tmp / "flags.npz", u0=u0[:-1]), "player 1's unreached flags"),
        (_rewritten(path, tmp / "nan.npz", p0=nan), r"information set #\d+ .*: probability nan"),
        (_rewritten(path, tmp / "sum.npz", p0=off), r"information set #\d+ .*sum to 1\.0"),
        (_rewritten(path, tmp / "missing.npz", u1=None), "missing u1"),
        (_rewritten(path, tmp / "nometa.npz", meta=None), "no 'meta' entry"),
        (
            _rewritten(path, tmp / "prov.npz", meta=_meta(path, provenance={"nash_conv": "0"})),
            "provenance must hold",
        ),
    ]


def test_each_bad_file_is_refused_naming_the_file(
    leduc_file: tuple[Path, Any], tmp_path: Path
) -> None:
    for bad, message in _bad_cases(leduc_file[0], tmp_path):
        with pytest.raises(StrategyFileError, match=message) as caught:
            read_strategy_arrays(bad)
        assert str(bad) in str(caught.value)


@pytest.mark.slow
def test_exploit_certifies_the_file_on_the_command_line(
    leduc_file: tuple[Path, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path, (*_, saved) = leduc_file
    assert main(["exploit", "leduc(suits=2, ranks=3)", "--strategy", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"NashConv                       {saved.provenance.nash_conv:.6g}" in text
    assert "agrees" in text
    assert render_text(certify_stored(path, game=LEDUC)) == text  # Python gets the same text
    assert main(["exploit", LEDUC, "--strategy", str(path), "--format", "json"]) == 0
    built = json.loads(capsys.readouterr().out)
    validate_document(built)
    assert built["nash_conv"] == saved.provenance.nash_conv
    assert built["exploitability"] == saved.provenance.nash_conv / 2
    assert built == document(certify_stored(path, game=LEDUC))  # the library's answer


def test_exploit_refuses_another_game_or_a_player(
    leduc_file: tuple[Path, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(leduc_file[0])
    assert main(["exploit", "leduc(ranks=4)", "--strategy", path]) == 1
    assert "not of leduc(ranks=4)" in capsys.readouterr().err
    assert main(["exploit", LEDUC, "--strategy", path, "--player", "1"]) == 2
    assert "--player does not apply" in capsys.readouterr().err
    assert main(["exploit", "nosuch", "--strategy", path]) == 2
    capsys.readouterr()


@pytest.mark.slow
def test_the_cfr_benchmark_saves_a_file_that_certifies_as_its_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numba")  # the benchmark runs the compiled engine (the fast extra)
    from benchmarks.rhode_island_cfr import main as cfr_main

    saved = tmp_path / "average.npz"
    arguments = ["--game", LEDUC, "--first", "4", "--ratio", "2", "--target-percent", "1e9"]
    assert cfr_main([*arguments, "--out", str(tmp_path), "--save-average", str(saved),
                     "--certify-on-game", "no"]) == 0  # fmt: skip
    run = json.loads((tmp_path / "rhode_island_cfr.json").read_text())
    last = run["curve"][-1]  # the run's own certificate, of its float64 average
    checked = certify_stored(saved)
    assert checked.agrees and checked.provenance.iterations == last["iterations"] == 4
    assert float(checked.certificate.nash_conv) / 2 == pytest.approx(
        last["exploitability"], abs=1e-6
    )
    assert checked.value_lower == pytest.approx(last["value_lower"], abs=1e-6)
    # --certify-from reads the document back, and certifies it as the file states
    assert cfr_main(["--game", LEDUC, "--certify-from", str(saved), "--out", str(tmp_path),
                     "--certify-on-game", "yes"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "its certificate agrees" in out
    assert f"on G: NashConv {checked.provenance.nash_conv:.6g}" in out
