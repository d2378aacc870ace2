"""The studio's "Find a balanced variant" (tyrsim.core.studio.search and the search jobs): the marks' ranges, the
search's fields in the address checked with balance's own messages, the search run through HTTP with a tiny
budget, its progress and answer streamed, the same answer for the same seed (and from the command it prints),
and the jobs' bounds. In the browser: tests/test_studio_browser.py."""

from __future__ import annotations

import re
import shlex
from html import unescape
from urllib.parse import parse_qsl

import pytest
from fastapi.testclient import TestClient

from tyrsim.core.report.balance_page import findings
from tyrsim.core.studies.balance import balance
from tyrsim.core.studio.app import make_app
from tyrsim.core.studio.jobs import Jobs, JobsBusy
from tyrsim.core.studio.search import DEFAULT_TARGETS, Search, parse_view, plan, vary_text
from tyrsim.core.studio.variant import parse_variant
from tyrsim.games import game_names, get_game

GAME = "zooloretto-duell"
# a tiny search: greedy players, blocks of 10 games doubling once, 4 candidates a batch, 50 fresh games a finalist
TINY = (f"game={GAME}&policy=greedy&policy=greedy&seed=3&vary=starting_coins&vary=steal_triggers_symbols"
        "&budget=200&block=10&rungs=2&batch=4&fresh=50")


def view(query: str):
    return parse_view(parse_qsl(query, keep_blank_values=True), get_game, game_names())


def test_a_marked_rule_varies_around_its_value_within_its_bounds():
    spec = get_game(GAME)
    rules = spec.rules().replace({"starting_coins": 11, "money_action_cost": 2})
    assert vary_text(spec, rules, "starting_coins") == "starting_coins=9:12"  # +-2, clipped to 0..12
    assert vary_text(spec, rules, "money_action_cost") == "money_action_cost=1:4"  # clipped below at 1
    assert vary_text(spec, rules, "majority_points") == "majority_points=0:3"  # no upper bound declared
    assert vary_text(spec, rules, "steal_triggers_symbols") == "steal_triggers_symbols=true,false"
    assert vary_text(spec, rules, "marker_order") == "marker_order=shuffled,printed"  # every choice
    assert vary_text(spec, rules, "symbols_file") == "symbols_file=,bundled:symbols_two_each.toml"  # the readings
    assert vary_text(spec, rules, "truck_places") is None  # a list of values cannot vary
    tyranno = get_game("tyranno-ex")  # a die must have as many faces as the strongest die's strength (6)
    assert vary_text(tyranno, tyranno.rules(), "die_faces") == "die_faces=6:8"


def test_the_search_fields_go_in_the_address_and_come_back():
    variant, search = view(f"game={GAME}&vary=starting_coins&target=mean_rounds<=11&target=&budget=3000")
    assert search == Search(("starting_coins",), ("mean_rounds<=11",), (3000, 1000, 50, 4, 8))
    again = view(f"{variant.query()}&{search.query()}")
    assert again == (variant, search)
    assert view(f"game={GAME}")[1].targets == DEFAULT_TARGETS and "target" not in Search().query()
    # every target box emptied is no target (the search then refuses to start), not the default one again
    assert view(f"game={GAME}&target=")[1].targets == ()


def test_a_search_plays_the_pages_rules_on_its_players_and_seed():
    variant, search = view(f"game={GAME}&rule.starting_coins=3&policy=greedy&seed=7&vary=starting_coins"
                           "&target=first_seat_win_rate>=0.45&budget=900")
    setup = plan(variant, search)
    assert setup.rules == variant.rules and setup.policies == variant.policies and setup.seed == 7
    assert [d.text() for d in setup.space] == ["starting_coins=1:5"]
    assert [t.text() for t in setup.targets] == ["first_seat_win_rate >= 0.45"] and setup.budget == 900


@pytest.fixture(scope="module")
def client():
    app = make_app(get_game, game_names(), Jobs(most=2, most_games=2_000))
    with TestClient(app) as c:
        yield c
    app.state.jobs.cancel_all()


def problem_of(answer) -> str:
    return " ".join(unescape(m) for m in re.findall(r"<p class='problem'[^>]*>(.*?)</p>", answer.text, flags=re.S))


@pytest.mark.parametrize(("query", "field", "words"), [
    (f"game={GAME}&budget=200", "vary", "no rule is marked"),
    (f"game={GAME}&vary=starting_coins&target=fun>=1", "target", "'fun' is not a metric Zooloretto Duell reports"),
    (f"game={GAME}&vary=starting_coins&target=", "target", "give at least one target"),
    (f"game={GAME}&vary=starting_coins&target=largest_seat_gap<=2", "target", "a share of games, from 0 to 1"),
    (f"game={GAME}&vary=starting_coins&budget=100", "budget", "a budget of 100 games cannot play the run's rules'"),
    (f"game={GAME}&vary=starting_coins&budget=lots", "budget", "a whole number from 1 to 2,000"),
    (f"game={GAME}&vary=starting_coins&fresh=5000", "fresh", "a whole number from 2 to 2,000"),
    (f"game={GAME}&vary=truck_places", "vary", "cannot be varied"),
    (f"game={GAME}&vary=no_such_rule", "vary", "unknown rule 'no_such_rule'"),
    (f"game={GAME}&vary=starting_coins&vary=money_action_cost&vary=majority_points&vary=coins_per_point"
     "&vary=final_round_card_depth", "vary", "mark at most 4"),
    (f"game={GAME}&vary=starting_coins&policy=mcts", "policy", "choose faster policies"),
], ids=["no-marks", "metric", "no-target", "share", "budget", "budget-text", "fresh", "list", "unknown", "five",
        "search-policy"])
def test_a_search_that_cannot_start_is_a_400_naming_the_field(client, query, field, words):
    answer = client.get(f"/search?{query}")
    assert answer.status_code == 400 and "Traceback" not in answer.text
    said = problem_of(answer)
    assert said.startswith(f"Nothing is searched: <code>{field}</code>: ") and words in said, said


def test_a_bad_search_field_is_shown_beside_its_control_and_the_games_play_on(client):
    answer = client.get(f"/view?game={GAME}&vary=starting_coins&target=fun>=1")
    assert answer.status_code == 400 and "sse-connect='/events/" in answer.text  # the variant's games still play
    control, message = answer.text.index("name='target'"), answer.text.index("is not a metric")
    assert 0 < message - control < 1500
    assert client.get(f"/view?game={GAME}&vary=starting_coins&budget=0").status_code == 400


def test_an_edit_of_the_search_fields_alone_keeps_the_games_played(client):
    first = client.get(f"/view?game={GAME}&rule.starting_coins=2")
    marked = client.get(f"/view?game={GAME}&rule.starting_coins=2&vary=starting_coins&target=mean_rounds<=11")
    job = re.compile(r"sse-connect='/events/(\d+)'")
    assert job.search(first.text)[1] == job.search(marked.text)[1]
    address = parse_qsl(marked.headers["HX-Push-Url"].removeprefix("/?"))
    assert ("vary", "starting_coins") in address and ("target", "mean_rounds<=11") in address
    assert "budget" not in dict(address)  # a setting the address did not give is not written
    assert "name='vary' value='starting_coins' checked" in marked.text and "0 to 4" in marked.text
    other = client.get(f"/view?game={GAME}&rule.starting_coins=3&vary=starting_coins")
    assert job.search(other.text)[1] != job.search(first.text)[1]  # a rule changed: new games


def run_search(client, query: str) -> str:
    """Start the search through HTTP and follow its events to the end: the last answer's text."""
    started = client.get(f"/search?{query}")
    assert started.status_code == 200, started.text
    search = re.search(r"sse-connect='/search/events/(\d+)'", started.text)[1]
    with client.stream("GET", f"/search/events/{search}") as stream:
        text = "".join(stream.iter_text())
    assert text.rstrip().endswith("event: done\ndata:")
    events = text.split("event: progress")
    assert any("search games played" in e for e in events[:-1])  # its progress, before its answer
    return unescape(events[-1])


def test_a_tiny_search_shows_the_balance_answer_with_a_link_to_the_best_variant(client):
    last = run_search(client, TINY)
    assert "The balance answer" in last and "The best variant the search found" in last
    assert "Around the best, starting_coins" in last and "The search played " in last
    link = re.search(r"id='best-variant' href='/\?([^']*)'", last)[1]
    best, search = view(link)
    assert search.marked == ("starting_coins", "steal_triggers_symbols") and search.setting("budget") == 200
    status = client.get("/status").json()["search"]
    assert status["ended"] and not status["error"] and status["search_games"] <= 200
    assert status["games"] == status["search_games"] + status["fresh_games"]
    assert status["findings"][0].startswith("The best variant the search found")
    found = client.app.state.jobs.search_of_session(client.cookies.get("tyrsim_studio"))
    values = found.result.finalists[found.result.best].values
    assert best.rules == view(TINY)[0].rules.replace(values)  # the link opens the best variant


def test_the_same_seed_gives_the_same_answer_as_the_library_and_the_command_it_prints(client, tmp_path):
    from click.testing import CliRunner

    from tyrsim.cli import main

    run_search(client, TINY)
    shown = client.get("/status").json()["search"]["findings"]
    run_search(client, TINY)
    assert client.get("/status").json()["search"]["findings"] == shown  # the same seed, the same answer
    variant, search = view(TINY)
    assert findings(balance(variant.spec, plan(variant, search))) == shown  # the library's own answer
    last = run_search(client, TINY)
    command = shlex.split(re.search(r"<code class='command'>(.*?)</code>", last, flags=re.S)[1])
    assert command[:2] == ["tyrsim", "balance"]
    out = command.index("--out")
    command[out + 1] = str(tmp_path / "out")
    result = CliRunner().invoke(main, command[1:])
    assert result.exit_code == 0, result.output
    assert [line[2:] for line in result.output.splitlines() if line.startswith("- ")] == shown


def test_a_new_search_cancels_the_sessions_old_one_and_counts_among_the_jobs_playing():
    variant, search = view(TINY.replace("budget=200", "budget=2000").replace("fresh=50", "fresh=500"))
    setup = plan(variant, search)
    jobs = Jobs(most=2, most_playing=2)
    old = jobs.start_search("page", variant, setup, search.query())
    new = jobs.start_search("page", variant, setup, search.query())
    assert old.cancelled and old.wait(600) and old.result is None and not old.error
    assert jobs.search(old.id) is None and jobs.search_of_session("page") is new
    jobs.start("page", variant)  # the page's live games: two threads playing, the bound
    if not new.ended:
        with pytest.raises(JobsBusy, match="start the search again"):
            jobs.start_search("other", variant, setup, search.query())
    jobs.cancel_all()
    assert new.wait(600)


def test_a_search_of_a_session_stays_beside_the_edits(client):
    run_search(client, TINY)
    page = client.get(f"/view?game={GAME}&rule.starting_coins=4")
    assert "The balance answer" in page.text  # an edit does not stop the session's search or hide its answer


def test_the_rulebook_search_of_every_game_can_be_planned():
    for name in game_names():
        spec = get_game(name)
        if spec.make_game is None:
            continue
        variant = parse_variant([("game", name)], get_game, game_names())
        markable = [rule for rule in spec.rules.field_names() if vary_text(spec, variant.rules, rule)]
        setup = plan(variant, Search(tuple(markable[:4])))
        assert len(setup.space) == 4 and setup.targets[0].metric == "largest_seat_gap"
