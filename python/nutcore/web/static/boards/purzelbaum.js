// Purzelbaum: the meadow (holes with their disks, leaves and buried nuts), the tree's branch ends
// with their nuts and leaves, and each seat's leaves and nuts. Memory is perfect in nutcore's
// Purzelbaum (docs/rules/purzelbaum.md: "the game has perfect information"), so the buried nuts
// are drawn: every player at the table saw where each nut went.
import {
  el, label, svgRoot, legalByString, makeTarget, makeSelect, seatColor, seatLight, seatName, footer, lastString, isNum, arr,
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

  const svg = svgRoot(container, 800, 560, "Purzelbaum meadow");
  const size = 520;
  const scale = size / (2 * half);
  const px = (x) => 20 + (x + half) * scale;
  const py = (y) => 20 + (half - y) * scale; // y up, as in the model
  const holeR = Math.min(0.26 * scale, 26);

  // --- the meadow ---
  el("rect", { x: 20, y: 20, width: size, height: size, rx: 14, fill: "#dcedc8", stroke: "#8bab6a", "stroke-width": 2 }, svg);
  const targetsOfSelected = new Map((selection.end !== null ? shoves.get(selection.end) : []).map((t) => [t.target, t.action]));
  rawHoles.forEach((pos, h) => {
    if (!Array.isArray(pos)) return;
    const hole = holes[h] || {};
    const x = px(pos[0]);
    const y = py(pos[1]);
    const g = el("g", { "data-hole": h }, svg);
    el("circle", { cx: x, cy: y, r: holeR + 5, fill: "#5d4037", "fill-opacity": 0.25 }, g);
    el("circle", { cx: x, cy: y, r: holeR, fill: hole.white ? "#ffffff" : "#43a047", stroke: hole.white ? "#999" : "#1b5e20", "stroke-width": 1.5 }, g);
    label(g, x - holeR - 2, y - holeR - 2, h, { class: "tiny muted" });
    if (hole.leaf) leafPath(g, x - holeR * 0.25, y, holeR * 0.45);
    if (isNum(hole.nuts) && hole.nuts > 0) {
      // A brown badge with the count of nuts buried in the hole.
      el("circle", { cx: x + holeR * 0.6, cy: y + holeR * 0.6, r: 8, fill: "#8d5a33", stroke: "#4e2f17" }, g);
      label(g, x + holeR * 0.6, y + holeR * 0.6 + 0.5, hole.nuts, { class: "tiny bold", style: "fill:#fff" });
    }
    const shoveTarget = view.target === h && (view.phase === "tumble" || view.phase === "bury");
    if (shoveTarget) el("circle", { cx: x, cy: y, r: holeR + 4, fill: "none", stroke: "#7b1fa2", "stroke-width": 2.5, "stroke-dasharray": "4 3" }, g);
    if (last === `lands at hole ${h}` || last === `bury ${h}` || last === `dig ${h}`) el("circle", { cx: x, cy: y, r: holeR + 3, fill: "none", class: "last" }, g);
    let action = legal.get(`dig ${h}`);
    let tip = `dig ${h}`;
    if (action === undefined) [action, tip] = [legal.get(`bury ${h}`), `bury ${h}`];
    if (action === undefined && targetsOfSelected.has(h)) [action, tip] = [targetsOfSelected.get(h), `target ${h} end ${selection.end}`];
    if (action !== undefined) {
      el("circle", { cx: x, cy: y, r: holeR + 2, fill: "#ff7a00", "fill-opacity": 0.12, class: "hit" }, g);
      makeTarget(g, action, ctx, tip);
    }
  });

  // --- the tree: trunk, branches and their ends ---
  // The tree lies over the meadow but takes no clicks: a branch over a disk must not hide it.
  const tree = el("g", { "pointer-events": "none" }, svg);
  for (let b = 0; b < lengths.length; b++) {
    const [a, c] = [endPos[2 * b], endPos[2 * b + 1]];
    el("line", { x1: px(a[0]), y1: py(a[1]), x2: px(c[0]), y2: py(c[1]), stroke: "#6d4c41", "stroke-width": 7, "stroke-linecap": "round", "stroke-opacity": 0.85 }, tree);
  }
  el("circle", { cx: px(0), cy: py(0), r: 16, fill: "#5d4037" }, tree);
  if ((view.phase === "tumble" || view.phase === "bury") && isNum(view.end) && isNum(view.target) && endPos[view.end] && rawHoles[view.target]) {
    const [ex, ey] = endPos[view.end];
    const [tx, ty] = rawHoles[view.target];
    el("line", { x1: px(ex), y1: py(ey), x2: px(tx), y2: py(ty), stroke: "#7b1fa2", "stroke-width": 2, "stroke-dasharray": "6 4" }, tree);
  }
  endPos.forEach(([ex, ey], e) => {
    const x = px(ex);
    const y = py(ey);
    const g = el("g", { "data-end": e }, svg);
    const full = ends[e] === true;
    el("circle", { cx: x, cy: y, r: 9, fill: full ? "#a5d6a7" : "#efebe9", stroke: "#4e342e", "stroke-width": 1.2, class: "hit-base" }, g);
    if (full) {
      leafPath(g, x - 2, y - 2, 5);
      nutShape(g, x + 3, y + 3, 3.5);
    }
    label(g, x + 12, y - 9, e, { class: "tiny", style: "fill:#4e342e" });
    if (shoves.has(e)) {
      const selected = selection.end === e;
      el("circle", { cx: x, cy: y, r: 12, fill: "none", class: "hit" }, g);
      if (selected) g.classList.add("selected");
      makeSelect(g, () => {
        selection.end = selected && shoves.size > 1 ? null : e;
        rerender();
      }, `end ${e}: choose this branch end, then a green disk`);
    }
  });

  // --- the side panel: season, seats, what to do ---
  const side = el("g", {}, svg);
  el("text", { x: 560, y: 36, class: "bold", "font-size": 16 }, side, "Purzelbaum");
  el("text", { x: 560, y: 56, class: "small" }, side, `${{ autumn: "Autumn: shove nuts off the tree", winter: "Winter: dig for nuts", over: "Game over" }[view.season] || ""} · turn ${(view.turn ?? 0) + 1}`);
  const mover = isNum(view.current_player) && view.current_player >= 0 ? view.current_player : null;
  const status = [];
  if (mover !== null) status.push(`to move: ${seatName(mover, ctx)}`);
  else if (view.phase === "terminal") status.push("game over");
  else if (view.phase === "tumble") status.push("chance: the nut tumbles");
  if (isNum(view.shover)) status.push(`${seatName(view.shover, ctx)} shoves end ${view.end} at disk ${view.target}`);
  if (view.phase === "bury") status.push("the nut left the box: bury it");
  if (shoves.size) status.push(selection.end === null ? "click a branch end, then a green disk" : `end ${selection.end} chosen: click a green disk`);
  status.forEach((t, i) => el("text", { x: 560, y: 80 + i * 16, class: "small" }, side, t));
  const rowH = 62;
  for (let s = 0; s < players; s++) {
    const y0 = 150 + s * (rowH + 6);
    const g = el("g", { "data-seat": s }, side);
    el("rect", { x: 556, y: y0, width: 232, height: rowH, rx: 8, fill: seatLight(s), stroke: mover === s ? seatColor(s) : "#ccc", "stroke-width": mover === s ? 3 : 1 }, g);
    el("circle", { cx: 572, cy: y0 + 16, r: 7, fill: seatColor(s) }, g);
    const leaves = arr(view.leaves)[s] ?? 0;
    const nuts = arr(view.nuts)[s] ?? 0;
    el("text", { x: 584, y: y0 + 20, class: "small bold" }, g, `${seatName(s, ctx)} · ${leaves + nuts} pts`);
    leafPath(g, 580, y0 + 42, 8);
    el("text", { x: 594, y: y0 + 46, class: "small" }, g, `${leaves} lea${leaves === 1 ? "f" : "ves"}`);
    nutShape(g, 670, y0 + 42, 7);
    el("text", { x: 684, y: y0 + 46, class: "small" }, g, `${nuts} nut${nuts === 1 ? "" : "s"}`);
  }
  // Legend.
  const ly = 150 + 4 * (rowH + 6) + 6;
  const lg = el("g", {}, side);
  el("circle", { cx: 568, cy: ly, r: 8, fill: "#43a047", stroke: "#1b5e20" }, lg);
  el("text", { x: 582, y: ly + 4, class: "tiny" }, lg, "green disk (open)");
  el("circle", { cx: 688, cy: ly, r: 8, fill: "#fff", stroke: "#999" }, lg);
  el("text", { x: 702, y: ly + 4, class: "tiny" }, lg, "white disk");
  leafPath(lg, 568, ly + 24, 6);
  el("text", { x: 582, y: ly + 28, class: "tiny" }, lg, "leaf");
  nutShape(lg, 688, ly + 24, 5);
  el("text", { x: 702, y: ly + 28, class: "tiny" }, lg, "buried nuts");
  footer(svg, 20, 554, ctx);
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
<li>Green disk: open; white disk: covered. Orange leaf: a leaf; brown nut: buried nuts.</li>
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
