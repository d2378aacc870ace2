"""The generic information-set MCTS on small games whose best moves are known exactly."""

from __future__ import annotations

import numpy as np
import pytest

from tyrsim.core.engine.search import IsmctsPolicy, RootCandidates


class Nim:
    """Players take 1 to 3 stones in turn; whoever takes the last stone wins. No hidden information."""

    def __init__(self, stones: int, players: int = 2, to_move: int = 0) -> None:
        self.stones, self.players, self.to_move = stones, players, to_move
        self.last = -1

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[int]:
        return list(range(1, min(3, self.stones) + 1))

    def apply(self, take: int) -> None:
        self.stones -= take
        self.last = self.to_move
        self.to_move = (self.to_move + 1) % self.players

    def is_terminal(self) -> bool:
        return self.stones == 0

    def scores(self) -> list[float]:
        return [float(p == self.last and self.is_terminal()) for p in range(self.players)]

    def winners(self) -> list[int]:
        return [self.last]

    def clone(self) -> Nim:
        new = Nim(self.stones, self.players, self.to_move)
        new.last = self.last
        return new

    def determinize(self, player: int, rng: np.random.Generator) -> Nim:
        return self.clone()


class Guess:
    """The dealer holds a hidden card, 0 or 1, and the player calls 'high', 'low' or 'safe'.

    'safe' wins with probability 0.6 (a die the caller cannot see); 'high' wins when the card is 1 and 'low' when
    it is 0. A card dealt at random makes a call right half the time, so 'safe' is best, unless one peeks.
    """

    def __init__(self, card: int, rng: np.random.Generator) -> None:
        self.card, self.rng = card, rng
        self.won: bool | None = None

    def current_player(self) -> int:
        return -1 if self.is_terminal() else 0

    def legal_actions(self) -> list[str]:
        return ["high", "low", "safe"]

    def apply(self, call: str) -> None:
        if call == "safe":
            self.won = bool(self.rng.random() < 0.6)
        else:
            self.won = (call == "high") == (self.card == 1)

    def is_terminal(self) -> bool:
        return self.won is not None

    def scores(self) -> list[float]:
        return [float(bool(self.won)), float(not self.won)]

    def winners(self) -> list[int]:
        return [0 if self.won else 1]

    def clone(self) -> Guess:
        new = Guess(self.card, self.rng)
        new.won = self.won
        return new

    def determinize(self, player: int, rng: np.random.Generator) -> Guess:
        # the card is resampled, never read; the sample gets its own chance generator
        return Guess(int(rng.integers(2)), np.random.default_rng(int(rng.integers(2**63))))


class Peeking(Guess):
    """The same game with a determinization that looks at the card: the search then calls it right."""

    def determinize(self, player: int, rng: np.random.Generator) -> Guess:
        return Guess(self.card, np.random.default_rng(int(rng.integers(2**63))))


class OfferingNim(Nim):
    """Nim whose current decision can be made to offer only some of its takes (for root pruning)."""

    offered: list[int] | None = None

    def legal_actions(self) -> list[int]:
        return self.offered if self.offered is not None else super().legal_actions()

    def apply(self, take: int) -> None:
        self.offered = None
        super().apply(take)

    def offer_only(self, actions: list[int]) -> None:
        self.offered = list(actions)

    def determinize(self, player: int, rng: np.random.Generator) -> OfferingNim:
        new = OfferingNim(self.stones, self.players, self.to_move)
        new.last = self.last
        return new


def test_root_candidates_let_only_the_given_actions_compete_at_the_root():
    policy = IsmctsPolicy(iterations=600, rollout_depth=-1)
    assert policy.choose(OfferingNim(6), np.random.default_rng(1)) == 2  # the winning take
    pruned = RootCandidates(OfferingNim(6), [1, 3])  # the winning take is not among them
    root = policy.search(pruned, np.random.default_rng(1))
    assert set(root.children) == {1, 3} and policy.choose(pruned, np.random.default_rng(1)) in (1, 3)
    world = pruned.determinize(0, np.random.default_rng(2))
    assert world.legal_actions() == [1, 3]  # the first decision offers only the candidates
    world.apply(1)
    assert world.legal_actions() == [1, 2, 3]  # deeper, every take competes
    assert pruned.current_player() == 0 and pruned.scores() == [0.0, 0.0]


@pytest.mark.parametrize("stones, best", [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2)])
def test_finds_the_winning_nim_move(stones, best):
    # the player to move wins by leaving a multiple of 4
    policy = IsmctsPolicy(iterations=600, rollout_depth=-1)
    assert policy.choose(Nim(stones), np.random.default_rng(1)) == best


def test_every_player_chooses_for_itself_in_a_three_player_game():
    # three players, one stone each turn would hand the win round the table; with 2 stones left the mover takes both
    policy = IsmctsPolicy(iterations=200, rollout_depth=-1)
    assert policy.choose(Nim(2, players=3, to_move=2), np.random.default_rng(3)) == 2
    assert policy.choose(Nim(3, players=3, to_move=1), np.random.default_rng(3)) == 3


def test_hidden_card_is_never_read_and_search_prefers_the_sure_thing():
    policy = IsmctsPolicy(iterations=400, rollout_depth=-1)
    calls = {policy.choose(Guess(card, np.random.default_rng(card)), np.random.default_rng(7)) for card in (0, 1)}
    assert calls == {"safe"}


def test_a_peeking_determinization_would_be_caught():
    policy = IsmctsPolicy(iterations=400, rollout_depth=-1)
    calls = [policy.choose(Peeking(card, np.random.default_rng(0)), np.random.default_rng(7)) for card in (0, 1)]
    assert calls == ["low", "high"]


def test_tree_counts_every_iteration_and_same_seed_same_tree():
    policy = IsmctsPolicy(iterations=300, rollout_depth=-1)
    trees = [policy.search(Nim(11), np.random.default_rng(5)) for _ in range(2)]
    assert sum(c.visits for c in trees[0].children.values()) == 300
    assert [c.visits for c in trees[0].children.values()] == [c.visits for c in trees[1].children.values()]
    # all three takes are legal in every determinization: the child added at iteration i was available 300 - i times
    assert [c.available for c in trees[0].children.values()] == [300, 299, 298]


def test_cut_rollouts_use_the_evaluation():
    class Pessimist(IsmctsPolicy):
        def evaluate(self, state):
            # any unfinished position is worth nothing to the player to move: only moves that end the game count
            values = [1.0, 1.0]
            values[state.current_player()] = 0.0
            return values

    # with 3 stones, taking all 3 wins at once; the evaluation never sees a finished game otherwise
    assert Pessimist(iterations=50, rollout_depth=0).choose(Nim(3), np.random.default_rng(2)) == 3


@pytest.mark.parametrize("bad", ["iterations=0", "rollout=clever", "rollout_depth=-2", "exploration=-1"])
def test_bad_parameters_are_refused(bad):
    key, value = bad.split("=")
    with pytest.raises(ValueError, match=key):
        IsmctsPolicy(**{key: value if key == "rollout" else float(value) if key == "exploration" else int(value)})


@pytest.mark.parametrize("game, players", [("zooloretto-duell", 2), ("tyranno-ex", 4), ("tyros", 4),
                                           ("tiny-epic-dinosaurs", 2)])
def test_every_determinization_leaves_the_observer_the_same_legal_actions(game, players):
    """The search lists the decision's legal actions once, for every determinization: what a player may
    do depends only on what it has seen. Checked in order, at 300 positions of random games per game."""
    from tyrsim.core.engine.protocols import RandomPolicy
    from tyrsim.games import get_game

    spec = get_game(game)
    engine = spec.make_game(spec.rules(), players)
    rng, policy, checked = np.random.default_rng(17), RandomPolicy(), 0
    while checked < 300:
        state = engine.new_state(rng)
        while not state.is_terminal() and checked < 300:
            if rng.random() < 0.3:
                observer, actions = state.current_player(), state.legal_actions()
                for _ in range(2):
                    assert state.determinize(observer, rng).legal_actions() == actions
                checked += 1
            state.apply(policy.choose(state, rng))
