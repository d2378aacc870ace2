"""`tyrsim balance` against NTBEA, the field's standard optimiser: the games each spends to name the right variant,
and how near the targets each one's answer lies on games neither search played.

Run: python benchmarks/bench_balance.py [--game GAME | --exhaustive GAMES] [--seeds 10] [--budgets 400,800,1600,3200]
     [--k 20] [--restarts 10] [--check-games 500] [--eval-games 1000] [--share 0.9] [--out DIR]

Needs the `NTBEA` package (0.0.2, GPLv3: tyrsim's `benchmark` extra, never a dependency of the package):
`pip install 'tyrsim[benchmark]'` or `pip install NTBEA==0.0.2`; without it the script says so and exits (status 2).

Without `--game`, the problem has an answer known from direct play (docs/balance.md): Zooloretto Duell between
heuristic players, `--vary final_round_card_depth=6:16`, targets 10.7 <= mean_rounds <= 10.9. The deeper the
"final round" card, the fewer rounds (depth 10: 11.00, 11: 10.80, 12: 10.62, each +/- 0.02 on 1,000 games), so
only depth 11 meets them. For each budget (games) and each of R seeds, each optimiser searches once; a run is
right when its final answer is depth 11. The table gives, per optimiser and budget, the share of the R runs that
are right with its Wilson interval (95%), the median games spent, and the median wall seconds of a run (tyrsim's
with its fresh games; loose on a shared machine), and for tyrsim how many wrong answers its fresh games call "met"
(every target's interval on the target's side: none should be) or "within noise" (an interval straddles a bound:
the page says so; a neighbour 0.1 rounds off the bound needs more fresh games to be called missed); then, for a
success share (`--share`), the first budget at which each optimiser reaches it and the ratio of their median games
there.

With `--exhaustive GAMES`, the exhaustive check: a space small enough to play every variant (the bundled Zooloretto
Duell question's targets over `coins_per_point=1:4` and `majority_points=0:3`, 16 variants) is played whole, every
variant on the same GAMES games of a stream neither search draws from; the best there and the variants tied with
it (as `tyrsim balance` calls a finalist tied: the paired difference of distances, Holm-adjusted over the others,
not significant at 0.05) are the right answers, and a run is right when its answer is one of them. The variants'
table is printed first.

With `--game GAME`, the problem is that game's designer space (`PROBLEMS`): its bundled question
(`scenarios/<game>_balance.toml`: the tuned policies, the targets, the three rules) with one or two more rules, at
least 4 rules and 1,000 variants in all. No answer is known there, so no run is called right; what is compared is
each run's answer re-played on `--eval-games` games of a stream neither search draws from (the same games for
both optimisers' answers of a seed), scored by the distance from the targets on the rulebook's scale: the
median of that distance per optimiser and budget, and the first budget at which tyrsim's median reaches NTBEA's
at the largest budget, with the ratio of their median games. Every problem reports that distance.

- **tyrsim balance**: the library call (`plan_balance`, `balance`) with the budget as `--games`, and the
  settings of the worked example in docs/balance.md (block 25, 4 rungs, batches of 4; 5 finalists). Its answer
  is its best variant, the search's incumbent. Games spent: the search games (the run's rules' included); the
  fresh games that then certify the answer (`--check-games` per finalist) are given apart: they change nothing
  of which variant is named, only what is said of it.
- **NTBEA**: the package's `NTupleLandscape` and `NTupleEvolutionaryAlgorithm`, with the settings the issue
  lists as TAG's (the Tabletop Games framework's `NTBEAParameters`) defaults: 1-, 2- and N-tuples, exploration
  constant 1.0, a neighbourhood of 50 (the package caps it at the space's size), 10 restarts sharing the
  budget, each restart's recommendation then re-evaluated on a fifth of a restart's evaluations and the best of
  them the answer (TAG's `evalGames = iterations / 5`); the mutator is N-tuple NTBEA's (each rule changed with
  probability 1/rules, at least one, to a value drawn from all its values). One evaluation plays `--k` new games
  of the candidate (TAG plays one game an evaluation; one game's rounds is a whole number, and the shortfall of
  a single game's rounds is not that of the mean) on the compiled engine, with the games and the distance of
  `tyrsim balance` itself (`balance.play_block`, `balance.Objective`): no copy of either. Its games are numbered
  on from one evaluation to the next, so every evaluation plays new games (no common random numbers, as in TAG).
  The targets' scale (a game's rounds' standard deviation under the rulebook) is given to NTBEA free, measured
  on games neither search plays; tyrsim pays for its own.

Two workarounds, both said here because they touch the baseline. The package keeps its running best from 0
(`current_best_ucb = 0` when choosing a neighbour, `current_best_mean = 0` when recommending), so a fitness that
is never positive is never chosen: minus the distance would recommend nothing. The evaluator therefore returns
1 / (1 + distance), in (0, 1], 1 where every target is met, larger the nearer (a win rate's range, which TAG's
exploration constant is set for). And the package's `run` plays a logging evaluation of its current best every
tenth iteration and returns nothing: `Restart.run` below is its loop without those evaluations, returning the
recommendation its last line computes (`get_best_sampled`).

What the comparison shows: on this problem, the games each optimiser plays before the variant it names is the
right one, over independent seeds. What it does not show: NTBEA's answer is not re-measured on fresh games
(its reported score is the search's own estimate, read from the games that chose it), tyrsim's is; NTBEA with
other settings (one evaluation's games, restarts, exploration) could do better or worse; one problem of one
rule and eleven values is not the space of four rules and a thousand combinations the issue also asks for; and
the answer being right says nothing of the intervals tyrsim gives beside it.

Seeds are fixed (seed s is run s of each optimiser at every budget), so a rerun plays the same games. `--out DIR`
writes runs.csv (one row per run) and summary.csv.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.balance import SEARCH, BalanceSetup, Objective, balance, game_columns, plan_balance, play_block
from tyrsim.games import get_game

try:
    from ntbea import Evaluator, Mutator, NTupleEvolutionaryAlgorithm, NTupleLandscape, SearchSpace
except ModuleNotFoundError:
    print("bench_balance compares tyrsim balance with NTBEA and needs the NTBEA package (0.0.2), which tyrsim "
          "does not install: pip install 'tyrsim[benchmark]' (or pip install NTBEA==0.0.2), then run it again.",
          file=sys.stderr)
    raise SystemExit(2) from None



@dataclass(frozen=True)
class Problem:
    """A rule space to search: the game, the players, the rules varied, the targets, and the right answer where
    direct play knows it (None: unknown)."""

    game: str
    policies: tuple[str, ...]
    vary: tuple[str, ...]
    targets: tuple[str, ...]
    right: list[dict[str, Any]] | None = None


def tuned(policy: str, seats: int) -> tuple[str, ...]:
    return (f"{policy}:weights=bundled:{policy}_tuned.toml",) * seats


# the only depth that meets the targets, by direct play (the default problem)
DEPTH = Problem("zooloretto-duell", ("heuristic", "heuristic"), ("final_round_card_depth=6:16",),
                ("mean_rounds>=10.7", "mean_rounds<=10.9"), right=[{"final_round_card_depth": 11}])
# the exhaustive check: the bundled Zooloretto Duell question's targets over two of its rules, 4 x 4 = 16 variants,
# few enough to play every one on the same games; its right answers are the variants tied with the best there
SMALL = Problem("zooloretto-duell", tuned("heuristic", 2), ("coins_per_point=1:4", "majority_points=0:3"),
                ("mean_margin<=4", "share_decided_by_tiebreak<=0.05", "mean_rounds<=12"))
# each game's designer space: its bundled question's targets and rules (scenarios/<game>_balance.toml), widened
PROBLEMS = {
    "zooloretto-duell": Problem(  # 5 x 5 x 4 x 11 = 1,100 variants
        "zooloretto-duell", tuned("heuristic", 2),
        ("money_action_cost=1:5", "coins_per_point=1:5", "majority_points=0:3", "final_round_card_depth=6:16"),
        ("mean_margin<=4", "share_decided_by_tiebreak<=0.05", "mean_rounds<=12")),
    "tyranno-ex": Problem(  # 7 x 9 x 11 x 2 = 1,386 variants
        "tyranno-ex", tuned("greedy", 4),
        ("die_rounds=0:6", "chips_per_player=8:16", "five_points=0:10", "fights_per_player=1:2"),
        ("mean_margin<=18", "largest_seat_gap<=0.04")),
    "tyros": Problem(  # 2 x 5 x 13 x 4 x 4 = 2,080 variants
        "tyros", tuned("planner", 4),
        ("later_passes_4p=1:2", "cards_dealt_4p=8:12", "most_cities_bonus=0:12", "city_cost=4:7", "bank_buy_cost=2:5"),
        ("mean_rounds<=4", "mean_margin<=4.5")),
    "tiny-epic-dinosaurs": Problem(  # 3 x 2 x 3 x 7 x 9 = 1,134 variants
        "tiny-epic-dinosaurs", tuned("hunter", 3),
        ("owner_strength=1:3", "first_player_bonuses=true,false", "extra_public_contracts=0:2",
         "extra_rancher_round=0:6", "resource_cap=8:16"),
        ("largest_seat_gap<=0.05",)),
}
# tyrsim's settings: the worked example's (docs/balance.md)
BLOCK, RUNGS, BATCH, FINALISTS = 25, 4, 4, 5
# NTBEA's, as TAG sets them by default (see the docstring)
TUPLES, EXPLORE, NEIGHBOURHOOD = (1, 2), 1.0, 50  # the N-tuple is added per space (its number of rules)
SCALE = 9  # the stream of the games that measure the targets' scale for NTBEA (neither search draws from it)
EVALUATE = 10  # the stream of the games that re-play each run's answer (neither search draws from it)
EXHAUSTIVE = 11  # the stream of the games every variant of the small space plays (neither search draws from it)


@dataclass
class Run:
    """One optimiser's search at one budget and seed."""

    optimiser: str
    budget: int
    seed: int
    answer: dict[str, Any]
    right: bool | None  # None where the problem's right answer is unknown
    fresh_verdict: str  # tyrsim: its answer's targets on the fresh games, "met", "within noise" or "missed"
    # (the worst target's verdict); NTBEA: "" (not re-measured)
    games: int  # search games played
    fresh: int  # fresh games certifying the answer (tyrsim only)
    seconds: float
    evaluated: float = float("nan")  # the answer's distance from the targets on the re-played games


def setup_for(spec: Any, problem: Problem, budget: int, seed: int, check_games: int) -> BalanceSetup:
    return plan_balance(spec, spec.rules(), problem.vary, problem.targets, problem.policies, budget=budget,
                        block=BLOCK, rungs=RUNGS, batch=BATCH, check_games=check_games, finalists=FINALISTS,
                        seed=seed)


def rulebook_objective(spec: Any, setup: BalanceSetup) -> Objective:
    """The distance from the targets on the rulebook's scale, measured on games neither search plays."""
    return Objective(setup, game_columns(play_block(spec, setup, setup.rules, SCALE, 0, setup.full),
                                         setup.columns()))


def evaluate(spec: Any, problem: Problem, runs: list[Run], games: int) -> None:
    """Each run's answer re-played on `games` games of the EVALUATE stream (a seed's runs on the same games),
    its distance from the targets on the rulebook's scale set on the run."""
    for run in runs:
        setup = setup_for(spec, problem, run.budget, run.seed, 2)
        table = play_block(spec, setup, setup.variant(run.answer), EVALUATE, 0, games)
        objective = rulebook_objective(spec, setup)
        run.evaluated = objective.of(objective.matrix(game_columns(table, setup.columns())))


def right_answer(problem: Problem, values: dict[str, Any]) -> bool | None:
    return None if problem.right is None else values in problem.right


def exhaustive_ties(spec: Any, problem: Problem, budget: int, games: int) -> tuple[pd.DataFrame, list[dict]]:
    """Every variant of the problem's space played on the same `games` games of the EXHAUSTIVE stream (neither
    search draws from it), scored by the distance from the targets on the rulebook's scale; the table of
    variants, and the best with the variants tied with it as `tyrsim balance` calls a finalist tied: each one's
    distance minus the best's on the same games, a paired bootstrap p-value, Holm-adjusted over the others, not
    below 0.05."""
    setup = setup_for(spec, problem, budget, 0, 2)
    objective = rulebook_objective(spec, setup)
    variants = [dict(zip([d.rule for d in setup.space], values, strict=True))
                for values in itertools.product(*(d.values for d in setup.space))]
    matrices = [objective.matrix(game_columns(play_block(spec, setup, setup.variant(v), EXHAUSTIVE, 0, games),
                                              setup.columns())) for v in variants]
    distance = np.array([objective.of(m) for m in matrices])
    best = int(np.argmin(distance))
    others = [k for k in range(len(variants)) if k != best]
    p = np.array([objective.compare(matrices[k], matrices[best], np.random.SeedSequence([EXHAUSTIVE, k])).p_value
                  for k in others])
    p_holm = np.ones(len(variants))
    p_holm[others] = stats.holm(p)
    table = pd.DataFrame([{**v, "distance": d, "p_holm": q, "tied": bool(q >= 1 - stats.CONFIDENCE)}
                          for v, d, q in zip(variants, distance, p_holm, strict=True)])
    return table, [v for v, tied in zip(variants, table["tied"], strict=True) if tied]


def run_tyrsim(spec: Any, problem: Problem, budget: int, seed: int, check_games: int) -> Run:
    setup = setup_for(spec, problem, budget, seed, check_games)
    start = time.perf_counter()
    result = balance(spec, setup)
    best = result.finalists[result.best]
    verdicts = {t.verdict(*best.metrics[t.metric][1:]) for t in setup.targets}
    verdict = next(v for v in ("missed", "within noise", "met") if v in verdicts)
    return Run("tyrsim balance", budget, seed, best.values, right_answer(problem, best.values), verdict, result.spent,
               check_games * len(result.finalists), time.perf_counter() - start)


# --- NTBEA: the package's classes, given the rule space and the games ------------------------------------------

class RuleSpace(SearchSpace):
    """The varied rules, a point holding each rule's value's index in its list of values."""

    def __init__(self, setup: BalanceSetup):
        super().__init__("varied rules", len(setup.space))
        self.sizes = [len(d.values) for d in setup.space]

    def get_random_point(self) -> np.ndarray:
        return np.array([np.random.randint(n) for n in self.sizes])

    def get_size(self) -> int:
        return int(np.prod(self.sizes))

    def get_dim_size(self, j: int) -> int:
        return self.sizes[j]

    def get_valid_values_in_dim(self, dim: int) -> range:
        return range(self.sizes[dim])


class RuleMutator(Mutator):
    """N-tuple NTBEA's mutation: each rule changed with probability 1/rules (at least one), to any of its values."""

    def __init__(self, space: RuleSpace):
        super().__init__("one rule in n")
        self.space = space

    def mutate(self, x: np.ndarray) -> np.ndarray:
        n = len(x)
        flip = np.random.uniform(size=n) < 1 / n
        if not flip.any():
            flip[np.random.randint(n)] = True
        out = np.copy(x)
        for j in np.flatnonzero(flip):
            out[j] = np.random.randint(self.space.get_dim_size(j))
        return out


class GamesEvaluator(Evaluator):
    """An evaluation: `k` new games of the candidate, scored 1 / (1 + its distance from the targets on them)."""

    def __init__(self, spec: Any, setup: BalanceSetup, objective: Objective, k: int):
        super().__init__(f"{k} games")
        self.spec, self.setup, self.objective, self.k = spec, setup, objective, k
        self.games = 0  # games played, every table of every evaluation
        self.next_game = 0

    def values(self, x: np.ndarray) -> dict[str, Any]:
        return {d.rule: d.values[int(i)] for d, i in zip(self.setup.space, x, strict=True)}

    def evaluate(self, x: np.ndarray) -> float:
        table = play_block(self.spec, self.setup, self.setup.variant(self.values(x)), SEARCH, self.next_game, self.k)
        self.next_game += self.k
        self.games += self.k * self.setup.tables
        return 1.0 / (1.0 + self.objective.of(self.objective.matrix(table)))


class Restart(NTupleEvolutionaryAlgorithm):
    """One NTBEA run: the package's loop, without its logging evaluations, returning its recommendation."""

    def run(self, n_evaluations: int) -> np.ndarray:
        self._tuple_landscape.init()
        point = self._search_space.get_random_point()
        for evaluation in range(n_evaluations):
            if evaluation > 0:
                point = self._evaluate_landscape(point)
            fitness = np.mean([self._evaluator.evaluate(point) for _ in range(self._n_samples)])
            self._tuple_landscape.add_evaluated_point(point, fitness)
        return np.array(self._tuple_landscape.get_best_sampled())


def run_ntbea(spec: Any, problem: Problem, budget: int, seed: int, k: int, restarts: int) -> Run:
    """NTBEA with TAG's restarts: `restarts` runs sharing the budget, each one's recommendation re-evaluated
    on a fifth of a run's evaluations (where there are several), the best mean the answer."""
    setup = setup_for(spec, problem, budget, seed, 2)  # NTBEA keeps its own count of the budget; no fresh games
    objective = rulebook_objective(spec, setup)
    np.random.seed(seed)  # the package draws from numpy's global generator
    space = RuleSpace(setup)
    evaluator = GamesEvaluator(spec, setup, objective, k)
    evaluations = budget // (k * setup.tables)
    check = 1 if restarts > 1 else 0  # a restart's re-evaluations per evaluation of its run: a fifth
    per_run = max(1, int(evaluations / (restarts * (1 + check / 5))))
    start = time.perf_counter()
    winners = []
    for _ in range(restarts):
        landscape = NTupleLandscape(space, [*TUPLES, space.get_num_dims()], ucb_epsilon=0.5)
        algorithm = Restart(landscape, evaluator, space, RuleMutator(space), k_explore=EXPLORE,
                            eval_neighbours=NEIGHBOURHOOD)
        winners.append(algorithm.run(per_run))
    if restarts > 1:
        scores = [np.mean([evaluator.evaluate(w) for _ in range(max(1, per_run // 5))]) for w in winners]
        answer = winners[int(np.argmax(scores))]
    else:
        answer = winners[0]
    values = evaluator.values(answer)
    return Run("NTBEA", budget, seed, values, right_answer(problem, values), "", evaluator.games, 0,
               time.perf_counter() - start)


# --- the comparison --------------------------------------------------------------------------------------------

def summary(runs: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (optimiser, budget), group in runs.groupby(["optimiser", "budget"], sort=False):
        row = {"optimiser": optimiser, "budget": budget, "runs": len(group),
               "median_evaluated": group["evaluated"].median(), "median_games": group["games"].median(),
               "median_fresh": group["fresh"].median(), "median_seconds": group["seconds"].median()}
        if group["right"].notna().all():  # the problem's right answer is known
            right, n = int(group["right"].astype(bool).sum()), len(group)
            low, high = stats.wilson_interval(right, n)
            wrong = group[~group["right"].astype(bool)]
            row |= {"right": right, "share": right / n, "share_low": float(low), "share_high": float(high),
                    # tyrsim's wrong answers its fresh games call met, or within noise of a target
                    "wrong_met": int(wrong["fresh_verdict"].eq("met").sum()),
                    "wrong_within_noise": int(wrong["fresh_verdict"].eq("within noise").sum())}
        rows.append(row)
    return pd.DataFrame(rows)


def first_reaching(table: pd.DataFrame, optimiser: str, share: float) -> pd.Series | None:
    """The first budget's row at which `optimiser` names the right variant in at least `share` of the runs."""
    mine = table[(table["optimiser"] == optimiser) & (table["share"] >= share)].sort_values("budget")
    return None if mine.empty else mine.iloc[0]


def first_as_near(table: pd.DataFrame) -> tuple[pd.Series, pd.Series | None]:
    """NTBEA's row at its largest budget, and the first budget's row at which tyrsim's answers lie as near the
    targets on the re-played games (median distance no larger), or None."""
    ntbea = table[table["optimiser"] == "NTBEA"].sort_values("budget").iloc[-1]
    mine = table[(table["optimiser"] == "tyrsim balance")
                 & (table["median_evaluated"] <= ntbea["median_evaluated"])].sort_values("budget")
    return ntbea, None if mine.empty else mine.iloc[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(PROBLEMS), default=None,
                        help="search this game's designer space (default: the Zooloretto Duell depth problem)")
    parser.add_argument("--exhaustive", type=int, default=0, metavar="GAMES",
                        help="the exhaustive check: play every variant of a 16-variant Zooloretto Duell space on "
                             "GAMES games, and call a run right when its answer is tied with the best there")
    parser.add_argument("--seeds", type=int, default=10, help="independent runs of each optimiser per budget")
    parser.add_argument("--budgets", default="400,800,1600,3200", help="search games, comma-separated")
    parser.add_argument("--k", type=int, default=20, help="games of one NTBEA evaluation")
    parser.add_argument("--restarts", type=int, default=10, help="NTBEA's restarts (TAG: 10)")
    parser.add_argument("--check-games", type=int, default=500, help="tyrsim's fresh games per finalist")
    parser.add_argument("--eval-games", type=int, default=1000, help="games re-playing each run's answer")
    parser.add_argument("--share", type=float, default=0.9, help="the success share the games ratio is read at")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.exhaustive and args.game is not None:
        print("--exhaustive plays its own small space; leave out --game", file=sys.stderr)
        raise SystemExit(2)
    problem = SMALL if args.exhaustive else DEPTH if args.game is None else PROBLEMS[args.game]
    budgets = [int(b) for b in args.budgets.split(",")]
    spec = get_game(problem.game)
    least = (BLOCK * 2 ** (RUNGS - 1) + BATCH * BLOCK)
    if (min(budgets) < max(least, args.k * args.restarts) or min(args.seeds, args.k, args.restarts) < 1
            or min(args.check_games, args.eval_games) < 2 or args.exhaustive == 1 or args.exhaustive < 0):
        print(f"--budgets: each budget must be at least {least} (tyrsim's run's rules and one batch) and at least "
              f"--k x --restarts ({args.k * args.restarts}); --seeds, --k and --restarts at least 1; "
              "--check-games, --eval-games and --exhaustive at least 2", file=sys.stderr)
        raise SystemExit(2)
    if args.exhaustive:
        variants, tied = exhaustive_ties(spec, problem, min(budgets), args.exhaustive)
        problem = replace(problem, right=tied)
        print(f"every variant on {args.exhaustive:,} games (distance from the targets; tied with the best: Holm-"
              f"adjusted p >= 0.05):\n{variants.to_string(index=False)}", file=sys.stderr)
    runs = []
    for budget in budgets:
        for seed in range(args.seeds):
            pair = [run_tyrsim(spec, problem, budget, seed, args.check_games),
                    run_ntbea(spec, problem, budget, seed, args.k, args.restarts)]
            evaluate(spec, problem, pair, args.eval_games)
            runs.extend(pair)
            print(f"budget {budget}, seed {seed}: " + "; ".join(
                f"{r.optimiser} {r.answer} ({r.games} games, distance {r.evaluated:.3f} re-played)" for r in pair),
                file=sys.stderr)
    table = pd.DataFrame([vars(r) for r in runs])
    table["answer"] = table["answer"].map(lambda v: ", ".join(f"{k}={x}" for k, x in v.items()))
    result = summary(table)
    known = problem.right is not None
    print(f"{problem.game}, {', '.join(problem.policies)}: --vary {' '.join(problem.vary)}; targets "
          f"{'; '.join(problem.targets)}; right answers {problem.right if known else 'unknown'}; {args.seeds} seeds "
          f"a budget; NTBEA: {args.k} games an evaluation, {args.restarts} restarts; answers re-played on "
          f"{args.eval_games:,} games")
    print(f"{'optimiser':<15} {'budget':>6} {'re-played distance':>19} {'median games':>13} {'fresh games':>12} "
          f"{'seconds':>8}" + (f" {'right':>7} {'share [95% Wilson]':>20} {'wrong: met':>11} {'within noise':>13}"
                               if known else ""))
    for row in result.itertuples():
        print(f"{row.optimiser:<15} {row.budget:>6} {row.median_evaluated:>19.3f} {row.median_games:>13,.0f} "
              f"{row.median_fresh:>12,.0f} {row.median_seconds:>8.1f}"
              + (f" {row.right:>3}/{row.runs:<3} {row.share:>6.2f} [{row.share_low:.2f}, {row.share_high:.2f}] "
                 f"{row.wrong_met:>11} {row.wrong_within_noise:>13}" if known else ""))
    if known:
        reached = {name: first_reaching(result, name, args.share) for name in ("tyrsim balance", "NTBEA")}
        for name, row in reached.items():
            print(f"{name}: " + (f"first right in >= {args.share:.0%} of runs at budget {row.budget} "
                                 f"(median {row.median_games:,.0f} games)" if row is not None
                                 else f"never right in {args.share:.0%} of runs at these budgets"))
        if all(row is not None for row in reached.values()):
            ratio = reached["NTBEA"].median_games / reached["tyrsim balance"].median_games
            print(f"games to reach {args.share:.0%}: NTBEA / tyrsim balance = {ratio:.1f}")
    ntbea, mine = first_as_near(result)
    print(f"NTBEA at budget {ntbea.budget}: median re-played distance {ntbea.median_evaluated:.3f} "
          f"(median {ntbea.median_games:,.0f} games); tyrsim balance: " +
          (f"as near from budget {mine.budget} ({mine.median_evaluated:.3f}, median {mine.median_games:,.0f} games): "
           f"NTBEA / tyrsim balance = {ntbea.median_games / mine.median_games:.1f} times the games"
           if mine is not None else "never as near at these budgets"))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        table.to_csv(args.out / "runs.csv", index=False)
        result.to_csv(args.out / "summary.csv", index=False)


if __name__ == "__main__":
    main()
