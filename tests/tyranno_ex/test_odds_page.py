"""The combat odds calculator page: self-contained and small, and in a real browser its figures equal `combat.odds`
for every matchup and tie rule; the address keeps the selection."""

import html
import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.combat_words import dice_words, rounds_words
from tyrsim.games.tyranno_ex.odds_page import hit_distributions, odds_page, page_files
from tyrsim.games.tyranno_ex.rules import TIE_RULES, Rules

IDS = ["p-attacker-wins", "p-attacker-2-0", "p-attacker-2-1", "p-defender-2-1", "p-defender-2-0", "p-round-tie",
       "expected-rolls"]
COLUMNS = ["p_attacker_wins", "p_attacker_2_0", "p_attacker_2_1", "p_defender_2_1", "p_defender_2_0", "p_round_tie",
           "expected_rolls"]
LIMIT = 2_000_000  # bytes


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("odds") / "odds.html"
    path.write_bytes(page_files(Rules())["odds.html"])
    return path


@pytest.mark.parametrize("rules", [Rules(), Rules(max_strength=20, die_faces=20, max_dice=200)])
def test_the_page_is_small_and_needs_nothing_from_outside(rules):
    text = odds_page(rules)
    assert len(text.encode("utf-8")) < LIMIT
    assert not re.search(r"https?:|ftp:|file:", text, re.IGNORECASE)  # no address of another place
    assert not re.search(r"\b(src|href|action)=|<link\b|@import|url\(|fetch\(|XMLHttpRequest", text)  # no outside file
    for name in ("p-attacker-wins", "p-round-tie", "expected-rolls"):
        assert f'id="{name}"' in text  # the outcome ids are made by the script (see the browser tests)


def test_the_default_page_is_compact():
    assert len(page_files(Rules())["odds.html"]) < 100_000  # hit distributions, not 100,000 finished odds



def test_the_page_is_its_template_filled_escaped_on_the_report_pages_base():
    """The page is templates/odds.html on the report's base.html: its words are escaped, its data cannot close the
    script, and a name the template needs but is not given is an error, not an empty text."""
    from jinja2 import UndefinedError

    from tyrsim.core.report.render import render

    page = render("odds.html", templates_of="tyrsim.games.tyranno_ex", title="A <b> & C", about="x < y",
                  version="1", config={"text": "</script><script>"})
    assert "<title>A &lt;b&gt; &amp; C</title>" in page and "<h1>A &lt;b&gt; &amp; C</h1>" in page
    assert "x &lt; y Pick both sides" in page
    assert '"text":"\\u003c/script\\u003e\\u003cscript\\u003e"' in page and page.count("</script>") == 1
    assert page.startswith("<!doctype html>") and "<meta charset='utf-8'>" in page  # base.html's head
    with pytest.raises(UndefinedError):
        render("odds.html", templates_of="tyrsim.games.tyranno_ex", title="t", version="1", config={})
    rules = Rules()
    about = f"<p class=\"about\">{rounds_words(rules)}. {dice_words(rules)}. Pick both sides"
    assert about in html.unescape(odds_page(rules))

def test_embedded_hit_distributions_are_the_binomials_in_order():
    """The page finds strength s with n dice at (s - 1) * (D + 1)(D + 2) / 2 + n(n + 1) / 2: the layout holds."""
    rules = Rules()
    values = hit_distributions(rules)
    most = rules.max_dice
    per_strength = (most + 1) * (most + 2) // 2
    assert len(values) == rules.max_strength * per_strength
    for strength, dice in [(1, 0), (1, 7), (3, 2), (6, 30), (4, 30)]:
        start = (strength - 1) * per_strength + dice * (dice + 1) // 2
        expected = stats.binom.pmf(np.arange(dice + 1), dice, strength / rules.die_faces)
        assert np.array_equal(values[start:start + dice + 1], expected)


# --- in a real browser ------------------------------------------------------------------

READ = """
const done = arguments[arguments.length - 1], ids = arguments[0], wanted = arguments[1];
function read() {
  const out = {hash: location.hash};
  for (const id of ids) {
    const cell = document.getElementById(id);
    out[id] = [cell.textContent, cell.dataset.value];
  }
  done(out);
}
if (wanted === null || location.hash === wanted) read();
else { window.addEventListener("hashchange", function () { setTimeout(read, 0); }, {once: true});
       location.hash = wanted; }
"""


def _shown(browser, fragment=None):
    """{id: (text, value)} and the address's fragment, after moving to `fragment` (None: as it is)."""
    return browser.execute_async_script(READ, IDS, fragment)


def _check(shown, row):
    """The page's figures equal the table row: exact to the last bits, and the text their rounding."""
    for name, column in zip(IDS, COLUMNS, strict=True):
        text, value = shown[name]
        expected = row[column]
        if column == "expected_rolls":
            if math.isinf(expected):
                assert (text, value) == ("cannot end", "Infinity")
            else:
                assert float(value) == pytest.approx(expected, rel=1e-12)
                assert float(text) == pytest.approx(expected, abs=0.005 + 1e-9)
        elif math.isnan(expected):
            assert (text, value) == ("cannot end", "NaN")
        else:
            assert float(value) == pytest.approx(expected, abs=1e-12)
            if text in ("0%", "100%"):  # certain, up to the last bits of a double
                assert float(value) == pytest.approx(float(text[:-1]) / 100, abs=1e-12)
            elif text == "<0.1%":
                assert 0 < float(value) < 0.0005
            elif text == ">99.9%":
                assert 0.9995 <= float(value) < 1
            else:
                assert float(text.rstrip("%")) == pytest.approx(100 * expected, abs=0.05 + 1e-9)


def test_loaded_with_a_fragment_the_page_shows_that_matchup(browser, page):
    from browser import console_errors

    browser.get(page.as_uri() + "#as=3&ad=2&ds=1&dd=7&tie=reroll")
    assert console_errors(browser) == []
    shown = _shown(browser)
    assert shown["hash"] == "#as=3&ad=2&ds=1&dd=7&tie=reroll"
    assert shown["p-attacker-wins"][0] == "43.1%"  # the rulebook's example fight
    _check(shown, combat.odds(3, 2, 1, 7).iloc[0])
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0  # nothing fetched


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_sampled_matchups_equal_the_odds_table(browser, page, tie_rule):
    """60 matchups per tie rule, set through the address (as a shared link would), including fights that can
    never end and sides without dice."""
    from browser import console_errors

    browser.get(page.as_uri())
    rng = np.random.default_rng(17)
    samples = [(int(rng.integers(1, 7)), int(rng.integers(0, 31)), int(rng.integers(1, 7)), int(rng.integers(0, 31)))
               for _ in range(56)] + [(1, 0, 4, 0), (6, 5, 6, 5), (2, 0, 5, 3), (6, 30, 1, 30)]
    table = combat.odds_table(pd.DataFrame(samples, columns=combat.MATCHUP), Rules(tie_rule=tie_rule))
    for (sa, da, sd, dd), (_, row) in zip(samples, table.iterrows(), strict=True):
        fragment = f"#as={sa}&ad={da}&ds={sd}&dd={dd}&tie={tie_rule}"
        shown = _shown(browser, fragment)
        assert shown["hash"] == fragment
        _check(shown, row)
    assert console_errors(browser) == []
    assert "NaN" not in browser.find_element("tag name", "body").text


ALL = """
const out = [];
for (let as = 1; as <= 6; as++) for (let ad = 0; ad <= 30; ad++)
  for (let ds = 1; ds <= 6; ds++) for (let dd = 0; dd <= 30; dd++) {
    const o = combatOdds(as, ad, ds, dd, arguments[0]);
    out.push([o.pAttackerWins, ...o.attacker, ...o.defender.slice().reverse(), o.pRoundTie, o.expectedRolls]
      .map(function (x) { return Number.isFinite(x) ? x : String(x); }));
  }
return out;
"""


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_every_matchup_equals_the_odds_table(browser, page, tie_rule):
    """The page's own formulas over the whole table (strengths 1-6, dice 0-30: 34,596 matchups)."""
    browser.get(page.as_uri())
    computed = browser.execute_script(ALL, tie_rule)
    table = combat.odds(range(1, 7), range(31), range(1, 7), range(31), Rules(tie_rule=tie_rule))
    expected = table[COLUMNS].to_numpy(dtype=float)
    got = np.array([[float(x) if not isinstance(x, str) else float(x.replace("Infinity", "inf")) for x in row]
                    for row in computed])
    assert got.shape == expected.shape
    assert np.array_equal(np.isnan(got), np.isnan(expected)) and np.array_equal(np.isinf(got), np.isinf(expected))
    finite = np.isfinite(expected)
    assert np.max(np.abs(got[finite] - expected[finite]) / np.maximum(1, np.abs(expected[finite]))) < 1e-12


def test_changing_an_input_updates_the_address_and_the_figures(browser, page):
    from selenium.webdriver.support.ui import Select

    browser.get(page.as_uri() + "#as=3&ad=2&ds=1&dd=7&tie=reroll")
    Select(browser.find_element("id", "tie-rule")).select_by_value("defender")
    Select(browser.find_element("id", "attacker-strength")).select_by_value("5")
    dice = browser.find_element("id", "defender-dice")
    dice.clear()
    dice.send_keys("12")
    shown = _shown(browser)
    assert shown["hash"] == "#as=5&ad=2&ds=1&dd=12&tie=defender"
    _check(shown, combat.odds(5, 2, 1, 12, Rules(tie_rule="defender")).iloc[0])
    # a number the page cannot take is marked and leaves the address and the figures alone
    dice.send_keys("0")  # 120 dice
    assert _shown(browser) == shown
    assert "whole number from 0 to 30" in browser.find_element("id", "message").text


def test_an_address_the_page_cannot_take_shows_the_default_and_says_why(browser, page):
    browser.get(page.as_uri() + "#as=9&ad=x&ds=2&tie=coin")
    shown = _shown(browser)
    message = browser.find_element("id", "message").text
    assert "as=9 (allowed: 1 to 6)" in message and "ad=x" in message and "tie=coin" in message
    assert shown["hash"] == "#as=3&ad=2&ds=2&dd=7&tie=reroll"  # what it could take (ds=2) is kept
    _check(shown, combat.odds(3, 2, 2, 7).iloc[0])


def test_a_fight_that_can_never_end_says_so(browser, page):
    shown = _shown(browser, "#as=6&ad=4&ds=6&dd=4&tie=reroll")
    assert {shown[name][0] for name in IDS if name != "p-round-tie"} == {"cannot end"}
    assert shown["p-round-tie"][0] == "100%"
    assert "can never end" in browser.find_element("id", "per-roll").text
    shown = _shown(browser, "#as=6&ad=4&ds=6&dd=4&tie=attacker")  # a tied roll that counts ends it at once
    assert shown["p-attacker-2-0"][0] == "100%" and shown["expected-rolls"][0] == "2.00"


def test_combat_out_writes_the_sheet_and_the_calculator_under_its_rules(tmp_path):
    from click.testing import CliRunner

    from tyrsim.cli import main

    out = tmp_path / "combat"
    result = CliRunner().invoke(main, ["combat", "--attacker-strength", "2", "--attacker-dice", "1",
                                       "--defender-strength", "1", "--defender-dice", "1", "--rule", "max_strength=3",
                                       "--rule", "tie_rule=defender", "--out", str(out), "--format", "csv"])
    assert result.exit_code == 0, result.output
    page = (out / "odds.html").read_text()
    assert '"tieDefault":"defender"' in page and '"strengths":3' in page  # the whole table, not the one matchup
    assert (out / "cheat_sheet.pdf").read_bytes().startswith(b"%PDF")
    assert (out / "cheat_sheet.png").read_bytes().startswith(b"\x89PNG")
