"""Node locks: the lock notation, the locked LP on the tree and the structured route, the
locked certificate, CFR with locks, and the command line."""

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog
from spot_files import RIVER

from seqform.certify import certify
from seqform.cli.main import main
from seqform.forms.locks import Lock, LockError
from seqform.forms.pure_strategies import pure_strategies
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.holdem import report
from seqform.io.documents import validate_document
from seqform.io.lock_files import parse_lock, read_lock_file
from seqform.iterative.cfr import solve_with_rule
from seqform.iterative.rules import RULES
from seqform.iterative.run import Stopping
from seqform.questions.iterate import iterate
from seqform.routes.options import OptionsError, check_options
from seqform.routes.policy import choose_route
from seqform.routes.solve import solve
from seqform.structured.vector_cfr import vector_cfr


@pytest.fixture
def spot(tmp_path: Path) -> Path:
    path = tmp_path / "river.toml"
    path.write_text(RIVER)
    return path


def _matrix_game_value(game, fixed: dict[str, str]) -> float:
    """Player 1's value over pure strategies, with the infosets of ``fixed`` playing the
    given action: the LP of the restricted normal form (scipy's, not seqform's LPs)."""
    form = build_sequence_form(game)
    kept = []
    for table in form.players:
        strategies = pure_strategies(table)
        rows = [
            k
            for k in range(len(strategies))
            if all(
                table.actions[i][strategies.choices[k, i]] == fixed[name]
                for i, name in enumerate(table.infosets)
                if name in fixed
            )
        ]
        kept.append(strategies.plans.toarray()[:, rows])
    matrix = kept[0].T @ form.A.toarray() @ kept[1]
    m, n = matrix.shape
    result = linprog(
        c=np.r_[np.zeros(m), -1.0],
        A_ub=np.c_[-matrix.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    assert result.status == 0
    return -result.fun


def test_kuhn_always_bluffing_jack_matches_the_restricted_normal_form():
    game = kuhn_poker()
    expected = _matrix_game_value(game, {"J": "b"})
    result = solve(game, locks=["P1@J: b=1"])
    assert result.value == pytest.approx(expected, abs=1e-9)
    assert result.unlocked.value == pytest.approx(-1 / 18, abs=1e-9)  # Kuhn (1950)
    assert result.certificate.nash_conv <= 1e-9
    # exact on the tree: the same rows re-solved in rationals
    exact = solve(game, locks=["P1@J: b=1"], exact=True)
    assert exact.value == Fraction(-5, 18)
    assert exact.value == pytest.approx(expected, abs=1e-12)
    # player 2 exploits it: Q now always calls a bet
    qb = next(c for c in result.changes if c.node == "Qb")
    assert qb.after == pytest.approx((0.0, 1.0), abs=1e-9)


def test_locked_certificate_keeps_the_locks():
    game = kuhn_poker()
    result = solve(game, locks=["P1@J: b=1"])
    first, second = result.strategies
    # unrestricted, player 1 would gain by not bluffing J: the locked game's NashConv is 0
    assert certify(game, first, second).nash_conv > 0.1
    assert certify(game, first, second, result.locks.bounds()).nash_conv <= 1e-9


def test_spot_lock_changes_the_opponent_in_the_expected_direction(spot: Path):
    # OOP checks its whole range: IP now faces all of OOP's range after a check, and a
    # lock can only cost the player it binds, so OOP's EV goes down and IP's up.
    result = solve(str(spot), locks=["OOP@: x=1"])
    oop, ip = result.seats
    assert oop.change < 0 < ip.change  # a lock can only cost the locked player
    assert oop.after + ip.after == pytest.approx(10)  # EVs share the pot
    assert result.certificate.nash_conv <= 1e-7
    root = next(c for c in result.changes if c.node == "x")
    assert root.reach_after == pytest.approx(1.0)
    strategy = result.strategies[0]
    index = strategy.table.index_of_infoset()["AdAc|"]
    sequences = strategy.table.sequences_of(index)
    assert strategy.to_float().probabilities[sequences.start] == pytest.approx(1.0)


def test_lock_for_chosen_hands_only(spot: Path):
    result = solve(str(spot), locks=["IP@x: b30=1; hands=KK"])
    assert result.locks.count == 3  # KK:0.25 has three combos off the board (Ks on it)
    assert result.seats[1].change <= 1e-9


def test_a_locked_player_s_unlocked_nodes_are_compared_too(spot: Path):
    # both players locked: OOP's first decision is not locked and moves (it gains from
    # betting small into IP's locked check-back range), so it is listed; the locked
    # nodes themselves (IP after x, OOP after x-b5) are not, their frequencies being
    # the locks'
    unlocked = solve(str(spot))
    result = solve(str(spot), locks=["IP@x: b5=0.5,x=0.5; hands=KK,77", "OOP@x b5: c=1"])
    listed = {(c.player, c.node) for c in result.changes}
    assert (0, "") in listed
    assert (1, "x") not in listed and (0, "x-b5") not in listed
    root = next(c for c in result.changes if (c.player, c.node) == (0, ""))
    frequencies = report.action_frequencies(result.game, unlocked.strategies[0], "")
    assert root.before == pytest.approx(frequencies.frequencies, abs=1e-9)
    assert max(abs(a - b) for a, b in zip(root.before, root.after, strict=True)) > 0.05


def test_lp_and_cfr_agree_on_a_locked_kuhn():
    game = kuhn_poker()
    result = solve(game, locks=["P1@J: b=1"])
    run = solve_with_rule(
        game, RULES["cfr+"], "cfr+", Stopping(1000, None, None, 1000), locks=result.locks.fixed
    )
    value = certify(game, *run.strategies, result.locks.bounds()).value
    assert value == pytest.approx(result.value, abs=1e-3)
    assert run.strategies[0].probabilities[game.flat.tables[0].sequences_of(0)[1]] == 1.0


@pytest.mark.slow
def test_lp_and_vector_cfr_agree_on_a_locked_spot(spot: Path):
    result = solve(str(spot), locks=["OOP@: x=1"])
    game = choose_route(str(spot)).structured
    run = vector_cfr(game, "dcfr", Stopping(500, None, None, 500), locks=result.locks.fixed)
    assert run.nash_conv / 2 <= 1e-2 * 10  # well within a percent of the pot of 10
    from seqform.structured.responses import certify as structured_certify

    value = structured_certify(game, *run.strategies, result.locks.bounds()).value
    assert value == pytest.approx(result.value, abs=0.05)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("P1@J b=1", "write PLAYER@NODE", id="no-colon"),
        pytest.param("P3@J: b=1", "unknown player", id="player"),
        pytest.param("P1@J: b=0.5", "add up to 1/2", id="sum"),
        pytest.param("P1@J: b=2", "between 0 and 1", id="probability"),
        pytest.param("P1@J: b", "not ACTION=P", id="no-probability"),
        pytest.param("OOP@: x=1; hands=", "names no hand; leave it out", id="no-hands"),
        pytest.param("OOP@: x=1; hands=AA,,KK", "has an empty item", id="empty-hand"),
        # a second hands= used to replace the first silently (campaign: AA's lock dropped)
        pytest.param(
            "OOP@: x=1; hands=AA; hands=QQ",
            r"^--lock 'OOP@: x=1; hands=AA; hands=QQ': hands= is given twice",
            id="hands-twice",
        ),
        pytest.param("OOP@: x=1; Hands=AA; hands =QQ", "hands= is given twice", id="hands-case"),
        pytest.param("OOP@: x=0.5; x=0.5", "action 'x' is given twice", id="action-twice"),
    ],
)
def test_bad_lock_text(spec: str, message: str):
    with pytest.raises(LockError, match=message):
        parse_lock(spec)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("P2@J: b=1", "'J' is P1's", id="wrong-player"),
        pytest.param("P1@Z: b=1", "no information set 'Z'", id="node"),
        pytest.param("P1@J: x=1", "no action 'x'", id="action"),
        pytest.param("P1@J: b=1; hands=AA", "hands= needs", id="hands-on-a-tree"),
        # "pass" is read as "p": both given used to add up silently
        pytest.param("P1@J: p=0.5,pass=0.5", "'p' and 'pass' are the same action", id="synonym"),
    ],
)
def test_bad_lock_on_kuhn(spec: str, message: str):
    with pytest.raises(LockError, match=message):
        solve(kuhn_poker(), locks=[spec])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("IP@: x=1", "OOP acts at node 'root'", id="wrong-player"),
        pytest.param("OOP@x b7: c=1", "no node 'x-b7'", id="node"),
        pytest.param("OOP@: x=1; hands=22", "'22' is not in OOP's range", id="hand"),
        # a hand that is no notation names the lock, as every other lock error does
        pytest.param("OOP@: x=1; hands=ZZ", r"^--lock 'OOP@: x=1; hands=ZZ': hands 'ZZ'", id="ZZ"),
    ],
)
def test_bad_lock_on_a_spot(spot: Path, spec: str, message: str):
    with pytest.raises(LockError, match=message):
        solve(str(spot), locks=[spec])


def test_lock_file_toml_and_json(tmp_path: Path):
    toml = tmp_path / "locks.toml"
    toml.write_text(
        '[[lock]]\nplayer = "IP"\nnode = "x"\nhands = "AA"\nmix = { b5 = 0.5, x = 0.5 }\n'
    )
    found = read_lock_file(toml)
    half = Fraction(1, 2)
    assert found == [Lock(1, "x", (("b5", half), ("x", half)), ("AA",))]
    data = [{"player": "P1", "node": "J", "mix": {"b": 1}}]
    (tmp_path / "locks.json").write_text(json.dumps(data))
    assert read_lock_file(tmp_path / "locks.json") == [Lock(0, "J", (("b", Fraction(1)),))]
    (tmp_path / "bad.toml").write_text('[[lock]]\nplayer = "IP"\nmix = { x = 1 }\nspeed = 2\n')
    with pytest.raises(LockError, match=r"bad.toml, lock 1: unknown key 'speed'"):
        read_lock_file(tmp_path / "bad.toml")
    for hands in ('""', "[]", '["AA", " "]'):  # no hand is not every hand
        (tmp_path / "none.toml").write_text(
            f'[[lock]]\nplayer = "IP"\nnode = "x"\nhands = {hands}\nmix = {{ x = 1 }}\n'
        )
        with pytest.raises(LockError, match=r"none.toml, lock 1: hands"):
            read_lock_file(tmp_path / "none.toml")


@pytest.mark.slow
def test_cli_lock_report_and_json(spot: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["solve", str(spot), "--lock", "OOP@: x=1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "Node locks" in text and "EV without and with the locks" in text
    out = tmp_path / "locked.json"
    assert (
        main(["solve", str(spot), "--lock", "OOP@: x=1", "--format", "json", "--output", str(out)])
        == 0
    )
    document = json.loads(out.read_text())
    locks = document["locks"]
    assert locks["locks"] == ["OOP@: x=1"]
    assert locks["seats"][0]["ev_change"] < 0
    assert locks["changes"][0]["player"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["solve", "kuhn", "--lock", "P1@J: b=2"], id="probability"),
        pytest.param(["solve", "kuhn", "--lock", "P2@J: b=1"], id="wrong-player"),
        pytest.param(["solve", "kuhn", "--lock", "P1@J: b=1", "--method", "normal"], id="normal"),
        pytest.param(["solve", "kuhn", "--lock", "P1@J: b=1", "--refine"], id="refine"),
        pytest.param(
            ["solve", "kuhn", "--method", "structured", "--lock", "P1@: b=1; hands=J; hands=Q"],
            id="hands-twice",
        ),
    ],
)
def test_cli_bad_locks_are_usage_errors(argv, capsys: pytest.CaptureFixture[str]):
    assert main(argv) == 2
    assert "--lock" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "says"),
    [
        # the message named --exact, --refine and --fix, none of them given (campaign)
        pytest.param(["--solver", "pdlp"], "--lock needs a simplex basis", id="pdlp"),
        pytest.param(["--backend", "cvxpy"], "--lock uses HiGHS directly", id="backend"),
    ],
)
def test_cli_lock_refusals_name_the_options_given(options, says, capsys):
    assert main(["solve", "kuhn", "--lock", "P1@J: b=1", *options]) == 2
    err = capsys.readouterr().err
    assert says in err
    assert not any(option in err for option in ("--exact", "--refine", "--fix"))


@pytest.mark.parametrize("method", ["auto", "tree"])
@pytest.mark.parametrize(
    ("options", "keywords", "says"),
    [
        pytest.param(
            ["--exact", "--solver", "pdlp"],
            {"exact": True, "solver": "pdlp"},
            "--exact and --lock need a simplex basis: use --solver simplex or ipm, not pdlp",
            id="exact-pdlp",
        ),
        pytest.param(
            ["--exact", "--backend", "cvxpy"],
            {"exact": True, "backend": "cvxpy"},
            "--exact and --lock use HiGHS directly: drop --backend",
            id="exact-backend",
        ),
    ],
)
def test_lock_with_exact_refusals_name_both(method, options, keywords, says, capsys):
    # the refusal named --exact alone, as if the locks were not given (campaign)
    argv = ["solve", "kuhn", "--lock", "P1@J: b=1", "--method", method, *options]
    assert main(argv) == 2
    assert capsys.readouterr().err == f"seqform: error: {says}\n"
    with pytest.raises(OptionsError, match=f"^{says}$"):
        solve("kuhn", method=method, locks=["P1@J: b=1"], **keywords)


OFF_TREE = (
    "--lock with --exact runs on the game tree (--method tree); the structured route's "
    "exact re-solve does not take locks"
)


@pytest.mark.parametrize(
    ("options", "keywords", "says"),
    [
        pytest.param(
            ["--solver", "pdlp"],
            {"solver": "pdlp"},
            f"{OFF_TREE}; there --exact and --lock need HiGHS's simplex basis: "
            "use --solver simplex or ipm, not pdlp",
            id="pdlp",
        ),
        pytest.param(
            ["--backend", "cvxpy"],
            {"backend": "cvxpy"},
            f"{OFF_TREE}; there --exact and --lock need HiGHS's simplex basis: drop --backend",
            id="backend",
        ),
        pytest.param([], {}, OFF_TREE, id="alone"),
    ],
)
def test_lock_with_exact_on_the_structured_route_names_every_conflict(
    options, keywords, says, capsys
):
    # --method structured --lock --exact --solver pdlp named --exact alone ('--exact needs a
    # simplex basis'), and once the solver was mended the locks were refused (campaign)
    argv = ["solve", "kuhn", "--lock", "P1@J: b=1", "--method", "structured", "--exact"]
    assert main([*argv, *options]) == 2
    assert capsys.readouterr().err == f"seqform: error: {says}\n"
    with pytest.raises(OptionsError, match=f"^{re.escape(says)}$"):
        solve("kuhn", method="structured", locks=["P1@J: b=1"], exact=True, **keywords)


def test_the_report_counts_one_locked_information_set_in_the_singular(capsys):
    assert main(["solve", "kuhn", "--lock", "P1@J: b=1"]) == 0
    assert "Node locks (1 information set locked):" in capsys.readouterr().out


def test_option_refusals_name_every_option_given_and_no_other():
    with pytest.raises(OptionsError, match=r"^--exact and --lock need a simplex basis"):
        check_options("tree", solver="pdlp", exact=True, lock=True)
    with pytest.raises(OptionsError, match=r"^--fix uses HiGHS directly"):
        check_options("tree", backend="cvxpy", fix=True)
    with pytest.raises(OptionsError, match=r"^--refine works on the game tree only"):
        check_options("normal", refine=True)


@pytest.mark.parametrize(
    ("bound", "says"),
    [
        pytest.param("J:b=0", "--fix J:b = 0 disagree: the lock gives J:b probability 1", id="b"),
        # the lock gives the other action 0, which a lower bound on it excludes too
        pytest.param("J:p>=1/2", "--fix 1/2 <= J:p <= 1 disagree", id="other-action"),
    ],
)
def test_cli_a_fix_bound_the_lock_excludes_is_a_usage_error(bound, says, capsys):
    # it was exit 1, "the bounds on J:b leave no probability", the lock not named
    assert main(["solve", "kuhn", "--lock", "P1@J: b=1", "--fix", bound]) == 2
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: --lock 'P1@J: b=1' and ") and says in err


def test_a_fix_bound_the_lock_keeps_is_solved_with_it():
    # Kuhn with player 1 always betting the jack: -5/18, as without the bound (checked
    # against the restricted normal form in test_kuhn_always_bluffing_jack_matches_...)
    locked = solve(kuhn_poker(), locks=["P1@J: b=1"], fix=["J:b>=1/2"], exact=True)
    assert locked.value == Fraction(-5, 18)


def test_iterate_locked_kuhn_approaches_the_locked_lp():
    game = kuhn_poker()
    # the locked LP, exact: -5/18 (test_kuhn_always_bluffing_jack_matches_the_restricted_normal_form
    # checks it against the restricted normal form by scipy)
    exact = solve(game, locks=["P1@J: b=1"], exact=True)
    assert exact.value == Fraction(-5, 18)
    run = iterate(game, "cfr+", iterations=1000, locks=["P1@J: b=1"])
    assert run.locks is not None and run.locks.count == 1
    assert run.reference.status == "computed"
    assert run.reference.value == pytest.approx(-5 / 18, abs=1e-9)
    assert run.values[0] == pytest.approx(-5 / 18, abs=1e-4)
    # measured in the locked game: small there, large if player 1 could stop bluffing J
    assert run.certificate.nash_conv <= 1e-3
    first, second = run.result.strategies
    assert certify(game, first, second).nash_conv > 0.1
    assert first.probabilities[game.flat.tables[0].sequences_of(0)[1]] == 1.0  # J bets
    assert run.reference.uniqueness_skipped is not None  # the ranges ignore the locks


def test_iterate_locked_spot_by_vector_cfr(spot: Path):
    locked_lp = solve(str(spot), locks=["OOP@: x=1"])
    run = iterate(str(spot), "cfr+", iterations=60, every=60, locks=["OOP@: x=1"])
    assert run.game.name == str(spot) and run.spot is not None  # the structured route
    assert run.reference.value == pytest.approx(float(locked_lp.value), abs=1e-9)
    assert run.values[0] == pytest.approx(float(locked_lp.value), abs=0.1)  # pot 10
    assert run.certificate.nash_conv / 2 <= 0.1  # within 1% of the pot of 10
    # every iterate kept the lock: OOP checks AdAc at the root
    strategy = run.result.strategies[0]
    index = strategy.table.index_of_infoset()["AdAc|"]
    assert strategy.probabilities[strategy.table.sequences_of(index).start] == 1.0


def test_iterate_locked_structured_kuhn_names_the_hands():
    # the public tree names the node (root "") and the hand apart: "P1@J" is the tree's
    with pytest.raises(LockError, match="no node 'J'"):
        iterate("kuhn", "cfr+", iterations=10, method="structured", locks=["P1@J: b=1"])
    run = iterate("kuhn", "cfr+", iterations=1000, method="structured", locks=["P1@: b=1; hands=J"])
    assert run.reference.value == pytest.approx(-5 / 18, abs=1e-9)  # the locked LP above
    assert run.values[0] == pytest.approx(-5 / 18, abs=1e-4)


@pytest.mark.parametrize("algorithm", ["xfp", "rcfr", "mccfr"])
def test_iterate_refuses_locks_where_the_algorithm_does_not_keep_them(algorithm: str):
    with pytest.raises(OptionsError, match=f"{algorithm} does not keep them"):
        iterate("kuhn", algorithm, iterations=10, locks=["P1@J: b=1"])
    assert main(["iterate", "kuhn", "--algorithm", algorithm, "--lock", "P1@J: b=1"]) == 2


def test_cli_iterate_lock_report_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    locks = tmp_path / "locks.toml"
    locks.write_text('[[lock]]\nplayer = "P1"\nnode = "J"\nmix = { b = 1 }\n')
    command = ["iterate", "kuhn", "--algorithm", "cfr+", "--iterations", "200", "--quiet"]
    assert main([*command, "--lock-file", str(locks)]) == 0
    text = capsys.readouterr().out
    assert "Node locks (1 information set locked" in text
    assert "P1@J: b=1" in text
    assert "(= -5/18)" in text  # the locked LP's exact value (test above)
    out = tmp_path / "run.json"
    assert main([*command, "--lock", "P1@J: b=1", "--format", "json", "--output", str(out)]) == 0
    document = json.loads(out.read_text())
    pytest.importorskip("jsonschema")
    validate_document(document)  # seqform.iterate/2 with its "locks" object
    assert document["locks"]["locks"] == ["P1@J: b=1"]
    assert document["locks"]["locked_players"] == [1]
    assert main([*command, "--lock", "P1@J: z=1"]) == 2
