"""The live combat odds calculator: one self-contained HTML page (no server, no network, no outside file).

A player picks both sides' strengths and dice and the tie rule, and reads P(attacker wins),
the R:k split both ways, the chance of a tied roll and the expected number of rolls. The
selection lives in the address fragment (`odds.html#as=3&ad=2&ds=1&dd=7&tie=reroll`), read on
load and rewritten on every change, so a link shares a matchup.

What is embedded. Every number on the page follows from each side's hit distribution in one
roll, Binomial(dice, strength / faces), by the formulas of `combat.py`: one roll's chances
(attacker ahead, defender ahead, tie) are sums over the two distributions, the tie rule turns
them into the chance to win a counting round, and the fight is a race to `rounds_to_win`. So
the page embeds the hit distributions — for every strength and 0 to the rules' most dice,
computed by scipy as `combat` does, as little-endian float64 in base64 (about 32 kB for the
rulebook's 6 strengths and 30 dice) — and its script repeats those few formulas, rather than
embedding 34,596 matchups x 3 tie rules of finished odds (megabytes). The figures equal
`combat.odds` to rounding in the last bits of a double (the browser tests compare every
matchup); the page shows them rounded to 0.1%.
"""

from __future__ import annotations

import base64
import html
import json

import numpy as np

import tyrsim
from tyrsim.games.tyranno_ex.combat import FightRules
from tyrsim.games.tyranno_ex.combat_words import TIE_WORDS, dice_words, rounds_words
from tyrsim.games.tyranno_ex.rules import TIE_RULES, Rules

PAGE_FILE = "odds.html"
MOST_DICE = 60  # dice a side may roll on the page: twice the box's 30, so the page stays small under any rules
DEFAULT_SELECTION = {"as": 3, "ad": 2, "ds": 1, "dd": 7}  # the rulebook's example fight


def page_dice(rules: Rules | FightRules) -> int:
    """The most dice a side may roll on the page: the rules' most dice, up to MOST_DICE."""
    return min(rules.max_dice, MOST_DICE)


def hit_distributions(rules: Rules | FightRules) -> np.ndarray:
    """P(h hits) for every strength 1..max_strength and dice 0..page_dice, in that nested order, h = 0..dice.

    The same scipy binomial, at the same chance min(strength, faces) / faces, as `combat`'s table.
    """
    from scipy import stats  # here, not at the top: see tyrsim.core.stats.intervals

    most = page_dice(rules)
    parts = []
    for strength in range(1, rules.max_strength + 1):
        chance = min(strength, rules.die_faces) / rules.die_faces
        for dice in range(most + 1):
            parts.append(stats.binom.pmf(np.arange(dice + 1), dice, chance))
    return np.concatenate(parts).astype("<f8")


def config(rules: Rules | FightRules) -> dict:
    """Everything the page's script reads: the rules, the words for them, and the hit distributions."""
    rules = FightRules.of(rules)
    return {
        "faces": rules.die_faces,
        "rounds": rules.rounds_to_win,
        "strengths": rules.max_strength,
        "maxDice": page_dice(rules),
        "tieRules": list(TIE_RULES),
        "tieDefault": rules.tie_rule,
        "rulebookTie": Rules().tie_rule,
        "tieWords": TIE_WORDS,
        "default": {**{k: min(v, rules.max_strength if k[1] == "s" else page_dice(rules))
                       for k, v in DEFAULT_SELECTION.items()}, "tie": rules.tie_rule},
        "pmf": base64.b64encode(hit_distributions(rules).tobytes()).decode("ascii"),
    }


def odds_page(rules: Rules | FightRules) -> str:
    """The calculator page for `rules` (its tie rule is the page's default; the other two are a click away)."""
    rules = FightRules.of(rules)
    data = json.dumps(config(rules), separators=(",", ":")).replace("<", "\\u003c")  # nothing closes the script
    about = f"{rounds_words(rules)}. {dice_words(rules)}."
    if rules.max_dice > MOST_DICE:
        about += f" This page covers up to {MOST_DICE} dice per side."
    about = html.escape(about)
    return (PAGE.replace("__ABOUT__", about)
            .replace("__VERSION__", html.escape(tyrsim.__version__))
            .replace("__CONFIG__", data))


def page_files(rules: Rules | FightRules) -> dict[str, bytes]:
    """{"odds.html": the page} for `rules`."""
    return {PAGE_FILE: odds_page(rules).encode("utf-8")}


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tyranno Ex combat odds</title>
<style>
  :root { --ink: #1d1d1f; --soft: #5f6368; --line: #d0d4da; --attacker: #1f5fa8; --defender: #b4501d; }
  body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
         margin: 0 auto; padding: 1.2rem; max-width: 46rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .3rem; }
  p.about { color: var(--soft); margin: 0 0 1rem; font-size: .92rem; }
  form { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem 1.2rem; margin-bottom: 1rem; }
  fieldset { border: 1px solid var(--line); border-radius: .5rem; padding: .6rem .9rem .8rem; margin: 0; }
  fieldset.tie { grid-column: 1 / -1; }
  legend { font-weight: 600; padding: 0 .3rem; }
  legend.attacker { color: var(--attacker); } legend.defender { color: var(--defender); }
  label { display: flex; justify-content: space-between; align-items: center; gap: .6rem; margin: .35rem 0; }
  select, input { font: inherit; padding: .2rem .4rem; min-width: 7.5rem; }
  input:invalid, input.bad { outline: 2px solid #c5221f; }
  .answer { font-size: 1.25rem; margin: .4rem 0 .8rem; }
  .answer strong { font-size: 2rem; color: var(--attacker); }
  .bar { display: flex; height: 1.1rem; border-radius: .3rem; overflow: hidden; margin: .3rem 0 1rem;
         border: 1px solid var(--line); }
  .bar span { display: block; height: 100%; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .4rem; border-bottom: 1px solid var(--line); font-weight: normal; }
  td.value { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; white-space: nowrap; }
  .note { color: var(--soft); font-size: .9rem; }
  .warning { color: #a50e0e; font-weight: 600; }
  footer { margin-top: 1.2rem; color: var(--soft); font-size: .82rem; }
  @media (max-width: 34rem) { form { grid-template-columns: 1fr; } }
</style>
</head>
<body>
<h1>Tyranno Ex combat odds</h1>
<p class="about">__ABOUT__ Pick both sides; the odds are exact, and the page's address keeps the choice,
so a link shares it.</p>
<noscript><p class="warning">This calculator needs JavaScript.</p></noscript>
<form id="matchup" autocomplete="off">
  <fieldset><legend class="attacker">Attacker</legend>
    <label>Strength <select id="attacker-strength"></select></label>
    <label>Dice <input id="attacker-dice" type="number" min="0" step="1" inputmode="numeric"></label>
  </fieldset>
  <fieldset><legend class="defender">Defender</legend>
    <label>Strength <select id="defender-strength"></select></label>
    <label>Dice <input id="defender-dice" type="number" min="0" step="1" inputmode="numeric"></label>
  </fieldset>
  <fieldset class="tie"><legend>Tie rule</legend>
    <label>A roll with equal hits <select id="tie-rule"></select></label>
  </fieldset>
</form>
<p id="message" class="note" role="status"></p>
<p class="answer">The attacker wins <strong id="p-attacker-wins" data-value="">–</strong></p>
<div class="bar" id="bar" aria-hidden="true"></div>
<table>
  <tbody id="outcomes"></tbody>
  <tbody>
    <tr><th scope="row">A roll is tied (equal hits)</th><td class="value" id="p-round-tie" data-value="">–</td></tr>
    <tr><th scope="row">Expected number of rolls</th><td class="value" id="expected-rolls" data-value="">–</td></tr>
  </tbody>
</table>
<p class="note" id="per-roll"></p>
<footer>Exact odds, not simulated: tyrsim __VERSION__. The same figures as <code>tyrsim combat</code>.</footer>
<script>
"use strict";
const CONFIG = __CONFIG__;
const KEYS = ["as", "ad", "ds", "dd"];
const CERTAIN = 1e-12;  // a chance this close to 0 or 1 reads as certain (the cheat sheet's rule)
const INPUTS = {as: "attacker-strength", ad: "attacker-dice", ds: "defender-strength", dd: "defender-dice"};
const COLOURS = ["#1f5fa8", "#7fa7d6", "#e6a57e", "#b4501d"];

const HIT_PMF = (function () {  // every strength and dice count's hit distribution, end to end
  const bytes = atob(CONFIG.pmf);
  const view = new DataView(new ArrayBuffer(bytes.length));
  for (let i = 0; i < bytes.length; i++) view.setUint8(i, bytes.charCodeAt(i));
  const out = new Float64Array(bytes.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(8 * i, true);
  return out;
})();
const PER_STRENGTH = (CONFIG.maxDice + 1) * (CONFIG.maxDice + 2) / 2;

function hitPmf(strength, dice) {
  const start = (strength - 1) * PER_STRENGTH + dice * (dice + 1) / 2;
  return HIT_PMF.subarray(start, start + dice + 1);
}

function binomial(n, k) {
  let out = 1;
  for (let i = 1; i <= k; i++) out = out * (n - k + i) / i;
  return out;
}

// The odds of one matchup, by the formulas of tyrsim's combat.py (odds_table).
function combatOdds(as, ad, ds, dd, tie) {
  const R = CONFIG.rounds, faces = CONFIG.faces;
  const pmfA = hitPmf(as, ad), pmfD = hitPmf(ds, dd);
  // one roll: the attacker has more hits, the defender has, or equal hits
  let pA = 0, pD = 0, cdfA = 0, cdfD = 0;
  const most = Math.max(ad, dd);
  for (let i = 1; i <= most; i++) {
    cdfD += i - 1 <= dd ? pmfD[i - 1] : 0;
    cdfA += i - 1 <= ad ? pmfA[i - 1] : 0;
    if (i <= ad) pA += pmfA[i] * cdfD;
    if (i <= dd) pD += pmfD[i] * cdfA;
  }
  const pT = Math.min(Math.max(1 - pA - pD, 0), 1);
  // ties rerolled: a fight can never end when both sides' hits are certain and equal
  const sureA = as >= faces || ad === 0, sureD = ds >= faces || dd === 0;
  const hitsA = as >= faces ? ad : 0, hitsD = ds >= faces ? dd : 0;
  const decisive = tie !== "reroll" || !(sureA && sureD && hitsA === hitsD);
  let a, d, rollsPerRound;
  if (tie === "reroll") { a = pA / (pA + pD); d = pD / (pA + pD); rollsPerRound = 1 / (1 - pT); }
  else if (tie === "attacker") { a = pA + pT; d = pD; rollsPerRound = 1; }
  else { a = pA; d = pD + pT; rollsPerRound = 1; }
  const attacker = [], defender = [];
  let wins = 0, rounds = 0;
  for (let k = 0; k < R; k++) {  // the winner reaches R rounds with the loser on k
    const ways = binomial(R - 1 + k, k);
    const win = ways * Math.pow(a, R) * Math.pow(d, k), loss = ways * Math.pow(d, R) * Math.pow(a, k);
    attacker.push(decisive ? win : NaN);
    defender.push(decisive ? loss : NaN);
    wins += win;
    rounds += (R + k) * (win + loss);
  }
  return {decisive: decisive, attacker: attacker, defender: defender, pAttackerWins: decisive ? wins : NaN,
          pRoundTie: pT, expectedRolls: decisive ? rounds * rollsPerRound : Infinity,
          pAttackerAhead: pA, pDefenderAhead: pD};
}
window.combatOdds = combatOdds;

function percent(p) {  // 0% and 100% only when certain, or less than one in a trillion away
  if (!Number.isFinite(p)) return "cannot end";
  if (p <= CERTAIN) return "0%";
  if (p >= 1 - CERTAIN) return "100%";
  if (p < 0.0005) return "<0.1%";
  if (p >= 0.9995) return ">99.9%";
  return (100 * p).toFixed(1) + "%";
}

function show(id, value, text) {
  const cell = document.getElementById(id);
  cell.textContent = text;
  cell.dataset.value = String(value);
}

function outcomeRows() {
  const R = CONFIG.rounds, rows = [];
  for (let k = 0; k < R; k++) rows.push(["attacker", k]);
  for (let k = R - 1; k >= 0; k--) rows.push(["defender", k]);
  const body = document.getElementById("outcomes");
  rows.forEach(function (row, i) {
    const side = row[0], k = row[1], loser = side === "attacker" ? "defender" : "attacker";
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    const swatch = document.createElement("span");
    swatch.style.cssText = "display:inline-block;width:.8em;height:.8em;margin-right:.4em;background:" +
      COLOURS[Math.min(i, COLOURS.length - 1)];
    th.append(swatch, side.charAt(0).toUpperCase() + side.slice(1) + " wins " + R + ":" + k + " (the " + loser +
      (k === 0 ? " is eliminated)" : " is turned face down)"));
    const td = document.createElement("td");
    td.className = "value";
    td.id = "p-" + side + "-" + R + "-" + k;
    td.textContent = "–";
    tr.append(th, td);
    body.append(tr);
  });
  return rows;
}

function fillChoices() {
  for (const id of ["attacker-strength", "defender-strength"]) {
    const select = document.getElementById(id);
    for (let s = 1; s <= CONFIG.strengths; s++) select.add(new Option(s === 1 ? "1 (no die)" : String(s), String(s)));
  }
  for (const id of ["attacker-dice", "defender-dice"]) document.getElementById(id).max = String(CONFIG.maxDice);
  const tie = document.getElementById("tie-rule");
  for (const rule of CONFIG.tieRules) {
    tie.add(new Option(CONFIG.tieWords[rule] + (rule === CONFIG.rulebookTie ? " (rulebook)" : ""), rule));
  }
}

function whole(text, low, high) {  // a whole number from low to high, or null
  if (!/^\\s*\\d+\\s*$/.test(text)) return null;
  const value = Number(text);
  return value >= low && value <= high ? value : null;
}

function limits(key) {
  return key.charAt(1) === "s" ? [1, CONFIG.strengths] : [0, CONFIG.maxDice];
}

function readFragment() {  // the selection in the address; what is missing or not allowed keeps its default
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const choice = Object.assign({}, CONFIG.default), refused = [];
  for (const key of KEYS) {
    if (!params.has(key)) continue;
    const [low, high] = limits(key), value = whole(params.get(key), low, high);
    if (value === null) refused.push(key + "=" + params.get(key) + " (allowed: " + low + " to " + high + ")");
    else choice[key] = value;
  }
  if (params.has("tie")) {
    if (CONFIG.tieRules.includes(params.get("tie"))) choice.tie = params.get("tie");
    else refused.push("tie=" + params.get("tie") + " (allowed: " + CONFIG.tieRules.join(", ") + ")");
  }
  return {choice: choice, refused: refused};
}

function fragment(choice) {
  return "#" + KEYS.map(function (key) { return key + "=" + choice[key]; }).join("&") + "&tie=" + choice.tie;
}

function writeFragment(choice) {
  const wanted = fragment(choice);
  if (location.hash === wanted) return;
  try { history.replaceState(null, "", wanted); } catch (error) { location.replace(wanted); }
}

function setInputs(choice) {
  for (const key of KEYS) document.getElementById(INPUTS[key]).value = String(choice[key]);
  document.getElementById("tie-rule").value = choice.tie;
}

function readInputs() {  // the form's selection, or null (with the inputs marked) when a number is not allowed
  const choice = {tie: document.getElementById("tie-rule").value};
  let ok = true;
  for (const key of KEYS) {
    const input = document.getElementById(INPUTS[key]), [low, high] = limits(key);
    const value = whole(input.value, low, high);
    input.classList.toggle("bad", value === null);
    if (value === null) ok = false;
    else choice[key] = value;
  }
  return ok ? choice : null;
}

function render(choice, rows) {
  const odds = combatOdds(choice.as, choice.ad, choice.ds, choice.dd, choice.tie);
  show("p-attacker-wins", odds.pAttackerWins, percent(odds.pAttackerWins));
  const bar = document.getElementById("bar");
  bar.replaceChildren();
  rows.forEach(function (row, i) {
    const p = (row[0] === "attacker" ? odds.attacker : odds.defender)[row[1]];
    show("p-" + row[0] + "-" + CONFIG.rounds + "-" + row[1], p, percent(p));
    if (Number.isFinite(p) && p > 0) {
      const piece = document.createElement("span");
      piece.style.width = (100 * p) + "%";
      piece.style.background = COLOURS[Math.min(i, COLOURS.length - 1)];
      bar.append(piece);
    }
  });
  show("p-round-tie", odds.pRoundTie, percent(odds.pRoundTie));
  show("expected-rolls", odds.expectedRolls,
       Number.isFinite(odds.expectedRolls) ? odds.expectedRolls.toFixed(2) : "cannot end");
  document.getElementById("per-roll").textContent = odds.decisive
    ? "One roll: the attacker has more hits " + percent(odds.pAttackerAhead) + ", the defender " +
      percent(odds.pDefenderAhead) + ", equal hits " + percent(odds.pRoundTie) + "."
    : "This fight can never end: both sides always score the same hits (no dice, or every die a hit with as " +
      "many dice), and tied rolls are rolled again.";
}

function setMessage(text) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.className = text ? "warning" : "note";
}

function start() {
  fillChoices();
  const rows = outcomeRows();
  function fromAddress() {
    const read = readFragment();
    setInputs(read.choice);
    render(read.choice, rows);
    writeFragment(read.choice);
    setMessage(read.refused.length ? "The address asked for " + read.refused.join(", ") +
      "; the default is shown instead." : "");
  }
  function fromForm() {
    const choice = readInputs();
    if (choice === null) {
      setMessage("Dice must be a whole number from 0 to " + CONFIG.maxDice + ".");
      return;
    }
    setMessage("");
    render(choice, rows);
    writeFragment(choice);
  }
  document.getElementById("matchup").addEventListener("input", fromForm);
  document.getElementById("matchup").addEventListener("change", fromForm);
  document.getElementById("matchup").addEventListener("submit", function (event) { event.preventDefault(); });
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
}
start();
</script>
</body>
</html>
"""
