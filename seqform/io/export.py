"""Writing a game for other tools: the tree as Gambit ``.efg``, the sequence form as
``.npz``, the min-max LP as MPS.

The ``.efg`` text is written straight from the tree in one pre-order walk
(:func:`efg_text`), byte for byte what pygambit's writer gives for
:func:`~seqform.game.formats.to_gambit.game_to_gambit`'s game: building that
``pygambit.Game`` node by node takes time quadratic in the tree (seconds already at Kuhn
with 40 cards; see ``benchmarks/results/measurements.md``), the text linear time.
Conventions: each chance node its own information set; decision information sets numbered
per player in order of first appearance, each node repeating its set's label and actions;
one outcome per distinct payoff vector, labelled by it and numbered in order of first
appearance; labels made acceptable to Gambit in a form :func:`~seqform.game.formats.efg.read_efg`
reads back to the game's own (:func:`~seqform.game.formats.efg_labels.gambit_label`:
``3 ranks U+00D7 2 suits``), node labels distinct.

``.npz`` layout (``numpy.load(path)``), sparse matrices in coordinate form:

* ``E_shape, E_row, E_col, E_data`` (and likewise ``F_*`` and ``A_*``): the sequence-form
  matrices of :mod:`seqform.forms.sequence_form`; ``e``, ``f``: the right-hand sides;
* ``A_numerator, A_denominator``: the exact entries of ``A`` as integers, in the order of
  ``A_row, A_col`` (when they fit in 64 bits; otherwise as strings in ``A_exact``);
* ``sequences_0, sequences_1``: the sequence labels (``"∅"``, ``"Kpb:b"``, ...);
* ``infosets_0, infosets_1``: the information-set names, in index order.

A file is refused, before the game is read, when its suffix names another kind of file
(:func:`check_export_file`: ``--to npz a.efg`` would put a ZIP archive where a reader expects
a Gambit game), or cannot be written (:func:`~seqform.io.atomic.check_writable`).

The MPS file holds the LP of :mod:`seqform.lp.minmax` (maximise ``f @ q`` subject to
``F.T q - A.T x <= 0``, ``E x = e``, ``x >= 0``), written by HiGHS; columns ``x`` come
first, then ``q``.
"""

from __future__ import annotations

import errno
import os
from fractions import Fraction
from pathlib import Path
from typing import Literal

import numpy as np

from seqform.base.numbers import float_of
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.formats.efg_labels import gambit_label
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal
from seqform.game.requirements import require_float_payoffs
from seqform.io.atomic import check_writable, replacing, write_atomically
from seqform.lp.highs import write_model
from seqform.lp.minmax import highs_model

__all__ = ["FORMATS", "SUFFIXES", "check_export_file", "efg_text", "export_game", "write_efg"]

Format = Literal["efg", "npz", "mps"]
FORMATS: tuple[str, ...] = ("efg", "npz", "mps")

SUFFIXES: dict[str, tuple[str | None, str]] = {
    ".efg": ("efg", "a Gambit game"),
    ".npz": ("npz", "a sequence form (or strategy arrays)"),
    ".mps": ("mps", "an LP"),
    ".json": (None, "a JSON document"),
    ".toml": (None, "a spot file"),
}
"""The suffixes that name a kind of file (case ignored): the export format that writes it,
if one does, and what it holds.  A file is written by an export format only if its suffix
names that format or no kind at all (:func:`check_export_file`)."""


def check_export_file(to: str, path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a file ``to`` would write under another kind's suffix
    (:data:`SUFFIXES`): ``--to npz a.efg`` wrote a ZIP archive that every reader of
    ``a.efg`` then fails on.  An MPS file must end in ``.mps`` (HiGHS picks the format by
    it); ``to`` may also be ``"gambit-profile"`` (a line of text, any other suffix).

    Raises
    ------
    ValueError
        Naming the file, its suffix and the suffix to give it.
    """
    suffix = Path(path).suffix.lower()
    kind, holds = SUFFIXES.get(suffix, (to, ""))
    if to == "mps" and suffix != ".mps":
        raise ValueError(f"an MPS file must end in .mps (HiGHS picks the format by it): {path}")
    if kind != to:
        wanted = f".{to}" if to in FORMATS else ".profile or .txt"
        raise ValueError(
            f"--to {to} would write {os.fspath(path)!r}, whose suffix {suffix} is that of "
            f"{holds}; name a {wanted} file"
        )


def write_efg(game: Game, path: str | os.PathLike[str]) -> None:
    """Write ``game`` as a Gambit ``.efg`` file (:func:`efg_text`), atomically.

    Reading the file back with :func:`~seqform.game.formats.efg.read_efg` gives the same
    name, description, players, information sets, actions and chance outcomes, whatever
    their characters (:mod:`seqform.game.formats.efg_labels`), so a strategy document of
    the game is one of the file's game; but as from any file, the first line of the
    description alone and labels without leading and trailing blanks, node labels distinct
    (``end#2``), blank actions and chance outcomes named (``#3``).

    Raises
    ------
    OSError
        If the file cannot be written (any earlier file at ``path`` is left as it was).
    """
    write_atomically(path, efg_text(game))


def efg_text(game: Game) -> str:
    """The game as the text of a Gambit ``.efg`` file, in time linear in the tree.

    The same text as ``game_to_gambit(game).to_efg()`` (pygambit 16.7's writer; see the
    module docstring for the conventions).
    """
    # Gambit's label rules live beside the pygambit conversions, which import pygambit (and
    # pandas, scipy.stats): loaded here, when an .efg is written, not with this module.
    from seqform.game.formats.from_gambit import distinct_labels
    from seqform.game.formats.to_gambit import gambit_labels, payoff_label

    nodes = _preorder(game.root)
    node_labels = iter(distinct_labels([gambit_label(node.label) for node in nodes if node.label]))
    players = " ".join(_quoted(gambit_label(name)) for name in game.player_names)
    title = gambit_label(game.name) or "Untitled extensive game"
    lines = [
        f"EFG 2 R {_quoted(title)} {{ {players} }}",
        _quoted(gambit_label(game.description)),
        "",
    ]
    infosets: dict[tuple[int, str], int] = {}
    counts: dict[int, int] = {}
    outcomes: dict[tuple[Fraction, ...], int] = {}
    chances = 0
    for node in nodes:
        label = _quoted(next(node_labels) if node.label else "")
        if isinstance(node, Terminal):
            number = outcomes.setdefault(node.payoffs, len(outcomes) + 1)
            payoffs = ", ".join(str(payoff) for payoff in node.payoffs)
            outcome = f"{number} {_quoted(payoff_label(node.payoffs))} {{ {payoffs} }}"
            lines.append(f"t {label} {outcome}")
        elif isinstance(node, Chance):
            chances += 1
            moves = " ".join(
                f"{_quoted(outcome)} {probability}"
                for outcome, probability in zip(
                    gambit_labels(node.outcomes), node.probabilities, strict=True
                )
            )
            lines.append(f'c {label} {chances} "" {{ {moves} }} 0')
        else:
            key = (node.player, node.infoset)
            number = infosets.get(key, 0)
            if not number:
                number = infosets[key] = counts[node.player] = counts.get(node.player, 0) + 1
            actions = " ".join(_quoted(action) for action in gambit_labels(node.actions))
            infoset = _quoted(gambit_label(node.infoset))
            lines.append(f"p {label} {node.player + 1} {number} {infoset} {{ {actions} }} 0")
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A label as Gambit writes it: in double quotes, a quote escaped by a backslash."""
    return '"' + text.replace('"', '\\"') + '"'


def _preorder(root: Node) -> list[Node]:
    """Every node, parents before children, children left to right (no recursion)."""
    nodes: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        nodes.append(node)
        if isinstance(node, (Chance, Decision)):
            stack.extend(reversed(node.children))
    return nodes


def export_game(game: Game, to: Format, path: str | os.PathLike[str]) -> Path:
    """Write ``game`` in format ``to`` (``"efg"``, ``"npz"`` or ``"mps"``) at ``path``.

    Raises
    ------
    ValueError
        For an unknown format, and a file whose suffix names another kind
        (:func:`check_export_file`), before any work.
    OSError
        If the file cannot be written (a folder that is missing or not writable, a read-only
        file: before any work, :func:`~seqform.io.atomic.check_writable`); every format is
        written atomically (:mod:`seqform.io.atomic`), so an earlier file at ``path``
        survives a failed write.
    """
    if to not in FORMATS:
        raise ValueError(f"unknown export format {to!r}; choose one of {', '.join(FORMATS)}")
    check_export_file(to, path)
    check_writable(path)
    target = Path(path)
    if to == "efg":
        write_efg(game, target)
    elif to == "npz":
        _write_npz(game, target)
    else:
        _write_mps(game, target)
    return target


def _write_npz(game: Game, path: Path) -> None:
    form = build_sequence_form(game)
    arrays: dict[str, np.ndarray] = {"e": form.e, "f": form.f}
    for name, matrix in (("E", form.E), ("F", form.F), ("A", form.A)):
        coo = matrix.tocoo()
        arrays[f"{name}_shape"] = np.asarray(matrix.shape, dtype=np.int64)
        arrays[f"{name}_row"] = coo.row.astype(np.int64)
        arrays[f"{name}_col"] = coo.col.astype(np.int64)
        arrays[f"{name}_data"] = coo.data
    rows, cols, exact = form.payoff_entries
    # The float A's coordinates in the same order as the exact entries.
    arrays["A_row"], arrays["A_col"] = rows, cols
    arrays["A_data"] = np.fromiter((float_of(v) for v in exact), dtype=float, count=len(exact))
    limit = 2**62
    if all(abs(v.numerator) < limit and v.denominator < limit for v in exact):
        arrays["A_numerator"] = np.fromiter((v.numerator for v in exact), dtype=np.int64)
        arrays["A_denominator"] = np.fromiter((v.denominator for v in exact), dtype=np.int64)
    else:
        arrays["A_exact"] = np.asarray([str(v) for v in exact])
    for player, table in enumerate(form.players):
        arrays[f"sequences_{player}"] = np.asarray(table.labels())
        arrays[f"infosets_{player}"] = np.asarray(table.infosets)
    write_atomically(path, lambda handle: np.savez_compressed(handle, allow_pickle=False, **arrays))


def _write_mps(game: Game, path: Path) -> None:
    require_float_payoffs(game, "an MPS file (floats)")
    form = build_sequence_form(game)
    model = highs_model(form.E, form.e, form.F, form.f, form.A)
    with replacing(path) as temporary:
        # HiGHS reports success even when the write was cut short (a file-size limit, a
        # full disk): a complete MPS file ends with the ENDATA record.
        if not write_model(model, str(temporary)) or not _ends_with_endata(temporary):
            raise OSError(errno.EIO, "HiGHS could not write the whole MPS file", str(path))


def _ends_with_endata(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - 16))
            return handle.read().rstrip().endswith(b"ENDATA")
    except OSError:
        return False
