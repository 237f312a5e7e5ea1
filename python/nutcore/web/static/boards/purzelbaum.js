// Purzelbaum: the meadow (holes with their disks, leaves and buried nuts), the tree's branch ends
// with their nuts and leaves, and each seat's leaves and nuts. Memory is perfect in nutcore's
// Purzelbaum (docs/rules/purzelbaum.md: "the game has perfect information"), so the buried nuts
// are drawn: every player at the table saw where each nut went.
import {
  el, label, svgRoot, legalByString, makeTarget, makeSelect, seatColor, seatLight, seatName, lastString, isNum, arr,
  allMatch, isNarrow, NARROW_WIDTH, onEscape, placer, wrapped, lastWords,
} from "./common.js";

const DEFAULT_HOLES = [
  [-1, -2], [0, -2], [1, -2], [-2, -1], [-1, -1], [0, -1], [1, -1], [2, -1], [-2, 0], [-1, 0],
  [1, 0], [2, 0], [-2, 1], [-1, 1], [0, 1], [1, 1], [2, 1], [-1, 2], [0, 2], [1, 2],
];
const DEFAULT_BRANCHES = [1.3, 2.1, 1.3, 2.1, 1.3, 2.1, 1.3, 2.1];

// The shove's first step (a branch end) survives re-renders while the legal moves stay the same.
let selection = { key: null, end: null };

function branchEnds(lengths) {
  // End 2b at angle b * 180 / n degrees and radius lengths[b]; 2b + 1 opposite (tumble_model.branch_ends).
  const ends = [];
  lengths.forEach((r, b) => {
    const a = (Math.PI * b) / lengths.length;
    ends.push([r * Math.cos(a), r * Math.sin(a)]);
    ends.push([-r * Math.cos(a), -r * Math.sin(a)]);
  });
  return ends;
}

function leafPath(parent, x, y, size, attrs) {
  const s = size;
  return el("path", {
    d: `M${x - s},${y + s * 0.6} C${x - s * 0.6},${y - s} ${x + s * 0.4},${y - s} ${x + s},${y - s * 0.7} C${x + s * 0.7},${y + s * 0.3} ${x},${y + s} ${x - s},${y + s * 0.6} Z`,
    fill: "#e07b24", stroke: "#8a4b12", "stroke-width": 1, ...(attrs || {}),
  }, parent);
}

function nutShape(parent, x, y, r) {
  const g = el("g", {}, parent);
  el("ellipse", { cx: x, cy: y + r * 0.15, rx: r, ry: r * 0.85, fill: "#8d5a33", stroke: "#4e2f17", "stroke-width": 1 }, g);
  el("path", { d: `M${x - r * 0.8},${y - r * 0.2} Q${x},${y - r * 1.3} ${x + r * 0.8},${y - r * 0.2} Z`, fill: "#5d3a1e" }, g);
  return g;
}

const MOVE_PATTERNS = [/^target \d+ end \d+$/, /^bury \d+$/, /^dig \d+$/];

// Every Purzelbaum move is a place on the board: a disk, or a branch end and then a disk.
export function boardEntry(legal) {
  return allMatch(legal, MOVE_PATTERNS);
}

export function render(container, view, ctx) {
  ctx = ctx || {};
  const params = ctx.params || {};
  const rawHoles = Array.isArray(params.holes) ? params.holes : DEFAULT_HOLES;
  const lengths = Array.isArray(params.branch_lengths) ? params.branch_lengths : DEFAULT_BRANCHES;
  const half = isNum(params.half_box) ? params.half_box : 3;
  const holes = arr(view.holes);
  const ends = arr(view.ends);
  const endPos = branchEnds(lengths);
  const players = isNum(view.players) ? view.players : arr(view.leaves).length;
  const legal = legalByString(ctx);
  const last = lastString(ctx);
  const narrow = isNarrow(container);

  // The legal shoves by branch end: end -> [{target, action}].
  const shoves = new Map();
  for (const [s, a] of legal) {
    const m = /^target (\d+) end (\d+)$/.exec(s);
    if (!m) continue;
    const e = Number(m[2]);
    if (!shoves.has(e)) shoves.set(e, []);
    shoves.get(e).push({ target: Number(m[1]), action: a });
  }
  const key = JSON.stringify(arr(ctx.legal).map((m) => m.action));
  if (selection.key !== key) selection = { key, end: null };
  if (shoves.size === 1) selection.end = [...shoves.keys()][0];
  if (selection.end !== null && !shoves.has(selection.end)) selection.end = null;
  const rerender = () => render(container, view, ctx);
  onEscape(() => {
    if (selection.end !== null && shoves.size > 1) {
      selection.end = null;
      rerender();
    }
  });

  // Wide: the meadow left, the seats right. Narrow: the meadow across the width, the seats under it.
  const W = narrow ? NARROW_WIDTH : 800;
  const size = narrow ? W - 16 : 520;
  const ox = narrow ? 8 : 20;
  const oy = narrow ? 8 : 20;
  const scale = size / (2 * half);
  const px = (x) => ox + (x + half) * scale;
  const py = (y) => oy + (half - y) * scale; // y up, as in the model
  const holeR = Math.min(0.26 * scale, 26);
  const endR = narrow ? 11 : 10;
  const fs = narrow ? 12 : 9;
  const rowH = narrow ? 48 : 62;
  const sideX = narrow ? 8 : 556;
  const sideY = narrow ? oy + size + 22 : 36;
  const seatCols = narrow ? 2 : 1;
  const seatW = narrow ? (W - 16 - 8) / 2 : 232;
  const H = narrow ? sideY + 5 * 18 + Math.ceil(players / seatCols) * (rowH + 6) + 70 : 560;
  const svg = svgRoot(container, W, H, "Purzelbaum meadow", narrow);
  const spots = placer();

  el("rect", { x: ox, y: oy, width: size, height: size, rx: 14, fill: "#dcedc8", stroke: "#8bab6a", "stroke-width": 2 }, svg);
  // --- the tree first: its branches lie under the disks, so that they hide no disk and no number ---
  const tree = el("g", { "pointer-events": "none" }, svg);
  for (let b = 0; b < lengths.length; b++) {
    const [a, c] = [endPos[2 * b], endPos[2 * b + 1]];
    el("line", { x1: px(a[0]), y1: py(a[1]), x2: px(c[0]), y2: py(c[1]), stroke: "#8d6e63", "stroke-width": 5, "stroke-linecap": "round", "stroke-opacity": 0.7 }, tree);
  }
  el("circle", { cx: px(0), cy: py(0), r: narrow ? 9 : 14, fill: "#5d4037" }, tree);
  if ((view.phase === "tumble" || view.phase === "bury") && isNum(view.end) && isNum(view.target) && endPos[view.end] && rawHoles[view.target]) {
    const [ex, ey] = endPos[view.end];
    const [tx, ty] = rawHoles[view.target];
    el("line", { x1: px(ex), y1: py(ey), x2: px(tx), y2: py(ty), stroke: "#7b1fa2", "stroke-width": 2, "stroke-dasharray": "6 4" }, tree);
  }

  // The branch ends' numbers sit inside their circles; the disks' numbers go where no other number is.
  endPos.forEach(([ex, ey], e) => spots.reserve(px(ex), py(ey), e, fs));

  // --- the meadow's disks ---
  const targetsOfSelected = new Map((selection.end !== null ? shoves.get(selection.end) : []).map((t) => [t.target, t.action]));
  const diskLayer = el("g", {}, svg);
  rawHoles.forEach((pos, h) => {
    if (!Array.isArray(pos)) return;
    const hole = holes[h] || {};
    const x = px(pos[0]);
    const y = py(pos[1]);
    const g = el("g", { "data-hole": h }, diskLayer);
    el("circle", { cx: x, cy: y, r: holeR + 3, fill: "#5d4037", "fill-opacity": 0.25 }, g);
    el("circle", { cx: x, cy: y, r: holeR, fill: hole.white ? "#ffffff" : "#43a047", stroke: hole.white ? "#999" : "#1b5e20", "stroke-width": 1.5, class: "hit-base" }, g);
    if (hole.leaf) leafPath(g, x - holeR * 0.35, y + holeR * 0.3, holeR * 0.35);
    const at = spots.place([[x, y - holeR * 0.45], [x - holeR - 6, y - holeR], [x + holeR + 6, y - holeR], [x - holeR - 6, y + holeR], [x + holeR + 6, y + holeR], [x, y + holeR * 0.5]], h, fs) || [x, y];
    label(g, at[0], at[1], h, { class: "tiny bold", style: hole.white ? "fill:#333" : "fill:#fff" });
    if (isNum(hole.nuts) && hole.nuts > 0) {
      // A brown badge with the count of nuts buried in the hole.
      const b = spots.place([[x + holeR * 0.55, y + holeR * 0.45], [x - holeR * 0.55, y + holeR * 0.45], [x + holeR + 4, y], [x - holeR - 4, y]], hole.nuts, fs) || [x, y + holeR * 0.5];
      el("circle", { cx: b[0], cy: b[1], r: fs * 0.75, fill: "#8d5a33", stroke: "#4e2f17" }, g);
      label(g, b[0], b[1] + 0.5, hole.nuts, { class: "tiny bold", style: "fill:#fff" });
    }
    const shoveTarget = view.target === h && (view.phase === "tumble" || view.phase === "bury");
    if (shoveTarget) el("circle", { cx: x, cy: y, r: holeR + 4, fill: "none", stroke: "#7b1fa2", "stroke-width": 2.5, "stroke-dasharray": "4 3" }, g);
    if (last === `lands at hole ${h}` || last === `bury ${h}` || last === `dig ${h}` || /^target (\d+) /.exec(last)?.[1] === String(h)) g.classList.add("last");
    let action = legal.get(`dig ${h}`);
    let tip = `dig in hole ${h}`;
    if (action === undefined) [action, tip] = [legal.get(`bury ${h}`), `hide the nut in hole ${h}`];
    if (action === undefined && targetsOfSelected.has(h)) [action, tip] = [targetsOfSelected.get(h), `shake branch end ${selection.end}, aiming at disk ${h}`];
    if (action !== undefined) {
      // A touch target about 44 px across: the disk and a ring around it.
      el("circle", { cx: x, cy: y, r: Math.max(holeR + 2, narrow ? 20 : 0), fill: "#ff7a00", "fill-opacity": 0.12, class: "hit" }, g);
      makeTarget(g, action, ctx, tip);
    }
  });

  // --- the branch ends: over the disks while one is to be chosen, under them once one is chosen ---
  const endLayer = el("g", {}, svg);
  if (selection.end !== null) svg.insertBefore(endLayer, diskLayer);
  endPos.forEach(([ex, ey], e) => {
    const x = px(ex);
    const y = py(ey);
    const g = el("g", { "data-end": e }, endLayer);
    const full = ends[e] === true;
    el("circle", { cx: x, cy: y, r: endR, fill: full ? "#a5d6a7" : "#efebe9", stroke: "#4e342e", "stroke-width": 1.2, class: "hit-base" }, g);
    label(g, x, y + 0.5, e, { class: "tiny bold", style: "fill:#3e2723" });
    if (/ end (\d+)$/.exec(last)?.[1] === String(e)) g.classList.add("last");
    if (shoves.has(e)) {
      const selected = selection.end === e;
      el("circle", { cx: x, cy: y, r: narrow ? 16 : endR + 3, fill: "#ff7a00", "fill-opacity": 0.08, class: "hit" }, g);
      if (selected) g.classList.add("chosen");
      makeSelect(g, () => {
        selection.end = selected && shoves.size > 1 ? null : e;
        rerender();
      }, selected ? `branch end ${e} chosen: click a green disk (or here again to cancel)` : `branch end ${e}: choose it, then a green disk`,
      shoves.get(e).map((t) => t.action), ctx);
    }
  });

  // --- the seats, the season, what to do ---
  const side = el("g", {}, svg);
  let y = sideY;
  const seasonWords = { autumn: "Autumn: shake nuts off the tree", winter: "Winter: dig for nuts", over: "Game over" }[view.season] || "";
  el("text", { x: sideX, y, class: "bold", "font-size": 16 }, side, "Purzelbaum");
  y += 20;
  el("text", { x: sideX, y, class: "small" }, side, `${seasonWords} · turn ${(view.turn ?? 0) + 1}`);
  y += 17;
  const mover = isNum(view.current_player) && view.current_player >= 0 ? view.current_player : null;
  const status = [];
  if (mover !== null) status.push(`to move: ${seatName(mover, ctx)}`);
  else if (view.phase === "terminal") status.push("game over");
  else if (view.phase === "tumble") status.push("the nut tumbles");
  if (isNum(view.shover)) status.push(`${seatName(view.shover, ctx)} shook branch end ${view.end} at disk ${view.target}`);
  if (view.phase === "bury") status.push("the nut left the meadow: hide it in a hole");
  if (shoves.size) status.push(selection.end === null ? "click a branch end, then a green disk" : `branch end ${selection.end} chosen: click a green disk`);
  const chars = narrow ? 50 : 36;
  for (const t of status) y = wrapped(side, sideX, y, t, chars, 16, { class: "small" });
  if (selection.end !== null && shoves.size > 1) {
    // The chosen end lies under the disks (it sits on some): this button (or Escape) drops the choice.
    const cancel = el("g", { class: "chip cancel" }, side);
    el("rect", { x: sideX, y: y - 4, width: narrow ? 200 : 190, height: narrow ? 40 : 26, rx: 8, fill: "#fff", stroke: "#888", class: "hit" }, cancel);
    label(cancel, sideX + (narrow ? 100 : 95), y - 4 + (narrow ? 20 : 13), "choose another branch end", { class: "small" });
    makeSelect(cancel, () => {
      selection.end = null;
      rerender();
    }, "drop the chosen branch end", [], ctx);
    y += narrow ? 44 : 30;
  }
  y = Math.max(y + 4, narrow ? y + 4 : 150);
  for (let s = 0; s < players; s++) {
    const x0 = sideX + (s % seatCols) * (seatW + 8);
    const y0 = y + Math.floor(s / seatCols) * (rowH + 6);
    const g = el("g", { "data-seat": s }, side);
    el("rect", { x: x0, y: y0, width: seatW, height: rowH, rx: 8, fill: seatLight(s), stroke: mover === s ? seatColor(s) : "#ccc", "stroke-width": mover === s ? 3 : 1 }, g);
    el("circle", { cx: x0 + 12, cy: y0 + 14, r: 6, fill: seatColor(s) }, g);
    const leaves = arr(view.leaves)[s] ?? 0;
    const nuts = arr(view.nuts)[s] ?? 0;
    el("text", { x: x0 + 24, y: y0 + 18, class: "small bold" }, g, `${seatName(s, ctx)} · ${leaves + nuts} points`);
    leafPath(g, x0 + 14, y0 + rowH - 14, 6);
    el("text", { x: x0 + 26, y: y0 + rowH - 10, class: "small" }, g, `${leaves} lea${leaves === 1 ? "f" : "ves"}`);
    nutShape(g, x0 + seatW / 2 + 8, y0 + rowH - 14, 6);
    el("text", { x: x0 + seatW / 2 + 20, y: y0 + rowH - 10, class: "small" }, g, `${nuts} nut${nuts === 1 ? "" : "s"}`);
  }
  y += Math.ceil(players / seatCols) * (rowH + 6) + 14;
  if (!narrow) {
    const lg = el("g", {}, side);
    el("circle", { cx: 568, cy: y, r: 8, fill: "#43a047", stroke: "#1b5e20" }, lg);
    el("text", { x: 582, y: y + 4, class: "tiny" }, lg, "green disk (open)");
    el("circle", { cx: 688, cy: y, r: 8, fill: "#fff", stroke: "#999" }, lg);
    el("text", { x: 702, y: y + 4, class: "tiny" }, lg, "white disk");
    el("circle", { cx: 568, cy: y + 24, r: 8, fill: "#a5d6a7", stroke: "#4e342e" }, lg);
    el("text", { x: 582, y: y + 28, class: "tiny" }, lg, "branch end with its nut");
    nutShape(lg, 688, y + 24, 5);
    el("text", { x: 702, y: y + 28, class: "tiny" }, lg, "buried nuts");
  }
  const words = lastWords(ctx);
  if (words) {
    if (narrow) wrapped(svg, sideX, y, words, 50, 16, { class: "small muted" });
    else el("text", { x: 20, y: 554, class: "small muted" }, svg, words);
  }
}

// Each seat's points: its leaves and its nuts (docs/rules/purzelbaum.md, "Scoring").
export function points(view) {
  const leaves = arr(view && view.leaves);
  const nuts = arr(view && view.nuts);
  if (!leaves.length || leaves.length !== nuts.length || ![...leaves, ...nuts].every(isNum)) return null;
  return leaves.map((l, s) => [
    { label: "leaves won", value: l },
    { label: "nuts", value: nuts[s] },
  ]);
}

// ----- for players: the rules in short, moves in words, why the game ended

export const rules = `
<p>Shake nuts off the tree and remember where they fell.</p>
<h4>Autumn</h4>
<ul>
<li>On your turn choose a <b>branch end</b> that still holds a nut and a leaf, then a <b>green disk</b>
to aim at.</li>
<li>A hit wins you the leaf and the nut drops into that hole. A miss leaves the leaf on the disk and the
nut rolls into the nearest hole (or off the meadow: then the next player hides it).</li>
<li>The disk you aimed at turns white: what lies under white disks is hidden.</li>
</ul>
<h4>Winter</h4>
<p>When the tree is bare, every disk turns white. Take turns to dig under a white disk: you get its
leaf and every nut in the hole. A hole with no nut turns green and is out.</p>
<h4>The board</h4>
<ul>
<li>Green disk: open; white disk: covered. Orange leaf: a leaf; brown badge: buried nuts.</li>
<li>A light green branch end still holds its nut and leaf.</li>
<li>Numbers on the tree are branch ends; numbers on the meadow are holes.</li>
<li>Without memory aids the page shows only what lies on top: remember the rest yourself.</li>
</ul>
<p>Points: leaves plus nuts. Most points win; then most nuts.</p>`;

export function describe(text) {
  let m;
  if ((m = /^target (\d+) end (\d+)$/.exec(text))) return `shakes branch end ${m[2]}, aiming at hole ${m[1]}`;
  if (text === "hit") return "a hit: the leaf is won and the nut drops into the hole";
  if ((m = /^lands at hole (\d+)$/.exec(text))) return `the nut lands in hole ${m[1]}`;
  if (text === "off the box") return "the nut rolls off the meadow";
  if ((m = /^bury (\d+)$/.exec(text))) return `hides the stray nut in hole ${m[1]}`;
  if ((m = /^dig (\d+)$/.exec(text))) return `digs in hole ${m[1]}`;
  return null;
}

export function endReason(view) {
  return view.season === "over" ? "Winter is over: every disk is green again." : "";
}
