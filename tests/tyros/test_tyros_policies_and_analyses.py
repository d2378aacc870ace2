"""Policies choose sensible actions; the registered analyses give tables with intervals and figures."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from tyros_positions import cards, scripted

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rules import RuleError
from tyrsim.core.engine.runner import play
from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros.actions import Accept, BuildCity, MoveShip, Offer, Pass, PlayTile, Refuse
from tyrsim.games.tyros.analysis import points_by_source
from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.components import GREEN, ORANGE, VIOLET, YELLOW
from tyrsim.games.tyros.game import EXPAND, TyrosGame
from tyrsim.games.tyros.policies import (
    BOARD_ACTIONS,
    GreedyPolicy,
    PlannerPolicy,
    Position,
    after,
    chosen_cards,
    moved_score,
)
from tyrsim.games.tyros.rules import Rules

matplotlib.use("Agg")
FIRST_GAME = {7: ORANGE, 13: YELLOW, 23: GREEN, 26: VIOLET}


def test_spec_registers_the_engine_policies_and_analyses():
    assert SPEC.name == "tyros" and SPEC.players == (3, 4)
    assert set(SPEC.policies) == {"random", "greedy", "planner", "ismcts"}
    assert {"empire-sizes", "game", "rate", "explore"} <= set(SPEC.analyses)  # the core adds analyses of its own
    assert SPEC.make_policy("planner:city_hope=0.9").city_hope == 0.9


def test_rules_validate_variants():
    assert Rules.from_overrides({"later_passes_3p": "1"}).later_passes_3p == 1
    with pytest.raises(RuleError, match="setup"):
        Rules.from_overrides({"setup": "random"})
    with pytest.raises(RuleError, match="cards_dealt_4p"):
        Rules(cards_dealt_4p=15)
    with pytest.raises(RuleError, match="city_points"):
        Rules.from_overrides({"city_points": "12,10,9"})
    with pytest.raises(RuleError, match="starting_ships.*ships_per_player"):
        Rules(starting_ships=3, ships_per_player=2)


def test_greedy_builds_the_city_that_gains_most():
    # violet (26) is the largest empire, so a city there gains more than one in green (23), listed first
    chips = {**FIRST_GAME, 25: VIOLET, 27: VIOLET}
    state = scripted(hands={0: cards(green=5, violet=5)}, chips=chips, ships={0: ["23", "26"]})
    action = GreedyPolicy().choose(state, np.random.default_rng(0))

    def gain(city: BuildCity) -> float:  # the rulebook's scoring of the position the city leaves, less today's
        after = state.clone()
        after.apply(city)
        return after.final_scores()[0].total - state.final_scores()[0].total

    cities = [a for a in state.legal_actions() if isinstance(a, BuildCity)]
    assert len({gain(c) for c in cities}) > 1  # the choice matters: the cities gain different points
    assert isinstance(action, BuildCity) and gain(action) == max(gain(c) for c in cities)


def test_greedy_passes_when_nothing_scores():
    state = scripted(hands={0: cards()}, chips=FIRST_GAME, ships={0: ["tyros"]})
    assert GreedyPolicy().choose(state, np.random.default_rng(0)) == Pass()


def test_planner_keeps_ships_alone_in_spaces():
    # from 22, one card reaches 17 or 27 (orange, the largest empire) or 23 (green)
    chips = {17: ORANGE, 27: ORANGE, 23: GREEN, 13: YELLOW, 26: VIOLET}
    rng = np.random.default_rng(0)
    state = scripted(hands={0: cards(orange=2)}, chips=chips, ships={0: ["22"], 1: ["17"]})
    assert PlannerPolicy().choose(state, rng) == MoveShip("22", "27")
    state = scripted(hands={0: cards(orange=2)}, chips=chips, ships={0: ["22"], 1: ["27"]})
    assert PlannerPolicy().choose(state, rng) == MoveShip("22", "17")


def test_policies_accept_offers_by_their_own_valuation():
    state = scripted(hands={0: cards(orange=2), 1: cards(green=1)}, chips=FIRST_GAME, ships={1: ["23"]})
    state.apply(Offer((ORANGE, ORANGE), (GREEN,)))
    # player 1 needs green for a city on 23: the planner refuses, greedy (two cards for one) accepts
    assert PlannerPolicy().choose(state, np.random.default_rng(0)) == Refuse()
    assert GreedyPolicy().choose(state, np.random.default_rng(0)) == Accept()


def test_planner_beats_random_players():
    game = TyrosGame(Rules(), 4)
    rng = np.random.default_rng(2024)
    wins = 0
    for _ in range(12):
        record = play(game, [PlannerPolicy(), RandomPolicy(), RandomPolicy(), RandomPolicy()], rng)
        wins += 0 in record.winners
    # a random seat wins a quarter of the time; 9 of 12 is far beyond that (binomial p < 0.001)
    assert wins >= 9


def test_empire_sizes_analysis_tables_and_figures():
    analysis = SPEC.analyses["empire-sizes"]
    args = analysis.check_args({"games": 4000, "players": 3, "setup": "first-game", "tile_policy": "smallest"})
    raw = analysis.run(Rules(), args, 0, 4000, np.random.default_rng(1))
    tables = analysis.tables(raw, Rules(), args)
    ranks = tables["rank_matrix"]
    assert np.allclose(ranks.groupby("empire")["share"].sum(), 1)
    assert np.allclose(ranks.groupby("rank")["share"].sum(), 1)
    sizes = tables["empire_sizes"]
    assert (sizes["ci_low"] < sizes["mean_size"]).all() and (sizes["mean_size"] < sizes["ci_high"]).all()
    assert {"largest_smallest", "tyros_joins", "game_length", "size_distribution"} <= set(tables)
    joins = tables["tyros_joins"].set_index("tyros")["share"]
    assert joins["orange"] == (raw["tyros_colour"] == ORANGE).mean() and joins["violet"] > 0
    assert np.isclose(joins[["orange", "yellow", "green", "violet"]].sum(), joins["any empire"])
    figures = analysis.figures(tables, Rules(), args)
    assert set(figures) == {"size_histograms", "rank_matrix"}
    estimate = analysis.metrics["p_largest"].estimate(raw, Rules(), args)
    assert len(estimate) == 4 and (estimate["half_width"] < 0.03).all()
    with pytest.raises(ValueError, match="players"):
        analysis.check_args({"players": 5})


def test_points_by_source_shares_add_up():
    game = TyrosGame(Rules(), 3)
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(4):
        record = play(game, [PlannerPolicy(), GreedyPolicy(), RandomPolicy()], rng)
        for seat, policy in enumerate(("planner", "greedy", "random")):
            rows.append({"policy": policy, "score": record.scores[seat],
                         **{k: record.stats[f"{k}_p{seat}"] for k in ("city_points", "ship_points", "bonus_points")}})
    table = points_by_source(pd.DataFrame(rows), Rules(), {})["points_by_source"]
    shares = table.groupby("policy")["share_of_points"].sum()
    assert shares.notna().sum() >= 2 and np.allclose(shares.dropna(), 1)
    scored = table.dropna(subset=["share_of_points"])
    assert (scored["share_ci_low"] <= scored["share_of_points"]).all()
    assert (scored["share_of_points"] <= scored["share_ci_high"]).all()
    assert (scored["share_ci_high"] - scored["share_ci_low"] > 0).any()  # an interval, not a point


def test_a_players_view_shows_only_their_own_cards_and_tiles():
    state = TyrosGame(Rules(), 4).new_state(np.random.default_rng(8))
    view = state.view(2)
    assert view.hand == tuple(state.hands[2]) and view.tiles == tuple(state.tile_hands[2])
    assert view.hand_sizes == (10, 10, 10, 10) and view.tile_counts == (4, 4, 4, 4)
    assert view.draw_pile == 20 and view.tile_pile == len(state.tile_pile)
    assert not {"deck", "hands", "tile_hands", "tile_pile_order"} & set(vars(type(view))["__dataclass_fields__"])


def test_the_policies_model_of_a_tile_play_matches_the_engine_when_chips_run_out():
    # yellow has its last chip left: played on 32 it cannot also go on Tyros
    rules = Rules(setup="first-game", chips_per_empire=2)
    state = scripted(chips={28: YELLOW, 26: VIOLET}, rules=rules)
    state.phase, state.turn, state.expansion_pass, state.round, state.start_player = EXPAND, 0, 0, 1, 0
    state.tile_hands = [[32], [4], [4], [4]]
    predicted = after(state, 0, PlayTile(32, YELLOW), Position.of(state, 0))
    state.apply(PlayTile(32, YELLOW))
    assert state.chips[TYROS] < 0
    assert predicted.chips == state.chips


def test_the_policies_model_of_a_move_pays_the_toll_in_another_players_city():
    state = scripted(hands={0: cards(green=4, violet=2), 1: cards()}, chips=FIRST_GAME, ships={0: ["tyros"]},
                     cities={23: 1})
    predicted = after(state, 0, MoveShip("tyros", "23", VIOLET), Position.of(state, 0))
    state.apply(MoveShip("tyros", "23", VIOLET))
    assert predicted.hand == state.hands[0] == cards(violet=1)


def decisions(rules: Rules, players: list, seeds: range):
    """Every position where a player decides, in four-player games of `players` with these seeds."""
    game = TyrosGame(rules, 4)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        while not state.is_terminal():
            yield state
            state.apply(players[state.current_player()].choose(state, rng))


@pytest.mark.parametrize("rules", [Rules(), Rules(ship_limit_on_build=False, chips_per_empire=7,
                                                  ships_pass_unclaimed=False)], ids=["rulebook", "variant"])
def test_the_policies_model_of_every_board_action_matches_the_engine(rules):
    checked = 0
    for state in decisions(rules, [RandomPolicy()] * 4, range(3)):
        player = state.current_player()
        now = Position.of(state, player)
        for action in state.legal_actions():
            if isinstance(action, BOARD_ACTIONS):
                predicted = after(state, player, action, now)
                real = state.clone()
                real.apply(action)
                if real.is_terminal():
                    continue
                seen = Position.of(real, player)
                assert (predicted.chips, predicted.cities, predicted.hand, predicted.city_colours) == (
                    seen.chips, seen.cities, seen.hand, seen.city_colours), action
                assert sorted(predicted.ships[player]) == sorted(seen.ships[player]), action
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("rules", [Rules(), Rules(ships_change_coast=False, ship_points=(9, 4, 2, 1),
                                                  tyros_counts_for_size=True)], ids=["rulebook", "variant"])
def test_a_moves_score_from_the_two_spaces_it_changes_is_the_full_scoring(rules):
    """The policies score a ship move from the spaces it leaves and enters (`moved_score`): the same
    total as scoring the whole board, for every player, at every move of planner and random games."""
    checked = 0
    for state in decisions(rules, [PlannerPolicy(), RandomPolicy()] * 2, range(4)):
        mover = state.current_player()
        now = Position.of(state, mover)
        for action in state.legal_actions():
            if isinstance(action, MoveShip):
                moved = after(state, mover, action, now)
                for player in range(4):  # the mover's score, and what the move does to the others'
                    assert moved_score(state, player, action, now, moved, now.score(state, player),
                                       now.ranks(state)) == moved.score(state, player), (action, player)
                    checked += 1
    assert checked > 2000


@pytest.mark.parametrize("rules", [Rules(), Rules(ship_limit_on_build=False, trade_offers="three-for-three")],
                         ids=["rulebook", "variant"])
def test_actions_that_differ_only_in_chosen_cards_are_valued_from_one_look_at_the_board(rules):
    """The planner values a toll or a ship's cards of any colour as the shared board value less the cards'
    values (`PlannerPolicy.scored`): the same as valuing each action's own position; greedy's score of
    such actions is the shared one (it does not depend on the hand)."""
    planner, checked = PlannerPolicy(), 0
    for state in decisions(rules, [PlannerPolicy(), RandomPolicy()] * 2, range(4)):
        if state.phase != "actions":
            continue
        player = state.current_player()
        now = Position.of(state, player)
        actions = state.legal_actions()
        fast = dict((action, value) for value, action in planner.scored(state, player, actions, now))
        before = planner.value(state, now, player)
        for action in actions:
            if isinstance(action, BOARD_ACTIONS) and chosen_cards(action)[1]:
                moved = after(state, player, action, now)
                assert fast[action] == pytest.approx(planner.value(state, moved, player) - before, abs=1e-9), action
                shared = after(state, player, chosen_cards(action)[0], now)
                assert shared.score(state, player) == moved.score(state, player), action
                checked += 1
    assert checked > 200
