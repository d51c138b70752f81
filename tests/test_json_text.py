"""``indented_json`` writes exactly what ``json.dumps(document, indent=2)`` writes.

The reference is Python's own encoder (``json.dumps``), on random documents and on the shapes
the fast paths take (flat containers, lists of flat objects) with the characters that could
confuse them (control characters, ``"},\\n{"`` inside strings, non-string keys, NaN).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seqform.io.json_text import indented_json

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
_keys = st.text(max_size=6) | st.integers(-3, 3) | st.booleans() | st.none()
_documents = st.recursive(
    _scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(_keys, children, max_size=4)
        | st.lists(st.dictionaries(st.text(max_size=4), _scalars, max_size=3), max_size=4)
    ),
    max_leaves=30,
)


_flat_objects = st.lists(
    st.dictionaries(st.text(max_size=4), _scalars, min_size=1, max_size=3), min_size=1, max_size=3
)


@st.composite
def _records(draw: st.DrawFn) -> list[dict[str, object]]:
    """Lists of objects with the same keys, each key all scalars or all lists of flat
    objects (the shape of a strategy's information sets), sometimes broken on purpose."""
    keys = draw(st.lists(st.text(max_size=4), min_size=1, max_size=3, unique=True))
    nested = {key: draw(st.booleans()) for key in keys}
    rows = draw(st.integers(1, 4))
    records = [
        {key: draw(_flat_objects if nested[key] else _scalars) for key in keys} for _ in range(rows)
    ]
    if draw(st.booleans()):  # a value of another kind, or a missing key, in one record
        victim = draw(st.sampled_from(records))
        key = draw(st.sampled_from(keys))
        if draw(st.booleans()):
            victim[key] = draw(_documents)
        else:
            del victim[key]
    return records


@given(document=_records())
def test_lists_of_records_are_written_as_json_dumps_writes_them(document: object) -> None:
    assert indented_json({"infosets": document}) == json.dumps({"infosets": document}, indent=2)


@given(document=_documents)
def test_random_documents_are_written_as_json_dumps_writes_them(document: object) -> None:
    assert indented_json(document) == json.dumps(document, indent=2)


@pytest.mark.parametrize(
    "document",
    [
        pytest.param({}, id="empty-object"),
        pytest.param([], id="empty-list"),
        pytest.param([{"a": "},\n{", "b": "\x01,\x01"}, {"c": None}], id="separators-in-strings"),
        pytest.param([{}, {"a": 1}], id="an-empty-object-in-a-list"),
        pytest.param({"k": [{"x": float("nan"), "y": -0.0, "z": 1e300}]}, id="floats"),
        pytest.param({1: 2, None: {True: [1.5]}}, id="non-string-keys"),
        pytest.param(({"a": 1}, [2, (3,)]), id="tuples"),
        pytest.param({"words": "bid 2 × face 5", "é": ["ü"]}, id="non-ascii"),
        pytest.param(
            [
                {"n%s": "a%", "actions": [{"x": "}],\x01[{", "y": 1}], "u": False},
                {"n%s": "b", "actions": [{"x": "", "y": 2.5}, {"z": None}], "u": True},
            ],
            id="records",
        ),
    ],
)
def test_the_fast_paths_write_what_json_dumps_writes(document: object) -> None:
    assert indented_json(document) == json.dumps(document, indent=2)


def test_what_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(TypeError):
        indented_json({"a": [{"b": object()}]})
