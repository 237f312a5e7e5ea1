// Shared drawing helpers for the game boards (boards/<game>.js). Plain SVG, no dependencies.

export const SVG_NS = "http://www.w3.org/2000/svg";

// One colour per seat, the same on every board, so a seat keeps its colour from game to game.
export const SEAT_COLORS = ["#d64541", "#2f6fd6", "#e3a21a", "#2e9e5b"];
export const SEAT_LIGHT = ["#f6d3d2", "#d3e1f7", "#f8e8c4", "#cfeadb"];

export function seatColor(seat) {
  return SEAT_COLORS[((seat % 4) + 4) % 4];
}

export function seatLight(seat) {
  return SEAT_LIGHT[((seat % 4) + 4) % 4];
}

// Creates an SVG element with attributes (and optional text), appended to parent when given.
export function el(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (parent) parent.appendChild(node);
  return node;
}

export function label(parent, x, y, text, attrs) {
  return el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...(attrs || {}) }, parent, text);
}

const STYLE = `
  text { font-family: system-ui, "Segoe UI", Helvetica, Arial, sans-serif; fill: #2b2b2b; }
  .small { font-size: 10px; } .tiny { font-size: 8px; } .bold { font-weight: 600; }
  .muted { fill: #777; }
  .target { cursor: pointer; }
  .target .hit, .target.hit { stroke: #ff7a00; stroke-width: 3; stroke-dasharray: 5 3; }
  .target:hover .hit, .target.hit:hover, .target:focus .hit, .target.hit:focus { stroke: #c2185b; fill-opacity: 0.35; }
  .target:focus { outline: none; }
  .select { cursor: pointer; }
  .select:hover .hit { stroke: #c2185b; }
  .selected .hit { stroke: #c2185b; stroke-width: 4; }
  .last { stroke: #7b1fa2 !important; stroke-width: 3.5 !important; }
`;

// Empties the container and gives it one <svg> with the given viewBox, scaling to the container width.
export function svgRoot(container, width, height, title) {
  container.replaceChildren();
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width: "100%",
    preserveAspectRatio: "xMidYMid meet",
    role: "img",
    "aria-label": title,
    style: "display:block;max-width:100%;height:auto;background:#fbfaf5;border-radius:8px",
  });
  el("style", {}, svg, STYLE);
  el("title", {}, svg, title);
  container.appendChild(svg);
  return svg;
}

// The legal moves by action string, so that boards read moves by their documented names.
export function legalByString(ctx) {
  const map = new Map();
  for (const m of (ctx && ctx.legal) || []) map.set(m.action_string, m.action);
  return map;
}

// Makes an SVG element (a <g> with a ".hit" shape inside, or a shape itself) a clickable target of a legal move.
export function makeTarget(node, action, ctx, tooltip) {
  node.classList.add("target");
  node.setAttribute("data-action", String(action));
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (tooltip) {
    node.setAttribute("aria-label", tooltip);
    el("title", {}, node, tooltip);
  }
  const fire = (event) => {
    event.stopPropagation();
    if (ctx && typeof ctx.play === "function") ctx.play(action);
  };
  node.addEventListener("click", fire);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") fire(event);
  });
  return node;
}

// A first step of a two-step choice (not a move itself: no data-action).
export function makeSelect(node, onSelect, tooltip) {
  node.classList.add("select");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (tooltip) el("title", {}, node, tooltip);
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    onSelect();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.stopPropagation();
      onSelect();
    }
  });
  return node;
}

// A seat's name as the page gives it (ctx.names: "You", a bot's name, a name the player typed).
export function seatName(seat, ctx) {
  const named = ctx && Array.isArray(ctx.names) && typeof ctx.names[seat] === "string" ? ctx.names[seat] : null;
  if (named) return named;
  const you = ctx && ctx.seat !== null && ctx.seat !== undefined && ctx.seat === seat;
  return you ? "You" : `Player ${seat + 1}`;
}

// A footer line naming the seat to move and the last move the connection was told of.
export function footer(svg, x, y, ctx, extra) {
  const parts = [];
  if (extra) parts.push(extra);
  if (ctx && ctx.last && ctx.last.action_string) {
    const who = ctx.last.player === null || ctx.last.player === undefined || ctx.last.player < 0
      ? "chance" : seatName(ctx.last.player, ctx);
    const words = typeof ctx.describe === "function" ? ctx.describe(ctx.last.action_string, ctx.last.player) : ctx.last.action_string;
    parts.push(`last move: ${who} — ${words}`);
  }
  return el("text", { x, y, class: "small muted" }, svg, parts.join("   ·   "));
}

// The last move's action string, or "" (for highlighting).
export function lastString(ctx) {
  return (ctx && ctx.last && typeof ctx.last.action_string === "string") ? ctx.last.action_string : "";
}

export function isNum(x) {
  return typeof x === "number" && Number.isFinite(x);
}

export function arr(x) {
  return Array.isArray(x) ? x : [];
}

// A small squirrel/knight token in a seat's colour.
export function pawn(parent, x, y, seat, r = 7, text) {
  const g = el("g", {}, parent);
  el("circle", { cx: x, cy: y, r, fill: seatColor(seat), stroke: "#fff", "stroke-width": 1.5 }, g);
  if (text !== undefined) label(g, x, y + 0.5, text, { class: "tiny bold", fill: "#fff", style: "fill:#fff" });
  return g;
}

// A legend of the seats' colours in one row.
export function seatLegend(parent, x, y, players, ctx) {
  const g = el("g", {}, parent);
  let cx = x;
  for (let s = 0; s < players; s++) {
    el("circle", { cx: cx + 6, cy: y, r: 6, fill: seatColor(s) }, g);
    const t = el("text", { x: cx + 16, y, "dominant-baseline": "central", class: "small" }, g, seatName(s, ctx));
    cx += 16 + Math.max(50, 7 * t.textContent.length);
  }
  return g;
}
