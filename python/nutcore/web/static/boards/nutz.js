// Nutz!: the trees with their columns (face-up cards by type, face-down cards as backs marked with
// who played them, and their type where the view holds it: the seat's own, or every one for a host),
// the squirrel cards under the trees, moon tokens, the last tree, the pending predators, and each
// seat's hand (another seat's cards are "hidden" in a seat's view: drawn as backs), display and points.
// The card set (kinds, scoring, predators) comes from ctx.params.cards when given.
import {
  el, label, svgRoot, legalByString, makeTarget, makeSelect, seatColor, seatLight, seatName, footer, lastString, isNum, arr, pawn,
  allMatch, onEscape,
} from "./common.js";

const MOVE_PATTERNS = [/^\S+ (face down )?to tree \d+$/, /^take tree \d+$/, /^apply \S+$/, /^play \S+$/];

// Every move is on the board: a hand card and then a place under a tree, a tree, a predator, a hand card.
export function boardEntry(legal) {
  return allMatch(legal, MOVE_PATTERNS);
}

const KIND_COLORS = {
  hazelnut: "#c98236", acorn: "#8f6f2e", walnut: "#6b4226", berries: "#b0305c", mushrooms: "#8d6e63",
  fox: "#e8702a", owl: "#6a5a8c", marten: "#37474f",
};
const PALETTE = ["#5c6bc0", "#26a69a", "#ab47bc", "#789262", "#8d6e63", "#ec407a", "#29b6f6", "#9e9d24", "#6d4c41", "#546e7a"];
const DEFAULT_PREDATORS = ["fox", "owl", "marten"];

// The summer play's first step (a type from the hand) survives re-renders while the legal moves stay the same.
let selection = { key: null, type: null };

function kindOf(type) {
  return typeof type === "string" ? type.replace(/\*+$/, "") : "";
}

function moonsOf(type) {
  const m = typeof type === "string" ? /\*+$/.exec(type) : null;
  return m ? m[0].length : 0;
}

function kindColor(kind, kinds) {
  if (KIND_COLORS[kind]) return KIND_COLORS[kind];
  const i = kinds.findIndex((k) => k.name === kind);
  return PALETTE[(i >= 0 ? i : kind.length) % PALETTE.length];
}

function moon(parent, x, y, r) {
  el("path", { d: `M${x},${y - r} A${r},${r} 0 1,0 ${x},${y + r} A${r * 0.75},${r} 0 1,1 ${x},${y - r} Z`, fill: "#ffe082", stroke: "#8d6e00", "stroke-width": 0.6 }, parent);
}

// A face-up card of a type; a predator gets a red frame.
function faceUp(parent, x, y, w, h, type, kinds, predators) {
  const kind = kindOf(type);
  const pred = predators.has(kind);
  el("rect", { x, y, width: w, height: h, rx: 5, fill: kindColor(kind, kinds), stroke: pred ? "#c62828" : "#333", "stroke-width": pred ? 2.5 : 1 }, parent);
  // Narrow (hand) cards: a smaller font for long kind names, so that the name stays on the card.
  const size = w < 60 ? Math.min(8, (1.7 * (w - 4)) / Math.max(1, kind.length)) : 11;
  label(parent, x + w / 2, y + h / 2, kind, { class: "bold", "font-size": size.toFixed(1), style: "fill:#fff" });
  for (let i = 0; i < moonsOf(type); i++) moon(parent, x + w - 8 - i * 9, y + 9, 4.5);
  if (pred) label(parent, x + w / 2, y + h - 7, "predator", { class: "tiny", style: "fill:#fff", "font-size": 7 });
}

function back(parent, x, y, w, h, text) {
  el("rect", { x, y, width: w, height: h, rx: 5, fill: "#2e5d3a", stroke: "#1b3a24" }, parent);
  el("rect", { x: x + 3, y: y + 3, width: w - 6, height: h - 6, rx: 3, fill: "none", stroke: "#8fbf8f", "stroke-dasharray": "2 2" }, parent);
  if (text) label(parent, x + w / 2, y + h / 2, text, { class: "tiny", style: "fill:#fff" });
}

function scoreKind(score, c) {
  if (!score || !isNum(c) || c <= 0) return 0;
  if (isNum(score.each)) return score.each * c;
  if (Array.isArray(score.set)) {
    const t = score.set;
    if (c <= t.length) return t[c - 1];
    return t[t.length - 1] + (score.beyond || 0) * (c - t.length);
  }
  if (isNum(score.groups) && score.groups > 0) return Math.floor(c / score.groups) * (score.points || 0);
  return 0;
}

const PHASE_WORDS = {
  squirrels: "dealing squirrel numbers", deal: "dealing cards", summer: "summer: play cards under the trees",
  winter: "winter: take a tree", predators: "the predators strike", final: "the last two cards", terminal: "game over",
};

export function render(container, view, ctx) {
  ctx = ctx || {};
  const params = ctx.params || {};
  const kinds = params.cards && Array.isArray(params.cards.kinds) ? params.cards.kinds : [];
  const predators = new Set(kinds.length ? kinds.filter((k) => k.predator).map((k) => k.name) : DEFAULT_PREDATORS);
  const players = isNum(view.players) ? view.players : arr(view.hands).length;
  const trees = arr(view.trees);
  const legal = legalByString(ctx);
  const last = lastString(ctx);
  const mover = isNum(view.current_player) && view.current_player >= 0 ? view.current_player : null;
  const phase = view.phase || "";

  // Summer plays by type: type -> tree -> {up, down}.
  const plays = new Map();
  for (const [s, a] of legal) {
    const m = /^(\S+) (face down )?to tree (\d+)$/.exec(s);
    if (!m) continue;
    if (!plays.has(m[1])) plays.set(m[1], new Map());
    const t = plays.get(m[1]);
    const j = Number(m[3]);
    if (!t.has(j)) t.set(j, {});
    t.get(j)[m[2] ? "down" : "up"] = { action: a, text: s };
  }
  const key = JSON.stringify(arr(ctx.legal).map((m) => m.action));
  if (selection.key !== key) selection = { key, type: null };
  if (plays.size === 1) selection.type = [...plays.keys()][0];
  if (selection.type !== null && !plays.has(selection.type)) selection.type = null;
  const rerender = () => render(container, view, ctx);
  onEscape(() => {
    if (selection.type !== null && plays.size > 1) {
      selection.type = null;
      rerender();
    }
  });

  const svg = svgRoot(container, 800, 560, "Nutz! board");
  el("text", { x: 12, y: 22, class: "bold", "font-size": 15 }, svg, `Nutz! — round ${view.round ?? 1} · ${PHASE_WORDS[phase] || ""}`);
  const deckSize = isNum(view.deck_size) ? view.deck_size
    : view.deck && typeof view.deck === "object" ? Object.values(view.deck).reduce((a, b) => a + (isNum(b) ? b : 0), 0) : "?";
  let info = `deck ${deckSize} · supply ${view.supply ?? 0} tokens`;
  if (mover !== null) info += ` · to move: ${seatName(mover, ctx)}`;
  else if (phase === "terminal") info += " · game over";
  else info += ` · chance: ${phase === "squirrels" ? "dealing squirrel numbers" : "dealing cards"}`;
  if (plays.size) info += selection.type === null ? " · click a hand card, then a tree" : ` · ${selection.type}: click face up or face down under a tree`;
  el("text", { x: 12, y: 40, class: "small" }, svg, info);

  // --- the trees ---
  const nTrees = Math.max(trees.length, players + 1);
  const colW = Math.min(156, 776 / nTrees);
  const squirrelOf = {};
  arr(view.squirrels).forEach((k, s) => { if (isNum(k)) squirrelOf[k] = s; });
  for (let j = 1; j <= nTrees; j++) {
    const x0 = 12 + (j - 1) * colW;
    const w = colW - 8;
    const column = arr(trees[j - 1]);
    const takenBy = arr(view.taken)[j - 1];
    const isLast = j === nTrees;
    const g = el("g", { "data-tree": j }, svg);
    el("rect", { x: x0, y: 50, width: w, height: 240, rx: 10, fill: isLast ? "#efe7d2" : "#e8efe0", stroke: "#8a9a7a" }, g);
    el("text", { x: x0 + 8, y: 66, class: "small bold" }, g, isLast ? `Tree ${j} (last)` : `Tree ${j}`);
    if (isLast) {
      for (let i = 0; i < (view.last_tree || 0); i++) moon(g, x0 + 12 + i * 10, 78, 4);
      el("text", { x: x0 + 16 + (view.last_tree || 0) * 10, y: 81, class: "tiny muted" }, g, `${view.last_tree ?? 0} token${view.last_tree === 1 ? "" : "s"}`);
    }
    if (isNum(takenBy)) {
      pawn(g, x0 + w - 14, 62, takenBy, 7, takenBy);
      el("text", { x: x0 + w - 24, y: 66, "text-anchor": "end", class: "tiny" }, g, "taken by");
    }
    if (last === `take tree ${j}`) el("rect", { x: x0, y: 50, width: w, height: 240, rx: 10, fill: "none", class: "last" }, g);
    const playedHere = new RegExp(` to tree ${j}$`).test(last) && !/^take /.test(last);
    const take = legal.get(`take tree ${j}`);
    if (take !== undefined) {
      el("rect", { x: x0 - 2, y: 48, width: w + 4, height: 244, rx: 11, fill: "#ff7a00", "fill-opacity": 0.08, class: "hit" }, g);
      makeTarget(g, take, ctx, `take tree ${j}`);
    }
    for (let k = 0; k < 3; k++) {
      const y = 88 + k * 56;
      const card = column[k];
      const cg = el("g", { "data-probe": `tree:${j}:${k}` }, g);
      if (!card) {
        el("rect", { x: x0 + 8, y, width: w - 16, height: 50, rx: 5, fill: "none", stroke: "#b5c0a5", "stroke-dasharray": "4 3" }, cg);
        continue;
      }
      if (card.face_down) {
        // A face-down card: a back with who played it; its type only where the view holds it.
        back(cg, x0 + 8, y, w - 16, 50);
        moon(cg, x0 + 20, y + 12, 5);
        label(cg, x0 + w / 2, y + 16, `face down: ${seatName(card.by, ctx)}`, { class: "tiny", style: "fill:#fff" });
        if (card.card && card.card !== "hidden") label(cg, x0 + w / 2, y + 33, `(${card.card})`, { class: "tiny bold", style: "fill:#ffe082" });
      } else {
        faceUp(cg, x0 + 8, y, w - 16, 50, card.card, kinds, predators);
      }
      if (isNum(card.by)) el("circle", { cx: x0 + w - 16, cy: y + 40, r: 5, fill: seatColor(card.by), stroke: "#fff" }, cg);
      if (playedHere && k === column.length - 1) el("rect", { x: x0 + 6, y: y - 2, width: w - 12, height: 54, rx: 6, fill: "none", class: "last" }, cg);
    }
    // Summer targets: the next free place under the tree, face up (left) and face down (right).
    const opts = selection.type !== null && plays.has(selection.type) ? plays.get(selection.type).get(j) : null;
    if (opts && column.length < 3) {
      const y = 88 + column.length * 56;
      const half = (w - 16) / 2;
      [["up", 0, "face up"], ["down", 1, "face down"]].forEach(([which, i, text]) => {
        const o = opts[which];
        if (!o) return;
        const tg = el("g", {}, g);
        el("rect", { x: x0 + 8 + i * half + 1, y: y + 1, width: half - 2, height: 48, rx: 5, fill: which === "down" ? "#2e5d3a" : "#fff", "fill-opacity": which === "down" ? 0.5 : 0.8, class: "hit" }, tg);
        label(tg, x0 + 8 + i * half + half / 2, y + 25, text, { class: "tiny bold" });
        makeTarget(tg, o.action, ctx, o.text);
      });
    }
    // The squirrel card of this tree and who holds it (it takes tree j's number next round).
    const sg = el("g", {}, g);
    el("rect", { x: x0 + 8, y: 258, width: w - 16, height: 26, rx: 5, fill: "#fff", stroke: "#bbb" }, sg);
    el("text", { x: x0 + 14, y: 275, class: "tiny" }, sg, `squirrel ${j}`);
    if (squirrelOf[j] !== undefined) pawn(sg, x0 + w - 20, 271, squirrelOf[j], 8, squirrelOf[j]);
    if (isLast && view.last_squirrel_token) moon(sg, x0 + w - 36, 271, 6);
  }

  // --- pending predators ---
  let py = 300;
  const pending = arr(view.pending);
  if (pending.length) {
    el("text", { x: 12, y: py + 12, class: "small bold" }, svg, "pending predators:");
    pending.forEach((kind, i) => {
      const g = el("g", {}, svg);
      faceUp(g, 130 + i * 70, py, 64, 20, kind, kinds, predators);
      const a = legal.get(`apply ${kind}`);
      if (a !== undefined) {
        el("rect", { x: 128 + i * 70, y: py - 2, width: 68, height: 24, rx: 6, fill: "none", class: "hit" }, g);
        makeTarget(g, a, ctx, `apply ${kind}`);
      }
    });
    py += 26;
  }

  // --- the seats ---
  const rows = Math.ceil(players / 2);
  const panelH = (540 - py - 6 * (rows - 1)) / rows;
  const hands = arr(view.hands);
  for (let s = 0; s < players; s++) {
    const x0 = 12 + (s % 2) * 392;
    const y0 = py + Math.floor(s / 2) * (panelH + 6);
    const g = el("g", { "data-seat": s }, svg);
    el("rect", { x: x0, y: y0, width: 384, height: panelH, rx: 8, fill: seatLight(s), stroke: mover === s ? seatColor(s) : "#ccc", "stroke-width": mover === s ? 3 : 1 }, g);
    el("circle", { cx: x0 + 12, cy: y0 + 13, r: 6, fill: seatColor(s) }, g);
    const display = (arr(view.displays)[s]) || {};
    let points = 0;
    for (const k of kinds) if (k.score) points += scoreKind(k.score, display[k.name]);
    const sq = arr(view.squirrels)[s];
    const head = `${seatName(s, ctx)} · squirrel ${isNum(sq) ? sq : "–"}${kinds.length ? ` · ${points} pts` : ""}`;
    el("text", { x: x0 + 24, y: y0 + 17, class: "small bold" }, g, head);
    const tokens = arr(view.tokens)[s] || 0;
    for (let i = 0; i < tokens; i++) moon(g, x0 + 300 + i * 12, y0 + 13, 5);
    el("text", { x: x0 + 300 + tokens * 12 + 2, y: y0 + 17, class: "tiny" }, g, `${tokens} token${tokens === 1 ? "" : "s"}`);
    // The hand: face up where the view holds the type, a back for "hidden".
    const hand = arr(hands[s]);
    const ch = Math.min(60, panelH - 30);
    const cw = Math.min(46, ch * 0.75);
    hand.forEach((type, i) => {
      const x = x0 + 10 + i * (cw + 4);
      const y = y0 + 24;
      const hg = el("g", { "data-probe": `hand:${s}:${i}` }, g);
      if (type === "hidden" || typeof type !== "string") {
        back(hg, x, y, cw, ch);
        return;
      }
      faceUp(hg, x, y, cw, ch, type, kinds, predators);
      if (mover === s && plays.has(type)) {
        el("rect", { x: x - 2, y: y - 2, width: cw + 4, height: ch + 4, rx: 6, fill: "none", class: "hit" }, hg);
        const chosen = selection.type === type;
        if (chosen) hg.classList.add("chosen");
        const leads = [...plays.get(type).values()].flatMap((o) => [o.up, o.down]).filter(Boolean).map((o) => o.action);
        makeSelect(hg, () => {
          selection.type = chosen && plays.size > 1 ? null : type;
          rerender();
        }, chosen ? `${cardWords(type)} chosen: click face up or face down under a tree (or the card again to cancel)` : `${cardWords(type)}: choose this card, then a tree`, leads, ctx);
      }
      const play = mover === s ? legal.get(`play ${kindOf(type)}`) : undefined;
      if (play !== undefined) {
        el("rect", { x: x - 2, y: y - 2, width: cw + 4, height: ch + 4, rx: 6, fill: "none", class: "hit" }, hg);
        makeTarget(hg, play, ctx, `play ${kindOf(type)}`);
      }
    });
    if (!hand.length) el("text", { x: x0 + 10, y: y0 + 40, class: "tiny muted" }, g, "no cards in hand");
    // The display: food cards per kind.
    const entries = Object.entries(display);
    const dx = x0 + 260;
    const lineH = Math.min(13, (panelH - 26) / Math.max(1, entries.length));
    entries.forEach(([kind, c], i) => {
      const y = y0 + 30 + i * lineH;
      el("rect", { x: dx, y: y - 7, width: 9, height: 9, rx: 2, fill: kindColor(kind, kinds) }, g);
      el("text", { x: dx + 13, y: y + 1, class: "tiny", "font-size": Math.min(8, lineH - 1) }, g, `${kind} ${c}`);
    });
    const du = arr(view.discarded_unseen)[s];
    if (du && typeof du === "object") {
      const n = Object.values(du).reduce((a, b) => a + (isNum(b) ? b : 0), 0);
      if (n > 0) el("text", { x: x0 + 10, y: y0 + panelH - 5, class: "tiny muted" }, g, `${n} card${n === 1 ? "" : "s"} discarded unseen`);
    }
  }
  footer(svg, 12, 554, ctx);
}

// ----- for players: the rules in short, moves in words, why the game ended

export const rules = `
<p>Gather the best food for the winter, and keep the predators off it.</p>
<h4>Summer</h4>
<ul>
<li>In three laps, put one card from your hand under a tree (at most 3 cards a tree), face up or,
with one of your moon tokens, face down.</li>
</ul>
<h4>Winter</h4>
<ul>
<li>In squirrel-number order each player takes one tree and keeps its food. Moons on the cards give
tokens. The tree you take is your squirrel number next round.</li>
<li>Predators in your tree strike you: the fox takes your best nut, the owl your berries, the marten your
mushrooms.</li>
</ul>
<h4>Points</h4>
<p>Nuts score each (walnut most); berries score more the more you have; mushrooms in pairs.
The game ends when the last tree's moon tokens are used up; then everyone plays their last two cards.</p>
<h4>The board</h4>
<ul>
<li>A card with * has a moon on it. Face-down cards show only their back (unless you played them).</li>
<li>The cards in your hand are shown to you alone.</li>
</ul>`;

// Each seat's points, kind by kind of the food in its display (docs/rules/nutz.md, "Scoring").
export function points(view, params) {
  const kinds = params && params.cards && Array.isArray(params.cards.kinds) ? params.cards.kinds : null;
  const displays = arr(view && view.displays);
  if (!kinds || !displays.length) return null;
  return displays.map((display) => kinds.filter((k) => k.score).map((k) => {
    const c = isNum((display || {})[k.name]) ? display[k.name] : 0;
    return { label: `${k.name}: ${c} card${c === 1 ? "" : "s"}`, value: scoreKind(k.score, c) };
  }));
}

const cardWords = (card) => (card.endsWith("*") ? `${card.slice(0, -1)} (with a moon)` : card);

export function describe(text, ctx) {
  const names = (ctx && ctx.names) || [];
  const who = (seat) => names[Number(seat)] || `Player ${Number(seat) + 1}`;
  let m;
  // What another seat sees of a private move: its public part.
  if ((m = /^deal a card to seat (\d+)$/.exec(text))) return `a card is dealt to ${who(m[1])}`;
  if ((m = /^a card face down to tree (\d+)$/.exec(text))) return `plays a card face down under tree ${m[1]}`;
  if ((m = /^take tree (\d+); face down: (.+)$/.exec(text)))
    return `takes tree ${m[1]}; the face-down cards were ${m[2].split(", ").map(cardWords).join(", ")}`;
  if ((m = /^deal (\S+)$/.exec(text))) return `is dealt ${cardWords(m[1])}`;
  if ((m = /^squirrel (\d+)$/.exec(text))) return `gets squirrel number ${m[1]}`;
  if ((m = /^(\S+) face down to tree (\d+)$/.exec(text))) return `plays ${cardWords(m[1])} face down under tree ${m[2]}`;
  if ((m = /^(\S+) to tree (\d+)$/.exec(text))) return `plays ${cardWords(m[1])} under tree ${m[2]}`;
  if ((m = /^take tree (\d+)$/.exec(text))) return `takes tree ${m[1]}`;
  if ((m = /^apply (\S+)$/.exec(text))) return `the ${m[1]} strikes`;
  if ((m = /^play (\S+)$/.exec(text))) return `plays ${cardWords(m[1])}`;
  return null;
}

export function endReason(view, params) {
  const cap = params && params.turn_cap;
  if (typeof cap === "number" && view.turn >= cap) return "";
  return "The last tree's moon tokens are used up, and everyone played their last two cards.";
}
