// Die Ritter von der Haselnuss: the board graph (bushes with their stacks, hiding places, edges),
// the knights, the known tops (by kind if the view holds the kind, else a face-down "?"), carried
// hazelnuts, the score track, the roll and the shouts. The graph comes from ctx.params.board (the
// game's parameters): the view names nodes but holds no edges. A seat's view marks what the seat
// has not seen as "hidden" (docs/rules/ritter.md, "JSON view"); it is drawn face down, never guessed.
import {
  el, label, svgRoot, legalByString, makeTarget, seatColor, seatLight, seatName, footer, lastString, isNum, arr, pawn,
  allMatch, isNarrow, wrapped, lastWords,
} from "./common.js";

const MOVE_PATTERNS = [/^to \S+$/, /^silent$/, /^shout (Max|Leo|Fritz)$/];

// Every move is on the board: a place for the knight, or a shout button.
export function boardEntry(legal) {
  return allMatch(legal, MOVE_PATTERNS);
}

// Each seat's points: its place on the score track (the view holds no account of how it got there;
// carried hazelnuts score nothing until delivered).
export function points(view) {
  const scores = arr(view && view.scores);
  if (!scores.length || !scores.every(isNum)) return null;
  return scores.map((sc) => [{ label: "place on the score track", value: sc }]);
}

const THIEVES = ["Max", "Leo", "Fritz"];
const THIEF_COLORS = { Max: "#8e44ad", Leo: "#b8860b", Fritz: "#e8702a" };
const DEFAULT_BOARD = {
  bushes: ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"],
  hiding_places: ["H1", "H2"],
  edges: [["B1", "B2"], ["B2", "B3"], ["B3", "B4"], ["B4", "B5"], ["B5", "B6"], ["B6", "B7"], ["B7", "B8"], ["B8", "B1"],
    ["B2", "B6"], ["B3", "B7"], ["H1", "B1"], ["H1", "B8"], ["H2", "B4"], ["H2", "B5"]],
};
const CX = 282;
const CY = 290;

function sameBoard(a, b) {
  const key = (bd) => JSON.stringify([arr(bd.bushes), arr(bd.hiding_places),
    arr(bd.edges).map((e) => [...e].sort().join("-")).sort()]);
  return key(a) === key(b);
}

// Node positions: the default board as an octagon with its hiding places outside the B8-B1 and
// B4-B5 edges; any other board as bushes on a circle and hiding places on an inner one.
function layout(board, cx = CX, cy = CY, f = 1) {
  const pos = {};
  const polar = (r, deg) => [cx + f * r * Math.cos((deg * Math.PI) / 180), cy - f * r * Math.sin((deg * Math.PI) / 180)];
  if (sameBoard(board, DEFAULT_BOARD)) {
    DEFAULT_BOARD.bushes.forEach((b, i) => { pos[b] = polar(180, 157.5 - 45 * i); });
    pos.H1 = polar(235, 180);
    pos.H2 = polar(235, 0);
    return pos;
  }
  const bushes = arr(board.bushes);
  const hides = arr(board.hiding_places);
  bushes.forEach((b, i) => { pos[b] = polar(200, 90 - (360 * i) / Math.max(1, bushes.length)); });
  hides.forEach((h, i) => { pos[h] = hides.length === 1 ? [cx, cy] : polar(85, 90 - (360 * i) / hides.length + 45); });
  return pos;
}

function thiefCard(parent, x, y, top, probe, w = 30) {
  // A known top: its kind when the view holds it, else a face-down card ("hidden": not seen by this seat).
  const g = el("g", { "data-probe": probe }, parent);
  const known = THIEVES.includes(top);
  el("rect", { x, y, width: w, height: 20, rx: 3, fill: known ? THIEF_COLORS[top] : "#455a64", stroke: "#222" }, g);
  label(g, x + w / 2, y + 10.5, known ? top : "?", { class: "tiny bold", style: "fill:#fff" });
  return g;
}

export function render(container, view, ctx) {
  ctx = ctx || {};
  const params = ctx.params || {};
  const stacks = arr(view.stacks);
  const board = params.board && Array.isArray(params.board.bushes)
    ? params.board
    : { bushes: stacks.map((s) => s && s.bush).filter(Boolean), hiding_places: [], edges: [] };
  // Narrow (a phone): the board smaller across the width, the panel and a flat score track under it.
  const narrow = isNarrow(container);
  const f = narrow ? 0.62 : 1;
  const pos = narrow ? layout(board, 180, 190, f) : layout(board);
  const players = isNum(view.players) ? view.players : arr(view.knights).length;
  const legal = legalByString(ctx);
  const last = lastString(ctx);
  const mover = isNum(view.current_player) && view.current_player >= 0 ? view.current_player : null;
  const svg = svgRoot(container, narrow ? 360 : 800, 560, "Die Ritter von der Haselnuss board", narrow);

  const title = `Die Ritter von der Haselnuss — turn ${(view.turn ?? 0) + 1}${view.phase === "place" ? " · place your knights" : ""}`;
  if (narrow) wrapped(svg, 8, 18, title, 44, 17, { class: "bold" });
  else el("text", { x: 12, y: 24, class: "bold", "font-size": 15 }, svg, title);

  // --- edges ---
  const eg = el("g", {}, svg);
  for (const edge of arr(board.edges)) {
    const a = pos[edge[0]];
    const b = pos[edge[1]];
    if (a && b) el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#a1887f", "stroke-width": 5, "stroke-linecap": "round" }, eg);
  }

  // --- nodes ---
  const stackOf = {};
  for (const st of stacks) if (st && st.bush) stackOf[st.bush] = st;
  const knightsAt = {};
  arr(view.knights).forEach((node, s) => { if (node) (knightsAt[node] = knightsAt[node] || []).push(s); });
  const drawerNode = isNum(view.drawer) ? arr(view.knights)[view.drawer] : null;
  const hides = new Set(arr(board.hiding_places));
  for (const [name, [x, y]] of Object.entries(pos)) {
    const g = el("g", { "data-node": name }, svg);
    const r = narrow ? 24 : 34;
    if (hides.has(name)) {
      el("rect", { x: x - 30 * f, y: y - 24 * f, width: 60 * f, height: 48 * f, rx: 16 * f, fill: "#8d6e63", stroke: "#4e342e", "stroke-width": 1.5 }, g);
      label(g, x, y - (narrow ? 0 : 8), name, { class: "small bold", style: "fill:#fff" });
      if (!narrow) label(g, x, y + 8, "hiding place", { class: "tiny", style: "fill:#fff" });
    } else {
      const st = stackOf[name] || { cards: 0, top: null, seen_by: [] };
      el("circle", { cx: x, cy: y, r, fill: st.cards > 0 ? "#66bb6a" : "#c5e1a5", stroke: "#2e7d32", "stroke-width": 1.5 }, g);
      // The stack: a pile of card backs with its height (under the bush's name).
      const h = Math.min(st.cards || 0, 8);
      for (let i = 0; i < h; i++) el("rect", { x: x - 24 * f + i * 0.8, y: y - 9 * f - i * 1.6, width: 18 * f, height: 24 * f, rx: 2, fill: "#6d4c41", stroke: "#3e2723", "stroke-width": 0.6 }, g);
      label(g, x + (narrow ? 8 : 0), y - (narrow ? 15 : 22), name, { class: "small bold" });
      label(g, x - 13, y + (narrow ? 16 : 22), st.cards > 0 ? `${st.cards}` : "empty", { class: "tiny bold" });
      if (st.top !== null && st.top !== undefined) {
        thiefCard(g, x - 4, y - (narrow ? 8 : 12), st.top, `top:${name}`, narrow ? 36 : 30);
        arr(st.seen_by).forEach((s, i) => el("circle", { cx: x + 2 + i * 7, cy: y + (narrow ? 18 : 14), r: 3, fill: seatColor(s) }, g));
        if (!narrow) label(g, x + 13, y + 23, "seen by", { class: "tiny muted", "font-size": 6 });
      }
    }
    if (name === drawerNode && view.phase !== "move" && view.phase !== "roll") el("circle", { cx: x, cy: y, r: r + 5, fill: "none", stroke: "#7b1fa2", "stroke-width": 2, "stroke-dasharray": "4 3" }, g);
    if (last === `to ${name}` || last.startsWith(`to ${name};`)) el("circle", { cx: x, cy: y, r: r + 3, fill: "none", class: "last" }, g);
    (knightsAt[name] || []).forEach((s, i, all) => {
      const kx = x - ((all.length - 1) * 16) / 2 + i * 16;
      const ky = y + r + (narrow ? 11 : 9);
      el("path", { d: `M${kx - 7},${ky - 8} H${kx + 7} V${ky} Q${kx + 7},${ky + 7} ${kx},${ky + 9} Q${kx - 7},${ky + 7} ${kx - 7},${ky} Z`, fill: seatColor(s), stroke: "#fff", "stroke-width": 1.2 }, g);
      label(g, kx, ky - 1, seatName(s, ctx).slice(0, 1), { class: "tiny bold", style: "fill:#fff" });
    });
    const action = legal.get(`to ${name}`);
    if (action !== undefined) {
      el("circle", { cx: x, cy: y, r: r + 4, fill: "#ff7a00", "fill-opacity": 0.12, class: "hit" }, g);
      makeTarget(g, action, ctx, `to ${name}`);
    }
  }

  // --- side panel ---
  const side = el("g", {}, svg);
  const px = narrow ? 8 : 560;
  let y = narrow ? Math.max(...Object.values(pos).map((p) => p[1])) + 60 : 50;
  const line = (text, cls = "small") => { el("text", { x: px, y, class: cls }, side, text); y += 16; };
  if (mover !== null) line(`to move: ${seatName(mover, ctx)}`, "small bold");
  else if (view.phase === "terminal") line("game over", "small bold");
  else line({ roll: "rolling the die", draw: "turning the card", first_right: "who shouted right first", first_wrong: "who shouted wrong first", first_shout: "who shouted first" }[view.phase] || "", "small bold");
  if (isNum(view.roll)) {
    el("rect", { x: px, y: y - 10, width: 26, height: 26, rx: 5, fill: "#fff", stroke: "#555" }, side);
    label(side, px + 13, y + 3, view.roll, { class: "bold" });
    el("text", { x: px + 34, y: y + 7, class: "small" }, side, `rolled ${view.roll}: walk ${view.roll} step${view.roll === 1 ? "" : "s"}`);
    y += 26;
  }
  if (isNum(view.drawer)) line(`${seatName(view.drawer, ctx)} draws at ${drawerNode || "?"}`);
  if (view.card) {
    line("card:", "small");
    const known = THIEVES.includes(view.card);
    el("rect", { x: px + 36, y: y - 28, width: 60, height: 18, rx: 3, fill: known ? THIEF_COLORS[view.card] : "#c68642" }, side);
    label(side, px + 66, y - 19, view.card, { class: "tiny bold", style: "fill:#fff" });
  }
  // Shouts: a hidden one (another seat's, still open) is shown as "?".
  if (arr(view.shouts).some((s) => s !== null && s !== undefined)) {
    arr(view.shouts).forEach((sh, s) => {
      const text = sh === null || sh === undefined ? "—" : sh === "hidden" ? "?" : sh;
      el("text", { x: px, y, class: "small", "data-probe": `shout:${s}` }, side, `${seatName(s, ctx)} shouts: ${text}`);
      y += 16;
    });
  }
  // The shout choices as chips, when the human is to shout.
  const chips = ["silent", "shout Max", "shout Leo", "shout Fritz"].filter((s) => legal.has(s));
  chips.forEach((s, i) => {
    const g = el("g", {}, side);
    const cx = px + i * 50;
    const name = s.replace("shout ", "");
    el("rect", { x: cx, y: y - 4, width: 46, height: 32, rx: 6, fill: THIEF_COLORS[name] || "#fff", stroke: "#555", class: "hit" }, g);
    label(g, cx + 23, y + 12, name, { class: "small bold", style: THIEF_COLORS[name] ? "fill:#fff" : undefined });
    makeTarget(g, legal.get(s), ctx, name === "silent" ? "stay silent" : `shout “${name}!”`);
  });
  if (chips.length) y += 38;
  y = narrow ? y + 6 : Math.max(y + 6, 150);
  // Seats.
  const floor = isNum(params.score_floor) ? params.score_floor : -3;
  const target = isNum(params.score_target) ? params.score_target : 25;
  for (let s = 0; s < players; s++) {
    const g = el("g", { "data-seat": s }, side);
    el("rect", { x: px - 4, y, width: 190, height: 50, rx: 8, fill: seatLight(s), stroke: mover === s ? seatColor(s) : "#ccc", "stroke-width": mover === s ? 3 : 1 }, g);
    el("circle", { cx: px + 10, cy: y + 15, r: 6, fill: seatColor(s) }, g);
    el("text", { x: px + 22, y: y + 19, class: "small bold" }, g, `${seatName(s, ctx)} · ${arr(view.scores)[s] ?? 0} pts`);
    const carried = arr(view.carried)[s] ?? 0;
    for (let i = 0; i < Math.min(carried, 10); i++) el("circle", { cx: px + 10 + i * 11, cy: y + 36, r: 4.5, fill: "#c68642", stroke: "#6d4c41" }, g);
    el("text", { x: px + 10 + Math.min(carried, 10) * 11, y: y + 40, class: "tiny" }, g, `${carried} hazelnut${carried === 1 ? "" : "s"} carried`);
    y += 56;
  }
  if (narrow) y += 12;
  // Cards drawn so far (a seat's view) or still undrawn (the whole state).
  // Two short lines, clear of the score track.
  const counts = view.revealed ? ["cards turned so far", view.revealed] : view.pool ? ["cards not yet turned", view.pool] : null;
  if (counts) {
    const [head, c] = counts;
    line(`${head}: ${c.hazelnuts ?? 0} hazelnuts,`, "tiny");
    line(`Max ${c.Max ?? 0}, Leo ${c.Leo ?? 0}, Fritz ${c.Fritz ?? 0}`, "tiny");
  }
  THIEVES.forEach((t, i) => {
    el("rect", { x: px + i * 60, y: y - 4, width: 10, height: 10, rx: 2, fill: THIEF_COLORS[t] }, side);
    el("text", { x: px + 13 + i * 60, y: y + 5, class: "tiny" }, side, t);
  });
  y += 14;
  el("text", { x: px, y: y + 5, class: "tiny muted" }, side, "Max: marten · Leo: lynx · Fritz: fox");
  y += 14;
  el("rect", { x: px, y: y - 4, width: 10, height: 10, rx: 2, fill: "#455a64" }, side);
  el("text", { x: px + 13, y: y + 5, class: "tiny" }, side, "? a thief this seat has not seen");

  // --- the score track (floor at the bottom, the coat of arms at the top; on a phone across, floor left) ---
  const tg = el("g", {}, svg);
  if (narrow) {
    y += 30;
    const n = Math.max(1, target - floor + 1);
    const cellW = 344 / n;
    el("text", { x: 8, y, class: "small bold" }, tg, "Score track");
    y += 14;
    for (let v = floor; v <= target; v++) {
      const cx = 8 + (v - floor) * cellW;
      el("rect", { x: cx, y, width: cellW - 1, height: 22, fill: v === target ? "#ffd54f" : v === 0 ? "#e0e0e0" : "#f5f5f5", stroke: "#ccc", "stroke-width": 0.5 }, tg);
      if (v % 5 === 0 || v === target) label(tg, cx + cellW / 2, y + 34, v, { class: "tiny muted" });
    }
    arr(view.scores).forEach((sc, s) => {
      if (!isNum(sc)) return;
      const v = Math.max(floor, Math.min(target, sc));
      pawn(tg, 8 + (v - floor) * cellW + cellW / 2, y + 4 + s * 5, s, Math.min(4, cellW / 2.2));
    });
    y += 56;
    y = wrapped(svg, 8, y, lastWords(ctx), 50, 16, { class: "small muted" });
    svg.setAttribute("viewBox", `0 0 360 ${y + 4}`);
    return;
  }
  const n = Math.max(1, target - floor + 1);
  const top = 40;
  const cell = 500 / n;
  for (let v = floor; v <= target; v++) {
    const cy = top + (target - v) * cell;
    el("rect", { x: 758, y: cy, width: 34, height: cell - 1, fill: v === target ? "#ffd54f" : v === 0 ? "#e0e0e0" : "#f5f5f5", stroke: "#ccc", "stroke-width": 0.5 }, tg);
    if (v % 5 === 0 || v === floor || v === target) label(tg, 751, cy + cell / 2, v, { class: "tiny muted", "font-size": 7 });
  }
  arr(view.scores).forEach((sc, s) => {
    if (!isNum(sc)) return;
    const v = Math.max(floor, Math.min(target, sc));
    pawn(tg, 763 + s * 8, top + (target - v) * cell + cell / 2, s, Math.min(4, cell / 2.2));
  });
  el("text", { x: 775, y: 34, "text-anchor": "middle", class: "tiny muted" }, tg, "score");
  footer(svg, 12, 552, ctx);
}

// ----- for players: the rules in short, moves in words, why the game ended

export const rules = `
<p>Knights collect hazelnuts from the bushes and bring them to a hiding place. Thieves hide among
the nuts.</p>
<h4>Your turn</h4>
<ul>
<li>The die says how many steps your knight walks (never straight back). Click where it ends.</li>
<li>At a hiding place (H) you deliver the hazelnuts you carry: 1, 3, 6, 10 points for 1, 2, 3, 4.</li>
<li>At a bush you turn its top card. A hazelnut you carry. A thief (Max, Leo or Fritz) nobody shouted
at goes back on top, face down: you alone saw which one.</li>
</ul>
<h4>Shouting</h4>
<p>When another knight turns a card, shout the thief's name or stay silent. Right: +2 points and the
knight loses what it carries. Wrong: −2 points.</p>
<h4>The board</h4>
<ul>
<li>Green circles are bushes with their stacks; the number is how many cards are left.</li>
<li>A card on top with coloured dots is a thief put back; the dots say who saw it.</li>
<li>Shields are the knights, in each player's colour.</li>
<li>Without memory aids, remember yourself which thief you saw.</li>
</ul>
<p>The first to 25 points wins at once; otherwise the game ends when two stacks are empty.</p>`;

const placeName = (node) => {
  const m = /^([BH])(\d+)$/.exec(node);
  return m ? `${m[1] === "B" ? "bush" : "hiding place"} ${m[2]}` : node;
};

// One part of a move as the engine says it (a seat may see only its public part: "a secret
// shout", "draw a thief"), in words; null where it has no words for it.
function describeOne(text, who) {
  let m;
  if ((m = /^to (\S+)$/.exec(text))) return `goes to ${placeName(m[1])}`;
  if ((m = /^roll (\d+)$/.exec(text))) return `rolls ${m[1]}`;
  if (text === "draw hazelnut") return "the card is a hazelnut";
  if (text === "draw a thief") return "the card is a thief (only the drawer saw which)";
  if ((m = /^draw (\S+)$/.exec(text))) return `the card is ${m[1]} the thief`;
  if ((m = /^shout (\S+)$/.exec(text))) return `shouts “${m[1]}!”`;
  if (text === "a secret shout") return "shouts in secret";
  if (text === "silent") return "stays silent";
  if ((m = /^first (right|wrong|shout): seat (\d+)$/.exec(text)))
    return m[1] === "shout" ? `${who(m[2])} shouted first` : `${who(m[2])} was first to shout ${m[1]}`;
  if ((m = /^card: (.+)$/.exec(text)))
    return m[1] === "hazelnut" ? "the card is a hazelnut" : m[1] === "a thief" ? "the card is a thief" : `the card is ${m[1]} the thief`;
  if ((m = /^shouts: (.+)$/.exec(text)))
    return m[1]
      .split(", ")
      .map((shout) => {
        const k = /^seat (\d+) (\S+)(?: \((right|wrong)\))?$/.exec(shout);
        if (!k) return shout;
        return `${who(k[1])} ${k[2] === "silent" ? "stayed silent" : `shouted “${k[2]}!”`}${k[3] ? ` (${k[3]})` : ""}`;
      })
      .join(", ");
  return null;
}

// A move in words: its parts ("draw Leo; shouts: seat 1 Leo (right)"), each in words.
export function describe(text, ctx) {
  const names = (ctx && ctx.names) || [];
  const who = (seat) => names[Number(seat)] || `Player ${Number(seat) + 1}`;
  const words = text.split("; ").map((part) => describeOne(part, who));
  return words.includes(null) ? null : words.join("; ");
}

export function endReason(view, params) {
  const target = (params && params.score_target) || 25;
  const scores = Array.isArray(view.scores) ? view.scores : [];
  if (scores.some((s) => s >= target)) return `A knight reached ${target} points, the coat of arms.`;
  const empty = Array.isArray(view.stacks) ? view.stacks.filter((s) => s && s.cards === 0).length : 0;
  const needed = (params && params.empty_stacks_to_end) || 2;
  return empty >= needed ? `${empty} bushes are empty.` : "";
}
