"""Zooloretto Duell: the full two-player game, policies from random to search, zoo scoring analyses."""

from tyrsim.core.game import GameSpec, RandomPolicy
from tyrsim.games.zooloretto_duell.analysis import ANALYSES
from tyrsim.games.zooloretto_duell.game import make_game
from tyrsim.games.zooloretto_duell.policies import GreedyPolicy, HeuristicPolicy, IsmctsPolicy, MctsPolicy
from tyrsim.games.zooloretto_duell.rules import Rules

SPEC = GameSpec(
    name="zooloretto-duell",
    title="Zooloretto Duell",
    rules=Rules,
    players=(2,),
    make_game=make_game,
    policies={
        "random": RandomPolicy,
        "greedy": GreedyPolicy,
        "heuristic": HeuristicPolicy,
        "mcts": MctsPolicy,
        "ismcts": IsmctsPolicy,
    },
    analyses=ANALYSES,
)
