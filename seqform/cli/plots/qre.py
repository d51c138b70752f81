"""The principal logit branch drawn as the gtree walkthrough draws it: every action's
probability against ``λ`` on a logarithmic axis, one panel per player.

matplotlib is imported inside :func:`plot_branch` (it is an optional, heavy package); the
file is written by :func:`seqform.cli.plots.files.write_figure`, in the format its suffix
names (``.png``, ``.svg``, ``.pdf``, ...: ``qre`` checks it before the trace with
:func:`~seqform.cli.plots.files.plot_format`).
"""

from __future__ import annotations

import numpy as np

from seqform.cli.plots.files import write_figure
from seqform.qre.equilibria import LogitBranch, action_labels

__all__ = ["MAX_LINES", "plot_branch"]

MAX_LINES = 24  # per player: the actions whose probability varies most along the branch


def plot_branch(branch: LogitBranch, path: str) -> None:
    """Draw ``branch`` to ``path`` (module docstring).

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install matplotlib``).
    seqform.cli.errors.CommandError
        If the file cannot be written (:func:`~seqform.cli.plots.files.write_figure`).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError("qre --plot needs matplotlib: pip install matplotlib") from exc
    labels = action_labels(branch.game)
    players = branch.game.flat.num_players
    keep = branch.lambdas > 0
    figure, axes = plt.subplots(players, 1, figsize=(8, 3.2 * players), sharex=True)
    for player, axis in enumerate(np.atleast_1d(axes)):
        columns = [i for i, label in enumerate(labels) if label[0] == player]
        spread = np.ptp(branch.probabilities[:, columns], axis=0)
        shown = [columns[i] for i in np.argsort(-spread, kind="stable")[:MAX_LINES]]
        for column in sorted(shown):
            _, infoset, action = labels[column]
            axis.plot(
                branch.lambdas[keep],
                branch.probabilities[keep, column],
                label=f"{infoset}:{action}",
            )
        axis.set_xscale("log")
        axis.set_ylim(-0.02, 1.02)
        axis.set_ylabel(f"{branch.game.player_names[player]}\nprobability")
        axis.legend(fontsize="x-small", ncol=4, loc="best")
    np.atleast_1d(axes)[-1].set_xlabel("λ (logit precision)")
    figure.suptitle(f"Principal logit QRE branch of {branch.game.name}")
    figure.tight_layout()
    write_figure(figure, path)
