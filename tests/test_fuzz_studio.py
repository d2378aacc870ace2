"""The studio app under generated and malformed requests: no request gets a 5xx, and a refused one (4xx) says in
one paragraph what was wrong. Schemathesis throws requests built from the app's OpenAPI schema (and requests that
break it) at every route, the balance search's `/search` among them, in process over ASGI; Hypothesis throws at
the query string what the schema does not describe (a rule's field rule.NAME, unknown keys, repeated keys, the
search's marks, targets and settings, any text). Both are derandomized and bounded, so
CI runs the same few hundred requests every time."""

from __future__ import annotations

import re
import threading

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tyrsim.core.studio.app import make_app
from tyrsim.core.studio.jobs import Jobs
from tyrsim.games import game_names, get_game

# a long check (Schemathesis and Hypothesis over every route): the default run and CI run it,
# `pytest -m "not slow"` does not
pytestmark = pytest.mark.slow

GAME = "zooloretto-duell"
EXAMPLES = 30  # requests per route and generation mode (Schemathesis), and for the query string (Hypothesis)


def _app():
    # two jobs of 40 games at most: the requests that start a job finish it in a moment (a balance search too: its
    # search games, blocks and fresh games per finalist are bounded by the jobs' 40); a sample game played by a
    # search policy is stopped after a moment too
    return make_app(get_game, game_names(), Jobs(most=2, most_games=40), log_seconds=0.2)


APP = _app()
schemathesis.serializer.alias("application/toml", "text/plain")  # an opened scenario file's bytes, sent as they are
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES,
                                deterministic=True, database="none")


def searching(case) -> bool:
    """A request naming a search policy: the first search of a game in a process loads for minutes, a sample
    game's time is looked at between moves and a job stops between chunks (tests/test_studio.py checks both),
    so the generated requests leave search policies out. (Schemathesis's filter hooks do not reach its coverage
    phase.)"""
    policies = case.query.get("policy", []) if isinstance(case.query, dict) else []
    return any("mcts" in str(p) for p in (policies if isinstance(policies, list) else [policies]))


def message(response) -> str:
    """What a refused request was told, as a person reads it: the text of a plain answer, the problems a page
    shows (`class='problem'`), or FastAPI's detail; empty where it says nothing."""
    text = response.text
    kind = response.headers.get("content-type", "")
    kind = " ".join(kind) if isinstance(kind, list) else kind  # Schemathesis's answers list each header's values
    if "html" in kind:
        return " ".join(re.findall(r"<p class='problem'[^>]*>(.*?)</p>", text, flags=re.S))
    if "json" in kind:
        detail = response.json().get("detail", "")
        return detail if isinstance(detail, str) else ""
    return text


def assert_answered(response) -> None:
    """No 5xx, and a 4xx with a message: one paragraph, no traceback."""
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        said = message(response)
        assert said.strip(), f"{response.status_code} with no message: {response.text[:500]}"
        assert "Traceback" not in response.text and "\n\n" not in said.strip()


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_request_gets_a_5xx(case):
    if not searching(case):
        assert_answered(case.call())


@pytest.fixture(scope="module", autouse=True)
def no_games_left_playing():
    """The jobs the requests started are stopped before the next test file: their threads would go on playing."""
    yield
    APP.state.jobs.cancel_all()
    for thread in threading.enumerate():
        if thread.name.startswith("studio-job-"):
            thread.join(120)


@pytest.fixture(scope="module")
def client():
    with TestClient(APP) as c:
        yield c


KEYS = st.one_of(
    st.sampled_from(["game", "players", "policy", "seed", "games", "rule.starting_coins", "rule.truck_places",
                     "rule.symbols_file", "rule.steal_triggers_symbols", "rule.rounds", "rule.", "rule", "x", "",
                     "vary", "target", "budget", "fresh", "block", "rungs", "batch"]),
    st.text(max_size=12), st.text(max_size=12).map("rule.".__add__))
VALUES = st.one_of(st.text(max_size=30), st.sampled_from(
    ["zooloretto-duell", "tyros", "tyranno-ex", "tiny-epic-dinosaurs", "2", "3", "4", "-1", "1e9", "true", "nan",
     "inf", "bundled:markers.toml", "bundled:", "../x", "greedy", "random", "heuristic:weights=/tmp/w.toml",
     "heuristic:weights=bundled:heuristic_tuned.toml", "heuristic:", "heuristic:x=1,", "99999999999999999999999",
     "1,2,2", "0", " 1", "x" * 301, "starting_coins", "steal_triggers_symbols", "truck_places", "rounds",
     "largest_seat_gap<=0.05", "mean_rounds>=", "heuristic>random>=0.9", "greedy>greedy=1", "fun<=1", "40"]))
PATHS = st.sampled_from(["/", "/view", "/search", "/scenario", "/log", "/status", "/events/1", "/events/x%00",
                         "/search/events/1", "/search/events/x", "/static/..%2f..%2fx", "/static/htmx.min.js"])


@settings(max_examples=3 * EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=PATHS, query=st.lists(st.tuples(KEYS, VALUES), max_size=6))
def test_no_query_string_gets_a_5xx(client, path, query):
    """Random keys and values in the address, the rule fields no schema lists among them: 200 or a 4xx that
    says what was wrong."""
    assert_answered(client.get(path, params=query))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(game_names()), data=st.data())
def test_any_rule_of_any_game_with_any_value_is_played_or_named(client, game, data):
    """Each game's own rules, each with a value of the wrong kind, out of range, or well formed: 200, or a 400
    naming the rule beside its control."""
    rules = get_game(game).rules.field_names()
    names = data.draw(st.lists(st.sampled_from(rules), min_size=1, max_size=3, unique=True))
    values = st.one_of(VALUES, st.integers(-10**20, 10**20).map(str), st.floats(allow_nan=True).map(str))
    query = [("game", game), *((f"rule.{name}", data.draw(values)) for name in names)]
    answer = client.get("/view", params=query)
    assert_answered(answer)
    if answer.status_code == 400:
        assert any(f"id='rule-{name}'" in answer.text for name in names) or "The address" in answer.text
