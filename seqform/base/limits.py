"""The hard limits, in one place: how much seqform reads, builds, solves or waits for before it
refuses and says why.

Every limit is a field of :class:`Limits` with its reason beside it; the modules that apply a
limit read it from :data:`LIMITS`, and so does the command line for its defaults and help, so
a Python caller and the command line are refused at the same size.  A refusal names the limit,
the size it met and, where there is one, the option that lifts it (``--force``,
``force=True``, ``max_entries=``).  Defaults of options that are not refusals (tolerances,
iteration counts) and the constants of estimates (bytes per node, seconds per step) stay beside
the code that uses them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMITS", "Limits"]

_MIB = 2**20


@dataclass(frozen=True, slots=True)
class Limits:
    """The hard limits (module docstring); each field's comment gives its reason."""

    # --- Reading input: checked before a file or a string is read whole --------------------
    efg_bytes: int = 256 * _MIB
    """A Gambit ``.efg`` file: reading it holds its whole text in memory, and a tree that
    large is more than the tree route could solve on this kind of machine."""
    efg_depth: int = 500_000
    """Levels of an ``.efg`` tree: the reader recurses once per level in a thread whose stack
    is sized for the depth (:mod:`seqform.game.formats.efg`); deeper files would need more
    stack than a thread can be given safely."""
    json_bytes: int = 256 * _MIB
    """A strategy or restriction JSON file: one entry per information-set action; Leduc 13×4
    is a few MB, so this is far beyond any strategy seqform can use."""
    json_depth: int = 64
    """How deeply brackets may nest in a strategy or restriction file (they nest three deep;
    deeper nesting is malformed, and Python's parser recurses on it)."""
    json_number_characters: int = 4_000
    """The text of one number in a JSON file: below Python's 4,300-digit conversion limit."""
    json_exponent: int = 4_000
    """The decimal exponent of a probability, either way: a larger one is no probability and
    would make an exact ``Fraction`` of astronomical size."""
    spot_bytes: int = 1_000_000
    """A spot file (TOML): the longest sensible one, every combo of both ranges written out
    with a weight, is under 40 kB."""
    range_characters: int = 100_000
    """A range string: every one of the 1,326 combos written out with a weight is under
    20,000 characters."""
    chips: int = 10**15
    """A spot's pot or stack: beyond 2^53 ≈ 9·10^15 float payoffs are no longer exact in
    whole chips, and HiGHS treats 10^20 as infinite."""
    stack_to_pot: int = 10_000
    """A spot's effective stack over its pot (players' spots: up to a few hundred).  The
    verdict judges the exploitability against the payoff range, which an all-in makes about
    twice the stack; at a ratio of 10^9 a float LP's answer within 1e-9 of that range was
    half the pot away from the exact one (+6.44 for +5).  At 10^4 the tolerance is
    2·10^-5 of the pot."""
    limit_digits: int = 100_000
    """Digits of a size limit such as ``--max-entries 10^7``: a limit of over 10^100000 is a
    typo, and computing it would not end."""

    # --- Building a game -------------------------------------------------------------------
    kuhn_tree_nodes: int = 30_000_000
    """N-card Kuhn's tree: beyond this it is refused, since the structured route needs no
    tree (``method="structured"``)."""
    rhode_island_tree_nodes: int = 30_000_000
    """Rhode Island hold'em's tree (6.7 billion nodes with the full deck): beyond this it is
    refused, since the structured route needs no tree (``method="structured"``)."""
    liars_dice_bids: int = 14
    """Liar's Dice's bids on the tree route: the tree has 2^bids decision nodes per roll."""
    liars_dice_public_bids: int = 18
    """Liar's Dice's bids on the structured route: the public tree alone has 2^bids decision
    nodes."""
    openspiel_histories: int = 5_000_000
    """Histories of an OpenSpiel game walked into a tree (Liar's Dice with one six-sided die
    each has 294,883)."""
    spot_raises: int = 50
    """A spot's ``max_raises``: solvers offer three to five; each raise is a level of the
    street's tree, which the builders recurse on, and with small sizes each one multiplies
    the exact amounts' denominators (a thousand raises of a thousandth of the pot did not
    finish building)."""
    street_decisions: int = 100_000
    """Decisions in one street's betting of a spot: river and flop solvers' trees have tens
    to a few hundred a street; many small sizes with many raises make trees of astronomical
    size, which are counted up to this (one to three seconds) and refused."""
    spot_tree_nodes: int = 5_000_000
    """A spot's explicit tree, for the commands that run on a tree (``iterate``, ``exploit``,
    ``export``, ``play``); ``solve`` needs none."""

    # --- Solving ---------------------------------------------------------------------------
    normal_form_entries: int = 10**7
    """Payoff entries of a normal form (``compare``, ``method="normal"``): 80 MB of floats;
    the sequence form solves the same game without the matrix."""
    spot_lp_variables: int = 200_000
    """A hold'em spot's LP, refused beyond this unless forced: three times the full-range
    river (66,562 variables), which HiGHS's interior point solves in about a minute on a
    2-core machine; a narrow turn spot (501,156 variables) had not converged after 5 minutes
    (:mod:`seqform.holdem.lp_work`)."""
    exact_dense_size: int = 3_000
    """The largest linear system handed to python-flint's dense exact solver; larger ones are
    solved sparsely."""
    exact_bits: int = 1 << 20
    """Bits of an exact answer after which iterative refinement gives up (the answer is then
    not exact and the exact route says so)."""
    exact_pivots: int = 700
    """Exact simplex pivots from a float basis before giving up
    (:func:`seqform.lp.exact.pivots.repair_basis`): a float-optimal basis is usually a
    handful of pivots from an exactly optimal one (Rhode Island 4×4's unreduced gadget
    bases of 2,657 rows: at most 10), but a bucketed blueprint's gadget LPs on hand classes
    are highly degenerate, ``unsafe``'s most of all.  Measured with the limit lifted
    (``benchmarks/results/resolve_table_large.md``): of Rhode Island 4×4's 3,6,9 abstraction
    blueprint re-solved by ``unsafe`` on canonical boards, 100 bases of 850 rows, the most
    pivots one took was 251; of Leduc 13×4's 3,9 blueprint, one ``unsafe`` basis of 4,149
    rows took 332 (the other gadgets' none).  Twice the most seen, rounded up.  Each pivot
    re-solves the basis in rationals, about 0.35 s at 850 rows and 0.7 s at 4,149, so a
    basis that needs them all takes minutes; a dual feasible one has an exact bound without
    them."""
    ranges_seconds: float = 300.0
    """``ranges``: work estimated above five minutes is refused before the first LP unless
    forced."""
    ranges_lps: int = 20_000
    """``ranges``: more LPs than this are refused before the first one unless forced; at the
    0.3 s of Leduc's value LP that is over an hour."""

    reference_sequences: int = 50_000
    """``iterate``'s LP reference beside a run, per player: Liar's Dice with 6 sides (24,571)
    solves in about a second; the reference is a side computation and never takes minutes
    (and never starts an LP that ``solve`` would refuse)."""
    reference_tree_nodes: int = 400_000
    """``iterate``'s LP reference on the tree route: Liar's Dice 6 (294,913 nodes) solves in
    about a second; leduc(ranks=13), 1.2 M nodes, took over 150 s on the tree where the
    structured route takes 2 s."""
    reference_structured_sequences: int = 400_000
    """``iterate``'s LP reference on the structured route, both players: leduc(ranks=13,
    suits=4), 186,370, solves in seconds; liars_dice(sides=8), 1,048,562, in minutes."""
    reference_ranges_sequences: int = 150
    """``iterate`` decides whether the equilibrium is unique (by ``ranges``) up to this many
    sequences per player: N-card Kuhn with N = 30, 121 per player, takes about 0.6 s."""

    # --- Running in parallel ---------------------------------------------------------------
    workers_per_core: int = 4
    """``solve-many``: workers beyond four a core only wait for a core and hold memory."""
    connect_seconds: float = 5.0
    """How long ``solve-many --dask ADDRESS`` waits for the scheduler (Dask's own default is
    30 s): a scheduler that answers does so in milliseconds, and one that does not is a wrong
    address."""


LIMITS = Limits()
"""The limits in force (every field at its default)."""
