"""Which game a strategy document is of: the check every reader of a strategy file makes
before the strategy is used (``play --auto``, ``exploit --strategy``, ``resolve
--blueprint``), and the one place its refusal is worded.

A seqform document names its game (``"game"``: name and description, which holds the
parameters); a hold'em spot's document also carries the spot it was computed for, compared
as a game with the spot the file is used with (:func:`seqform.holdem.spot_difference`).
A Gambit profile and a bare ``{infoset: {action: probability}}`` mapping name no game and
pass; their information sets are checked when the strategy is read
(:mod:`seqform.io.strategy_files`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.io.gambit_profile import is_gambit_profile
from seqform.io.json_input import StrategyFileError, parse_json, read_text, shown

__all__ = ["GAME_USES", "GameUse", "check_document_game", "check_strategy_file_game"]

GameUse = Literal["played", "exploited", "re-solved", "abstract"]
"""What a caller does with the game a strategy document must be of, for the refusal's words."""
GAME_USES: dict[str, str] = {
    "played": "the game being played",
    "exploited": "the game being exploited",
    "re-solved": "the game being re-solved",
    "abstract": "the abstract game",
}
"""How a refusal (:func:`check_document_game`) names the game of each :data:`GameUse`."""


def check_strategy_file_game(path: str | Path, game: Game | StructuredGame, use: GameUse) -> None:
    """Raise unless the strategy file ``path`` may be read as a strategy of ``game``
    (:func:`check_document_game`, ``use`` saying what ``game`` is for; a Gambit profile and a
    bare mapping name no game and pass), without reading the strategy: the check
    ``read_strategy_file(..., same_game=use)`` makes, asked on its own before a game is
    solved so that a document of another game is refused at once, with the same message.

    Raises
    ------
    StrategyFileError
        If the file is not JSON, or is a document of another game (naming both).
    OSError
        If the file cannot be read.
    """
    where = f"strategy file {str(path)!r}"
    text = read_text(path, where)
    if not is_gambit_profile(text):
        check_document_game(parse_json(text, where), game, where, use)


def check_document_game(
    document: Any, game: Game | StructuredGame, where: str, use: GameUse
) -> None:
    """Raise unless a seqform document's ``"game"`` is ``game``: the same name (a file's by
    its base name: a spot is named by its path as given) and the same description, which
    holds the parameters (``leduc`` and ``leduc(ranks=2)`` differ there).  A document without
    ``"game"`` (``{infoset: {action: probability}}``, one strategies entry) passes.

    A hold'em spot's description names its street and board only, so when ``game`` is a spot
    (its ``origin``, :func:`seqform.holdem.spot_game`) and the document carries the spot it
    was computed for (``"spot": {"definition": {...}}``, the keys of a spot file), the two
    spots are compared as games (:func:`seqform.holdem.spot_difference`: board, pot, stack,
    range weights, each street's sizes, ``max_raises``, ``all_in_threshold``), and the
    first key that differs is named with both values.  A document without a definition (of
    a seqform version before documents kept it, or written by another tool) is matched by
    name and description alone, as are the other games' documents.

    The one place the refusal is worded: ``use``, the caller's, says what ``game`` is for
    (:data:`GAME_USES`: "not of the game being exploited, 'kuhn' (...)").

    Raises
    ------
    StrategyFileError
        For a document of another game, naming both; of another spot, naming the first key
        in which the spots differ and its value in each; with a spot definition that is not
        a spot, naming its key.
    """
    if not isinstance(document, dict) or not isinstance(document.get("game"), dict):
        return
    given = document["game"]
    name, description = given.get("name"), given.get("description")
    same_name = name is None or name == game.name or Path(str(name)).name == Path(game.name).name
    same_description = description is None or description == game.description
    if not (same_name and same_description):
        raise StrategyFileError(
            f"{where} is a strategy of {shown(name)} ({shown(description, 120)}), not of "
            f"{GAME_USES[use]}, {game.name!r} ({game.description!r})"
        )
    spot_object = document.get("spot")
    if game.origin is None or not isinstance(spot_object, dict):
        return
    definition = spot_object.get("definition")
    if definition is None:
        return
    _check_same_spot(definition, game, where, use)


def _check_same_spot(
    definition: Any, game: Game | StructuredGame, where: str, use: GameUse
) -> None:
    """Raise unless the spot ``definition`` of a document is the spot ``game`` was built
    from (:func:`check_document_game`); a game built from something else passes."""
    from seqform.holdem import CardError, Spot, SpotFileError, spot_difference, spot_from_mapping

    spot = game.origin
    if not isinstance(spot, Spot):
        return
    if not isinstance(definition, dict):
        raise StrategyFileError(
            f"{where}: spot/definition must be an object of a spot file's keys, got "
            f"{shown(definition)}"
        )
    try:
        saved = spot_from_mapping(definition, name=f"{where}: spot/definition")
    except (SpotFileError, CardError) as exc:
        raise StrategyFileError(str(exc)) from None
    found = spot_difference(saved, spot)
    if found is not None:
        raise StrategyFileError(
            f"{where} is a strategy of another spot, not of {GAME_USES[use]}, "
            f"{game.name!r}: {found.key}: {found.item}{found.first} in the file, "
            f"{found.second} in the spot"
        )
