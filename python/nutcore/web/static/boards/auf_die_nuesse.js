// Auf die Nüsse!: the board spaces with each seat's squirrels, the face-up slots, the start track,
// the roll, and each seat's stores, kept jokers and points. Auf die Nüsse! has perfect
// information, so the view is the whole state (docs/rules/auf_die_nuesse.md, "Canonical JSON").
import {
  el, label, svgRoot, legalByString, makeTarget, makeSelect, seatColor, seatLight, seatName, footer, lastString, isNum, arr, pawn,
  allMatch, chip, onEscape,
} from "./common.js";

const MOVE_PATTERNS = [/^roll$/, /^stop$/, /^space \d+$/, /^take slot \d+$/, /^store \d+$/, /^joker \S+ as \S+ store \d+$/,
  /^keep joker$/, /^steal seat \d+ store \d+$/, /^no steal$/, /^done$/, /^put [ABDE]$/];

// A store that takes the pending nut in several ways (a joker as either kind, which kept joker) opens a
// chooser; the choice survives re-renders while the legal moves stay the same.
let selection = { key: null, store: null };

// Every move is a place on the board (a space, a slot, a store, the die) or a button drawn on it.
export function boardEntry(legal) {
  return allMatch(legal, MOVE_PATTERNS);
}

const KINDS = ["walnut", "hazelnut", "beechnut", "acorn"];
const KIND_COLORS = { walnut: "#8d5a33", hazelnut: "#e0a040", beechnut: "#b04a4a", acorn: "#5f8a3a" };
const KIND_SHORT = { walnut: "W", hazelnut: "H", beechnut: "B", acorn: "A" };
const DEFAULT_CAPACITIES = [2, 2, 3, 3, 4, 4, 5, 6];
const DEFAULT_VALUES = [5, 5, 10, 10, 15, 15, 20, 30];

// Where each board space is drawn (x centre, y top, width); the rows are the 4-, 3- and 2-areas.
const SPACES = {
  4: { x: 225, y: 40, w: 130, k: 4, note: "any slot" },
  L: { x: 105, y: 112, w: 110, k: 3, note: "slot 0/1" },
  R3: { x: 225, y: 112, w: 110, k: 3, note: "raccoon" },
  Rt: { x: 345, y: 112, w: 110, k: 3, note: "slot 2/3" },
  A: { x: 45, y: 184, w: 82, k: 2, note: "2-4" },
  B: { x: 135, y: 184, w: 82, k: 2, note: "5-6" },
  R: { x: 225, y: 184, w: 82, k: 2, note: "7 raccoon" },
  D: { x: 315, y: 184, w: 82, k: 2, note: "8-9" },
  E: { x: 405, y: 184, w: 82, k: 2, note: "10-12" },
};
const SPACE_H = 58;
const SLOT_X = [45, 135, 315, 405];
const TRACK_DEST = { 2: "A", 3: "A", 4: "A", 5: "B", 6: "B", 7: "R", 8: "D", 9: "D", 10: "E", 11: "E", 12: "E" };

function cardKinds(name) {
  if (typeof name !== "string") return [];
  return name.split("/").filter((k) => KINDS.includes(k));
}

// A card: a kind in its colour, a joker split between its two kinds, an empty slot dashed.
function drawCard(parent, x, y, w, h, name) {
  const g = el("g", {}, parent);
  const kinds = cardKinds(name);
  if (kinds.length === 0) {
    el("rect", { x, y, width: w, height: h, rx: 5, fill: "none", stroke: "#aaa", "stroke-dasharray": "4 3" }, g);
    label(g, x + w / 2, y + h / 2, "empty", { class: "tiny muted" });
    return g;
  }
  if (kinds.length === 1) {
    el("rect", { x, y, width: w, height: h, rx: 5, fill: KIND_COLORS[kinds[0]], stroke: "#333" }, g);
  } else {
    el("rect", { x, y, width: w, height: h, rx: 5, fill: KIND_COLORS[kinds[1]], stroke: "#333" }, g);
    el("path", { d: `M${x + 5},${y} H${x + w} L${x},${y + h} V${y + 5} Q${x},${y} ${x + 5},${y} Z`, fill: KIND_COLORS[kinds[0]] }, g);
  }
  const text = kinds.length === 1 ? kinds[0] : `${KIND_SHORT[kinds[0]]}/${KIND_SHORT[kinds[1]]} joker`;
  el("rect", { x: x + 3, y: y + h / 2 - 8, width: w - 6, height: 16, rx: 3, fill: "#fff", "fill-opacity": 0.85 }, g);
  label(g, x + w / 2, y + h / 2, text, { class: "tiny bold" });
  return g;
}

function storeIsFull(store, capacity) {
  return store && store.kind === null && isNum(store.nuts) && store.nuts > 0 && store.nuts >= capacity;
}

function seatPoints(stores, capacities, values) {
  let points = 0;
  arr(stores).forEach((st, i) => {
    if (!st) return;
    points += storeIsFull(st, capacities[i]) ? values[i] : (isNum(st.nuts) ? st.nuts : 0);
  });
  return points;
}

export function render(container, view, ctx) {
  ctx = ctx || {};
  const params = ctx.params || {};
  const capacities = Array.isArray(params.store_capacities) ? params.store_capacities : DEFAULT_CAPACITIES;
  const values = Array.isArray(params.store_values) ? params.store_values : DEFAULT_VALUES;
  const players = isNum(view.players) ? view.players : arr(view.supply).length;
  const legal = legalByString(ctx);
  const last = lastString(ctx);
  const svg = svgRoot(container, 800, 560, "Auf die Nüsse! board");

  const phase = view.phase || "";
  const mover = isNum(view.current_player) && view.current_player >= 0 ? view.current_player : null;
  let head = `Auf die Nüsse! — turn ${(view.turn ?? 0) + 1}`;
  if (isNum(view.active) && view.stage !== "setup") {
    const who = seatName(view.active, ctx);
    head += who === "You" ? " · your turn" : ` · ${who}'s turn`;
  }
  if (view.stage === "setup") head += " · setting up";
  if (view.end_triggered) head += " · the draw pile is empty: the game is ending";
  el("text", { x: 12, y: 22, class: "bold", "font-size": 15 }, svg, head);

  // --- the board spaces ---
  const board = view.board || {};
  for (const [name, sp] of Object.entries(SPACES)) {
    const g = el("g", { "data-space": name }, svg);
    const checking = view.check_space === name;
    el("rect", {
      x: sp.x - sp.w / 2, y: sp.y, width: sp.w, height: SPACE_H, rx: 8,
      fill: name.startsWith("R") ? "#ece4d6" : "#e8efe0", stroke: checking ? "#7b1fa2" : "#8a9a7a",
      "stroke-width": checking ? 3 : 1.2, class: "hit-base",
    }, g);
    label(g, sp.x - sp.w / 2 + 12, sp.y + 11, name, { class: "bold", "font-size": 12 });
    label(g, sp.x + sp.w / 2 - 14, sp.y + 11, `k${sp.k}`, { class: "tiny muted" });
    label(g, sp.x, sp.y + SPACE_H - 8, sp.note, { class: "tiny muted" });
    const counts = arr(board[name]);
    const present = counts.map((c, s) => [s, c]).filter(([, c]) => isNum(c) && c > 0);
    const step = Math.min(22, (sp.w - 12) / Math.max(1, present.length));
    present.forEach(([s, c], i) => {
      pawn(g, sp.x - ((present.length - 1) * step) / 2 + i * step, sp.y + 31, s, 9, c);
    });
    if (last === `put ${name}`) g.classList.add("last");
    const put = legal.get(`put ${name}`);
    if (put !== undefined) {
      el("rect", { x: sp.x - sp.w / 2, y: sp.y, width: sp.w, height: SPACE_H, rx: 8, fill: "#ff7a00", "fill-opacity": 0.12, class: "hit" }, g);
      makeTarget(g, put, ctx, `put ${name}`);
    }
  }

  // --- the face-up slots (under A, B, D, E) and the draw pile under R ---
  const faceUp = arr(view.face_up);
  for (let i = 0; i < 4; i++) {
    const g = el("g", { "data-slot": i }, svg);
    const x = SLOT_X[i] - 34;
    const y = 250;
    drawCard(g, x, y, 68, 50, faceUp[i]);
    label(g, SLOT_X[i], y + 60, `slot ${i}`, { class: "tiny muted" });
    if (view.refill_slot === i) el("rect", { x: x - 3, y: y - 3, width: 74, height: 56, rx: 6, fill: "none", stroke: "#7b1fa2", "stroke-width": 2, "stroke-dasharray": "3 2" }, g);
    if (last === `take slot ${i}`) el("rect", { x: x - 3, y: y - 3, width: 74, height: 56, rx: 6, fill: "none", class: "last" }, g);
    const take = legal.get(`take slot ${i}`);
    if (take !== undefined) {
      el("rect", { x: x - 3, y: y - 3, width: 74, height: 56, rx: 6, fill: "#ff7a00", "fill-opacity": 0.1, class: "hit" }, g);
      makeTarget(g, take, ctx, `take slot ${i}`);
    }
  }
  const pile = el("g", {}, svg);
  el("rect", { x: 197, y: 250, width: 56, height: 50, rx: 5, fill: "#6d4c41", stroke: "#333" }, pile);
  label(pile, 225, 266, `${view.draw_pile ?? "?"}`, { class: "bold", fill: "#fff", style: "fill:#fff" });
  label(pile, 225, 284, "draw pile", { class: "tiny", style: "fill:#fff" });
  label(pile, 225, 310, `reserve ${view.reserve ?? "?"}`, { class: "tiny muted" });

  // --- the start track 2..12 (only the active seat's squirrels stand there) ---
  const track = new Set(arr(view.start_track));
  const active = isNum(view.active) ? view.active : 0;
  el("text", { x: 12, y: 336, class: "small bold" }, svg, "Start track");
  for (let n = 2; n <= 12; n++) {
    const cx = 30 + (n - 2) * 39;
    const cy = 360;
    const g = el("g", { "data-start": n }, svg);
    const occupied = track.has(n);
    el("circle", { cx, cy, r: 15, fill: occupied ? seatColor(active) : "#fff", stroke: "#8a9a7a", "stroke-width": 1.2, class: "hit-base" }, g);
    label(g, cx, cy, n, { class: "small bold", style: occupied ? "fill:#fff" : undefined });
    label(g, cx, cy + 23, `→${TRACK_DEST[n]}`, { class: "tiny muted" });
    if (last === `space ${n}`) g.classList.add("last");
    const sp = legal.get(`space ${n}`);
    if (sp !== undefined) {
      el("circle", { cx, cy, r: 18, fill: "#ff7a00", "fill-opacity": 0.15, class: "hit" }, g);
      makeTarget(g, sp, ctx, `space ${n}`);
    }
  }

  // --- the roll and what the phase waits for ---
  const info = el("g", {}, svg);
  el("rect", { x: 10, y: 398, width: 430, height: 120, rx: 8, fill: "#f3efe4", stroke: "#d6cfbd" }, info);
  const dice = el("g", {}, info);
  el("rect", { x: 22, y: 412, width: 44, height: 44, rx: 8, fill: "#fff", stroke: "#555", "stroke-width": 1.5, class: "hit-base" }, dice);
  for (const [dx, dy] of [[-10, -10], [0, 0], [10, 10]]) el("circle", { cx: 44 + dx, cy: 434 + dy, r: 3.5, fill: "#2e7d32" }, dice);
  label(info, 44, 468, "roll", { class: "tiny muted" });
  const roll = legal.get("roll");
  if (roll !== undefined) {
    el("rect", { x: 19, y: 409, width: 50, height: 50, rx: 9, fill: "#ff7a00", "fill-opacity": 0.1, class: "hit" }, dice);
    makeTarget(dice, roll, ctx, "roll");
  }
  const lines = [];
  if (Array.isArray(view.roll_choice)) lines.push(`rolled: space ${view.roll_choice[0]} or ${view.roll_choice[1]}`);
  else if (/^roll /.test(last)) lines.push(`last roll: ${last.slice(5)}`);
  if (phase === "pre_place") lines.push(`${seatName(view.seat, ctx)}: may put ${view.pre_place_left} more squirrel(s) into A, B, D, E`);
  if (view.check_space) lines.push(`collecting at ${view.check_space}${isNum(view.seat) ? `: ${seatName(view.seat, ctx)} collects` : ""}`);
  if (phase === "steal") lines.push(`raccoon: ${seatName(view.seat, ctx)} may steal a nut`);
  if (phase === "kept_jokers" || phase === "final_jokers") lines.push("placing kept jokers");
  if (mover !== null) lines.push(`to move: ${seatName(mover, ctx)}`);
  else if (phase === "terminal") lines.push("game over");
  else lines.push({ roll: "rolling the dice", refill: "a card refills the slot", deal_face_up: "dealing the face-up cards", deal_start_nut: "dealing a start nut" }[phase] || "");
  lines.forEach((t, i) => el("text", { x: 80, y: 420 + i * 16, class: "small" }, info, t));
  if (view.pending) {
    el("text", { x: 330, y: 418, class: "tiny muted" }, info, `to place${isNum(view.seat) ? ` (${seatName(view.seat, ctx)})` : ""}`);
    drawCard(info, 340, 424, 68, 50, view.pending);
  }
  // The moves without a place of their own, as buttons on the board.
  let bx = 22;
  for (const [text, words, w] of [["stop", "stop", 60], ["keep joker", "keep the joker", 120], ["no steal", "steal nothing", 110], ["done", "place no more jokers", 160]]) {
    const a = legal.get(text);
    if (a === undefined) continue;
    chip(info, bx, 482, w, 28, words, a, ctx);
    bx += w + 8;
  }

  // --- the seats: stores, supply, kept jokers, points ---
  const stores = arr(view.stores);
  const panelH = Math.min(128, (518 - 4 * (players - 1)) / Math.max(1, players));
  const jokerMoves = [];
  for (const [s, a] of legal) {
    const m = /^joker (\S+) as (\S+) store (\d+)$/.exec(s);
    if (m) jokerMoves.push({ store: Number(m[3]), action: a, text: s, words: `${m[1].replace("/", " or ")} joker as ${m[2]}` });
  }
  const key = JSON.stringify(arr(ctx.legal).map((m) => m.action));
  if (selection.key !== key) selection = { key, store: null };
  const rerender = () => render(container, view, ctx);
  onEscape(() => {
    if (selection.store !== null) {
      selection.store = null;
      rerender();
    }
  });
  let chooser = null;
  for (let s = 0; s < players; s++) {
    const y0 = 34 + s * (panelH + 4);
    const g = el("g", { "data-seat": s }, svg);
    const moving = mover === s;
    el("rect", { x: 450, y: y0, width: 340, height: panelH, rx: 8, fill: seatLight(s), stroke: moving ? seatColor(s) : "#ccc", "stroke-width": moving ? 3 : 1 }, g);
    const pts = seatPoints(stores[s], capacities, values);
    let title = `${seatName(s, ctx)} · ${pts} pts · supply ${arr(view.supply)[s] ?? "?"}`;
    if (view.david === s) title += " · David";
    el("circle", { cx: 464, cy: y0 + 13, r: 6, fill: seatColor(s) }, g);
    el("text", { x: 475, y: y0 + 17, class: "small bold" }, g, title);
    const sw = 40;
    const sh = Math.min(60, panelH - 42);
    arr(stores[s]).forEach((st, i) => {
      if (!st) return;
      const x = 458 + i * (sw + 1.5);
      const y = y0 + 24;
      const sg = el("g", { "data-store": `${s}:${i}` }, g);
      const cap = capacities[i] ?? "?";
      const full = storeIsFull(st, capacities[i]);
      const fill = full ? "#cfd8dc" : st.kind ? KIND_COLORS[st.kind] || "#bbb" : "#fff";
      el("rect", { x, y, width: sw, height: sh, rx: 4, fill, "fill-opacity": st.kind ? 0.85 : 1, stroke: "#777" }, sg);
      label(sg, x + sw / 2, y + 9, full ? "full" : st.kind ? KIND_SHORT[st.kind] || st.kind : "·", { class: "tiny bold", style: st.kind ? "fill:#fff" : undefined });
      label(sg, x + sw / 2, y + sh / 2 + 2, full ? `${values[i] ?? "?"}` : `${st.nuts}/${cap}`, { class: "small bold", style: st.kind ? "fill:#fff" : undefined });
      label(sg, x + sw / 2, y + sh - 8, full ? "pts" : `${values[i] ?? "?"} pts`, { class: "tiny", style: st.kind ? "fill:#fff" : undefined });
      if (isNum(st.jokers) && st.jokers > 0) label(sg, x + sw - 7, y + 9, `J${st.jokers}`, { class: "tiny bold", style: "fill:#fff" });
      let action;
      let tip;
      const lastHere = ctx.last && ctx.last.player === s && (last === `store ${i}` || new RegExp(`^joker \\S+ as \\S+ store ${i}$`).test(last));
      if (lastHere || last === `steal seat ${s} store ${i}`) el("rect", { x, y, width: sw, height: sh, rx: 4, fill: "none", class: "last" }, sg);
      if (mover === s) {
        // The ways into this store: the pending nut, or a joker as one of its kinds (which joker, if several).
        const options = [];
        if (legal.has(`store ${i}`)) options.push({ action: legal.get(`store ${i}`), text: `store ${i}`, words: "the nut" });
        options.push(...jokerMoves.filter((m) => m.store === i));
        if (options.length === 1) [action, tip] = [options[0].action, `put it in store ${i}`];
        else if (options.length > 1) {
          const chosen = selection.store === i;
          el("rect", { x: x - 1, y: y - 1, width: sw + 2, height: sh + 2, rx: 4, fill: "#ff7a00", "fill-opacity": 0.1, class: "hit" }, sg);
          if (chosen) {
            sg.classList.add("chosen");
            chooser = { store: i, options };
          }
          makeSelect(sg, () => {
            selection.store = chosen ? null : i;
            rerender();
          }, chosen ? `store ${i} chosen: pick how below (or here again to cancel)` : `store ${i}: choose it, then how the joker counts`,
          options.map((o) => o.action), ctx);
        }
      }
      const steal = legal.get(`steal seat ${s} store ${i}`);
      if (steal !== undefined) [action, tip] = [steal, `steal seat ${s} store ${i}`];
      if (action !== undefined) {
        el("rect", { x: x - 1, y: y - 1, width: sw + 2, height: sh + 2, rx: 4, fill: "#ff7a00", "fill-opacity": 0.1, class: "hit" }, sg);
        makeTarget(sg, action, ctx, tip);
      }
    });
    const kept = view.kept_jokers && view.kept_jokers[s] ? Object.entries(view.kept_jokers[s]).filter(([, c]) => c > 0) : [];
    const keptText = kept.length ? kept.map(([n, c]) => `${n} ×${c}`).join(", ") : "none";
    el("text", { x: 460, y: y0 + panelH - 7, class: "tiny" }, g, `kept jokers: ${keptText}`);
  }

  // --- the chooser for a store with several ways in: drawn over the start track and the roll ---
  if (chooser) {
    const cg = el("g", { class: "chooser" }, svg);
    el("rect", { x: 10, y: 326, width: 430, height: 192, rx: 10, fill: "#fffdf8", stroke: "#c2185b", "stroke-width": 2 }, cg);
    el("text", { x: 22, y: 348, class: "small bold" }, cg, `Store ${chooser.store}: how does the nut go in?`);
    chooser.options.forEach((o, k) => {
      chip(cg, 22 + (k % 2) * 206, 362 + Math.floor(k / 2) * 40, 198, 32, o.words, o.action, ctx, { tooltip: `${o.words}, store ${chooser.store}` });
    });
    const back = el("g", { class: "chip cancel" }, cg);
    el("rect", { x: 22, y: 478, width: 120, height: 30, rx: 8, fill: "#fff", stroke: "#888", class: "hit" }, back);
    label(back, 82, 493, "cancel", { class: "small" });
    makeSelect(back, () => {
      selection.store = null;
      rerender();
    }, "drop the chosen store", [], ctx);
  }

  // --- legend ---
  const lg = el("g", {}, svg);
  KINDS.forEach((k, i) => {
    el("rect", { x: 12 + i * 82, y: 528, width: 12, height: 12, rx: 2, fill: KIND_COLORS[k] }, lg);
    el("text", { x: 28 + i * 82, y: 538, class: "tiny" }, lg, `${KIND_SHORT[k]} ${k}`);
  });
  el("text", { x: 340, y: 538, class: "tiny muted" }, lg, "n/c: nuts / capacity · J: jokers");
  footer(svg, 12, 554, ctx);
}

// ----- for players: the rules in short, moves in words, why the game ended

export const rules = `
<p>Collect nuts in your eight stores. Squirrels climb the board; where enough of yours gather, they
fetch a nut card.</p>
<h4>Your turn</h4>
<ul>
<li><b>Roll</b> (click the die): three dice give one or two free spaces on the start track (2 to 12);
a squirrel goes there. Roll again, or <b>stop</b>.</li>
<li>If no space is free the roll fails and your squirrels on the start track go home.</li>
<li>When you stop, they climb into the space above them: A (2–4), B (5–6), R (7), D (8–9), E (10–12).</li>
</ul>
<h4>Collecting</h4>
<p>A space needs 2, 3 or 4 of your squirrels (the "k" number in its corner). Then they go home and you
take a face-up card from the slots the space reaches; others' squirrels there climb one row up.
At R (the raccoon) you may also steal a nut from another player's store; the steal marker (David) then
protects that player.</p>
<h4>Stores and points</h4>
<p>A store holds nuts of one kind up to its size (2 to 6). A full store scores its value (5 to 30);
an unfinished one scores 1 a nut. A joker counts as either of its two nuts, and can be kept for later.</p>
<h4>The board</h4>
<ul>
<li>Coloured circles are squirrels, the number on them how many. W, H, B, A: walnut, hazelnut,
beechnut, acorn. "2/3" in a store: 2 nuts of 3; J1: one of them is a joker.</li>
<li>Orange dashed outlines are the moves you can click.</li>
</ul>
<p>When the draw pile runs out, the face-down reserve is used and the game ends after that round.
Most points win.</p>`;

// Each seat's points, store by store: a full store its value, any other 1 a nut (kept jokers score
// nothing; docs/rules/auf_die_nuesse.md, "Scoring").
export function points(view, params) {
  const capacities = params && Array.isArray(params.store_capacities) ? params.store_capacities : DEFAULT_CAPACITIES;
  const values = params && Array.isArray(params.store_values) ? params.store_values : DEFAULT_VALUES;
  const stores = arr(view && view.stores);
  if (!stores.length) return null;
  return stores.map((seat) => {
    const full = [];
    let loose = 0;
    arr(seat).forEach((st, i) => {
      if (!st) return;
      if (storeIsFull(st, capacities[i])) full.push({ label: `full store of ${capacities[i]} (store ${i})`, value: values[i] });
      else if (isNum(st.nuts)) loose += st.nuts;
    });
    return [...full, { label: "nuts in stores not yet full, 1 each", value: loose }];
  });
}

const nutWord = (card) =>
  card.includes("/") ? `a ${card.replace("/", " or ")} joker` : `${/^[aeiou]/.test(card) ? "an" : "a"} ${card}`;

export function describe(text, info) {
  const names = (info && info.names) || [];
  let m;
  if ((m = /^draw (\S+)$/.exec(text))) return `${nutWord(m[1])} is turned up`;
  if (text === "roll fail") return "the roll fails: no free space, the start track empties";
  if ((m = /^roll (\d+) or (\d+)$/.exec(text))) return `rolls: space ${m[1]} or space ${m[2]}`;
  if ((m = /^roll (\d+)$/.exec(text))) return `rolls: a squirrel goes to space ${m[1]}`;
  if (text === "roll") return "rolls again";
  if (text === "stop") return "stops; the squirrels climb";
  if ((m = /^space (\d+)$/.exec(text))) return `puts the squirrel on space ${m[1]}`;
  if ((m = /^put (\S+)$/.exec(text))) return `puts a squirrel on ${m[1]}`;
  if ((m = /^take slot (\d+)$/.exec(text))) return `takes the card in slot ${m[1]}`;
  if ((m = /^store (\d+)$/.exec(text))) return `puts the nut in store ${m[1]}`;
  if ((m = /^joker (\S+) as (\S+) store (\d+)$/.exec(text))) return `plays ${nutWord(m[1])} as ${nutWord(m[2])} in store ${m[3]}`;
  if (text === "keep joker") return "keeps the joker for later";
  if (text === "done") return "places no more jokers";
  if ((m = /^steal seat (\d+) store (\d+)$/.exec(text))) {
    const who = names[Number(m[1])] || `player ${Number(m[1]) + 1}`;
    return `steals a nut from ${who === "You" ? "your" : `${who}'s`} store ${m[2]}`;
  }
  if (text === "no steal") return "steals nothing";
  return null;
}

export function endReason(view) {
  if (view.end_triggered) return "The draw pile ran out: the last nuts were fetched from the 4-area and the kept jokers placed.";
  return "";
}
