"""Policy ratings: a round-robin tournament fitted to a Bradley-Terry model.

Every ordered pair of policies plays (seats rotate within a pairing, so each
policy sits in every seat equally often; in games of more than two players the
pair alternates around the table). Each game gives one comparison for every two
seats holding different policies: the seat with the larger win share beats
the other (equal shares count half a win each way).

Bradley-Terry: P(i beats j) = 1 / (1 + exp(-(r_i - r_j))). The strengths r are
fitted by maximum likelihood (scipy.optimize, Newton steps) with a tiny ridge
prior on every strength alike, which keeps a policy that never loses finite and
fixes the mean strength at 0 without singling out any policy; standard errors
come from the inverse observed information matrix (plus the prior); ratings
are reported on the Elo scale (400 / ln 10 per unit of r), centred on the mean
policy, or measured from an `anchor` policy (the skill ladder's middle rung): a
policy that never wins or never loses has a strength pinned only by the prior,
and centring on the mean carries that uncertainty into every interval, while an
interval from an anchor holds only what lies between the two policies.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

ELO = 400 / math.log(10)


def pairwise_results(raw: pd.DataFrame) -> pd.DataFrame:
    """Wins of each policy over each other policy, from one or more simulate tables."""
    import pandas as pd

    rows = []
    for _, game in raw.groupby(["pairing", "game_id"] if "pairing" in raw.columns else "game_id", sort=False):
        seats = game[["policy", "win_share"]].to_numpy()
        for (p, s), (q, t) in itertools.combinations(seats, 2):
            if p == q:
                continue
            win = 1.0 if s > t else 0.0 if s < t else 0.5
            rows.append((p, q, win))
            rows.append((q, p, 1.0 - win))
    table = pd.DataFrame(rows, columns=["policy", "opponent", "wins"])
    out = table.groupby(["policy", "opponent"], sort=True).agg(wins=("wins", "sum"), games=("wins", "size"))
    return out.reset_index()


def fit_bradley_terry(pairs: pd.DataFrame, anchor: str | None = None) -> pd.DataFrame:
    """Ratings with 95% intervals from pairwise wins (columns policy, opponent, wins, games): centred on the
    mean policy, or each measured from the policy `anchor` (whose rating is then 0, its interval [0, 0])."""
    import pandas as pd
    from scipy import optimize, stats  # here, not at the top: see tyrsim.core.stats.intervals

    names = sorted(set(pairs["policy"]) | set(pairs["opponent"]))
    index = {n: i for i, n in enumerate(names)}
    i = pairs["policy"].map(index).to_numpy()
    j = pairs["opponent"].map(index).to_numpy()
    w = pairs["wins"].to_numpy(dtype=float)
    k = len(names)

    def nll(r: np.ndarray) -> float:
        # each row counts i's wins over j; the reverse row counts j's wins over i
        return float(np.sum(w * np.logaddexp(0.0, -(r[i] - r[j]))))

    def grad(r: np.ndarray) -> np.ndarray:
        p = 1 / (1 + np.exp(r[i] - r[j]))  # P(j beats i)
        g = np.zeros(k)
        np.add.at(g, i, -w * p)
        np.add.at(g, j, w * p)
        return g

    def information(r: np.ndarray) -> np.ndarray:
        # observed information: sum over comparisons of p(1-p) (x_i - x_j)(x_i - x_j)^T
        p = 1 / (1 + np.exp(-(r[i] - r[j])))
        info = np.zeros((k, k))
        weight = w * p * (1 - p)  # rows come in pairs, each comparison appears twice with its own wins
        np.add.at(info, (i, i), weight)
        np.add.at(info, (j, j), weight)
        np.add.at(info, (i, j), -weight)
        np.add.at(info, (j, i), -weight)
        return info

    # A ridge-free fit diverges when a policy never loses (separation); a tiny
    # prior on every strength keeps it finite. The prior is the same for every
    # policy, so no policy is an anchor: renaming or reordering the policies
    # changes nothing, and the penalty puts the fit's mean strength at 0.
    prior = 1e-4
    fit = optimize.minimize(
        lambda r: nll(r) + prior * float(r @ r), np.zeros(k), method="trust-exact",
        jac=lambda r: grad(r) + 2 * prior * r, hess=lambda r: information(r) + 2 * prior * np.eye(k),
        options={"gtol": 1e-10},
    )
    r = fit.x
    cov = np.linalg.inv(information(r) + 2 * prior * np.eye(k))
    # centre on the mean policy: r_c = C r with C = I - 11^T / k; or on the anchor: C = I - 1 e_anchor^T
    if anchor is None:
        centre = np.eye(k) - 1 / k
    else:
        centre = np.eye(k)
        centre[:, index[anchor]] -= 1
    rc = centre @ r
    se = np.sqrt(np.clip(np.diag(centre @ cov @ centre.T), 0, None))
    z = stats.norm.ppf(0.975)
    wins = pairs.groupby("policy")["wins"].sum()
    games = pairs.groupby("policy")["games"].sum()
    table = pd.DataFrame({
        "policy": names,
        "rating": ELO * rc,
        "ci_low": ELO * (rc - z * se),
        "ci_high": ELO * (rc + z * se),
        "strength": rc,
        "se": se,
        "comparisons": [int(games.get(n, 0)) for n in names],
        "win_share": [float(wins.get(n, 0) / games.get(n, 1)) for n in names],
    })
    return table.sort_values("rating", ascending=False, ignore_index=True)


def pairings(policies: list[str], seats: int) -> list[tuple[str, ...]]:
    """Seatings of a round robin: every ordered pair, alternating around a table of `seats`."""
    return [tuple((a, b)[s % 2] for s in range(seats)) for a, b in itertools.permutations(policies, 2)]


def rating_figure(table: pd.DataFrame, anchor: str | None = None):
    """Ratings with their intervals, strongest on top (measured from `anchor`, if the fit was)."""
    import matplotlib.pyplot as plt

    ordered = table.sort_values("rating")
    fig, ax = plt.subplots(figsize=(6.5, 0.5 * len(ordered) + 1.5))
    y = np.arange(len(ordered))
    below, above = ordered["rating"] - ordered["ci_low"], ordered["ci_high"] - ordered["rating"]
    ax.errorbar(ordered["rating"], y, xerr=[below, above], fmt="o", capsize=4)
    ax.set_yticks(y, ordered["policy"])
    ax.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel(f"Bradley-Terry rating (Elo scale, 0 = {'the average policy' if anchor is None else anchor})")
    fig.tight_layout()
    return fig
