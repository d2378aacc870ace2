"""`tyrsim studio` as a person uses it: the command starts the server and prints its address; in a real headless
chromium the page answers an edit with the paired sentence, its interval narrows, a second edit replaces the
first one's games, the page's scenario file holds the variant shown, and a rule marked "vary in the search" is
searched ("Find a balanced variant"), its progress and then its answer shown."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx
import pytest
from browser import console_errors

# a long check (the studio in a real headless browser): the default run and CI run it, `pytest -m "not slow"` does not
pytestmark = pytest.mark.slow

GAME = "zooloretto-duell"
WAIT = 180  # seconds at most for the page to show what a test waits for (the first games may load numba's cache)
NUMBER = r"-?[\d,]+(?:\.\d+)?"


@pytest.fixture(scope="module")
def studio():
    """The studio's address, served by `tyrsim studio --no-browser` on a free port of this machine."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen([sys.executable, "-m", "tyrsim.cli", "studio", "--no-browser", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = server.stdout.readline()  # printed once the app is made, before the server listens
        address = re.search(r"http://\S+/", line)
        assert address, f"no address in {line!r}: {server.stderr.read() if server.poll() is not None else ''}"
        for _ in range(200):  # until it listens: each try waits up to its own timeout, no sleep
            try:
                httpx.get(address[0] + "favicon.ico", timeout=0.5)
                break
            except httpx.TransportError:
                if server.poll() is not None:
                    raise AssertionError(server.stderr.read()) from None
        yield address[0]
    finally:
        server.terminate()
        server.wait(30)


def test_the_command_serves_the_page_on_this_machine_only(studio):
    assert studio.startswith("http://127.0.0.1:")
    page = httpx.get(studio + f"?game={GAME}", timeout=60)
    assert page.status_code == 200 and "tyrsim studio" in page.text and "name='rule.starting_coins'" in page.text
    assert httpx.get(studio + "static/htmx.min.js", timeout=10).text.startswith("var htmx=")


def _first_seat(driver) -> tuple[int, tuple[float, float]]:
    """(games played, the first seat's difference interval in points) as the page shows them."""
    # read in one script: the live part is swapped whole as the games come in
    status, cells = driver.execute_script(
        "return [document.querySelector('#live .status').textContent,"
        " [...document.querySelector('#paired tbody tr').cells].map(c => c.textContent)]")
    assert cells[0] == "seat 1 win rate"
    low, high = re.search(rf"\[({NUMBER}), ({NUMBER})\] points", cells[3]).groups()
    return int(re.search(r"[\d,]+", status)[0].replace(",", "")), (float(low), float(high))


def test_an_edit_shows_the_paired_answer_narrowing_and_the_next_edit_replaces_it(studio, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(studio + f"?game={GAME}&rule.starting_coins=3")
    wait = WebDriverWait(browser, WAIT)
    wait.until(lambda d: d.execute_script("return document.querySelector('#paired tbody tr') !== null"))
    early_games, (low, high) = _first_seat(browser)
    wait.until(lambda d: _first_seat(d)[0] >= max(4 * early_games, 400))
    later_games, (later_low, later_high) = _first_seat(browser)
    assert later_high - later_low < high - low  # the interval narrows as games come in
    assert low <= later_low and later_high <= high  # and never widens: a confidence sequence only narrows
    browser.save_screenshot(str(tmp_path / "first_edit.png"))

    old_job = browser.find_element(By.CSS_SELECTOR, "[sse-connect]").get_attribute("sse-connect")
    coins = browser.find_element(By.NAME, "rule.starting_coins")
    coins.send_keys(Keys.CONTROL, "a")
    coins.send_keys("4", Keys.TAB)  # a change event, as a person's edit makes
    wait.until(lambda d: "starts with set to 4" in d.execute_script("return document.body.textContent"))
    assert browser.find_element(By.CSS_SELECTOR, "[sse-connect]").get_attribute("sse-connect") != old_job
    assert httpx.get(studio + old_job.lstrip("/"), timeout=10).status_code == 404  # the stale job is gone
    assert "rule.starting_coins=4" in browser.current_url  # the address holds the variant

    link = browser.execute_script("return document.getElementById('scenario').href")  # swapped as games come
    scenario = tomllib.loads(httpx.get(link, timeout=10).text)
    assert scenario["game"] == GAME and scenario["rules"] == {"starting_coins": 4} and scenario["args"]["games"] > 0

    coins = browser.find_element(By.NAME, "rule.starting_coins")
    coins.send_keys(Keys.CONTROL, "a")
    coins.send_keys("40", Keys.TAB)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".problem[role=alert]"))
    assert "out of range" in browser.find_element(By.CSS_SELECTOR, ".problem[role=alert]").text
    browser.save_screenshot(str(tmp_path / "bad_value.png"))
    assert console_errors(browser) == [] or all("400" in e for e in console_errors(browser))


def test_an_opened_scenario_file_sets_the_page_and_downloads_back(studio, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(studio + f"?game={GAME}")
    wait = WebDriverWait(browser, WAIT)
    wait.until(lambda d: d.execute_script("return document.querySelector('#paired tbody tr') !== null"))
    written = httpx.get(studio + f"scenario?game={GAME}&policy=greedy&seed=7&rule.starting_coins=2&games=50",
                        timeout=10).text
    path = tmp_path / "designer.toml"
    path.write_text(written)
    browser.find_element(By.ID, "open-scenario").send_keys(str(path))  # the browser reads it, the server gets bytes
    wait.until(lambda d: "rule.starting_coins=2" in d.current_url)
    assert "policy=greedy" in browser.current_url and "seed=7" in browser.current_url
    coins = browser.find_element(By.NAME, "rule.starting_coins")
    assert coins.get_attribute("value") == "2" and browser.find_element(By.NAME, "seed").get_attribute("value") == "7"
    wait.until(lambda d: d.execute_script("return document.getElementById('scenario') !== null"))
    link = browser.execute_script("return document.getElementById('scenario').href")
    again = tomllib.loads(httpx.get(link, timeout=10).text)
    expected = tomllib.loads(written)
    assert {k: again[k] for k in ("game", "seed", "rules")} == {k: expected[k] for k in ("game", "seed", "rules")}
    assert again["args"]["policies"] == expected["args"]["policies"]

    path.write_text(written.replace('analysis = "game"', 'analysis = "zoo-ev"'))
    browser.find_element(By.ID, "open-scenario").send_keys(str(path))
    wait.until(lambda d: d.find_element(By.ID, "open-problem").is_displayed())
    assert "the studio opens a scenario of the 'game' analysis" in browser.find_element(By.ID, "open-problem").text
    assert "rule.starting_coins=2" in browser.current_url  # the page stays as it was


def test_a_marked_rule_is_searched_with_progress_then_the_balance_answer(studio, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # a tiny search: greedy players, blocks of 10 games doubling once, 4 candidates a batch, 50 fresh games each
    browser.get(studio + f"?game={GAME}&policy=greedy&policy=greedy&seed=2&budget=200&block=10&rungs=2&batch=4"
                         "&fresh=50")
    wait = WebDriverWait(browser, WAIT)
    wait.until(lambda d: d.execute_script("return document.querySelector('#paired tbody tr') !== null"))
    browser.find_element(By.CSS_SELECTOR, "input[name=vary][value=starting_coins]").click()  # a change event
    wait.until(lambda d: "vary=starting_coins" in d.current_url)
    assert "starting_coins (0 to 3)" in browser.find_element(By.CSS_SELECTOR, ".marked").text
    browser.find_element(By.ID, "find").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search progress, #balance-answer"))
    status = browser.find_element(By.CSS_SELECTOR, "#search .status").text
    assert status.startswith(("Searching:", "The search is done", "Done:")), status
    wait.until(lambda d: d.find_elements(By.ID, "balance-answer"))
    answer = browser.find_element(By.ID, "balance-answer").text
    assert "The best variant the search found" in answer and "Around the best, starting_coins" in answer
    browser.save_screenshot(str(tmp_path / "balance_answer.png"))
    browser.execute_script("document.getElementById('controls').dataset.before = 'the link'")
    browser.find_element(By.ID, "best-variant").click()  # the best variant opens in the page, its marks kept
    wait.until(lambda d: d.execute_script("return !document.getElementById('controls').dataset.before"))
    assert "vary=starting_coins" in browser.current_url and "budget=200" in browser.current_url
    assert browser.find_elements(By.ID, "balance-answer")  # the answer stays beside the best variant's games
    errors = console_errors(browser)
    assert errors == [] or all("400" in e for e in errors)
