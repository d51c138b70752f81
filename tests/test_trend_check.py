"""The extra NashConv measurement where the trend of the last two meets the target
(:func:`seqform.iterative.run.trend_check`), on synthetic curves whose crossing is known."""

from __future__ import annotations

import pytest

from seqform.iterative.run import TREND_MARGIN, Sample, Stopping, run_iterations, trend_check


def _samples(*points: tuple[int, float]) -> list[Sample]:
    """Samples of exploitability ``e`` (NashConv ``2 e``) at the given iterations."""
    return [Sample(t, 0.0, 2 * e, None) for t, e in points]


def test_a_power_law_is_checked_just_past_its_crossing():
    # e = 10 t^-1.5 measured at 200 and 300 meets e(340) at 340: checked at 1.05 × 340
    curve = lambda t: 10 * t**-1.5  # noqa: E731
    history = _samples((200, curve(200)), (300, curve(300)))
    check = trend_check(Stopping(target=curve(340), every=100), history)
    assert check is not None and abs(check - TREND_MARGIN * 340) < 1 + 1e-9


@pytest.mark.parametrize(
    ("points", "every", "why"),
    [
        (((200, 0.03), (300, 0.02)), 100, "the forecast is past the next regular check"),
        (((200, 0.01), (300, 0.02)), 100, "rising"),
        (((339, 0.0105), (349, 0.0102)), 100, "two forecasts since the regular check"),
        (((300, 0.02), (339, 0.0105), (349, 0.0102)), 100, "two forecasts, a third refused"),
        (((200, 0.02), (300, 0.009)), 100, "already below the target"),
        (((200, 0.5), (300, 0.5 - 1e-15)), 100, "flat: a forecast beyond any float"),
        (((100, 0.02),), 100, "one sample only"),
    ],
)
def test_no_check_when_the_trend_says_nothing_new(points, every, why):
    assert trend_check(Stopping(target=0.01, every=every), _samples(*points)) is None, why


def test_a_forecast_that_missed_is_followed_by_one_more():
    # a forecast at 340 that missed (the target is the curve's value at 350): one more,
    # from 300 and 340, TREND_MARGIN past the crossing of the line through them
    curve = lambda t: 10 * t**-1.5  # noqa: E731
    target = curve(350)
    history = _samples((300, curve(300)), (340, curve(340)))
    check = trend_check(Stopping(target=target, every=100), history)
    assert check is not None and abs(check - TREND_MARGIN * 350) < 1 + 1e-9


def test_no_check_without_a_target():
    history = _samples((200, 0.03), (300, 0.011))
    assert trend_check(Stopping(iterations=1000, every=100), history) is None


class _Counter:
    """A stepper whose average's NashConv is ``2 · 10 t^-1.5`` after ``t`` steps."""

    def __init__(self) -> None:
        self.t = 0

    def step(self, iteration: int) -> None:
        self.t = iteration

    def average(self) -> tuple:
        return ()


def test_a_run_stops_at_the_trend_check_not_the_next_multiple():
    counter = _Counter()
    target = 10 * 340**-1.5
    result = run_iterations(
        None,
        counter,
        Stopping(target=target, every=100),
        "synthetic",
        nash_conv=lambda _strategies: 2 * 10 * counter.t**-1.5,
    )
    *regular, check = [s.iteration for s in result.history]
    assert regular == [100, 200, 300] and abs(check - TREND_MARGIN * 340) < 1 + 1e-9
    assert result.stopped == "target" and result.iterations == check
