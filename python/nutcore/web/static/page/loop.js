// The game loop: new games, the automatic steps (chance and the bots' moves), the human's moves,
// Continue and Undo.

import { ask } from "./connection.js";
import { $, clearError, showError, sleep } from "./dom.js";
import { G, Stale, hotSeat, humanToMove, loadBoardModule, nameOf, phrase, stamp } from "./state.js";
import { clearAi, progressText, showProgress, showResult } from "./ai.js";
import { chosenEntry, seatChoice, seatNames, specProblem } from "./dialogs.js";
import { addHistory, drawMoves, redraw, redrawHistory, render, updateControls } from "./draw.js";

// A new game from the setup; `loaded` (a saved file: {name, position, params, history}) continues one.
export async function startGame(loaded = null) {
  clearError();
  const entry = chosenEntry();
  let params;
  try {
    // A loaded game brings its own parameters; the field keeps what the player typed.
    params = loaded ? loaded.params : JSON.parse($("params").value.trim() || "{}");
  } catch (e) {
    return showError(`Parameters: not valid JSON (${e.message})`);
  }
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return showError('Parameters: a JSON object such as {"turn_cap": 20}');
  }
  const players = Number($("players").value);
  const seats = [];
  for (let s = 0; s < players; s++) {
    const spec = seatChoice(s);
    const problem = spec === "" ? "choose a bot or write its spec" : spec === "human" ? null : specProblem(entry, spec);
    if (problem) return showError(`Player ${s + 1}: ${JSON.stringify(spec)} is not a bot this page can start: ${problem}.`);
    seats.push(spec);
  }
  const humans = seats.flatMap((spec, s) => (spec === "human" ? [s] : []));
  // One human in a game of hidden information: connect as that seat, so the page only ever receives
  // what it may see. Several humans (hot seat) or none (watching bots): host the game.
  const seat = entry.hidden_information && humans.length === 1 ? humans[0] : null;
  const request = { game: entry.name, players, params, seat };
  const seedText = $("seed").value.trim();
  if (seedText !== "") {
    if (!/^\d+$/.test(seedText)) return showError("Seed: a whole number, or empty for a random one");
    request.seed = Number(seedText);
    if (!Number.isSafeInteger(request.seed)) return showError("Seed: at most 2^53 - 1 on this page");
  }
  if (G.searching) {
    // The running search answers before the engine takes a new game.
    await ask("stop").catch(() => {});
    for (let i = 0; i < 250 && G.searching; i++) await sleep(20);
  }
  G.gen++;
  const s = stamp();
  performance.mark("nutcore-game-start");
  let reply;
  try {
    reply = await s.ask("new_game", request);
    if (loaded) reply = { ...reply, status: (await s.ask("set_position", { position: loaded.position })).status };
  } catch (e) {
    if (!(e instanceof Stale)) showError(e.message);
    return;
  }
  Object.assign(G, {
    game: entry,
    memoryAids: $("memory-aids").checked,
    players,
    params: reply.params,
    seats,
    names: seatNames(seats),
    humans,
    hidden: reply.hidden_information,
    seat: reply.seat,
    status: reply.status,
    legal: [],
    history: [],
    last: null,
    hint: null,
    holder: null,
    searching: false,
    paused: false,
    view: null,
  });
  if (loaded) {
    G.history = Array.isArray(loaded.history) ? loaded.history.filter((h) => h && typeof h.text === "string") : [];
    addHistory(`Game loaded from ${loaded.name}`, false, true, null);
  }
  document.body.classList.add("playing");
  document.body.classList.remove("setup-open");
  $("game-over").hidden = true;
  clearAi("Press Hint on your turn, or watch the AI think.");
  await loadBoardModule(entry.name);
  if (!s.stale()) kick();
}


// The game loop: the automatic part of the game (chance and bot seats) until a human is to move
// or the game ends, then the drawing of that position. There is only ever one loop for a game:
// kick() starts it unless it runs already, and a running loop reads G.status afresh at each step,
// so a move the human makes during a pause between automatic steps is simply taken up by it.
let loop = null; // the running loop's stamp

export function kick() {
  if (loop && !loop.stale()) return;
  const mine = stamp();
  loop = mine;
  gameLoop(mine).finally(() => {
    if (loop === mine) loop = null;
  });
}

const waitsForUser = () => G.status.terminal || G.paused || humanToMove();

async function gameLoop(s) {
  try {
    for (;;) {
      if (waitsForUser()) {
        await render();
        // A click during the drawing may have moved the game on: then the loop goes on.
        if (waitsForUser()) return;
        continue;
      }
      if (G.status.chance) {
        const r = await s.ask("chance");
        noteMove(null, r.outcome);
        G.status = r.status;
      } else {
        await botMove(s, G.status.current_player);
      }
      const delay = Number($("delay").value);
      if (delay > 0) {
        await render();
        await sleep(delay);
        s.check();
      }
    }
  } catch (e) {
    if (e instanceof Stale) return;
    showError(e.message);
    G.paused = true; // an automatic step failed: wait for the user (Continue retries it)
    await render().catch(() => {});
  }
}

async function botMove(s, player) {
  const spec = G.seats[player];
  const name = nameOf(player);
  G.searching = true;
  G.searchKind = "go";
  updateControls();
  const started = performance.now();
  const showStats = !hotSeat() && !(G.hidden && G.seat !== null); // never another seat's statistics
  clearAi(`${name} is thinking…`);
  $("ai").classList.add("busy");
  $("status").textContent = `${name} is thinking…`;
  try {
    const r = await s.ask("go", { bot: spec }, (info) => {
      // The elapsed time on every game; the search's statistics only where the seat may see them.
      if (showStats) showProgress(`${name} is thinking…`, info, player);
      else $("ai-progress").textContent = progressText(info);
      $("status").textContent = `${name} is thinking… ${info.elapsed.toFixed(1)} s`;
    });
    // For the start-up benchmark (bench/wasm_speed.py): the first move an AI played on this page.
    if (!performance.getEntriesByName("nutcore-first-ai-move").length) performance.mark("nutcore-first-ai-move");
    noteMove(player, r.move);
    G.status = r.status;
    if (showStats && r.result) showResult(`${name} played`, r.result, player);
    else clearAi(`${name} played${!r.move ? "" : `: ${phrase(r.move.action_string, player)}`}`);
    $("ai-progress").textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
  } finally {
    G.searching = false;
    $("ai").classList.remove("busy");
  }
}

function noteMove(player, move) {
  // Hot seat: a move or an outcome may be private to one human; the others read it from their view.
  // Otherwise a move not seen whole comes with what the seat saw of it (its public part).
  const secret = !move || hotSeat();
  addHistory(secret ? "(hidden)" : phrase(move.action_string, player), false, player === null, player);
  G.last = secret ? null : { player, action_string: move.action_string };
}

// ----- the human's actions

let playing = false;

export async function play(action) {
  if (playing || !humanToMove() || G.searching) return;
  playing = true;
  G.refocus = true;
  const s = stamp();
  const player = G.status.current_player;
  try {
    const r = await s.ask("apply", { moves: [action] });
    clearError();
    clearAi(""); // a hint was for the position before this move
    const m = r.applied[0];
    addHistory(hotSeat() ? "(hidden)" : phrase(m.action_string, player), true, false, player);
    G.last = hotSeat() ? null : { player, action_string: m.action_string };
    G.status = r.status;
    G.legal = [];
    drawMoves();
  } catch (e) {
    if (e instanceof Stale) return;
    // Refused (a stale target, a forged action): the engine's message, and the same turn goes on.
    showError(e.message);
    redraw();
    return;
  } finally {
    playing = false;
  }
  kick(); // the game loop takes it from here, or goes on with it if it is in a pause
}

export function resume() {
  G.paused = false;
  clearError();
  G.gen++;
  kick();
}

export async function undo() {
  if (G.searching) return;
  G.gen++; // ends the loop of automatic steps
  const s = stamp();
  try {
    const r = await s.ask("undo");
    clearError();
    clearAi(""); // a hint or a bot's move of a position no longer on the board
    // Back to before the human's last move: that move and everything after it leave the list.
    while (G.history.length) {
      if (G.history.pop().own) break;
    }
    redrawHistory();
    G.status = r.status;
    G.last = null;
    G.paused = false;
  } catch (e) {
    if (e instanceof Stale) return;
    showError(e.message);
  }
  kick();
}
