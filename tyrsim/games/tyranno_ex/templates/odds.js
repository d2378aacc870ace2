{#- The odds calculator's script, included in odds.html after `CONFIG` (the rules, their words and the hit
    distributions); the numbers follow combat.py's formulas. -#}
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
  if (!/^\s*\d+\s*$/.test(text)) return null;
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
