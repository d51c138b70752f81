"""The depth of an ``.efg`` file's tree, found in one quick pass before the file is read.

pygambit's reader recurses once per level of the tree, so :func:`seqform.game.formats.efg.read_efg`
refuses trees deeper than its ``MAX_DEPTH``.  The pre-pass that finds every fault
(:mod:`seqform.game.formats.efg_scan`) makes an object of each of the file's tokens, about
twenty a level of a chain, and reading a tree too deep would take a minute before its refusal.
This pass matches one whole node at a time with a regular expression and keeps only the
counts of subtrees still to read, following the same grammar::

    p "label" player infoset ["infoset" { "a" "b" ... }] outcome ["name" { payoffs }]
    c "label" infoset ["infoset" { "a" prob "b" prob ... }] outcome [...]
    t "label" outcome [...]

Anything it does not recognise (a fault, or a spelling it does not expect) ends it without an
answer, and the depth is left to the pre-pass, which reports faults with their line.
"""

from __future__ import annotations

import re

__all__ = ["quick_depth"]

# ``\s`` under re.ASCII is Gambit's blank (C's isspace): `` \t\n\v\f\r``.
_STRING = r'"(?:[^"\\]++|\\+"?)*+"'  # as Gambit's lexer: ends at a '"' not after a '\'
_END = r'(?![^\s"])'  # a number ends at a blank, a quote or the end of the file
_HEADER = re.compile(
    rf"\s*EFG\s+2\s+[DR]\s+{_STRING}\s*\{{(?:\s*{_STRING})*\s*\}}(?:\s*{_STRING})?", re.ASCII
)
# One node: a decision's player, information set and action labels; a chance node's
# information set and labelled probabilities; a terminal's nothing; or, last, anything else.
_NODE = re.compile(
    rf"""\s*+(?:
        p\s+{_STRING}\s*([0-9]+)\s+([0-9]+){_END}
            (?:\s*{_STRING}\s*\{{((?:\s*{_STRING})*)\s*\}})?
      | c\s+{_STRING}\s*([0-9]+){_END}
            (?:\s*{_STRING}\s*\{{((?:\s*{_STRING}\s*[^\s"{{}},]+)*)\s*\}})?
      | t\s+{_STRING}
    )\s*[0-9]+{_END}(?:\s*{_STRING}\s*\{{[^"{{}}]*\}})?
    | (\S+)""",
    re.VERBOSE | re.ASCII,
)
_ONE_STRING = re.compile(_STRING)


def quick_depth(text: str) -> int | None:
    """The number of levels of the tree in ``text`` (a decoded ``.efg`` file), or ``None``
    when the file does not follow the grammar of the module docstring.

    Linear in the file: one match of a regular expression per node, and a walk that keeps
    the count of subtrees still to read at each level (as the pre-pass's walk does).
    """
    header = _HEADER.match(text)
    if header is None:
        return None
    actions: dict[tuple[int, int], int] = {}
    pending, depth = [1], 0
    for player, infoset, labels, chance, outcomes, other in _NODE.findall(text, header.end()):
        while pending and pending[-1] == 0:
            pending.pop()
        if other or not pending:
            return None  # not a node, or a node after the end of the tree
        pending[-1] -= 1
        if len(pending) > depth:
            depth = len(pending)
        if player:
            key = (int(player), int(infoset))
            if labels and key not in actions:
                actions[key] = len(_ONE_STRING.findall(labels))
        elif chance:
            key = (0, int(chance))
            if outcomes and key not in actions:
                actions[key] = len(_ONE_STRING.findall(outcomes))
        else:
            continue  # a terminal node
        children = actions.get(key)
        if children is None:
            return None  # an information set used before it is defined
        pending.append(children)
    return depth if not any(pending) else None
