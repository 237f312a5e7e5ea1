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
  .last:not(g) { stroke: #7b1fa2 !important; stroke-width: 3.5 !important; }
  g.last > .hit, g.last > .hit-base { stroke: #7b1fa2; stroke-width: 3.5; }
  .hint > .hit, .hint.hit { stroke: #c99700; stroke-width: 5; stroke-dasharray: 7 4; fill: #ffd54f; fill-opacity: 0.3; }
  .chosen > .hit, .chosen.hit { stroke: #c2185b; stroke-width: 5; stroke-dasharray: none; fill: #c2185b; fill-opacity: 0.18; }
  .chip text { font-size: 13px; }
`;

// Narrow containers (phones) get boards laid out for this width in SVG units, drawn at about one
// unit a pixel, so that 12-unit text stays at least 11 px on screen without being enlarged.
export const NARROW_WIDTH = 360;

// True when the container is a phone's width: the boards then use their tall, narrow layout.
export function isNarrow(container) {
  const w = container && container.clientWidth;
  return typeof w === "number" && w > 0 && w < 600;
}

// Empties the container and gives it one <svg> with the given viewBox, scaling to the container width.
export function svgRoot(container, width, height, title, narrow) {
  container.replaceChildren();
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width: "100%",
    preserveAspectRatio: "xMidYMid meet",
    role: "img",
    "aria-label": title,
    style: "display:block;max-width:100%;height:auto;background:#fbfaf5;border-radius:8px",
  });
  // Narrow: every text at least 12 units (about 12 px on a phone), whatever size a board asked for.
  el("style", {}, svg, narrow ? `${STYLE} text { font-size: 13px; } .small, .tiny { font-size: 12px; }` : STYLE);
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
  if (ctx && ctx.hint === action) node.classList.add("hint");
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

// A first step of a choice in steps (not a move itself: no data-action). `leads` are the action ids
// this step leads to: the hint marks the step of its move, and tests follow the steps by it.
export function makeSelect(node, onSelect, tooltip, leads, ctx) {
  node.classList.add("select");
  const ids = Array.isArray(leads) ? leads : [];
  node.setAttribute("data-leads", ids.join(" "));
  if (ctx && ids.includes(ctx.hint)) node.classList.add("hint");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (tooltip) {
    node.setAttribute("aria-label", tooltip);
    el("title", {}, node, tooltip);
  }
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

// Escape drops a board's partial selection: one listener for the page, the newest board's callback.
let escapeHandler = null;
export function onEscape(handler) {
  if (escapeHandler === null && typeof document !== "undefined") {
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && typeof escapeHandler === "function") escapeHandler();
    });
  }
  escapeHandler = handler || (() => {});
}

// A button drawn on the board for a move that has no place of its own (stop, keep the joker, a shout).
export function chip(parent, x, y, w, h, text, action, ctx, options) {
  const o = options || {};
  const g = el("g", { class: "chip" }, parent);
  el("rect", { x, y, width: w, height: h, rx: 8, fill: o.fill || "#fff", stroke: "#888", class: "hit" }, g);
  label(g, x + w / 2, y + h / 2, text, { class: "bold", style: o.textFill ? `fill:${o.textFill}` : undefined });
  makeTarget(g, action, ctx, o.tooltip || text);
  return g;
}

// True when every legal move's action string is one the board offers as a target (by its patterns).
export function allMatch(legal, patterns) {
  const list = Array.isArray(legal) ? legal : [];
  return list.length > 0 && list.every((m) => typeof m.action_string === "string" && patterns.some((re) => re.test(m.action_string)));
}

// Keeps text boxes from overlapping: place() takes the first candidate spot whose box (estimated
// from the font size and the text's length) is free, and reserves it.
export function placer() {
  const boxes = [];
  const free = (b) => boxes.every((o) => b.x2 <= o.x1 || o.x2 <= b.x1 || b.y2 <= o.y1 || o.y2 <= b.y1);
  const box = (x, y, text, size) => {
    const w = 0.62 * size * String(text).length + 2;
    const h = 1.2 * size;
    return { x1: x - w / 2, x2: x + w / 2, y1: y - h / 2, y2: y + h / 2 };
  };
  return {
    reserve(x, y, text, size) { boxes.push(box(x, y, text, size)); },
    place(candidates, text, size) {
      for (const [x, y] of candidates) {
        const b = box(x, y, text, size);
        if (free(b)) { boxes.push(b); return [x, y]; }
      }
      return null;
    },
  };
}

// Text broken into lines of at most `chars` characters at spaces; returns the y under the last line.
export function wrapped(parent, x, y, text, chars, lineHeight, attrs) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(" ")) {
    if (line && line.length + 1 + word.length > chars) { lines.push(line); line = word; }
    else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  lines.forEach((t, i) => el("text", { x, y: y + i * lineHeight, ...(attrs || {}) }, parent, t));
  return y + lines.length * lineHeight;
}

// The last move in words, for the footer ("" when the page told of none).
export function lastWords(ctx) {
  if (!(ctx && ctx.last && ctx.last.action_string)) return "";
  const who = ctx.last.player === null || ctx.last.player === undefined || ctx.last.player < 0
    ? "chance" : seatName(ctx.last.player, ctx);
  const words = typeof ctx.describe === "function" ? ctx.describe(ctx.last.action_string, ctx.last.player) : ctx.last.action_string;
  return `last move: ${who} — ${words}`;
}
