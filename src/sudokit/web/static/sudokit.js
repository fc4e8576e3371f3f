// sudokit's page: a board to play, type or paste into, drawn as SVG with its rules (jigsaw
// regions, diagonals, windows, killer cages, a Sukaku's marks), the player's notes and the
// candidates, and the library's answers through the JSON API under /api. Plain script, no
// build step, nothing loaded from outside. Cells are numbered row * n + col from 0; values
// are 1..n and state.symbols[value - 1] writes them, as in the API.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const SAVED = "sudokit.game"; // localStorage: the game on the board
const SETTINGS = "sudokit.settings"; // localStorage: theme and the check boxes
const BUSY_AFTER_MS = 300; // a request slower than this shows the busy bar and its Cancel
const MIN_MARK_PX = 7; // smaller candidates and notes go to the line under the board
const NOTE_MODES = ["", "corner", "centre"];
const KIND_WORDS = { given: "given", entry: "your entry", hint: "placed by a hint", solver: "placed by Solve" };
const SETTER_WAIT_MS = 300; // setter mode asks this long after the givens last changed
const SETTER_TIME = { count: 0.5, diagnose: 1, estimate: 1 }; // seconds each question may take
const SETTER_COUNT = 1000; // solutions counted one by one; a board with more is estimated
const SETTER_WORDS = { "set-core": "clashes with other givens", "set-add": "a given to add", "set-differ": "differs between two solutions", "set-spare": "could go" };

const state = {
  size: 9,
  box: [3, 3],
  symbols: "123456789",
  rules: null, // the board's rules as the API gives them (houses, cages, candidates, json, ...)
  values: [], // every cell's value, 0 for empty
  kinds: [], // "" empty, "given", "entry" (the player's), "hint" (a step's), "solver"
  eliminated: [], // candidate bits (1 << (v - 1)) taken out by applied steps
  corner: [], // the player's corner notes, a mask per cell
  centre: [], // the player's centre notes, a mask per cell
  selected: 0,
  editing: true, // typing sets givens (a puzzle being entered) or entries (playing it)
  noteMode: "", // "" digits, "corner" or "centre" notes
  hint: null, // {step, level}: the next step, shown at level 1, 2 or 3
  explanation: null, // {steps, index, start (a snapshot), solved, rating}
  wrong: new Set(), // cells whose entry or notes miss the solution (after Check), until changed
  elapsed: 0, // milliseconds played before `since`
  since: null, // when the clock last started (Date.now()), null while stopped
  paused: false,
  info: null,
};
const changes = { undo: [], redo: [] }; // snapshots of the game, with what changed it
let busy = null; // {what, controller, timer} while a request is in flight
// setter mode: on, the givens last asked about, the answer's marks (cell -> class) and the
// values to add (cell -> symbol); `round` tells a stale answer from the current one
const setter = { on: false, timer: null, controller: null, checked: null, marks: new Map(), adds: new Map(), round: 0 };
let geo = null; // the tables of the board's rules (see tablesOf)

// The element with this id.
function $(id) {
  return document.getElementById(id);
}

// The bit of a value in a candidate mask.
function bit(value) {
  return 1 << (value - 1);
}

// The values of a mask, in order.
function valuesOf(mask) {
  const out = [];
  for (let v = 1; v <= state.size; v++) if (mask & bit(v)) out.push(v);
  return out;
}

// -- rules ----------------------------------------------------------------------------------

// The rules of a plain board (rows, columns, boxes), in the API's form.
function plainRules(size, box) {
  const [h, w] = box;
  const houses = [];
  const range = [...Array(size).keys()];
  for (let r = 0; r < size; r++) houses.push({ kind: "row", cells: range.map((c) => r * size + c) });
  for (let c = 0; c < size; c++) houses.push({ kind: "column", cells: range.map((r) => r * size + c) });
  for (let b = 0; b < size; b++) {
    const top = Math.floor(b / (size / w)) * h;
    const left = (b % (size / w)) * w;
    const cells = [];
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) cells.push((top + r) * size + left + c);
    houses.push({ kind: "box", cells });
  }
  return { houses, cages: [], candidates: null, variant: false, json: {}, techniques: null };
}

// What the drawing and the candidates need from the rules: houses, peers (cages included),
// each cell's region, the extra houses, the cages, the starting marks.
function tablesOf(rules, size) {
  const cells = size * size;
  const houses = rules.houses.map((h) => h.cells);
  const groups = houses.concat(rules.cages.map(([, c]) => c));
  const peers = [...Array(cells)].map(() => new Set());
  for (const group of groups) for (const a of group) for (const b of group) if (a !== b) peers[a].add(b);
  const region = new Array(cells).fill(0);
  let number = 0;
  for (const house of rules.houses) if (house.kind === "box" || house.kind === "region") {
    for (const cell of house.cells) region[cell] = number;
    number++;
  }
  const extras = rules.houses.filter((h) => !["row", "column", "box", "region"].includes(h.kind));
  const shade = new Map();
  for (const house of extras) if (house.kind !== "diagonal" && house.kind !== "anti-diagonal") {
    for (const cell of house.cells) shade.set(cell, house.kind === "window" ? "window" : "extra");
  }
  return { houses, groups, peers, region, extras, shade, cages: rules.cages, start: rules.candidates };
}

// -- the game state -------------------------------------------------------------------------

// A new board of n x n cells with h x w boxes, written in `symbols`, under `rules`, all empty.
function setShape(size, box, symbols, rules) {
  state.size = size;
  state.box = box;
  state.symbols = symbols;
  state.rules = rules || plainRules(size, box);
  geo = tablesOf(state.rules, size);
  const cells = size * size;
  state.values = new Array(cells).fill(0);
  state.kinds = new Array(cells).fill("");
  state.eliminated = new Array(cells).fill(0);
  state.corner = new Array(cells).fill(0);
  state.centre = new Array(cells).fill(0);
  state.selected = Math.min(state.selected, cells - 1);
  state.hint = null;
  state.explanation = null;
  state.wrong.clear();
  showSize(size);
}

// The size list shows `size` (a size the list lacks is added).
function showSize(size) {
  if (![...$("size").options].some((o) => Number(o.value) === size)) {
    $("size").add(new Option(`${size}x${size}`, String(size)));
  }
  $("size").value = String(size);
}

// Everything a change can alter, to undo it, save it or restore it.
function snapshot(label) {
  return {
    label,
    size: state.size,
    box: state.box,
    symbols: state.symbols,
    rules: state.rules,
    values: state.values.slice(),
    kinds: state.kinds.slice(),
    eliminated: state.eliminated.slice(),
    corner: state.corner.slice(),
    centre: state.centre.slice(),
    editing: state.editing,
  };
}

// Put a snapshot back on the board.
function restore(shot) {
  if (shot.size !== state.size || shot.rules !== state.rules) {
    const selected = state.selected;
    setShape(shot.size, shot.box, shot.symbols, shot.rules);
    state.selected = Math.min(selected, shot.size * shot.size - 1);
  }
  for (const key of ["values", "kinds", "eliminated", "corner", "centre"]) state[key] = shot[key].slice();
  state.editing = shot.editing;
}

// Make a change that undo can take back: `change()` alters the state; `label` names it.
function commit(label, change) {
  const before = snapshot(label);
  change();
  changes.undo.push(before);
  if (changes.undo.length > 500) changes.undo.shift();
  changes.redo = [];
  changed();
}

// Undo or redo the last change (`redo` true), saying which.
function undo(redo = false) {
  if (state.explanation) {
    goTo(state.explanation.index + (redo ? 1 : -1));
    return;
  }
  const [from, to] = redo ? [changes.redo, changes.undo] : [changes.undo, changes.redo];
  const shot = from.pop();
  if (!shot) {
    say(redo ? "Nothing to redo." : "Nothing to undo.");
    return;
  }
  to.push(snapshot(shot.label));
  restore(shot);
  for (const cell of [...state.wrong]) if (state.values[cell] !== shot.values[cell]) state.wrong.delete(cell);
  state.hint = null;
  changed();
  say(`${redo ? "Redone" : "Undone"}: ${shot.label}.`);
}

// The candidates of an empty cell as a mask: what its peers and the starting marks leave, less
// what applied steps took out.
function candidates(cell) {
  if (state.values[cell]) return 0;
  let mask = geo.start ? geo.start[cell] : (1 << state.size) - 1;
  for (const peer of geo.peers[cell]) if (state.values[peer]) mask &= ~bit(state.values[peer]);
  return mask & ~state.eliminated[cell];
}

// The one-line form of the board (only the givens with `givensOnly`).
function line(givensOnly) {
  return state.values
    .map((v, cell) => (v && (!givensOnly || state.kinds[cell] === "given") ? state.symbols[v - 1] : "."))
    .join("");
}

// The puzzle as text the API reads: the line, or with rules the json format's object.
function puzzleText(givensOnly) {
  if (!state.rules.variant) return line(givensOnly);
  return JSON.stringify({ givens: line(givensOnly), size: state.size, ...state.rules.json });
}

// The request body naming the board (all its values, or only the givens), with its rules.
function puzzleBody(givensOnly) {
  const [h, w] = state.box; // "9" is a board with its usual boxes, "2x3" a box
  const body = { puzzle: puzzleText(givensOnly), shape: h === w ? String(state.size) : `${h}x${w}`, symbols: state.symbols };
  if (state.rules.variant) body.format = "json";
  return body;
}

// "r3c5" for a cell.
function cellName(cell) {
  return `r${Math.floor(cell / state.size) + 1}c${(cell % state.size) + 1}`;
}

// Cells whose value repeats in a house or a cage: the rule-breaking values, shown in place.
function conflicts() {
  const bad = new Set();
  for (const group of geo.groups) {
    const seen = new Map();
    for (const cell of group) {
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

// -- requests -------------------------------------------------------------------------------

// POST a request to the API; the answer's JSON, or an Error carrying the API's message.
// `signal` aborts it (by default the busy action's, which Cancel aborts).
async function api(endpoint, body, signal = busy ? busy.controller.signal : undefined) {
  const response = await fetch(`/api/${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
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

// Run an action, one at a time: past BUSY_AFTER_MS the busy bar shows with Cancel; a click
// meanwhile says what the page is busy with; a failure is said in the status line.
async function run(what, action) {
  if (busy) {
    say(`Still busy with ${busy.what}: wait for it, or press Cancel.`);
    return;
  }
  busy = { what, controller: new AbortController(), timer: null };
  busy.timer = setTimeout(() => {
    $("busy-text").textContent = `${what[0].toUpperCase()}${what.slice(1)}...`;
    $("busy").hidden = false;
  }, BUSY_AFTER_MS);
  document.body.dataset.busy = "1";
  performance.mark("sudokit-start");
  try {
    await action();
    performance.measure(`sudokit: ${what}`, "sudokit-start"); // read by benchmarks/web.py
  } catch (error) {
    if (error.name === "AbortError") say(`Cancelled: ${what}.`);
    else say(error.message, true);
  } finally {
    clearTimeout(busy.timer);
    busy = null;
    $("busy").hidden = true;
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
  if (answer.status === "unknown") return `No answer within the time allowed (${answer.budget.time_limit} s).`;
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

// Text safe inside markup (an attribute's value or an element's text).
function esc(value) {
  return String(value).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// The markup of an SVG element: its attributes and its text (a string of markup with `inner`).
// The board is drawn as one string, parsed once: a thousand createElementNS calls cost 5x more.
function tag(name, attributes, text = "", inner = "") {
  const attrs = Object.entries(attributes).map(([key, value]) => ` ${key}="${esc(value)}"`).join("");
  return `<${name}${attrs}>${esc(text)}${inner}</${name}>`;
}

// The side of a cell in SVG units, by board size.
function cellSide(n) {
  return n <= 4 ? 80 : n <= 6 ? 64 : n <= 9 ? 50 : n <= 16 ? 36 : 28;
}

// The rules drawn over the cells: diagonals, region borders (thick where the region changes),
// killer cages (dashed, inset, the sum in the corner), the outline. Shared by the print sheet.
function rulesMarkup(tables, n, size, margin) {
  const xy = (cell) => [margin + (cell % n) * size, margin + Math.floor(cell / n) * size];
  const out = [];
  for (const house of tables.extras) {
    if (house.kind !== "diagonal" && house.kind !== "anti-diagonal") continue;
    const [x1, y1] = xy(house.cells[0]);
    const [x2, y2] = xy(house.cells[n - 1]);
    const anti = house.kind === "anti-diagonal";
    out.push(tag("line", { class: "diag", x1: anti ? x1 + size : x1, y1, x2: anti ? x2 : x2 + size, y2: y2 + size }));
  }
  const thin = [];
  const thick = [];
  for (let cell = 0; cell < n * n; cell++) {
    const [x, y] = xy(cell);
    if (cell % n + 1 < n) (tables.region[cell] !== tables.region[cell + 1] ? thick : thin).push(`M${x + size} ${y}v${size}`);
    if (cell + n < n * n) (tables.region[cell] !== tables.region[cell + n] ? thick : thin).push(`M${x} ${y + size}h${size}`);
  }
  out.push(tag("path", { class: "thin", d: thin.join("") }), tag("path", { class: "thick", d: thick.join("") }));
  const inset = size * 0.09;
  tables.cages.forEach(([total, cells]) => {
    const inCage = new Set(cells);
    const has = (r, c) => r >= 0 && c >= 0 && r < n && c < n && inCage.has(r * n + c);
    const segments = [];
    for (const cell of cells) {
      const r = Math.floor(cell / n);
      const c = cell % n;
      const [x, y] = xy(cell);
      // each side open to the outside, inset, its ends meeting the sides of the cells beside it
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        if (has(r + dr, c + dc)) continue;
        const [ar, ac] = [dc, dr]; // along the side
        const end = (sign) => {
          const along = has(r + sign * ar, c + sign * ac);
          const diagonal = has(r + sign * ar + dr, c + sign * ac + dc);
          return along ? (diagonal ? size / 2 + inset : size / 2) : size / 2 - inset;
        };
        const cx = x + size / 2 + dc * (size / 2 - inset);
        const cy = y + size / 2 + dr * (size / 2 - inset);
        const [e1, e2] = [end(-1), end(1)];
        segments.push(`M${cx - ac * e1} ${cy - ar * e1}L${cx + ac * e2} ${cy + ar * e2}`);
      }
    }
    out.push(tag("path", { class: "cage", d: segments.join("") }));
    if (total !== null) {
      const [x, y] = xy(Math.min(...cells));
      const font = size * 0.24;
      out.push(tag("rect", { class: "cage-sum-bg", x: x + inset * 0.4, y: y + inset * 0.4, width: font * (String(total).length * 0.62 + 0.3), height: font * 1.05 }));
      out.push(tag("text", { class: "cage-sum", x: x + inset * 0.5 + font * 0.12, y: y + inset * 0.4 + font * 0.85, "font-size": font }, total));
    }
  });
  out.push(tag("rect", { class: "thick", x: margin, y: margin, width: n * size, height: n * size, fill: "none" }));
  return tag("g", { "aria-hidden": "true", class: "rules" }, "", out.join(""));
}

// The words a screen reader says for a cell.
function cellLabel(cell, bad) {
  const n = state.size;
  const where = `Row ${Math.floor(cell / n) + 1}, column ${(cell % n) + 1}`;
  const v = state.values[cell];
  const parts = [];
  if (v) {
    parts.push(`${state.symbols[v - 1]}, ${KIND_WORDS[state.kinds[cell]] || "placed"}`);
    if (bad.has(cell)) parts.push("repeated in a house");
  } else {
    parts.push("empty");
    const spell = (mask) => valuesOf(mask).map((x) => state.symbols[x - 1]).join(" ");
    if (state.corner[cell]) parts.push(`corner notes ${spell(state.corner[cell])}`);
    if (state.centre[cell]) parts.push(`centre notes ${spell(state.centre[cell])}`);
    if (showsCandidates()) parts.push(`candidates ${spell(candidates(cell)) || "none"}`);
  }
  if (state.wrong.has(cell)) parts.push("wrong, says Check");
  if (setter.marks.has(cell)) parts.push(SETTER_WORDS[setter.marks.get(cell)] + (setter.adds.has(cell) ? ": " + setter.adds.get(cell) : ""));
  return `${where}: ${parts.join("; ")}`;
}

// Whether computed candidates are drawn (always for a Sukaku: its marks are the puzzle).
function showsCandidates() {
  return $("show-candidates").checked || Boolean(geo.start);
}

// Draw the board: cells (rows of grid cells for screen readers), values, the player's notes,
// candidates, the step's marks, the rules, the selection.
function render() {
  const n = state.size;
  const [h, w] = state.box;
  const size = cellSide(n);
  const margin = 3;
  const side = n * size + 2 * margin;
  const [step, level] = shownStep();
  const marks = stepMarks(step, level);
  const bad = conflicts();
  const selected = state.selected;
  const same = state.values[selected];
  const showAll = showsCandidates();
  const small = Math.min(size / w, size / h);
  const board = $("board");
  const pixels = (board.clientWidth || side) / side; // screen pixels per SVG unit
  const tiny = small * 0.62 * pixels < MIN_MARK_PX; // marks too small to read: shown below instead
  const center = (cell, v) => {
    const x = margin + (cell % n) * size;
    const y = margin + Math.floor(cell / n) * size;
    if (!v) return [x + size / 2, y + size / 2];
    const index = v - 1;
    return [x + ((index % w) + 0.5) * (size / w), y + (Math.floor(index / w) + 0.5) * (size / h)];
  };
  const rows = [];
  for (let r = 0; r < n; r++) {
    const row = [];
    for (let c = 0; c < n; c++) {
      const cell = r * n + c;
      const v = state.values[cell];
      const parts = [];
      const classes = geo.shade.has(cell) ? ["bg", geo.shade.get(cell)] : ["bg"];
      if (bad.has(cell)) classes.push("conflict");
      else if (state.wrong.has(cell)) classes.push("wrong");
      else if (marks.cells.has(cell)) classes.push(marks.cells.get(cell));
      else if (setter.marks.has(cell)) classes.push(setter.marks.get(cell));
      else if (cell === selected) classes.push("selected");
      else if (same && state.values[cell] === same) classes.push("same");
      else if (geo.peers[selected].has(cell)) classes.push("peer");
      const x = margin + c * size;
      const y = margin + r * size;
      parts.push(tag("rect", { class: classes.join(" "), x, y, width: size, height: size }));
      if (v) {
        const cls = ["value", state.kinds[cell] || "entry"];
        if (bad.has(cell)) cls.push("conflict");
        if (state.wrong.has(cell)) cls.push("wrong");
        parts.push(tag("text", { class: cls.join(" "), x: x + size / 2, y: y + size / 2 + size * 0.21, "font-size": size * 0.6, "text-anchor": "middle" }, state.symbols[v - 1]));
      } else {
        const mask = candidates(cell);
        const noted = state.corner[cell] || state.centre[cell];
        for (let value = 1; value <= n; value++) {
          const mark = marks.cands.get(`${cell}:${value}`);
          const corner = state.corner[cell] & bit(value);
          const computed = mask & bit(value) && showAll && !noted;
          if (!mark && !corner && !computed) continue;
          const [cx, cy] = center(cell, value);
          if (mark) parts.push(tag("circle", { class: `cand-mark ${mark}`, cx, cy, r: small * 0.42 }));
          if (tiny) continue;
          const cls = corner ? "note corner" : "cand";
          parts.push(tag("text", { class: `${cls}${mark ? " " + mark : ""}${same === value ? " same" : ""}`, "data-value": value, x: cx, y: cy + small * 0.22, "font-size": small * 0.62, "text-anchor": "middle" }, state.symbols[value - 1]));
          if (mark === "elim") parts.push(tag("line", { class: "strike", x1: cx - small * 0.38, y1: cy + small * 0.3, x2: cx + small * 0.38, y2: cy - small * 0.3 }));
        }
        if (state.centre[cell] && !tiny) {
          const spelled = valuesOf(state.centre[cell]).map((x) => state.symbols[x - 1]).join("");
          const font = Math.min(size * 0.3, (size * 0.9) / Math.max(1, spelled.length * 0.62));
          parts.push(tag("text", { class: "note centre", x: x + size / 2, y: y + size / 2 + font * 0.35, "font-size": font, "text-anchor": "middle" }, spelled));
        }
      }
      row.push(tag("g", {
        class: "cell", id: `cell-${cell}`, role: "gridcell", "aria-colindex": c + 1, "aria-selected": String(cell === selected),
        "aria-label": cellLabel(cell, bad), "data-cell": cell, "data-value": v, "data-kind": state.kinds[cell],
      }, "", parts.join("")));
    }
    rows.push(tag("g", { role: "row", "aria-rowindex": r + 1 }, "", row.join("")));
  }
  const overlay = [];
  for (const [from, to, strong] of marks.links) {
    const [x1, y1] = center(from[0], from[1]);
    const [x2, y2] = center(to[0], to[1]);
    overlay.push(tag("line", { class: strong ? "link" : "link weak", x1, y1, x2, y2 }));
  }
  const sx = margin + (selected % n) * size;
  const sy = margin + Math.floor(selected / n) * size;
  overlay.push(tag("rect", { class: "sel-outline", x: sx + 1.5, y: sy + 1.5, width: size - 3, height: size - 3 }));
  const inner = rows.join("") + rulesMarkup(geo, n, size, margin) + tag("g", { "aria-hidden": "true" }, "", overlay.join(""));
  board.innerHTML = tag("svg", { xmlns: SVG, viewBox: `0 0 ${side} ${side}`, role: "none" }, "", inner);
  board.dataset.size = String(n);
  board.setAttribute("aria-label", `Sudoku board, ${n} by ${n}${state.rules.variant ? ", " + variantWords() : ""}`);
  board.setAttribute("aria-activedescendant", `cell-${selected}`);
  board.classList.toggle("paused", state.paused);
  $("cell-info").textContent = tiny ? cellInfo(selected) : "";
  $("mode").textContent = state.editing ? "typing givens" : "playing";
  $("edit").textContent = state.editing ? "Play" : "Edit givens";
  const modeWords = { "": "Notes: off", corner: "Notes: corner", centre: "Notes: centre" };
  $("notes").textContent = modeWords[state.noteMode];
  $("notes").setAttribute("aria-pressed", String(Boolean(state.noteMode)));
  $("undo").disabled = !changes.undo.length && !state.explanation;
  $("redo").disabled = !changes.redo.length && !state.explanation;
  const plain9 = !state.rules.variant && n === 9;
  $("canonical").hidden = !(state.info && state.info.capabilities.canonical && plain9);
}

// The selected cell's candidates and notes in words, for boards whose marks are too small.
function cellInfo(cell) {
  if (state.values[cell]) return `${cellName(cell)}: ${state.symbols[state.values[cell] - 1]}`;
  const spell = (mask) => valuesOf(mask).map((x) => state.symbols[x - 1]).join(" ");
  const parts = [`${cellName(cell)}`];
  if (showsCandidates()) parts.push(`candidates ${spell(candidates(cell)) || "none"}`);
  if (state.corner[cell]) parts.push(`corner notes ${spell(state.corner[cell])}`);
  if (state.centre[cell]) parts.push(`centre notes ${spell(state.centre[cell])}`);
  return parts.join(" · ");
}

// The board's variant rules in words ("killer cages, diagonals").
function variantWords() {
  const words = new Set();
  if (state.rules.houses.some((h) => h.kind === "region")) words.add("jigsaw regions");
  for (const house of geo.extras) words.add(house.kind === "anti-diagonal" ? "diagonal" : house.kind);
  const names = [...words].map((k) => ({ diagonal: "diagonals", window: "windoku windows" })[k] || k);
  if (state.rules.cages.length) names.push("killer cages");
  if (geo.start) names.push("starting pencil marks (Sukaku)");
  return names.join(", ");
}

// The digit pad: a button a symbol, for touch screens and mice.
function buildPad() {
  const pad = $("pad");
  pad.replaceChildren();
  pad.dataset.size = String(state.size);
  for (let v = 1; v <= state.size; v++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "digit";
    button.dataset.value = String(v);
    button.textContent = state.symbols[v - 1];
    button.setAttribute("aria-label", `Digit ${state.symbols[v - 1]}`);
    pad.appendChild(button);
  }
}

// Show the step box for the hint or the explanation on show, or hide it; then draw.
function showStep() {
  const e = state.explanation;
  $("step-nav").hidden = !e;
  if (e) {
    const total = e.steps.length;
    $("step-box").hidden = false;
    $("step-count").textContent = e.index < total ? `step ${e.index + 1} of ${total}` : `end (${total} steps)`;
    const rated = e.rating ? `; difficulty of the rest from the position explained: ${e.rating.level} (score ${e.rating.score})` : "";
    if (e.index < total) $("step-text").textContent = `${e.index + 1}. ${e.steps[e.index].text}`;
    else if (e.solved) $("step-text").textContent = `Solved in ${total} steps${rated}.`;
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
  if (!document.activeElement || !document.activeElement.closest("textarea, input, select")) $("board").focus({ preventScroll: true });
  render();
}

// After the board changed: hints made for the old board go; the address, the saved game, the
// clock and the drawing follow.
function changed() {
  state.hint = null;
  updateUrl();
  save();
  setterChanged();
  showStep();
  const solved = !state.values.includes(0) && conflicts().size === 0;
  if (solved && !state.editing && state.since !== null) {
    stopClock();
    say(`Solved in ${clockText(state.elapsed)}: every cell is filled and no house repeats a value.`);
  } else if (!solved && !state.editing && !state.paused && state.since === null) startClock();
}

// Place a value in a cell as `kind`, with its notes gone and, with the setting on, the value's
// notes gone from every peer.
function place(cell, value, kind) {
  state.values[cell] = value;
  state.kinds[cell] = value ? kind : "";
  state.corner[cell] = state.centre[cell] = 0;
  state.eliminated[cell] = 0;
  state.wrong.delete(cell);
  if (value && $("auto-notes").checked) {
    for (const peer of geo.peers[cell]) {
      state.corner[peer] &= ~bit(value);
      state.centre[peer] &= ~bit(value);
    }
  }
}

// Type a value (0 empties): a given while editing, an entry while playing.
function setCell(cell, value) {
  if (state.paused) return;
  if (!state.editing && state.kinds[cell] === "given") {
    say(`${cellName(cell)} is a given; press "Edit givens" to change the puzzle.`, true);
    return;
  }
  if (!value && !state.values[cell]) {
    if (state.corner[cell] || state.centre[cell]) commit(`clearing the notes of ${cellName(cell)}`, () => { state.corner[cell] = state.centre[cell] = 0; });
    return;
  }
  if (state.values[cell] === value) return;
  const symbol = value ? state.symbols[value - 1] : "";
  commit(value ? `${symbol} in ${cellName(cell)}` : `clearing ${cellName(cell)}`, () => place(cell, value, state.editing ? "given" : "entry"));
  say("");
}

// Toggle a note (`mode` "corner" or "centre") of a value in an empty cell.
function toggleNote(cell, value, mode) {
  if (state.paused || state.values[cell]) return;
  const notes = state[mode];
  commit(`${mode} note ${state.symbols[value - 1]} in ${cellName(cell)}`, () => { notes[cell] ^= bit(value); state.wrong.delete(cell); });
}

// A symbol typed or tapped: a digit, or a note in notes mode.
function enter(value, mode = state.noteMode) {
  if (mode) toggleNote(state.selected, value, mode);
  else setCell(state.selected, value);
}

// Carry out a step: its placements, then its eliminations.
function applyStep(step) {
  for (const [cell, v] of step.placements) place(cell, v, "hint");
  for (const [cell, v] of step.eliminations) state.eliminated[cell] |= bit(v);
}

// Load a board the API returned (its shape, alphabet, rules and givens), undoably.
function loadBoard(board, label, editing = false) {
  commit(label, () => {
    setShape(board.size, board.box, board.symbols, board.rules);
    board.cells.forEach((v, cell) => {
      state.values[cell] = v;
      state.kinds[cell] = v ? "given" : "";
    });
    state.editing = editing || (board.givens === 0 && !board.rules.variant);
    state.selected = 0;
    buildPad();
    resetClock();
  });
  const top = $("board").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight / 2) $("board").scrollIntoView({ block: "start" }); // a phone's paste box is below
}

// -- the address and the saved game ----------------------------------------------------------

// A mask per cell as "cell-hexmask" pairs, empty cells left out (for the address).
function packMasks(masks) {
  return masks.map((m, cell) => (m ? `${cell}-${m.toString(16)}` : "")).filter(Boolean).join(",");
}

// The masks of packMasks' text, for `cells` cells.
function unpackMasks(text, cells) {
  const masks = new Array(cells).fill(0);
  for (const pair of (text || "").split(",")) {
    const [cell, mask] = pair.split("-");
    const index = Number(cell);
    if (Number.isInteger(index) && index >= 0 && index < cells) masks[index] = parseInt(mask, 16) || 0;
  }
  return masks;
}

// Put the puzzle (with its rules), the entries, the notes and the steps' eliminations in the
// address, so that a link shares the position.
function updateUrl() {
  const params = new URLSearchParams();
  if (/[^.]/.test(line(true)) || state.rules.variant) params.set("p", puzzleText(true));
  const all = line(false);
  if (all !== line(true)) params.set("v", all);
  for (const [key, masks] of [["nc", state.corner], ["nm", state.centre], ["x", state.eliminated]]) {
    const packed = packMasks(masks);
    if (packed) params.set(key, packed);
  }
  const query = params.toString();
  window.history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

// Keep the game in the browser, to resume it on the next visit.
function save() {
  try {
    const game = snapshot("saved");
    game.elapsed = clockMs();
    localStorage.setItem(SAVED, JSON.stringify(game));
  } catch (_) {
    // storage full or refused: the game still plays
  }
}

// The saved game, or null.
function savedGame() {
  try {
    const game = JSON.parse(localStorage.getItem(SAVED) || "null");
    return game && Array.isArray(game.values) && game.values.length === game.size * game.size ? game : null;
  } catch (_) {
    return null;
  }
}

// Read the puzzle, entries and notes a shared link carries; the clock of the saved game when
// it is the same puzzle.
async function readUrl() {
  const params = new URLSearchParams(location.search);
  const puzzle = params.get("p");
  if (!puzzle) return false;
  const answer = await api("parse", { puzzle });
  setShape(answer.board.size, answer.board.box, answer.board.symbols, answer.board.rules);
  answer.board.cells.forEach((v, cell) => {
    state.values[cell] = v;
    state.kinds[cell] = v ? "given" : "";
  });
  state.editing = answer.board.givens === 0 && !answer.board.rules.variant;
  const saved = savedGame();
  const entries = params.get("v") || "";
  const kinds = saved && saved.values.length === state.values.length ? saved.kinds : [];
  if (entries.length === state.values.length) {
    [...entries].forEach((symbol, cell) => {
      const v = state.symbols.indexOf(symbol) + 1;
      if (v && state.kinds[cell] !== "given") {
        state.values[cell] = v;
        state.kinds[cell] = kinds[cell] && kinds[cell] !== "given" ? kinds[cell] : "entry";
      }
    });
  }
  const cells = state.values.length;
  state.corner = unpackMasks(params.get("nc"), cells);
  state.centre = unpackMasks(params.get("nm"), cells);
  state.eliminated = unpackMasks(params.get("x"), cells);
  const same = saved && saved.size === state.size && JSON.stringify(saved.values) === JSON.stringify(state.values);
  state.elapsed = same ? saved.elapsed || 0 : 0;
  buildPad();
  changed();
  say(`Read a ${state.size}x${state.size} board${state.rules.variant ? " with " + variantWords() : ""} from the address.`);
  return true;
}

// Resume the game saved in the browser; false when there is none.
function resumeSaved() {
  const game = savedGame();
  if (!game || !game.rules) return false;
  setShape(game.size, game.box, game.symbols, game.rules);
  restore(game);
  state.elapsed = game.elapsed || 0;
  buildPad();
  changed();
  say("Welcome back: the game is as you left it.");
  return true;
}

// -- the clock ------------------------------------------------------------------------------

// Milliseconds played.
function clockMs() {
  return state.elapsed + (state.since === null ? 0 : Date.now() - state.since);
}

// "m:ss" (or "h:mm:ss") for milliseconds.
function clockText(ms) {
  const s = Math.floor(ms / 1000);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

function startClock() {
  if (state.since === null) state.since = Date.now();
  tick();
}

function stopClock() {
  state.elapsed = clockMs();
  state.since = null;
  tick();
}

function resetClock() {
  state.elapsed = 0;
  state.since = null;
  state.paused = false;
}

// Show the time played.
function tick() {
  $("timer").textContent = clockText(clockMs());
}

// Pause (the board hidden, the clock stopped) or resume.
function pause(on = !state.paused) {
  state.paused = on;
  if (on) stopClock();
  $("pause").textContent = on ? "Resume" : "Pause";
  $("pause").setAttribute("aria-pressed", String(on));
  $("paused-note").hidden = !on;
  changed();
}

// -- the buttons ----------------------------------------------------------------------------

// A board whose rules the techniques do not cover says so, instead of a hint (true then).
function refusedByTechniques(what) {
  const why = state.rules.techniques;
  if (!why) return false;
  say(`${what} needs the human-style techniques, and ${why.replace(/^the human-style techniques /, "they ")}. Reveal cell fills a cell from the solution.`, true);
  return true;
}

// Check: is the puzzle valid and unique, and are the entries and notes right so far?
async function check() {
  const answer = await api("count", { ...puzzleBody(true), limit: 2 });
  if (answer.status !== "solved") {
    render();
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  const solution = answer.solution.cells;
  const wrong = [];
  const notes = [];
  state.values.forEach((v, cell) => {
    if (v && v !== solution[cell]) wrong.push(cell);
    const marked = state.corner[cell] | state.centre[cell];
    if (!v && marked && !(marked & bit(solution[cell]))) notes.push(cell);
  });
  state.wrong = new Set(wrong.concat(notes));
  render();
  const filled = state.values.filter((v, cell) => v && state.kinds[cell] !== "given").length;
  const parts = [];
  if (wrong.length) parts.push(`${wrong.length} of ${filled} entries ${wrong.length === 1 ? "is" : "are"} wrong`);
  if (notes.length) parts.push(`the notes of ${notes.map(cellName).join(", ")} leave out the cell's value`);
  if (parts.length) say(`The puzzle is valid and unique. ${parts.join("; ")} (marked red).`, true);
  else say(`The puzzle is valid and has exactly one solution; ${filled ? `all ${filled} entries are right so far` : "no entries yet"}.`);
}

// Solve: fill every cell with the solution of the givens (undo takes it back).
async function solve() {
  const answer = await api("solve", puzzleBody(true));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  commit("Solve", () => {
    answer.solution.cells.forEach((v, cell) => {
      if (state.kinds[cell] !== "given" && state.values[cell] !== v) place(cell, v, "solver");
    });
  });
  say("Solved: the solution is filled in. Undo (Ctrl+Z) takes it back.");
}

// Reveal cell: the solution's value in the selected cell, as a hint.
async function reveal() {
  const cell = state.selected;
  if (state.values[cell] && state.kinds[cell] === "given") {
    say(`${cellName(cell)} is a given; select an empty cell to reveal.`);
    return;
  }
  const answer = await api("solve", puzzleBody(true));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  const v = answer.solution.cells[cell];
  commit(`revealing ${cellName(cell)}`, () => place(cell, v, "hint"));
  say(`${cellName(cell)} is ${state.symbols[v - 1]}.`);
}

// The candidates the techniques start from: every cell's, when steps took some out or the
// board starts from pencil marks; else none (the server computes the same).
function candidateBody(body) {
  if (state.eliminated.some(Boolean) || geo.start) body.candidates = state.values.map((v, cell) => valuesOf(candidates(cell)));
  return body;
}

// The next step on the board as it stands, or null.
async function nextStep() {
  const answer = await api("hint", candidateBody(puzzleBody(false)));
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
  if (refusedByTechniques("A hint")) return;
  if (state.explanation) leave();
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

// Apply step: carry out the hinted step (asking for one if none is shown), undoably.
async function apply() {
  if (refusedByTechniques("Apply step")) return;
  const step = state.hint ? state.hint.step : await nextStep();
  if (!step) return;
  commit(step.technique, () => applyStep(step));
  if (state.values.includes(0)) say(`Applied: ${step.text}`);
}

// Explain: every step from this position to the end, to go through forward and back.
async function explain() {
  if (refusedByTechniques("Explain")) return;
  const answer = await api("explain", candidateBody(puzzleBody(false)));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The board"), answer.status !== "unknown");
    return;
  }
  state.hint = null;
  state.explanation = { steps: answer.steps, index: 0, start: snapshot("Explain"), solved: answer.solved, rating: answer.rating };
  const rest = answer.rating ? ` Difficulty of the rest, from this position: ${answer.rating.level} (score ${answer.rating.score}); Rate gives the whole puzzle's.` : "";
  say(`${answer.steps.length} steps from this position; ${answer.solved ? "the techniques solve it" : "then no technique applies"}.${rest}`);
  showStep();
}

// Go to step `index` of the explanation: replay the steps before it from the start.
function goTo(index) {
  const e = state.explanation;
  if (!e) return;
  index = Math.max(0, Math.min(index, e.steps.length));
  restore(e.start);
  for (let k = 0; k < index; k++) applyStep(e.steps[k]);
  e.index = index;
  showStep();
}

// Leave the hint or the explanation; an explanation's board goes back to where it started,
// unless `keep` (Play from here), which undo can take back.
function leave(keep = false) {
  const e = state.explanation;
  state.hint = null;
  state.explanation = null;
  if (e && keep && e.index > 0) {
    const shown = snapshot("Play from here");
    restore(e.start);
    commit(`playing on from step ${e.index} of the explanation`, () => restore(shown));
    say(`Playing on from step ${e.index}; Undo (Ctrl+Z) goes back to where the explanation started.`);
    return;
  }
  if (e) restore(e.start);
  changed();
}

// Rate: the puzzle's level and score, from its givens.
async function rate() {
  if (refusedByTechniques("Rating")) return;
  const answer = await api("rate", puzzleBody(true));
  if (answer.status !== "solved") {
    say(unsolvedText(answer, "The puzzle"), answer.status !== "unknown");
    return;
  }
  const used = Object.entries(answer.techniques).map(([name, k]) => `${name} x${k}`).join(", ");
  say(`Rating of the puzzle, from its givens: ${answer.level} (score ${answer.score})${answer.solved ? "" : ", with brute force where no technique applies"}: ${used}.`);
}

// The generator's request for a size and level, with all the time the server allows (its
// defaults make a 25x25 quick: not minimal).
function generateBody(size, level) {
  const time = state.info ? state.info.limits.max_time_limit : 10;
  return { size, level: level || null, time_limit: time };
}

// Generate: a new puzzle of the chosen size and level (undo brings the old board back).
async function generate() {
  const size = Number($("size").value);
  const level = $("level").value;
  const answer = await api("generate", generateBody(size, level));
  if (!answer.puzzle) {
    say(`No ${level} ${size}x${size} puzzle within ${answer.budget.time_limit} s. Any level is quick at every size.`, true);
    return;
  }
  loadBoard(answer.puzzle, "Generate");
  document.body.dataset.seed = String(answer.seed);
  const minimal = answer.minimal === false ? " (not minimal: carving a minimal one of this size takes minutes)" : "";
  say(`A new ${size}x${size} puzzle${level ? " at level " + level : ""}: ${answer.puzzle.givens} givens${minimal}. Undo (Ctrl+Z) brings the last board back.`);
}

// The note under Level: a level at a size where rating is slow says so before it starts.
function levelNote() {
  const size = Number($("size").value);
  const slow = $("level").value && size >= 16;
  $("level-note").hidden = !slow;
  $("level-note").textContent = slow ? `Slow: a ${size}x${size} puzzle at a chosen level can take the whole ${state.info ? state.info.limits.max_time_limit : 10} s and still fail. "any level" takes under a second.` : "";
}

// Print sheet: several new puzzles of the chosen size and level on one page.
async function printSheet() {
  const size = Number($("size").value);
  const level = $("level").value;
  const count = size >= 16 ? 2 : size >= 9 ? 6 : 8;
  const boards = [];
  for (let k = 0; k < count; k++) {
    $("busy-text").textContent = `Making puzzle ${k + 1} of ${count}...`;
    const answer = await api("generate", generateBody(size, level));
    if (!answer.puzzle) throw new Error(`No ${level} ${size}x${size} puzzle within the time allowed: choose any level.`);
    boards.push(answer.puzzle);
  }
  const holder = $("sheet-boards");
  holder.replaceChildren();
  holder.dataset.size = String(size);
  boards.forEach((board, k) => {
    const figure = document.createElement("figure");
    figure.innerHTML = staticBoard(board);
    const caption = document.createElement("figcaption");
    caption.textContent = `${k + 1}. ${size}x${size}${level ? ", " + level : ""}, ${board.givens} givens`;
    figure.appendChild(caption);
    holder.appendChild(figure);
  });
  $("sheet-title").textContent = `${count} sudokit puzzles, ${size}x${size}${level ? ", level " + level : ""}`;
  $("sheet").hidden = false;
  document.body.classList.add("with-sheet");
  say(`The print sheet holds ${count} new puzzles: Print prints it alone.`);
  $("sheet").scrollIntoView();
}

// A board drawn alone, without play (the print sheet's), as markup.
function staticBoard(board) {
  const n = board.size;
  const size = cellSide(n);
  const margin = 3;
  const side = n * size + 2 * margin;
  const tables = tablesOf(board.rules, n);
  const parts = board.cells.map((v, cell) => {
    const x = margin + (cell % n) * size;
    const y = margin + Math.floor(cell / n) * size;
    const bg = tag("rect", { class: `bg ${tables.shade.get(cell) || ""}`, x, y, width: size, height: size });
    return v ? bg + tag("text", { class: "value given", x: x + size / 2, y: y + size / 2 + size * 0.21, "font-size": size * 0.6, "text-anchor": "middle" }, board.symbols[v - 1]) : bg;
  });
  const label = `${n}x${n} puzzle, ${board.givens} givens`;
  return tag("svg", { xmlns: SVG, viewBox: `0 0 ${side} ${side}`, role: "img", "aria-label": label }, "", parts.join("") + rulesMarkup(tables, n, size, margin));
}

// Canonical form: the text every equivalent puzzle shares.
async function canonical() {
  const answer = await api("canonical", puzzleBody(true));
  say(`Canonical form: ${answer.canonical}`);
}

// Copy link: the address of this position to the clipboard (shown to copy by hand if refused).
async function copyLink() {
  updateUrl();
  try {
    await navigator.clipboard.writeText(location.href);
    $("link").hidden = true;
    say("The link to this position, notes included, is on the clipboard.");
  } catch (_) {
    $("link").value = location.href;
    $("link").hidden = false;
    $("link").select();
    say("The browser keeps the clipboard closed: the link is in the box, selected, to copy.");
  }
}

// Load: read the text pasted in any format; an error is shown where it is in the text.
async function load(text) {
  const area = $("paste");
  area.removeAttribute("aria-invalid");
  $("paste-error").textContent = "";
  try {
    const answer = await api("parse", { puzzle: text });
    loadBoard(answer.board, "Load");
    const rules = answer.board.rules.variant ? ` with ${variantWords()}` : "";
    say(`Read a ${answer.board.size}x${answer.board.size} board${rules} (${answer.format} format), ${answer.board.givens} givens. Undo (Ctrl+Z) brings the last board back.`);
  } catch (error) {
    if (error.name === "AbortError") throw error;
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

// A new empty board of a size, for typing a puzzle in (undo brings the old one back).
function newBoard(size) {
  commit("New board", () => {
    setShape(size, defaultBox(size), defaultSymbols(size));
    state.editing = true;
    state.selected = 0;
    buildPad();
    resetClock();
  });
  say(`A new ${size}x${size} board: type the givens, then press Play. Undo (Ctrl+Z) brings the last board back.`);
  $("board").focus();
}

// The size list: an empty board takes the size at once; a board with a puzzle keeps it (the
// size is for New board and Generate), so a stray arrow key on the list loses nothing.
function sizeChosen() {
  const size = Number($("size").value);
  levelNote();
  if (size === state.size) return;
  const used = state.values.some(Boolean) || state.corner.some(Boolean) || state.centre.some(Boolean) || state.rules.variant;
  if (!used) {
    setShape(size, defaultBox(size), defaultSymbols(size));
    state.editing = true;
    buildPad();
    changed();
    return;
  }
  say(`Size ${size}x${size} chosen for New board and Generate; the board on show stays until then.`);
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

// -- the keyboard ---------------------------------------------------------------------------

// The value a key types on this board, or 0 (Shift and a digit reads the digit's key).
function valueOfKey(event) {
  let key = event.key;
  if (event.shiftKey && /^Digit\d$/.test(event.code)) key = event.code.slice(5);
  if (key.length !== 1) return 0;
  let index = state.symbols.indexOf(key);
  if (index < 0) index = state.symbols.indexOf(key.toUpperCase());
  return index + 1;
}

// Keys anywhere on the page but in a text field or a list: undo and redo; move, fill, empty,
// notes on the board; step through an explanation; leave a hint or it. A button keeps Enter
// and Space, so the board keeps the keyboard after any button.
function onKey(event) {
  const field = event.target.closest && event.target.closest("textarea, input[type=text], select");
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !field) {
    const key = event.key.toLowerCase();
    if (key === "z" || key === "y") {
      event.preventDefault();
      undo(key === "y" || event.shiftKey);
    }
    return; // Ctrl+V and the browser's own keys
  }
  if (event.ctrlKey || event.metaKey || event.altKey || field) return;
  const control = event.target.closest && event.target.closest("button, summary, a, input");
  if (control && (event.key === " " || event.key === "Enter")) return;
  if (event.key === "]" || event.key === "[") {
    event.preventDefault();
    if (state.explanation) goTo(state.explanation.index + (event.key === "]" ? 1 : -1));
    return;
  }
  if (event.key === "Escape") {
    leave();
    return;
  }
  if (control && event.key === "Tab") return;
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
  const value = valueOfKey(event);
  if (value) {
    event.preventDefault();
    enter(value, event.shiftKey ? "corner" : state.noteMode);
  } else if (["Backspace", "Delete", "0", "."].includes(event.key)) {
    event.preventDefault();
    setCell(state.selected, 0);
  } else if (event.key === " ") {
    event.preventDefault();
    cycleNotes();
  }
}

// Digits, corner notes, centre notes in turn (Space, or the Notes button).
function cycleNotes() {
  state.noteMode = NOTE_MODES[(NOTE_MODES.indexOf(state.noteMode) + 1) % NOTE_MODES.length];
  const words = { "": "Digits: a symbol fills the cell.", corner: "Corner notes: a symbol toggles a corner note.", centre: "Centre notes: a symbol toggles a centre note." };
  say(words[state.noteMode]);
  render();
}

// -- setter mode ----------------------------------------------------------------------------

// Setter mode on or off (the button, remembered with the settings).
function toggleSetter(on = !setter.on) {
  setter.on = on;
  showSetter();
  saveSettings();
  setterStop();
  setter.checked = null;
  setter.marks = new Map();
  setter.adds = new Map();
  if (on) {
    say("Setter mode: as you enter givens, this line says whether they have no solution, one or several, and the board marks the cells to look at.");
    setterChanged();
  } else {
    delete document.body.dataset.setter;
    say("Setter mode off.");
  }
  render();
}

function showSetter() {
  $("setter").setAttribute("aria-pressed", String(setter.on));
  $("setter-legend").hidden = !setter.on;
}

// Forget the question in flight or waiting: its answer, if one comes, is ignored.
function setterStop() {
  clearTimeout(setter.timer);
  setter.timer = null;
  if (setter.controller) setter.controller.abort();
  setter.controller = null;
  setter.round++;
}

// After any change: when the givens (or the board's rules) differ from those last asked
// about, the old marks go and the question is asked once they rest for SETTER_WAIT_MS.
function setterChanged() {
  if (!setter.on) return;
  const key = JSON.stringify(puzzleBody(true));
  if (key === setter.checked) return;
  setter.checked = key;
  setterStop();
  setter.marks = new Map();
  setter.adds = new Map();
  document.body.dataset.setter = "checking";
  setter.timer = setTimeout(() => setterCheck(key), SETTER_WAIT_MS);
}

// Ask about the givens of `key` (the request body): the answer goes to the status line and
// the board, unless the givens changed meanwhile.
async function setterCheck(key) {
  const round = ++setter.round;
  const controller = new AbortController();
  setter.controller = controller;
  const body = JSON.parse(key);
  const ask = async (endpoint, extra) => {
    const answer = await api(endpoint, { ...body, ...extra }, controller.signal);
    if (round !== setter.round) throw new DOMException("a newer question", "AbortError");
    return answer;
  };
  const slow = setTimeout(() => say("Checking the givens..."), BUSY_AFTER_MS);
  try {
    const [text, error] = await setterVerdict(ask);
    say(text, error);
    render();
  } catch (error) {
    if (error.name !== "AbortError") say(error.message, true);
  } finally {
    clearTimeout(slow);
    if (round === setter.round) {
      setter.controller = null;
      document.body.dataset.setter = "done";
    }
  }
}

// Cells by name ("r1c2, r3c4"), the first twelve.
function cellNames(cells, name = cellName) {
  const shown = cells.slice(0, 12).map(name).join(", ");
  return cells.length > 12 ? `${shown} and ${cells.length - 12} more` : shown;
}

// "1 given", "3 givens".
function givens(k) {
  return `${k} given${k === 1 ? "" : "s"}`;
}

// A count the estimate gives, from its log10: digits below a billion, else "6.67e21".
function aboutNumber(log10) {
  if (log10 < 9) return Math.round(10 ** log10).toLocaleString("en");
  let exponent = Math.floor(log10);
  let mantissa = 10 ** (log10 - exponent);
  if (mantissa >= 9.995) [mantissa, exponent] = [1, exponent + 1];
  return `${mantissa.toFixed(2)}e${exponent}`;
}

// What the givens make, as [the status line, whether it is an error]; the marks are set.
// Counting first tells a board too open to list from one whose solutions are few; then the
// diagnosis says which givens clash, which cells to add, or which givens could go.
async function setterVerdict(ask) {
  const time = (answer) => `within the time allowed (${answer.budget.time_limit} s)`;
  const count = await ask("count", { limit: SETTER_COUNT, time_limit: SETTER_TIME.count });
  if (count.count >= 2 && !count.exhausted) {
    const guess = await ask("estimate", { time_limit: SETTER_TIME.estimate });
    const open = "Too open to list givens to add: enter more givens first.";
    if (guess.hits > 0 && guess.log10 !== null && guess.log10 >= Math.log10(count.count)) return [`About ${aboutNumber(guess.log10)} solutions (an estimate). ${open}`, false];
    return [`At least ${count.count.toLocaleString("en")} solutions; how many more is unknown ${time(guess)}. ${open}`, false];
  }
  const found = await ask("diagnose", { time_limit: SETTER_TIME.diagnose });
  const marks = new Map();
  let text;
  if (found.status === "no solution") {
    for (const c of found.core) marks.set(c, "set-core");
    const fewest = found.proven ? "take any one away and the rest fit" : `maybe fewer of them clash: the time allowed (${found.budget.time_limit} s) ran out`;
    text = `No solution: these ${givens(found.core.length)} clash (marked): ${cellNames(found.core)}; ${fewest}.`;
  } else if (found.status === "several") {
    const solution = found.solutions[0];
    for (const c of found.differing) marks.set(c, "set-differ");
    const how = count.exhausted ? `${count.count.toLocaleString("en")} solutions` : "Several solutions";
    if (found.add && found.add.length) {
      for (const c of found.add) {
        marks.set(c, "set-add");
        setter.adds.set(c, solution[c]);
      }
      const fewest = found.add_proven ? "no fewer would do" : `maybe fewer would do: the time allowed (${found.budget.time_limit} s) ran out`;
      text = `${how}. Adding ${givens(found.add.length)} makes it unique (marked): ${cellNames(found.add, (c) => `${cellName(c)}=${solution[c]}`)}; ${fewest}.`;
    } else {
      text = `${how}. No givens to add were found ${time(found)}; the marked cells differ between two solutions.`;
    }
  } else if (found.status === "solved") {
    if (found.redundant.length) {
      for (const c of found.redundant) marks.set(c, "set-spare");
      const more = found.proven ? "" : ` (maybe more: not every given was tried ${time(found)})`;
      text = `Unique, but not minimal: each of these ${givens(found.redundant.length)} could go, one at a time, and the solution stays unique (marked)${more}: ${cellNames(found.redundant)}.`;
    } else if (found.proven) text = "Unique, and minimal: every given is needed.";
    else text = `Unique; whether every given is needed is unknown ${time(found)}.`;
  } else {
    text = `Unknown ${time(found)}: whether these givens have a solution is not known yet.`;
  }
  setter.marks = marks;
  return [text, found.status === "no solution"];
}

// -- settings -------------------------------------------------------------------------------

// The theme and the check boxes, from the browser's storage.
function loadSettings() {
  let settings = {};
  try {
    settings = JSON.parse(localStorage.getItem(SETTINGS) || "{}") || {};
  } catch (_) {
    settings = {};
  }
  if (settings.theme) document.documentElement.dataset.theme = settings.theme;
  if (typeof settings.candidates === "boolean") $("show-candidates").checked = settings.candidates;
  if (typeof settings.autoNotes === "boolean") $("auto-notes").checked = settings.autoNotes;
  setter.on = settings.setter === true;
  showTheme();
  showSetter();
}

function saveSettings() {
  const settings = { theme: document.documentElement.dataset.theme || "", candidates: $("show-candidates").checked, autoNotes: $("auto-notes").checked, setter: setter.on };
  try {
    localStorage.setItem(SETTINGS, JSON.stringify(settings));
  } catch (_) {
    // settings stay for this visit
  }
}

// Whether the page is dark now (the chosen theme, else the system's).
function isDark() {
  const theme = document.documentElement.dataset.theme;
  return theme ? theme === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
}

function showTheme() {
  $("theme").setAttribute("aria-pressed", String(isDark()));
}

// -- start ----------------------------------------------------------------------------------

// Wire the page to the API: what the server offers, the buttons, the keys, the address.
async function start() {
  loadSettings();
  setShape(9, [3, 3], "123456789");
  buildPad();
  const buttons = { check, solve, hint, apply, reveal, explain, rate, generate, canonical };
  const names = { check: "Check", solve: "Solve", hint: "Hint", apply: "Apply step", reveal: "Reveal cell", explain: "Explain", rate: "Rate", generate: "Generate", canonical: "Canonical form" };
  for (const [id, action] of Object.entries(buttons)) $(id).addEventListener("click", () => run(names[id], action));
  $("print-sheet").addEventListener("click", () => run("the print sheet", printSheet));
  $("sheet-print").addEventListener("click", () => window.print());
  $("sheet-close").addEventListener("click", () => {
    $("sheet").hidden = true;
    document.body.classList.remove("with-sheet");
  });
  $("cancel").addEventListener("click", () => busy && busy.controller.abort());
  $("load").addEventListener("click", () => run("reading the text", () => load($("paste").value)));
  $("export").addEventListener("click", () => {
    $("paste").value = puzzleText(false);
  });
  $("copy-link").addEventListener("click", copyLink);
  $("back").addEventListener("click", () => goTo(state.explanation.index - 1));
  $("forward").addEventListener("click", () => goTo(state.explanation.index + 1));
  $("done").addEventListener("click", () => leave());
  $("keep").addEventListener("click", () => leave(true));
  $("clear").addEventListener("click", () => newBoard(Number($("size").value)));
  $("size").addEventListener("change", sizeChosen);
  $("level").addEventListener("change", levelNote);
  $("edit").addEventListener("click", () => {
    state.editing = !state.editing;
    say(state.editing ? "Typing givens: the values typed make the puzzle." : "Playing: the values typed are your entries.");
    changed();
  });
  $("show-candidates").addEventListener("change", () => {
    saveSettings();
    render();
  });
  $("auto-notes").addEventListener("change", saveSettings);
  $("notes").addEventListener("click", cycleNotes);
  $("setter").addEventListener("click", () => toggleSetter());
  $("erase").addEventListener("click", () => setCell(state.selected, 0));
  $("undo").addEventListener("click", () => undo());
  $("redo").addEventListener("click", () => undo(true));
  $("pause").addEventListener("click", () => pause());
  $("theme").addEventListener("click", () => {
    document.documentElement.dataset.theme = isDark() ? "light" : "dark";
    showTheme();
    saveSettings();
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", showTheme);
  $("pad").addEventListener("click", (event) => {
    const button = event.target.closest("button.digit");
    if (button) enter(Number(button.dataset.value));
  });
  $("board").addEventListener("pointerdown", (event) => {
    const g = event.target.closest("g.cell");
    if (g) select(Number(g.dataset.cell));
  });
  document.addEventListener("keydown", onKey);
  $("board").addEventListener("paste", (event) => {
    const text = event.clipboardData.getData("text");
    event.preventDefault();
    if (text.trim()) {
      $("paste").value = text;
      run("reading the text", () => load(text));
    }
  });
  window.addEventListener("resize", render);
  window.addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) save();
  });
  setInterval(() => {
    if (state.since !== null) tick();
  }, 1000);
  render();
  try {
    const response = await fetch("/api/info");
    state.info = await response.json();
    $("version").textContent = `version ${state.info.version}`;
    $("generate-row").hidden = !state.info.capabilities.generate;
    for (const level of state.info.levels) $("level").add(new Option(level, level));
  } catch (error) {
    say(`The server does not answer: ${error.message}`, true);
  }
  await run("reading the address", async () => {
    if (!(await readUrl())) resumeSaved();
  });
  changes.undo = [];
  changes.redo = [];
  setterChanged(); // an empty board, neither read nor resumed, is asked about too
  render();
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", start);
