// sudokit's page: a board to type into or paste into, drawn as SVG with its candidates, and
// the library's answers through the JSON API under /api. Plain script, no build step, nothing
// loaded from outside. Cells are numbered row * n + col from 0; values are 1..n and
// state.symbols[value - 1] writes them, as in the API.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

const state = {
  size: 9,
  box: [3, 3],
  symbols: "123456789",
  values: [], // every cell's value, 0 for empty
  kinds: [], // "" empty, "given", "entry" (the player's), "step" (a hint's or explanation's), "solver"
  removed: [], // candidate bits (1 << (v - 1)) taken out by steps or the player's pencil
  selected: 0,
  editing: true, // typing sets givens (a puzzle being entered) or entries (playing it)
  pencil: false,
  hint: null, // {step, level}: the next step, shown at level 1, 2 or 3
  explanation: null, // {steps, index, values, kinds, solved, rating}
  wrong: new Set(), // cells whose entry differs from the solution (after Check)
  info: null,
};
let houses = []; // every row, column and box as an array of cells
let peers = []; // for each cell, the cells that share a house with it

// The element with this id.
function $(id) {
  return document.getElementById(id);
}

// The bit of a value in a candidate mask.
function bit(value) {
  return 1 << (value - 1);
}

// A new board of n x n cells with h x w boxes, written in `symbols`, all empty.
function setShape(size, box, symbols) {
  state.size = size;
  state.box = box;
  state.symbols = symbols;
  const cells = size * size;
  state.values = new Array(cells).fill(0);
  state.kinds = new Array(cells).fill("");
  state.removed = new Array(cells).fill(0);
  state.selected = Math.min(state.selected, cells - 1);
  state.hint = null;
  state.explanation = null;
  state.wrong.clear();
  houses = [];
  const [h, w] = box;
  for (let r = 0; r < size; r++) houses.push([...Array(size).keys()].map((c) => r * size + c));
  for (let c = 0; c < size; c++) houses.push([...Array(size).keys()].map((r) => r * size + c));
  for (let b = 0; b < size; b++) {
    const top = Math.floor(b / (size / w)) * h;
    const left = (b % (size / w)) * w;
    const cellsOf = [];
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) cellsOf.push((top + r) * size + left + c);
    houses.push(cellsOf);
  }
  peers = [...Array(cells)].map(() => new Set());
  for (const house of houses) for (const a of house) for (const b of house) if (a !== b) peers[a].add(b);
  const option = [...$("size").options].find((o) => Number(o.value) === size);
  if (option) $("size").value = String(size);
}

// The default alphabet of a size, as the library writes it (1-9, then letters).
function defaultSymbols(size) {
  return size <= 9 ? "123456789".slice(0, size) : "ABCDEFGHIJKLMNOPQRSTUVWXYZ".slice(0, size);
}

// The usual box of a size: the squarest, wider than tall (6 -> 2x3).
function defaultBox(size) {
  let h = Math.floor(Math.sqrt(size));
  while (size % h) h--;
  return [h, size / h];
}

// The candidates of an empty cell as a mask: what its peers leave, less what was removed.
function candidates(cell) {
  if (state.values[cell]) return 0;
  let mask = (1 << state.size) - 1;
  for (const peer of peers[cell]) if (state.values[peer]) mask &= ~bit(state.values[peer]);
  return mask & ~state.removed[cell];
}

// The values of a mask, in order.
function valuesOf(mask) {
  const out = [];
  for (let v = 1; v <= state.size; v++) if (mask & bit(v)) out.push(v);
  return out;
}

// The one-line form of the board (only the givens with `givensOnly`).
function line(givensOnly) {
  return state.values
    .map((v, cell) => (v && (!givensOnly || state.kinds[cell] === "given") ? state.symbols[v - 1] : "."))
    .join("");
}

// The request body naming the board (all its values, or only the givens).
function puzzleBody(givensOnly) {
  return { puzzle: line(givensOnly), shape: `${state.box[0]}x${state.box[1]}`, symbols: state.symbols };
}

// "r3c5" for a cell.
function cellName(cell) {
  return `r${Math.floor(cell / state.size) + 1}c${(cell % state.size) + 1}`;
}

// Cells whose value repeats in a house: the rule-breaking values, shown in place.
function conflicts() {
  const bad = new Set();
  for (const house of houses) {
    const seen = new Map();
    for (const cell of house) {
      const v = state.values[cell];
      if (!v) continue;
      if (seen.has(v)) {
        bad.add(cell);
        bad.add(seen.get(v));
      } else seen.set(v, cell);
    }
  }
  return bad;
}

// A line in the status area; `error` draws it as an error.
function say(text, error = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", error);
}

// POST a request to the API; the answer's JSON, or an Error carrying the API's message.
async function api(endpoint, body) {
  const response = await fetch(`/api/${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch (_) {
    answer = { error: `the server answered ${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const error = new Error(answer.error || `the server answered ${response.status}`);
    error.answer = answer;
    throw error;
  }
  return answer;
}

// Run an action of a button, one at a time, its failure said in the status line.
async function run(action) {
  if (document.body.dataset.busy === "1") return;
  document.body.dataset.busy = "1";
  try {
    await action();
  } catch (error) {
    say(error.message, true);
  } finally {
    document.body.dataset.busy = "0";
  }
}

// What a status other than "solved" means for the board asked about.
function unsolvedText(answer, what) {
  if (answer.status === "no solution") {
    const why = (answer.conflicts || []).map((c) => c.text).join("; ");
    return `${what} has no solution${why ? ": " + why : ""}.`;
  }
  if (answer.status === "several") return `${what} has several solutions; this needs exactly one.`;
  if (answer.status === "unknown") return `The budget ran out before an answer (${answer.budget.time_limit} s).`;
  return `${what}: ${answer.status}.`;
}

// -- drawing --------------------------------------------------------------------------------

// The marks of a step on the board at a hint level: cell backgrounds, candidate marks, links.
function stepMarks(step, level) {
  const cells = new Map();
  const cands = new Map();
  const links = [];
  if (!step || level < 2) return { cells, cands, links };
  if (level >= 3) for (const house of step.houses) for (const cell of house.cells) cells.set(cell, "house");
  for (const cell of step.cells) cells.set(cell, "pattern");
  if (level < 3) return { cells, cands, links };
  const values = step.values.concat(step.extra);
  for (const cell of step.pattern) for (const v of values) if (candidates(cell) & bit(v)) cands.set(`${cell}:${v}`, "on");
  for (const cell of step.fins) for (const v of step.values) if (candidates(cell) & bit(v)) cands.set(`${cell}:${v}`, "fin");
  for (const [cell, v] of step.chain) cands.set(`${cell}:${v}`, "on");
  for (let k = 0; k + 1 < step.chain.length; k++) links.push([step.chain[k], step.chain[k + 1], step.chain[k][2]]);
  for (const [cell, v] of step.eliminations) cands.set(`${cell}:${v}`, "elim");
  for (const [cell, v] of step.placements) cands.set(`${cell}:${v}`, "place");
  return { cells, cands, links };
}

// The step on show: the explanation's next one, else the hint at its level.
function shownStep() {
  const e = state.explanation;
  if (e) return e.index < e.steps.length ? [e.steps[e.index], 3] : [null, 0];
  if (state.hint) return [state.hint.step, state.hint.level];
  return [null, 0];
}

// An SVG element with attributes.
function node(name, attributes, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

// Draw the board: cells, values, candidates, the step's marks, box lines.
function render() {
  const n = state.size;
  const [h, w] = state.box;
  const size = n <= 4 ? 80 : n <= 6 ? 64 : n <= 9 ? 50 : n <= 16 ? 36 : 24;
  const margin = 3;
  const side = n * size + 2 * margin;
  const svg = node("svg", { viewBox: `0 0 ${side} ${side}`, role: "img", "aria-label": `${n}x${n} board` });
  const [step, level] = shownStep();
  const marks = stepMarks(step, level);
  const bad = conflicts();
  const selected = state.selected;
  const showAll = $("show-candidates").checked;
  const center = (cell, v) => {
    const x = margin + (cell % n) * size;
    const y = margin + Math.floor(cell / n) * size;
    if (!v) return [x + size / 2, y + size / 2];
    const index = v - 1;
    return [x + ((index % w) + 0.5) * (size / w), y + (Math.floor(index / w) + 0.5) * (size / h)];
  };
  for (let cell = 0; cell < n * n; cell++) {
    const v = state.values[cell];
    const g = node("g", { class: "cell", "data-cell": cell, "data-value": v, "data-kind": state.kinds[cell] }, svg);
    g.addEventListener("mousedown", () => select(cell));
    const classes = ["bg"];
    if (cell === selected) classes.push("selected");
    else if (bad.has(cell)) classes.push("conflict");
    else if (state.wrong.has(cell)) classes.push("wrong");
    else if (marks.cells.has(cell)) classes.push(marks.cells.get(cell));
    else if (peers[selected] && peers[selected].has(cell)) classes.push("peer");
    const x = margin + (cell % n) * size;
    const y = margin + Math.floor(cell / n) * size;
    node("rect", { class: classes.join(" "), x, y, width: size, height: size }, g);
    if (v) {
      const cls = ["value"];
      if (state.kinds[cell] === "given") cls.push("given");
      if (bad.has(cell)) cls.push("conflict");
      if (state.wrong.has(cell)) cls.push("wrong");
      const text = node("text", { class: cls.join(" "), x: x + size / 2, y: y + size / 2 + size * 0.21, "font-size": size * 0.6, "text-anchor": "middle" }, g);
      text.textContent = state.symbols[v - 1];
      continue;
    }
    const mask = candidates(cell);
    const small = Math.min(size / w, size / h);
    for (const value of valuesOf(mask)) {
      const mark = marks.cands.get(`${cell}:${value}`);
      if (!showAll && !mark) continue;
      const [cx, cy] = center(cell, value);
      if (mark) node("circle", { class: `cand-mark ${mark}`, cx, cy, r: small * 0.42 }, g);
      const text = node("text", { class: `cand${mark ? " " + mark : ""}`, "data-cell": cell, "data-value": value, x: cx, y: cy + small * 0.22, "font-size": small * 0.62, "text-anchor": "middle" }, g);
      text.textContent = state.symbols[value - 1];
      if (mark === "elim") node("line", { class: "strike", x1: cx - small * 0.38, y1: cy + small * 0.3, x2: cx + small * 0.38, y2: cy - small * 0.3 }, g);
    }
  }
  for (const [from, to, strong] of marks.links) {
    const [x1, y1] = center(from[0], from[1]);
    const [x2, y2] = center(to[0], to[1]);
    node("line", { class: strong ? "link" : "link weak", x1, y1, x2, y2 }, svg);
  }
  for (let k = 1; k < n; k++) {
    const at = margin + k * size;
    node("line", { class: k % w ? "thin" : "thick", x1: at, y1: margin, x2: at, y2: side - margin }, svg);
    node("line", { class: k % h ? "thin" : "thick", x1: margin, y1: at, x2: side - margin, y2: at }, svg);
  }
  node("rect", { class: "thick", x: margin, y: margin, width: n * size, height: n * size, fill: "none" }, svg);
  $("board").replaceChildren(svg);
  $("board").dataset.size = String(n);
  $("mode").textContent = state.editing ? "typing givens" : "playing";
  $("edit").textContent = state.editing ? "Play" : "Edit givens";
  $("pencil").checked = state.pencil;
}

// Show the step box for the hint or the explanation on show, or hide it.
function showStep() {
  const e = state.explanation;
  $("step-nav").hidden = !e;
  if (e) {
    const total = e.steps.length;
    $("step-box").hidden = false;
    $("step-count").textContent = e.index < total ? `step ${e.index + 1} of ${total}` : `end (${total} steps)`;
    if (e.index < total) $("step-text").textContent = `${e.index + 1}. ${e.steps[e.index].text}`;
    else if (e.solved) $("step-text").textContent = `Solved in ${total} steps; rating ${e.rating.level} (score ${e.rating.score}).`;
    else $("step-text").textContent = `No technique applies after ${total} steps: sudokit never guesses.`;
    $("back").disabled = e.index === 0;
    $("forward").disabled = e.index >= total;
  } else if (state.hint) {
    const { step, level } = state.hint;
    $("step-box").hidden = false;
    const texts = [step.technique, `${step.technique} in ${step.cells.map(cellName).join(", ")}`, step.text];
    $("step-text").textContent = texts[level - 1];
  } else {
    $("step-box").hidden = true;
    $("step-text").textContent = "";
  }
  render();
}

// -- changing the board ---------------------------------------------------------------------

// Select a cell and give the board the keyboard.
function select(cell) {
  state.selected = cell;
  $("board").focus({ preventScroll: true });
  render();
}

// After the player changed the board: hints and marks made for the old board go.
function changed() {
  state.hint = null;
  state.explanation = null;
  state.wrong.clear();
  updateUrl();
  showStep();
  if (!state.values.includes(0) && conflicts().size === 0) say("Solved: every cell is filled and no house repeats a value.");
}

// Type a value (0 empties): a given while editing, an entry while playing.
function setCell(cell, value) {
  if (!state.editing && state.kinds[cell] === "given") {
    say(`${cellName(cell)} is a given; press "Edit givens" to change the puzzle.`, true);
    return;
  }
  state.values[cell] = value;
  state.kinds[cell] = value ? (state.editing ? "given" : "entry") : "";
  state.removed[cell] = 0;
  say("");
  changed();
}

// Pencil: take a candidate out of an empty cell, or put it back.
function toggleCandidate(cell, value) {
  if (state.values[cell]) return;
  state.removed[cell] ^= bit(value);
  changed();
}

// Carry out a step: its placements, then its eliminations.
function applyStep(step) {
  for (const [cell, v] of step.placements) {
    state.values[cell] = v;
    state.kinds[cell] = "step";
    state.removed[cell] = 0;
  }
  for (const [cell, v] of step.eliminations) state.removed[cell] |= bit(v);
}

// Load a board the API returned: its shape, alphabet and givens, to be played.
function loadBoard(board, editing = false) {
  if (![...$("size").options].some((o) => Number(o.value) === board.size)) {
    $("size").add(new Option(`${board.size}x${board.size}`, String(board.size)));
  }
  setShape(board.size, board.box, board.symbols);
  board.cells.forEach((v, cell) => {
    state.values[cell] = v;
    state.kinds[cell] = v ? "given" : "";
  });
  state.editing = editing || board.givens === 0;
  state.selected = 0;
  changed();
}

// Put the puzzle (and the entries beyond it) in the address, so that a link shares them.
function updateUrl() {
  const params = new URLSearchParams();
  const givens = line(true);
  if (/[^.]/.test(givens)) params.set("p", givens);
  const all = line(false);
  if (all !== givens) params.set("v", all);
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

// -- the buttons ----------------------------------------------------------------------------

// Check: is the puzzle valid and unique, and are the entries right so far?
async function check() {
  const answer = await api("count", { ...puzzleBody(true), limit: 2 });
  if (answer.status !== "solved") {
    render();
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  const solution = answer.solution.cells;
  state.wrong = new Set(state.values.map((v, cell) => (v && v !== solution[cell] ? cell : -1)).filter((c) => c >= 0));
  render();
  const filled = state.values.filter((v, cell) => v && state.kinds[cell] !== "given").length;
  if (state.wrong.size) say(`The puzzle is valid and unique. ${state.wrong.size} of ${filled} entries are wrong (marked red).`, true);
  else say(`The puzzle is valid and has exactly one solution; ${filled ? `all ${filled} entries are right so far` : "no entries yet"}.`);
}

// Solve: fill every cell with the solution of the givens.
async function solve() {
  const answer = await api("solve", puzzleBody(true));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  answer.solution.cells.forEach((v, cell) => {
    if (state.kinds[cell] !== "given") {
      state.values[cell] = v;
      state.kinds[cell] = "solver";
    }
  });
  changed();
  say(`Solved: ${answer.nodes} nodes, ${answer.guesses} guesses, ${(answer.elapsed * 1000).toFixed(1)} ms.`);
}

// The next step on the board as it stands (the player's pencil marks included), or null.
async function nextStep() {
  const body = puzzleBody(false);
  if (state.removed.some(Boolean)) body.candidates = state.values.map((v, cell) => valuesOf(candidates(cell)));
  const answer = await api("hint", body);
  if (answer.status !== "solved") {
    const what = state.kinds.some((k) => k && k !== "given") ? "The board with your entries" : "The puzzle";
    say(unsolvedText(answer, what) + (answer.status === "no solution" && what !== "The puzzle" ? " Check marks the wrong entries." : ""), answer.status !== "unknown");
    return null;
  }
  if (!answer.step) {
    say(answer.complete ? "Solved: every cell is filled." : "No technique applies here: sudokit never guesses.", !answer.complete);
    return null;
  }
  return answer.step;
}

// Hint: the technique first; pressed again, its cells; then the whole step.
async function hint() {
  if (state.explanation) state.explanation = null;
  if (state.hint) {
    state.hint.level = Math.min(3, state.hint.level + 1);
  } else {
    const step = await nextStep();
    if (!step) return showStep();
    state.hint = { step, level: 1 };
  }
  const words = ["the technique; press Hint again for its cells", "its cells; press Hint again for the whole step", "the whole step; Apply step carries it out"];
  say(`Hint ${state.hint.level} of 3: ${words[state.hint.level - 1]}.`);
  showStep();
}

// Apply step: carry out the hinted step (asking for one if none is shown).
async function apply() {
  const step = state.hint ? state.hint.step : await nextStep();
  if (!step) return;
  applyStep(step);
  state.hint = null;
  updateUrl();
  showStep();
  if (state.values.includes(0)) say(`Applied: ${step.text}`);
  else say("Solved: every cell is filled.");
}

// Explain: every step from here to the end, to go through forward and back.
async function explain() {
  const answer = await api("explain", puzzleBody(false));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The board"), answer.status !== "unknown");
    return;
  }
  state.hint = null;
  state.removed.fill(0);
  state.explanation = { steps: answer.steps, index: 0, values: state.values.slice(), kinds: state.kinds.slice(), solved: answer.solved, rating: answer.rating };
  say(`${answer.steps.length} steps; ${answer.solved ? "the techniques solve it" : "then no technique applies"}. Rating: ${answer.rating.level} (score ${answer.rating.score}).`);
  showStep();
}

// Go to step `index` of the explanation: replay the steps before it from the start.
function goTo(index) {
  const e = state.explanation;
  if (!e) return;
  index = Math.max(0, Math.min(index, e.steps.length));
  state.values = e.values.slice();
  state.kinds = e.kinds.slice();
  state.removed.fill(0);
  for (let k = 0; k < index; k++) applyStep(e.steps[k]);
  e.index = index;
  updateUrl();
  showStep();
}

// Leave the hint or the explanation, keeping the board as it is shown.
function leave() {
  state.hint = null;
  state.explanation = null;
  showStep();
}

// Rate: the puzzle's level and score on HoDoKu's scale.
async function rate() {
  const answer = await api("rate", puzzleBody(true));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  const used = Object.entries(answer.techniques).map(([name, k]) => `${name} x${k}`).join(", ");
  say(`Rating: ${answer.level} (score ${answer.score})${answer.solved ? "" : ", with brute force where no technique applies"}: ${used}.`);
}

// Generate: a new puzzle of the chosen size and level.
async function generate() {
  const level = $("level").value || null;
  const body = { size: Number($("size").value), level, time_limit: state.info.limits.max_time_limit };
  const answer = await api("generate", body);
  if (!answer.puzzle) {
    say(answer.reason || unsolvedText(answer, "Generating"), true);
    return;
  }
  loadBoard(answer.puzzle);
  say(`A new ${level || ""} puzzle (seed ${answer.seed}), ${answer.puzzle.givens} givens.`);
}

// Canonical form: the text every equivalent puzzle shares.
async function canonical() {
  const answer = await api("canonical", puzzleBody(true));
  say(`Canonical form: ${answer.canonical}`);
}

// Load: read the text pasted in any format; an error is shown where it is in the text.
async function load(text) {
  const area = $("paste");
  area.removeAttribute("aria-invalid");
  $("paste-error").textContent = "";
  try {
    const answer = await api("parse", { puzzle: text });
    loadBoard(answer.board);
    say(`Read a ${answer.board.size}x${answer.board.size} board (${answer.format} format), ${answer.board.givens} givens.`);
  } catch (error) {
    const where = error.answer || {};
    area.value = text;
    area.setAttribute("aria-invalid", "true");
    $("paste-error").textContent = error.message;
    say("The text is not a board: see the message under it.", true);
    if (where.line) {
      const lines = text.split("\n");
      let offset = 0;
      for (let k = 0; k < where.line - 1 && k < lines.length; k++) offset += lines[k].length + 1;
      offset += Math.max(0, (where.column || 1) - 1);
      area.focus();
      area.setSelectionRange(offset, Math.min(offset + 1, text.length));
    }
  }
}

// Read the puzzle (and entries) a shared link carries.
async function readUrl() {
  const params = new URLSearchParams(location.search);
  const puzzle = params.get("p");
  if (!puzzle) return false;
  await load(puzzle);
  const entries = params.get("v") || "";
  if (entries.length === state.values.length) {
    [...entries].forEach((symbol, cell) => {
      const v = state.symbols.indexOf(symbol) + 1;
      if (v && state.kinds[cell] !== "given") {
        state.values[cell] = v;
        state.kinds[cell] = "entry";
      }
    });
    changed();
  }
  return true;
}

// -- the keyboard ---------------------------------------------------------------------------

// The value a key types on this board, or 0.
function valueOfKey(key) {
  if (key.length !== 1) return 0;
  let index = state.symbols.indexOf(key);
  if (index < 0) index = state.symbols.indexOf(key.toUpperCase());
  return index + 1;
}

// Keys on the board: move, fill, empty, pencil, step through an explanation.
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return; // Ctrl+V and the browser's own keys
  const n = state.size;
  const row = Math.floor(state.selected / n);
  const col = state.selected % n;
  let target = null;
  if (MOVES[event.key]) {
    const [dr, dc] = MOVES[event.key];
    target = Math.max(0, Math.min(n - 1, row + dr)) * n + Math.max(0, Math.min(n - 1, col + dc));
  } else if (event.key === "Home") target = row * n;
  else if (event.key === "End") target = row * n + n - 1;
  if (target !== null) {
    event.preventDefault();
    select(target);
    return;
  }
  const value = valueOfKey(event.key);
  if (value) {
    event.preventDefault();
    if (state.pencil) toggleCandidate(state.selected, value);
    else setCell(state.selected, value);
  } else if (["Backspace", "Delete", "0", "."].includes(event.key)) {
    event.preventDefault();
    setCell(state.selected, 0);
  } else if (event.key === " ") {
    event.preventDefault();
    state.pencil = !state.pencil;
    say(state.pencil ? "Pencil marks: a symbol toggles that candidate." : "Pencil marks off: a symbol fills the cell.");
    render();
  }
}

// Keys anywhere but in a text field: step through an explanation, leave a hint or it.
function onPageKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("textarea, input, select")) return;
  if (event.key === "]" || event.key === "[") {
    event.preventDefault();
    if (state.explanation) goTo(state.explanation.index + (event.key === "]" ? 1 : -1));
  } else if (event.key === "Escape") {
    leave();
  }
}

// -- start ----------------------------------------------------------------------------------

// Wire the page to the API: what the server offers, the buttons, the keys, the address.
async function start() {
  setShape(9, [3, 3], "123456789");
  const buttons = { check, solve, hint, apply, explain, rate, generate, canonical };
  for (const [id, action] of Object.entries(buttons)) $(id).addEventListener("click", () => run(action));
  $("load").addEventListener("click", () => run(() => load($("paste").value)));
  $("export").addEventListener("click", () => {
    $("paste").value = line(false);
  });
  $("back").addEventListener("click", () => goTo(state.explanation.index - 1));
  $("forward").addEventListener("click", () => goTo(state.explanation.index + 1));
  $("done").addEventListener("click", leave);
  $("clear").addEventListener("click", () => newBoard(Number($("size").value)));
  $("size").addEventListener("change", () => newBoard(Number($("size").value)));
  $("edit").addEventListener("click", () => {
    state.editing = !state.editing;
    say(state.editing ? "Typing givens: the values typed make the puzzle." : "Playing: the values typed are your entries.");
    render();
  });
  $("show-candidates").addEventListener("change", render);
  $("pencil").addEventListener("change", () => {
    state.pencil = $("pencil").checked;
    render();
  });
  $("board").addEventListener("keydown", onKey);
  document.addEventListener("keydown", onPageKey);
  $("board").addEventListener("paste", (event) => {
    const text = event.clipboardData.getData("text");
    event.preventDefault();
    if (text.trim()) {
      $("paste").value = text;
      run(() => load(text));
    }
  });
  render();
  try {
    const response = await fetch("/api/info");
    state.info = await response.json();
    $("version").textContent = `version ${state.info.version}`;
    $("generate-row").hidden = !state.info.capabilities.generate;
    $("canonical-row").hidden = !state.info.capabilities.canonical;
    for (const level of state.info.levels) $("level").add(new Option(level, level));
  } catch (error) {
    say(`The server does not answer: ${error.message}`, true);
  }
  await run(readUrl);
  document.body.dataset.ready = "1";
}

// A new empty board of a size, for typing a puzzle in.
function newBoard(size) {
  setShape(size, defaultBox(size), defaultSymbols(size));
  state.editing = true;
  state.selected = 0;
  changed();
  say(`A new ${size}x${size} board: type the givens, then press Play.`);
  $("board").focus();
}

document.addEventListener("DOMContentLoaded", start);
