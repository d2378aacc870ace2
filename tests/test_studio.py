"""The studio (tyrsim.core.studio): the variant read from the address with the command line's checks, the jobs that
play it against the rulebook's rules on the same games, the app's answers to good and bad requests, and the
scenario it writes. Generated and malformed requests: tests/test_fuzz_studio.py."""

from __future__ import annotations

import tomllib
from pathlib import Path
from urllib.parse import parse_qsl, quote

import pytest
from fastapi.testclient import TestClient

from tyrsim.core.engine.datafile import MAX_BYTES
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.studio.app import make_app
from tyrsim.core.studio.jobs import Job, Jobs, JobsBusy
from tyrsim.core.studio.measures import FIRST_SEAT
from tyrsim.core.studio.variant import VariantError, parse_variant
from tyrsim.core.studio.warm import Engines
from tyrsim.games import game_names, get_game

GAME = "zooloretto-duell"
TUNED = "heuristic:weights=bundled:heuristic_tuned.toml"


def variant(*pairs: tuple[str, str]):
    return parse_variant([("game", GAME), *pairs], get_game, game_names())


def problems(*pairs: tuple[str, str]) -> dict[str, str]:
    with pytest.raises(VariantError) as caught:
        parse_variant(list(pairs), get_game, game_names())
    return caught.value.problems


def test_a_page_starts_with_the_tuned_policies_and_the_rulebooks_rules():
    v = variant()
    assert v.policies == (TUNED, TUNED) and v.changes == {} and v.seed == 1


def test_the_address_reproduces_the_variant():
    v = variant(("rule.starting_coins", "3"), ("policy", "greedy"), ("seed", "9"))
    assert v.policies == ("greedy", TUNED)  # the seat not given takes the default policy
    again = parse_variant(parse_qsl(v.query()), get_game, game_names())
    assert again == v and "rule.starting_coins=3" in v.query() and "final_round_card_depth" not in v.query()


@pytest.mark.parametrize(("pairs", "field", "words"), [
    ((("game", "chess"),), "game", "the games are"),
    ((("game", GAME), ("players", "3")), "players", "is for 2 players"),
    ((("game", GAME), ("players", "two")), "players", "not a number of players"),
    ((("game", GAME), ("policy", "wizard")), "policy", "the policies are"),
    ((("game", GAME), ("seed", "-4")), "seed", "an integer from 0"),
    ((("game", GAME), ("rule.starting_coins", "99")), "rule.starting_coins", "from 0 to 12"),
    ((("game", GAME), ("rule.starting_coins", "many")), "rule.starting_coins", "expected an integer"),
    ((("game", GAME), ("rule.no_such_rule", "1")), "rule.no_such_rule", "the rules are"),
    ((("game", GAME), ("colour", "red")), "colour", "unknown field"),
    ((("game", GAME), ("seed", "1"), ("seed", "2")), "seed", "given twice"),
])
def test_each_bad_field_is_named_with_what_is_allowed(pairs, field, words):
    found = problems(*pairs)
    assert list(found) == [field] and words in found[field]


def test_the_studio_reads_no_path_it_is_sent():
    weights = problems(("game", GAME), ("policy", "heuristic:weights=/etc/passwd"))
    assert "reads no path" in weights["policy"] and "bundled:heuristic_tuned.toml" in weights["policy"]
    data_rule = next(name for name in get_game(GAME).rules.data_file_rules())
    found = problems(("game", GAME), (f"rule.{data_rule}", "/etc/passwd"))
    assert "reads no path" in found[f"rule.{data_rule}"]
    found = problems(("game", GAME), (f"rule.{data_rule}", "bundled:../../../etc/passwd"))
    assert "not a file bundled" in found[f"rule.{data_rule}"]


def test_a_job_pairs_each_game_under_both_rule_sets_and_its_answer_does_not_depend_on_its_chunks():
    v = variant(("rule.starting_coins", "4"))
    jobs = [Job(v, most_games=120, id=k).start() for k in (1, 2)]
    for job in jobs:
        assert job.wait(600) and job.error is None and job.tally.games == 120
    rows = [job.snapshot()[1] for job in jobs]
    assert rows[0] == rows[1]
    first = next(r for r in rows[0] if r.measure == FIRST_SEAT)
    assert first.difference[0] == pytest.approx(first.variant[0] - first.rulebook[0])
    low, high = first.difference[1:]
    assert -1 <= low <= first.difference[0] <= high <= 1


class ReadyAfter(Engines):
    """A game's compiled engine ready at the `asks`-th question (the object engine plays until then)."""

    def __init__(self, asks: int):
        super().__init__()
        self.asks, self.asked = asks, 0

    def ready(self, spec) -> bool:
        self.asked += 1
        return self.asked >= self.asks


def test_until_the_compiled_engine_is_ready_the_object_engine_plays_the_same_games(monkeypatch):
    from tyrsim.core.studies import blocks

    object_chunks = []

    def counted(*args, **kwargs):
        object_chunks.append(args[4])  # the chunk's games
        return play_chunk(*args, **kwargs)

    play_chunk = blocks.play_chunk
    monkeypatch.setattr(blocks, "play_chunk", counted)
    v = variant(("rule.starting_coins", "4"))
    compiled = Job(v, most_games=300).start()
    engines = ReadyAfter(4)
    waited = Job(v, most_games=300, engines=engines).start()
    for job in (compiled, waited):
        assert job.wait(600) and job.error is None and job.tally.games == 300
    # asked as the job starts and before each chunk: its first two chunks under both rule sets on the object engine
    # (their sizes follow the clock), then the compiled engine, and the same answer
    assert len(object_chunks) == 4 and sum(object_chunks) < 300 and engines.asked == 4 and not waited.waiting
    assert waited.snapshot()[1] == compiled.snapshot()[1]


def test_the_rulebooks_rules_alone_compare_nothing():
    job = Job(variant(), most_games=40).start()
    assert job.wait(600) and job.error is None
    for row in job.snapshot()[1]:
        assert row.variant[0] == row.rulebook[0] and row.difference[0] == 0 and not row.differs


def test_a_new_edit_cancels_the_sessions_stale_job():
    jobs = Jobs(most=2, most_games=10**6)
    old = jobs.start("page", variant(("rule.starting_coins", "3")))
    new = jobs.start("page", variant(("rule.starting_coins", "4")))
    assert old.cancelled and old.wait(600) and old.cancel_seconds is not None
    assert jobs.get(old.id) is None and jobs.of_session("page") is new and not new.cancelled
    others = [jobs.start(session, variant()) for session in ("a", "b")]
    assert new.cancelled and not any(job.cancelled for job in others)  # at most two alive: the oldest went
    jobs.cancel_all()
    assert all(job.wait(600) for job in others)


def test_no_new_job_while_too_many_earlier_ones_still_play():
    jobs = Jobs(most=1, most_games=10**6, most_playing=2)
    first = jobs.start("a", variant(("rule.starting_coins", "3")))
    second = jobs.start("b", variant(("rule.starting_coins", "4")))  # cancels the first: at most one alive
    assert first.cancelled and not second.cancelled
    if not first.ended:  # the first still plays its chunk: a third job would make three threads playing
        with pytest.raises(JobsBusy, match="still playing"):
            jobs.start("c", variant())
    assert first.wait(600)
    third = jobs.start("c", variant())  # the cancelled one has stopped: room again
    assert second.cancelled and not third.cancelled
    jobs.cancel_all()
    assert third.wait(600) and second.wait(600)


def test_a_page_asking_for_a_job_while_too_many_still_play_gets_a_429_that_says_why():
    jobs = Jobs(most=2, most_games=10**6, most_playing=1)
    app = make_app(get_game, game_names(), jobs)
    with TestClient(app) as one, TestClient(app) as other:
        assert one.get(f"/view?game={GAME}").status_code == 200
        playing = jobs.of_session(one.cookies.get("tyrsim_studio"))
        answer = other.get(f"/view?game={GAME}&rule.starting_coins=3")
        assert answer.status_code == 429 and "still playing" in answer.text and "Traceback" not in answer.text
    jobs.cancel_all()
    assert playing.wait(600)


@pytest.fixture(scope="module")
def client():
    app = make_app(get_game, game_names(), Jobs(most=2, most_games=40))
    with TestClient(app) as c:
        yield c
    app.state.jobs.cancel_all()


def test_the_page_has_a_control_for_every_rule_and_a_live_answer(client):
    page = client.get(f"/?game={GAME}&rule.starting_coins=3")
    assert page.status_code == 200
    for name in get_game(GAME).rules.field_names():
        assert f"name='rule.{name}'" in page.text
    assert "class='rule changed'" in page.text and "reset to 1" in page.text
    assert "sse-connect='/events/" in page.text and "/static/htmx.min.js" in page.text
    assert page.headers["HX-Push-Url"].startswith("/?game=zooloretto-duell")


def test_a_bad_field_is_a_400_with_its_message_beside_the_control(client):
    answer = client.get(f"/view?game={GAME}&rule.starting_coins=99")
    assert answer.status_code == 400
    text = answer.text
    control, message = text.index("name='rule.starting_coins'"), text.index("out of range; expected an integer from 0")
    assert 0 < message - control < 2000 and "sse-connect" not in text
    assert client.get("/?game=chess").status_code == 400


@pytest.mark.parametrize("query", ["rule=starting_coins%3D3", "rule.no_such_rule=3"])
def test_a_bad_part_of_the_address_that_no_control_shows_is_named_on_the_page(client, query):
    answer = client.get(f"/?game={GAME}&{query}")
    assert answer.status_code == 400
    name = query.split("=")[0]
    assert f"The address's <code>{name}</code>: " in answer.text


def test_the_events_stream_the_answer_until_the_job_is_done(client):
    page = client.get(f"/view?game={GAME}&rule.starting_coins=2")
    job = page.text.split("sse-connect='/events/")[1].split("'")[0]
    with client.stream("GET", f"/events/{job}") as stream:
        text = "".join(stream.iter_text())
    assert "event: answer" in text and text.rstrip().endswith("event: done\ndata:")
    assert "moves the first seat&#39;s win rate from" in text and "40 games" in text
    assert client.get("/events/999999").status_code == 404


def test_the_scenario_it_writes_is_one_tyrsim_run_plays(client):
    answer = client.get(f"/scenario?game={GAME}&rule.starting_coins=3&policy=greedy&seed=5&games=300")
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    data = tomllib.loads(answer.text)
    scenario = scenario_from_data(data, "studio.toml", answer.text, games=get_game)
    point = scenario.points[0]
    assert scenario.seed == 5 and point.rules.differences() == {"starting_coins": 3}
    assert point.args["policies"] == ("greedy", TUNED) and scenario.trials(point) == 300
    assert client.get(f"/scenario?game={GAME}&games=0").status_code == 400


def test_tyrsim_run_plays_the_downloaded_scenario_to_the_pages_answer(client, tmp_path):
    # the downloaded scenario plays game g from its own stream, as the studio does (`paired = true`): the run plays
    # the page's games, so its estimates are the page's, to the digit
    from click.testing import CliRunner

    from tyrsim.cli import main

    query = f"game={GAME}&rule.starting_coins=3&seed=3"
    job = Job(parse_variant(parse_qsl(query), get_game, game_names()), most_games=1000).start()
    assert job.wait(600) and job.error is None
    rows = {row.measure: row for row in job.snapshot()[1]}
    path = tmp_path / "studio.toml"
    path.write_text(client.get(f"/scenario?{query}&games=1000").text)
    assert tomllib.loads(path.read_text())["args"]["paired"] is True
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "out"), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    by_seat = (tmp_path / "out" / "by_seat.csv").read_text().splitlines()
    columns = by_seat[0].split(",")
    for seat, line in enumerate(by_seat[1:]):
        cells = dict(zip(columns, line.split(","), strict=True))
        assert cells["games"] == "1000"
        assert float(cells["win_rate"]) == pytest.approx(rows[f"seat {seat + 1} win rate"].variant[0], abs=1e-12)
        assert float(cells["mean_score"]) == pytest.approx(rows[f"seat {seat + 1} score"].variant[0], abs=1e-9)


SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_an_opened_scenario_sets_the_variant_and_its_download_gives_it_back(client):
    query = f"game={GAME}&players=2&policy=greedy&policy={quote(TUNED)}&seed=5&rule.starting_coins=3"
    written = client.get(f"/scenario?{query}&games=300").content
    opened = client.post("/open", content=written, headers={"Content-Type": "application/toml"})
    assert opened.status_code == 200 and "sse-connect='/events/" in opened.text
    assert "class='rule changed'" in opened.text and "name='rule.starting_coins' value='3'" in opened.text
    address = opened.headers["HX-Push-Url"]
    assert parse_qsl(address.removeprefix("/?")) == parse_qsl(query)  # the page's address holds the variant
    again = client.get(f"/scenario?{address.removeprefix('/?')}&games=300").content
    assert tomllib.loads(again.decode()) == tomllib.loads(written.decode())


def test_a_bundled_game_scenario_opens_with_its_policies_and_seed(client):
    opened = client.post("/open", content=(SCENARIOS / "tyranno_ex_fighting.toml").read_bytes())
    assert opened.status_code == 200
    asked = parse_qsl(opened.headers["HX-Push-Url"].removeprefix("/?"))
    assert [v for k, v in asked if k == "policy"] == ["greedy", "greedy", "aggressive", "builder"]
    assert ("game", "tyranno-ex") in asked and ("seed", "12") in asked


@pytest.mark.parametrize(("text", "words"), [
    ((SCENARIOS / "tyranno_ex_combat_odds.toml").read_text(), "holds the 'combat' analysis; the studio opens"),
    ((SCENARIOS / "tyranno_ex_designer.toml").read_text(), "holds 4 variants (its [sweep])"),
    ("game = [", "not valid TOML"),
    (f'game = "{GAME}"\nanalysis = "game"\nseed = -1\n', "seed: -1 is out of range"),
    (f'game = "{GAME}"\nanalysis = "game"\nseed = 1\n[rules]\nsymbols_file = "/etc/passwd"\n',
     "reads no path it is sent"),
    (f'game = "{GAME}"\nanalysis = "game"\nseed = 1\n[rules]\nsymbols_file = "symbols.toml"\n',
     "reads no path it is sent"),
    (f'game = "{GAME}"\nanalysis = "game"\nseed = 1\n[args]\npolicies = ["heuristic:weights=/etc/passwd", '
     '"greedy"]\n', "reads no path it is sent"),
    (f'game = "{GAME}"\nanalysis = "game"\nseed = 1\n[sweep.args]\npolicies = [["heuristic:weights=../w.toml", '
     '"greedy"]]\n', "reads no path it is sent"),
], ids=["combat", "sweep", "toml", "seed", "path", "relative", "weights", "swept-weights"])
def test_a_scenario_the_studio_cannot_open_is_refused_with_what_it_opens(client, text, words):
    answer = client.post("/open", content=text.encode())
    assert answer.status_code == 400 and words in answer.text and answer.text.startswith("the opened file")
    assert "\n" not in answer.text.strip()


def test_an_opened_scenario_is_checked_as_tyrsim_run_checks_it(client, tmp_path):
    from click.testing import CliRunner

    from tyrsim.cli import main

    text = f'game = "{GAME}"\nanalysis = "game"\nseed = 1\n[args]\npolicies = ["greedy"]\ngames = 0\n'
    (tmp_path / "the opened file").write_text(text)
    run = CliRunner().invoke(main, ["run", str(tmp_path / "the opened file"), "--out", str(tmp_path / "out")])
    said = client.post("/open", content=text.encode()).text
    assert run.exit_code == 2 and said in run.output.replace(str(tmp_path) + "/", "").replace("\n", " ")


def test_an_opened_file_that_is_no_scenario_file_is_refused(client):
    assert client.post("/open", content=b"\xff\xfe").text.startswith("the opened file: not UTF-8 text")
    big = client.post("/open", content=b"#" * (MAX_BYTES + 1))
    assert big.status_code == 413 and "larger than 1,000,000 bytes" in big.text


def test_a_sample_game_that_runs_past_its_time_is_stopped_with_a_message():
    # a search policy's sample game can take minutes on the object engine, holding a server thread that long: the
    # game stops at the first move past its time (here none is allowed, so at the first)
    app = make_app(get_game, game_names(), Jobs(most=1, most_games=1), log_seconds=0)
    with TestClient(app) as slow:
        answer = slow.get(f"/log?game={GAME}&policy=greedy&policy=greedy")
    assert answer.status_code == 422 and "stopped after 0 s, at move 0" in answer.text
    assert "choose faster policies" in answer.text


def test_a_sample_game_and_the_score_figure(client):
    log = client.get(f"/log?game={GAME}&rule.starting_coins=3")
    assert log.status_code == 200 and log.text.startswith("P0: ") and "winner" in log.text
    assert client.get(f"/log?game={GAME}&rule.starting_coins=30").status_code == 400
    page = client.get(f"/view?game={GAME}&rule.starting_coins=2")
    job = page.text.split("sse-connect='/events/")[1].split("'")[0]
    with client.stream("GET", f"/events/{job}") as stream:
        last = "".join(stream.iter_text()).split("event: answer")[-1]
    assert "<svg id=&#39;scores&#39;" in last or "<svg id='scores'" in last
    assert "class='variant'" in last and "class='rulebook'" in last


def test_the_games_own_counters_are_paired_rows_and_only_a_clear_difference_is_stated():
    from tyrsim.core.studies.balance import counters
    from tyrsim.core.studio.measures import COUNTER
    from tyrsim.core.studio.page import findings

    v = variant(("rule.starting_coins", "4"), ("policy", "greedy"), ("policy", "greedy"))
    job = Job(v, most_games=600).start()
    assert job.wait(600) and job.error is None
    _, rows, games = job.snapshot()
    shown = {row.measure: row for row in rows if row.kind == COUNTER}
    # every counter the engine reports, but the two the table shows under their own names
    assert set(shown) == set(counters(get_game(GAME), 2)) - {"rounds", "margin"}
    for row in shown.values():
        assert row.difference[0] == pytest.approx(row.variant[0] - row.rulebook[0], abs=1e-12)
        assert row.difference[1] <= row.difference[0] <= row.difference[2]
    said = findings(v, rows, games)[-1]
    assert said.startswith("Of the game's ")
    moved = [name for name, row in shown.items() if row.differs]
    assert moved, "a change of the starting coins moves how often a player steals"
    named = [name for name in shown if f" {name} from " in said]
    assert set(named) <= set(moved) and len(named) == min(3, len(moved))  # a counter named is one that differs


def test_a_game_s_engine_compiles_in_a_fresh_process_and_is_ready_once_it_has_ended():
    import dataclasses
    import time

    spec = get_game(GAME)
    engines = Engines()
    assert not engines.ready(spec)  # its compile (or the cache's load) started in a fresh process
    deadline = time.monotonic() + 600
    while not engines.ready(spec):
        assert time.monotonic() < deadline and not engines.failed
        time.sleep(0.1)  # polling the process, not ordering anything
    assert engines.ready(spec)
    broken = dataclasses.replace(spec, name="no-such-game", package="tyrsim.games.no_such_game")
    assert not engines.ready(broken)
    while "no-such-game" not in engines.failed:
        assert time.monotonic() < deadline
        engines.ready(broken)
        time.sleep(0.1)
    assert not engines.ready(broken) and "No module named" in engines.failed["no-such-game"]


class NeverCompiles(Engines):
    """A game whose compiled engine failed to compile: the object engine plays on."""

    def ready(self, spec) -> bool:
        self.failed[spec.name] = "Traceback (most recent call last):\nImportError: no compiler here"
        return False


def test_a_compile_that_failed_is_said_and_the_object_engine_plays_on():
    import time

    from tyrsim.core.studio.page import live_context

    v = variant(("rule.starting_coins", "4"))
    job = Job(v, engines=NeverCompiles()).start()
    deadline = time.monotonic() + 600
    while job.snapshot()[2] == 0:  # polling until its first chunk is tallied, not ordering anything
        assert time.monotonic() < deadline and job.error is None
        time.sleep(0.05)
    status = live_context(v, job)["status"]
    job.cancel()
    assert job.wait(600) and job.waiting and job.error is None
    assert "did not compile (ImportError: no compiler here)" in status and "compiles (" not in status
