"""Every command writes a value one way: ten places, then the fraction it
equals (base/numbers.value_text), in the certificate blocks as in the headline."""

from fractions import Fraction

import pytest

from seqform.cli.main import main

# Kuhn (1950): the value of 3-card Kuhn poker to player 1 is -1/18; with an equilibrium
# profile both best responses equal it (player 2's is +1/18).
KUHN_CERTIFICATE = [
    "  expected value                 -0.0555555556 (= -1/18)",
    "  best response of Player 1      -0.0555555556 (= -1/18)",
    "  best response of Player 2      +0.0555555556 (= 1/18)",
]


@pytest.mark.parametrize(
    ("argv", "title"),
    [
        pytest.param(["solve", "kuhn"], "Certificate (best responses on the game tree", id="float"),
        pytest.param(["solve", "kuhn", "--exact"], "Exact certificate (tree walk", id="exact"),
    ],
)
def test_certificate_rows_are_in_the_house_format(argv, title, capsys):
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    assert lines[start + 1 : start + 4] == KUHN_CERTIFICATE
    assert lines[start + 4].startswith("  exploitability (NashConv / 2)  ")


def test_no_value_is_written_the_old_ways(capsys):
    # The other styles commands wrote a value in: "-1/18 ≈ …", "(≈ 1/18)", "-0.056 = -1/18".
    for argv in (
        ["solve", "kuhn"],
        ["solve", "kuhn", "--exact"],
        ["solve", "kuhn", "--refine"],
        ["exploit", "kuhn", "--opponent", "uniform"],
        ["ranges", "kuhn"],
        ["play", "--auto", "equilibrium", "--seat", "1", "--seed", "2", "--hands", "4"],
    ):
        assert main(argv) == 0
        out = capsys.readouterr().out
        # "≈ 0" is round-off beside the payoff range (base/numbers.scaled_text), not a style
        assert "≈" not in out.replace("≈ 0", ""), argv
        assert " = -1/18" not in out.replace("(= -1/18)", ""), argv


def test_exploit_json_of_a_float_strategy_has_no_long_fractions(tmp_path, capsys):
    # solve's JSON fed back to exploit came out as
    # 6666666666666667/10000000000000000 or a 33-digit value_exact; only --exact keeps them.
    import json

    from seqform.cli.main import main

    path = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--format", "json", "--output", str(path)]) == 0
    capsys.readouterr()
    assert (
        main(["exploit", "kuhn", "--strategy", str(path), "--player", "2", "--format", "json"]) == 0
    )
    document = json.loads(capsys.readouterr().out)
    probabilities = [
        action["probability"]
        for infoset in document["fixed"]["strategy"]["infosets"]
        for action in infoset["actions"]
    ]
    assert all(len(str(p)) < 20 for p in probabilities)
    assert document["value_exact"] is None or len(document["value_exact"]) < 20
    assert document["value"] == pytest.approx(-1 / 18)  # Kuhn 1950: value -1/18 to player 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "game", ["kuhn", "leduc", "liars_dice", "kuhn(cards=100)", "leduc(ranks=13)"]
)
def test_every_two_player_builtin_game_certifies_at_its_default_size(game, capsys):
    # A default run of a built-in game must certify (exit 0): liars_dice took the structured
    # route with Clarabel and ended at NashConv 1.56e-9, over an absolute bar.  kuhn3 has
    # three players and is the CFR family's (iterate), not the LP's.  leduc(ranks=13) is the
    # README's big example; the larger sizes the documents show are certified by
    # `python -m benchmarks.big_sizes` (minutes, up to 2 GiB: too long for the suite).
    assert main(["solve", game, "--quiet"]) == 0
    assert "equilibrium (≤ 1e-09)" in capsys.readouterr().out


def test_a_small_value_keeps_its_digits(tmp_path, capsys):
    # Kuhn poker (value -1/18, Kuhn 1950) with its payoffs in millionths of a chip has the
    # value -1/18,000,000.  In ten fixed places it was written -0.0000000556 (three
    # digits), and in billionths -0.0000000001 (none); only 0 is written as 0.
    from fractions import Fraction

    from seqform.base.numbers import value_text

    assert value_text(-1 / 18 * 1e-6) == "-5.555555556e-08"
    assert value_text(-1 / 18 * 1e-9) == "-5.555555556e-11"
    assert value_text(Fraction(-1, 18_000_000), exact=True) == "-5.555555556e-08 (= -1/18000000)"
    assert value_text(0.0) == value_text(-0.0) == value_text(Fraction(0)) == "+0.0000000000"
    assert value_text(-1 / 18) == "-0.0555555556 (= -1/18)"
    assert main(["export", "kuhn", "--to", "efg", "--output", str(tmp_path / "k.efg")]) == 0
    text = (tmp_path / "k.efg").read_text()
    for payoff in ("2", "1"):
        text = text.replace(
            f"{{ -{payoff}, {payoff} }}", f"{{ -{payoff}/1000000, {payoff}/1000000 }}"
        )
        text = text.replace(
            f"{{ {payoff}, -{payoff} }}", f"{{ {payoff}/1000000, -{payoff}/1000000 }}"
        )
    (tmp_path / "small.efg").write_text(text)
    capsys.readouterr()
    assert main(["solve", str(tmp_path / "small.efg"), "--exact"]) == 0
    assert "Value to Player 1: -5.555555556e-08 (= -1/18000000)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # Kuhn's value -1/18 (Kuhn 1950) in 1e-15 chips: below 1e-12 it was written as 0
        pytest.param(-1 / 18 * 1e-15, "-5.555555556e-17", id="kuhn-in-1e-15"),
        pytest.param(1e-300, "+1.000000000e-300", id="tiny-float"),
        pytest.param(5e-324, "+4.940656458e-324", id="subnormal"),
        # an exact value below the floats was float() = 0 and written as 0
        pytest.param(Fraction(-1, 18 * 10**400), "-5.555555556e-402", id="below-the-floats"),
    ],
)
def test_only_zero_is_written_as_zero(value, text):
    from seqform.base.numbers import decimal_text

    assert decimal_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param(-1 / 18, "-0.0555555556", id="kuhn"),  # Kuhn (1950): ten places
        pytest.param(12345.678, "+12345.6780000000", id="below-1e5"),
        # Kuhn's value in units of 1e-12 chips (-1e12/18): ten places were
        # -55555555555.5555572510, the last six digits float noise
        pytest.param(-1e12 / 18, "-55555555555.5556", id="kuhn-in-1e-12"),
        pytest.param(1e9 / 3, "+333333333.333333", id="third-of-1e9"),
        pytest.param(2e12, "+2000000000000.00", id="whole"),
        pytest.param(1e14, "+100000000000000", id="fifteen-digits"),
        # from 1e15 the integer part alone outruns a float: 33333333333333331968
        pytest.param(1e20 / 3, "+3.33333333333333e+19", id="third-of-1e20"),
        pytest.param(-1e18 / 18, "-5.55555555555556e+16", id="kuhn-in-1e-18"),
    ],
)
def test_a_large_value_has_no_more_digits_than_a_float_carries(value, text):
    from seqform.base.numbers import decimal_text

    assert decimal_text(value) == text
    float_digits = sum(c.isdigit() for c in text.split("e")[0].lstrip("+-0.")) or 1
    assert float_digits <= 16  # sys.float_info.dig is 15; 10 places below 1e5


def test_a_game_scaled_to_femtochips_has_a_nonzero_value(tmp_path, capsys):
    # Kuhn poker (value -1/18, Kuhn 1950) with payoffs in 1e-15 chips: the float route's
    # value -5.6e-17 was written -0.0000000000
    assert main(["export", "kuhn", "--to", "efg", "--output", str(tmp_path / "k.efg")]) == 0
    text = (tmp_path / "k.efg").read_text()
    for payoff in ("2", "1"):
        text = text.replace(f"{{ -{payoff}, {payoff} }}", f"{{ -{payoff}e-15, {payoff}e-15 }}")
        text = text.replace(f"{{ {payoff}, -{payoff} }}", f"{{ {payoff}e-15, -{payoff}e-15 }}")
    (tmp_path / "tiny.efg").write_text(text)
    capsys.readouterr()
    assert main(["solve", str(tmp_path / "tiny.efg")]) == 0
    assert "Value to Player 1: -5.555555556e-17" in capsys.readouterr().out


def test_a_fraction_is_shown_only_where_the_float_can_support_it():
    from seqform.base.numbers import matching_fraction

    # Kuhn's value -1/18 (Kuhn 1950) in billionths: not 0, which it was shown as
    assert matching_fraction(-1 / 18 * 1e-9) is None
    assert matching_fraction(1e-17) == 0  # round-off of a zero value
    # a CFR estimate of Kuhn in units of 1e12 was shown "(= -39056446220269/703)": at
    # 5.6e10 a float's spacing (7.6e-6) cannot tell fractions of denominator <= 1000 apart
    assert matching_fraction(-55556822503.938835) is None
    assert matching_fraction(-1 / 18) == Fraction(-1, 18)
    assert matching_fraction(-999.9444444444444) == Fraction(-17999, 18)
    assert matching_fraction(2e12) == 2 * 10**12  # whole numbers need no spacing
