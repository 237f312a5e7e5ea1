// The drawing of a position: the board (by the game's board module), the moves, the status line,
// the move list grouped by turn, the summary of the other players' turns, the controls.

import { $, markPhase, showError } from "./dom.js";
import { G, Stale, boardModule, fromBoard, hotSeat, humanToMove, isHuman, nameOf, phrase, stamp } from "./state.js";
import { clearAi } from "./ai.js";
import { hideCurtain, showCurtain, showGameOver, winnerText } from "./dialogs.js";
import { play } from "./loop.js";

export function addHistory(text, own, chance, player = null) {
  G.history.push({ text, own, chance, player });
  redrawHistory();
}

// Without memory aids a memory game's move list is a memory aid too: a human sees what happened
// since their own last move (as they watched it), not the whole game.
export function shownHistory() {
  const viewer = G.seat !== null ? G.seat : hotSeat() ? G.holder : G.humans.length === 1 ? G.humans[0] : null;
  if (G.memoryAids || !G.game || !G.game.memory_aids || G.humans.length === 0) return G.history;
  let from = 0;
  G.history.forEach((h, i) => {
    if (h.own && (viewer === null || h.player === viewer)) from = i;
  });
  return G.history.slice(from);
}

// The history grouped by turn: a turn is a seat's moves in a row, with the chance steps among and
// after them (a roll, a draw); what chance does before anyone moves is the deal.
export function turns(entries) {
  const groups = [];
  for (const h of entries) {
    const cur = groups[groups.length - 1];
    if (!cur || (!h.chance && h.player !== cur.player)) groups.push({ player: h.chance ? null : h.player, steps: [h] });
    else cur.steps.push(h);
  }
  return groups;
}

export function redrawHistory() {
  const items = turns(shownHistory()).map((t, i) => {
    const li = document.createElement("li");
    li.className = "turn";
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = String(i + 1);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = t.player === null ? "Deal and draws" : nameOf(t.player);
    const steps = document.createElement("ul");
    for (const h of t.steps) {
      const step = document.createElement("li");
      step.className = h.chance ? "step chance" : "step";
      step.textContent = h.text;
      steps.appendChild(step);
    }
    li.append(n, who, steps);
    return li;
  });
  const box = $("history");
  box.replaceChildren(...items);
  // The list scrolls inside its own box; the window never moves by itself.
  box.scrollTop = box.scrollHeight;
}

// ----- drawing

export function statusText() {
  const st = G.status;
  if (st.terminal) return `Game over. ${winnerText()}`;
  if (st.chance) return "Dealing and rolling…";
  const p = st.current_player;
  if (isHuman(p)) return G.humans.length > 1 ? `${nameOf(p)}, your move` : "Your move";
  return `${nameOf(p)} to move${G.paused ? " (paused: press Continue)" : ""}`;
}

// Which seat's view to ask for: the connection's seat, or in hot seat the human to move (null:
// show no board), or the whole board (perfect information, watching bots).
function boardSeat() {
  if (G.seat !== null) return { seat: undefined, show: true };
  if (!hotSeat()) return { seat: undefined, show: true };
  return { seat: G.holder, show: G.holder !== null };
}

// Draws the position now, outside the game loop.
export function redraw() {
  render().catch((e) => {
    if (!(e instanceof Stale)) showError(e.message);
  });
}

// Draws the position: the human's moves and the board they may see. A move made while the replies
// come (a click during a pause) leaves it to the newer drawing that follows; a new game throws Stale.
export async function render() {
  const s = stamp({ position: true });
  try {
    await drawPosition(s);
  } catch (e) {
    if (e instanceof Stale && !s.gameGone()) return;
    throw e;
  }
}

let shownBoard = null; // the last board reply drawn, for a drawing again without asking (a hint)

async function drawPosition(s) {
  const st = G.status;
  G.legal = [];
  if (hotSeat()) {
    // The board of the human to move only, once the others have looked away; nothing while the
    // bots and chance play between two humans' turns.
    const next = humanToMove() ? st.current_player : null;
    // At the end the last human keeps the device and sees the final board from their seat.
    if (!st.terminal && (next === null || next !== G.holder)) {
      drawBoard(null);
      drawMoves();
      clearAi("");
      if (next !== null) {
        showCurtain(`Pass the device to ${nameOf(next)}`, `I am ${nameOf(next)}: show my board`, () => {
          G.holder = next;
          hideCurtain();
          redraw();
        });
        $("status").textContent = `${nameOf(next)}'s turn`;
      } else {
        showCurtain("The other seats are playing…", null, null);
        $("status").textContent = statusText();
      }
      updateControls();
      markPhase("curtain");
      return;
    }
  }
  hideCurtain();
  redrawHistory(); // the viewer may have changed (hot seat)
  if (humanToMove()) {
    const legal = await s.ask("legal");
    G.legal = legal.moves || [];
  }
  const which = boardSeat();
  let board = null;
  if (which.show) {
    const fields = which.seat === undefined ? {} : { seat: which.seat };
    // A human's board shows what lies in front of their seat now, unless memory aids are on.
    if (G.humans.length > 0 && !G.memoryAids) fields.memory_aids = false;
    board = await s.ask("board", fields);
  }
  G.view = board && board.json ? board.json : null;
  drawBoard(board);
  drawMoves();
  $("status").textContent = statusText();
  showTurnSummary(st.terminal || humanToMove());
  if (st.terminal) {
    clearAi(""); // an old hint says nothing about a finished game
    showGameOver();
  }
  updateControls();
  keepFocus();
  markPhase(st.terminal ? "over" : humanToMove() ? "move" : "auto");
}

// What the board module is told besides the view (the board interface, docs/web.md).
function boardContext() {
  return {
    players: G.players,
    params: G.params,
    seat: G.seat !== null ? G.seat : hotSeat() ? G.holder : G.humans.length === 1 ? G.humans[0] : null,
    toMove: G.status.current_player,
    legal: G.legal.slice(),
    play: (action) => play(action),
    last: G.last,
    // The last hint's move, for the position it was asked in only.
    hint: G.hint && G.hint.status === G.status ? G.hint.action : null,
    names: G.names,
    describe: (text, player) => phrase(text, player),
  };
}

// Draws the last board again (the position unchanged: a hint to mark).
export function redrawBoard() {
  if (shownBoard && G.status) drawBoard(shownBoard);
}

function drawBoard(board) {
  const box = $("board");
  box.replaceChildren();
  shownBoard = board;
  $("text-board").textContent = board ? board.text : "";
  if (!board) return;
  const module = boardModule();
  const ctx = boardContext();
  if (module && board.json !== null) {
    try {
      module.render(box, board.json, ctx);
      readableText();
      return;
    } catch (e) {
      console.error(e);
      box.replaceChildren();
    }
  }
  const pre = document.createElement("pre");
  pre.className = "text-board";
  pre.textContent = board.text;
  box.appendChild(pre);
}

// A board is drawn for a width of several hundred units and scaled to the screen: on a phone its
// text would shrink to a few pixels. Every text gets at least 11 px on screen.
const MIN_TEXT_PX = 11;

export function readableText() {
  const svg = $("board").querySelector("svg");
  if (!svg || !svg.viewBox || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) return;
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  if (!(k > 0)) return;
  for (const t of svg.querySelectorAll("text")) {
    t.style.fontSize = "";
    const own = parseFloat(getComputedStyle(t).fontSize);
    if (own * k < MIN_TEXT_PX) t.style.fontSize = `${MIN_TEXT_PX / k}px`;
  }
}

// The human's moves as buttons. Where the board offers every one of them as its own targets
// (boardEntry), the buttons fold into a closed list, still there for the keyboard and screen
// readers; a player who opened it finds it open at the next turn of the game.
export function drawMoves() {
  const box = $("moves");
  box.replaceChildren();
  const buttons = G.legal.map((m) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.action = String(m.action);
    b.textContent = phrase(m.action_string, G.status.current_player);
    b.title = m.action_string; // the engine's name of the move, for those who know it
    // The action is read when clicked, as the board's targets give theirs.
    b.addEventListener("click", () => play(Number(b.dataset.action)));
    return b;
  });
  const folded = buttons.length > 0 && fromBoard("boardEntry", false, G.legal.slice(), boardContext()) === true;
  if (folded) {
    const list = document.createElement("details");
    list.id = "move-list";
    list.open = G.moveListOpen === true;
    list.addEventListener("toggle", () => {
      G.moveListOpen = list.open;
    });
    const summary = document.createElement("summary");
    summary.textContent = "All moves as a list";
    const inner = document.createElement("div");
    inner.className = "move-list";
    inner.append(...buttons);
    list.append(summary, inner);
    box.appendChild(list);
  } else {
    box.append(...buttons);
  }
  $("moves-title").textContent = folded ? "Your move: choose it on the board" : "Your moves";
  $("moves-box").hidden = G.legal.length === 0;
}

// After the other players' turns, a line for each: who did what, from the move list's turns (so it
// shows no more than the move list does), until the human moves.
function showTurnSummary(show) {
  const box = $("turn-summary");
  const lines = [];
  if (show && !hotSeat()) {
    const entries = shownHistory();
    let from = 0;
    entries.forEach((h, i) => {
      if (h.own) from = i + 1;
    });
    for (const t of turns(entries.slice(from))) {
      if (t.player === null || isHuman(t.player)) continue;
      lines.push(`${nameOf(t.player)}'s turn: ${t.steps.map((h) => h.text).join(", ")}.`);
    }
  }
  box.replaceChildren(
    ...lines.map((text) => {
      const p = document.createElement("p");
      p.textContent = text;
      return p;
    }),
  );
  box.hidden = lines.length === 0;
}

// A move button the player used is gone after the move: focus goes to the next sensible thing (the
// first move, else the status line), without scrolling the window.
function keepFocus() {
  const lost = !document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected;
  if (!lost || !G.refocus) return;
  G.refocus = false;
  // A move button where the moves show as buttons; else the board's first target.
  const button = document.querySelector("button.move:not(:disabled)");
  const next =
    (button && button.checkVisibility() ? button : null) ||
    document.querySelector("#board [tabindex='0']") ||
    (G.status.terminal ? $("play-again") : $("status"));
  next.focus({ preventScroll: true });
}
export function updateControls() {
  const playing = G.status !== null;
  const mine = playing && humanToMove() && (!hotSeat() || G.holder === G.status.current_player);
  $("hint").disabled = !mine || G.searching;
  $("stop").disabled = !G.searching;
  $("resume").hidden = !(playing && G.paused && !G.status.terminal);
  $("undo").disabled = !playing || G.searching || G.status.terminal || !G.history.some((h) => h.own);
  // A seat's connection may not read the position, nor may the page fetch it for one human in hot seat.
  $("save").disabled = !playing || G.searching || (G.hidden && (G.seat !== null || G.humans.length > 0));
  $("save").title = $("save").disabled && G.hidden ? "the position holds cards a human has not seen" : "";
  for (const b of document.querySelectorAll("button.move")) b.disabled = !mine || G.searching;
}
