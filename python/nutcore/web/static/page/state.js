// What the page knows of the game (G), the board modules, and the one staleness check.

import { ask } from "./connection.js";

export const catalogue = []; // list_games
export const boards = new Map(); // game -> board module, or null when it has none
export const G = {
  game: null, // list_games entry
  players: 0,
  params: {},
  seats: [], // per seat "human" or a bot spec
  names: [],
  humans: [],
  hidden: false,
  seat: null, // the connection's seat (hidden information, one human) or null (host)
  status: null,
  legal: [], // the human's legal moves when a human is to move
  history: [], // {text, own, chance, player}
  last: null,
  hint: null, // {action, status}: the last hint's move, for the position it was asked in
  holder: null, // hot seat: the human who has the device (whose view may be shown)
  searching: false,
  searchKind: null, // "go" or "hint"
  paused: false,
  memoryAids: false, // a memory game's humans see what their seat saw before, not only what lies in front of it
  gen: 0, // bumped by new game / undo / load / Continue: a running loop of automatic steps ends
  view: null,
  refocus: false,
};

export const isHuman = (seat) => G.seats[seat] === "human";
// Hot seat in a game of hidden information: the page hosts the game for several humans.
export const hotSeat = () => G.hidden && G.seat === null && G.humans.length > 0;
export const humanToMove = () =>
  G.status && !G.status.terminal && !G.status.chance && G.status.current_player !== null && isHuman(G.status.current_player);

// The one staleness check. New game, undo, load and Continue bump G.gen; a move changes G.status.
// Work under way (a loop, a drawing, a hint) takes a stamp when it starts; its replies come through
// the stamp, which drops progress lines and throws Stale at the first reply that arrives too late,
// so nothing of an old game, or of an old position for a stamp that watches it, is shown.
export class Stale extends Error {}

export function stamp({ position = false } = {}) {
  const gen = G.gen;
  const status = G.status;
  const stale = () => gen !== G.gen || (position && G.status !== status);
  const check = () => {
    if (stale()) throw new Stale("stale");
  };
  return {
    stale,
    check,
    // This game's moved on (new game, undo...), not merely its position.
    gameGone: () => gen !== G.gen,
    async ask(cmd, fields = {}, onInfo = null) {
      const reply = await ask(cmd, fields, onInfo && ((info) => stale() || onInfo(info)));
      check();
      return reply;
    },
  };
}

export const nameOf = (seat) => (seat === null || seat === undefined ? "Chance" : G.names[seat] || `Player ${seat + 1}`);

export const boardModule = () => (G.game ? boards.get(G.game.name) : null);

// A move in words: the board module's describe(), else the engine's own text.
export function phrase(text, player) {
  const module = boardModule();
  if (module && typeof module.describe === "function") {
    try {
      const words = module.describe(text, { player, seat: G.seat, params: G.params, names: G.names });
      if (typeof words === "string" && words) return words;
    } catch (e) {
      console.error(e);
    }
  }
  return text;
}

// An optional function of the board module (the board interface, docs/web.md), called safely:
// `fallback` when the module lacks it or it fails.
export function fromBoard(name, fallback, ...args) {
  const module = boardModule();
  if (!module || typeof module[name] !== "function") return fallback;
  try {
    const value = module[name](...args);
    return value === undefined ? fallback : value;
  } catch (e) {
    console.error(e);
    return fallback;
  }
}

export async function loadBoardModule(name) {
  if (boards.has(name)) return;
  try {
    const module = await import(`../boards/${name}.js`);
    boards.set(name, typeof module.render === "function" ? module : null);
  } catch (e) {
    boards.set(name, null); // no board for this game: the text board
  }
}
