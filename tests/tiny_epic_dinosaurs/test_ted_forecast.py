"""The forecast of a round's end (the search's leaf evaluation): it agrees with the engine playing the round out,
it changes nothing, and it knows which of Phases 4 to 6 a player has still to take."""

import numpy as np

from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.forecast import forecast
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules
from tyrsim.games.tiny_epic_dinosaurs.steps import END_ROUND

PHASES = {"place_fence": "arrange", "enclose": "arrange", "feed": "feed"}


def test_the_forecast_at_phase_4_is_the_score_hunters_reach_at_the_round_end():
    """From the moment the ranchers come home, the forecast plays the round out as hunter does (ties aside): most
    forecasts hit the score at the round's end exactly and the rest are close. The earlier reckoning, without the
    engine's rules for feeding unique dinosaurs, escapes and penalties, was off by about 4 points on average."""
    game = SPEC.make_game(Rules(), 2)
    hunter = SPEC.make_policy("hunter")
    exact, errors = 0, []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        forecasts = None
        while not state.is_terminal():
            round_ = state.round
            if forecasts is None and END_ROUND in state._todo and state.steps_left(0) == (True, True, True):
                forecasts = [forecast(state, seat).points for seat in range(2)]
            state.apply(hunter.choose(state, rng))
            if forecasts is not None and (state.is_terminal() or state.round != round_):
                scores = state.scores()
                for seat in range(2):
                    exact += forecasts[seat] == scores[seat]
                    errors.append(abs(forecasts[seat] - scores[seat]))
                forecasts = None
    assert len(errors) >= 100
    assert exact / len(errors) > 0.7 and np.mean(errors) < 1.0


def test_the_forecast_changes_nothing_and_knows_the_steps_left():
    game = SPEC.make_game(Rules(), 2)
    rng = np.random.default_rng(3)
    state = game.new_state(rng)
    policies = [SPEC.make_policy("hunter"), SPEC.make_policy("random")]
    seen = set()
    while not state.is_terminal():
        before = repr([(p.ranch.cells, p.ranch.fences, p.holding, p.holding_fences, p.resources, p.research)
                       for p in state.players]) + repr(state.supply)  # fmt: skip
        for seat in range(2):
            forecast(state, seat)
        after = repr([(p.ranch.cells, p.ranch.fences, p.holding, p.holding_fences, p.resources, p.research)
                      for p in state.players]) + repr(state.supply)  # fmt: skip
        assert after == before
        left = [state.steps_left(seat) for seat in range(2)]
        if END_ROUND not in state._todo:
            assert left == [(True, True, True)] * 2  # ranchers are still being placed
        elif state.prompt.kind in PHASES:
            me = state.prompt.player
            phase = PHASES[state.prompt.kind]
            assert left[me] == (phase == "arrange", True, True)  # the step under way is still ahead
            seen.add(phase)
        state.apply(policies[state.current_player()].choose(state, rng))
    assert seen == {"arrange", "feed"}


def test_a_unique_dinosaur_without_food_is_forecast_to_escape_with_its_card():
    """The reckoning before the forecast counted a unique dinosaur's points whatever it ate; the engine lets it
    go hungry and escape, and its card (points and ability) goes with it."""
    from ted_scripted import new_state

    state = new_state()
    player = state.players[0]
    card = next(c for c in state.game.components.research if c.dinosaur is not None and c.dinosaur.meat)
    player.research.append(card)
    player.learn_card(card)
    player.holding.append(card.dinosaur.name)
    player.resources = [9, 0, 0]  # leaves only
    assert forecast(state, 0).points == 0
    player.resources = [9, 9, 0]
    assert forecast(state, 0).points == card.points
