// The nutcore page: speaks the engine protocol (docs/engine-protocol.md) to one of two engines and
// draws each game with its board module (boards/<game>.js). It names no game and knows no bot: the
// games, their player counts, parameters, algorithms, default bot, example bots and levels come from
// list_games.
//
// The engines: `nutcore serve` over the WebSocket /ws, or, in a static folder that `nutcore
// export-web` wrote (docs/web.md), the WebAssembly engine in a Web Worker (worker.js). The page's
// <meta name="nutcore-engine"> says which ("server" or "worker"); ?engine=server or ?engine=worker
// in the address overrides it. Both carry the same lines, so everything below is the same for both.
//
// What a human may see in games of hidden information: with one human seat the page connects as that
// seat, so it never receives what the seat has not seen; with several humans (hot seat) it hosts the
// game but only ever asks for the board of the human to move, names no move or chance outcome, and
// hides the board between two humans' turns. Memory aids (off unless chosen) decide whether a human
// sees what their seat has seen before, or only what lies in front of it now.

const $ = (id) => document.getElementById(id);

// ----- the connection

class EngineError extends Error {
  constructor(reply) {
    super(reply.message);
    this.reply = reply;
  }
}

let transport = null; // {send(line)}
let nextId = 1;
const pending = new Map(); // request id -> {resolve, onInfo}

function meta(name) {
  const m = document.querySelector(`meta[name="${name}"]`);
  return m ? m.content : null;
}

function engineKind() {
  const asked = new URLSearchParams(location.search).get("engine");
  if (asked === "server" || asked === "worker") return asked;
  return meta("nutcore-engine") === "worker" ? "worker" : "server";
}

function received(text) {
  let reply;
  try {
    reply = JSON.parse(text);
  } catch (e) {
    return showError(`unreadable reply from the engine: ${e}`);
  }
  const p = pending.get(reply.id);
  if (p === undefined) {
    if (reply.type === "error") showError(reply.message);
    return;
  }
  if (reply.type === "info") {
    if (p.onInfo) p.onInfo(reply);
    return;
  }
  pending.delete(reply.id);
  p.resolve(reply);
}

function closed(message) {
  $("connection").textContent = message;
  for (const p of pending.values()) p.resolve({ type: "error", error: "closed", message: "the connection closed" });
  pending.clear();
  transport = null;
}

function connectServer() {
  return new Promise((resolve, reject) => {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const socket = new WebSocket(url);
    socket.onopen = () => {
      transport = { send: (line) => socket.send(line) };
      $("connection").textContent = "connected";
      resolve();
    };
    socket.onerror = () => reject(new Error("cannot connect to the nutcore server"));
    socket.onclose = () => closed("disconnected: reload the page");
    socket.onmessage = (event) => received(event.data);
  });
}

function connectWorker() {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    } catch (e) {
      return reject(new Error(`this browser cannot run the engine in a worker: ${e.message}`));
    }
    worker.onmessage = (event) => {
      const data = event.data;
      if (typeof data === "string") return received(data);
      if (data && data.ready) {
        transport = { send: (line) => worker.postMessage(line) };
        $("connection").textContent = `in this page (WebAssembly, nutcore ${data.ready})`;
        resolve();
      } else if (data && data.failed) {
        reject(new Error(`the WebAssembly engine did not load: ${data.failed}`));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (transport) closed("the engine stopped: reload the page");
      else reject(new Error(`the WebAssembly engine did not load: ${event.message || "worker error"}`));
    };
    // For the test suites only: export-web --test-hooks writes this meta (docs/web.md).
    const limits = meta("nutcore-test-hooks") === "on" ? { test_hooks: true } : {};
    worker.postMessage({ limits });
  });
}

const connect = () => (engineKind() === "worker" ? connectWorker() : connectServer());

// The final reply to one request (its "info" lines go to onInfo); an error reply is thrown.
async function ask(cmd, fields = {}, onInfo = null) {
  if (!transport) throw new EngineError({ message: "not connected" });
  const id = nextId++;
  const reply = await new Promise((resolve) => {
    pending.set(id, { resolve, onInfo });
    transport.send(JSON.stringify({ cmd, id, ...fields }));
  });
  if (reply.type === "error") throw new EngineError(reply);
  return reply;
}

// ----- what the page knows

let catalogue = []; // list_games
const boards = new Map(); // game -> board module, or null when it has none
const G = {
  game: null, // list_games entry
  players: 0,
  params: {},
  seats: [], // per seat "human" or a bot spec
  humans: [],
  hidden: false,
  seat: null, // the connection's seat (hidden information, one human) or null (host)
  status: null,
  legal: [], // the human's legal moves when a human is to move
  history: [], // {text, own, chance}
  last: null,
  holder: null, // hot seat: the human who has the device (whose view may be shown)
  searching: false,
  searchKind: null, // "go" or "hint"
  paused: false,
  memoryAids: false, // a memory game's humans see what their seat saw before, not only what lies in front of it
  gen: 0, // bumped by new game / undo / load: a running loop of automatic steps ends
};

const isHuman = (seat) => G.seats[seat] === "human";
// Hot seat in a game of hidden information: the page hosts the game for several humans.
const hotSeat = () => G.hidden && G.seat === null && G.humans.length > 0;
const humanToMove = () =>
  G.status && !G.status.terminal && !G.status.chance && G.status.current_player !== null && isHuman(G.status.current_player);

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The one staleness check: new game, undo, load and Continue bump G.gen, and whatever was under way
// for the game before (a loop, a drawing, a hint) ends at its next reply with a Stale, unshown.
class Stale extends Error {}

function fresh(gen) {
  if (gen !== G.gen) throw new Stale("stale");
}

async function askIn(gen, cmd, fields = {}, onInfo = null) {
  const reply = await ask(cmd, fields, onInfo);
  fresh(gen);
  return reply;
}

// ----- setup

// A seat's choices: a human, or the bots the engine offers for the game (list_games: its example
// specs and its levels, each level labelled with what it plays there).
function seatChoices(entry) {
  return [
    { value: "human", label: "human" },
    ...entry.bots.map((spec) => ({ value: spec, label: spec })),
    ...entry.levels.map((level) => ({ value: level.bot, label: `${level.bot}: ${level.plays}` })),
  ];
}

function chosenEntry() {
  return catalogue.find((g) => g.name === $("game").value);
}

function fillPlayers() {
  const entry = chosenEntry();
  const sel = $("players");
  const keep = Number(sel.value) || 2;
  sel.replaceChildren();
  for (let n = entry.players.min; n <= entry.players.max; n++) sel.add(new Option(String(n), String(n)));
  sel.value = String(Math.min(Math.max(keep, entry.players.min), entry.players.max));
  const list = $("bot-specs");
  list.replaceChildren(...seatChoices(entry).map((c) => new Option(c.label, c.value)));
  $("memory-aids-box").hidden = !entry.memory_aids;
  fillSeats(true);
}

function fillSeats(reset) {
  const entry = chosenEntry();
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    const label = document.createElement("label");
    label.className = "seat";
    label.textContent = `Seat ${s} `;
    const input = document.createElement("input");
    input.setAttribute("list", "bot-specs");
    input.id = `seat-${s}`;
    input.spellcheck = false;
    input.value = !reset && old[s] !== undefined ? old[s] : s === 0 ? "human" : entry.default_bot;
    const levels = entry.levels.map((level) => level.bot);
    input.title = `human, or a bot: ${levels[0]} to ${levels[levels.length - 1]}, ${entry.bots.join(", ")}, ...`;
    label.appendChild(input);
    box.appendChild(label);
  }
  const defaults = entry.default_params.find((p) => p.players === n) || entry.default_params[0];
  $("defaults").textContent = JSON.stringify(defaults, null, 1);
}

// ----- a game

async function startGame(position = null, loaded = null) {
  clearError();
  const entry = chosenEntry();
  let params;
  try {
    params = JSON.parse($("params").value.trim() || "{}");
  } catch (e) {
    return showError(`Parameters: not valid JSON (${e.message})`);
  }
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return showError('Parameters: a JSON object such as {"turn_cap": 20}');
  }
  const players = Number($("players").value);
  const seats = [];
  for (let s = 0; s < players; s++) seats.push($(`seat-${s}`).value.trim() || "human");
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
  const gen = G.gen;
  performance.mark("nutcore-game-start");
  let reply;
  try {
    reply = await askIn(gen, "new_game", request);
    if (position) reply = { ...reply, status: (await askIn(gen, "set_position", { position })).status };
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
    humans,
    hidden: reply.hidden_information,
    seat: reply.seat,
    status: reply.status,
    legal: [],
    history: [],
    last: null,
    holder: null,
    searching: false,
    paused: false,
  });
  if (loaded) addHistory(`position loaded from ${loaded}`, false, false);
  clearAi("Press Hint on your turn, or watch a bot think.");
  await loadBoardModule(entry.name);
  if (gen === G.gen) kick();
}

async function loadBoardModule(name) {
  if (boards.has(name)) return;
  try {
    const module = await import(`./boards/${name}.js`);
    boards.set(name, typeof module.render === "function" ? module : null);
  } catch (e) {
    boards.set(name, null); // no board for this game: the text board
  }
}

// The game loop: the automatic part of the game (chance and bot seats) until a human is to move
// or the game ends, then the drawing of that position. There is only ever one loop for a game:
// kick() starts it unless it runs already, and a running loop reads G.status afresh at each step,
// so a move the human makes during a pause between automatic steps is simply taken up by it.
let loop = null; // the running loop: {gen}

function kick() {
  if (loop && loop.gen === G.gen) return;
  const mine = { gen: G.gen };
  loop = mine;
  gameLoop(mine.gen).finally(() => {
    if (loop === mine) loop = null;
  });
}

const waitsForUser = () => G.status.terminal || G.paused || humanToMove();

async function gameLoop(gen) {
  try {
    for (;;) {
      if (waitsForUser()) {
        await render(gen);
        // A click during the drawing may have moved the game on: then the loop goes on.
        if (waitsForUser()) return;
        continue;
      }
      if (G.status.chance) {
        const r = await askIn(gen, "chance");
        noteMove(null, r.outcome, r.hidden);
        G.status = r.status;
      } else {
        await botMove(gen, G.status.current_player);
      }
      const delay = Number($("delay").value);
      if (delay > 0) {
        await render(gen);
        await sleep(delay);
        fresh(gen);
      }
    }
  } catch (e) {
    if (e instanceof Stale) return;
    showError(e.message);
    G.paused = true; // an automatic step failed: wait for the user (Continue retries it)
    await render(gen).catch(() => {});
  }
}

async function botMove(gen, player) {
  const spec = G.seats[player];
  G.searching = true;
  G.searchKind = "go";
  updateControls();
  const started = performance.now();
  const showStats = !hotSeat() && !(G.hidden && G.seat !== null); // never another seat's statistics
  if (showStats) clearAi(`Seat ${player} (${spec}) is thinking…`);
  $("status").textContent = `Seat ${player} (${spec}) is thinking…`;
  try {
    const r = await askIn(gen, "go", { bot: spec }, (info) => {
      if (showStats && gen === G.gen) showProgress(`Seat ${player} (${spec}) is thinking…`, info, player);
    });
    // For the start-up benchmark (bench/wasm_speed.py): the first move an AI played on this page.
    if (!performance.getEntriesByName("nutcore-first-ai-move").length) performance.mark("nutcore-first-ai-move");
    noteMove(player, r.move, r.hidden);
    G.status = r.status;
    if (showStats) {
      if (r.result) showResult(`Seat ${player} (${spec}) played`, r.result, player);
      else clearAi(`Seat ${player} (${spec}) played ${r.move ? r.move.action_string : ""}`);
      $("ai-progress").textContent = `${((performance.now() - started) / 1000).toFixed(2)} s`;
    }
  } finally {
    G.searching = false;
  }
}

function noteMove(player, move, hidden) {
  const who = player === null ? "chance" : `seat ${player}`;
  // Hot seat: a move or an outcome may be private to one human; the others read it from their view.
  const secret = hidden || !move || hotSeat();
  addHistory(`${who}: ${secret ? "(hidden)" : move.action_string}`, false, player === null, player);
  G.last = secret ? null : { player, action_string: move.action_string };
}

function addHistory(text, own, chance, player = null) {
  G.history.push({ text, own, chance, player });
  redrawHistory();
}

// Without memory aids a memory game's move list is a memory aid too: a human sees what happened
// since their own last move (as they watched it), not the whole game.
function shownHistory() {
  const viewer = G.seat !== null ? G.seat : hotSeat() ? G.holder : G.humans.length === 1 ? G.humans[0] : null;
  if (G.memoryAids || !G.game || !G.game.memory_aids || G.humans.length === 0) return G.history;
  let from = 0;
  G.history.forEach((h, i) => {
    if (h.own && (viewer === null || h.player === viewer)) from = i;
  });
  return G.history.slice(from);
}

function redrawHistory() {
  const items = shownHistory().map((h) => {
    const li = document.createElement("li");
    li.textContent = h.text;
    if (h.chance) li.className = "chance";
    return li;
  });
  $("history").replaceChildren(...items);
  if (items.length) items[items.length - 1].scrollIntoView({ block: "nearest" });
}

// ----- drawing

function statusText() {
  const st = G.status;
  if (st.terminal) {
    const scores = st.scores ? ` Points: ${st.scores.join(" : ")}.` : "";
    const best = st.returns ? Math.max(...st.returns) : null;
    const winners = st.returns ? st.returns.flatMap((r, s) => (r === best && r > 0 ? [s] : [])) : [];
    const won = winners.length ? ` Won: seat ${winners.join(", seat ")}.` : "";
    return `Game over.${scores}${won}`;
  }
  if (st.chance) return "Chance…";
  const p = st.current_player;
  if (isHuman(p)) return G.humans.length > 1 ? `Seat ${p}, your move` : `Your move (seat ${p})`;
  return `Seat ${p} (${G.seats[p]}) to move${G.paused ? ": paused" : ""}`;
}

// Which seat's view to ask for: the connection's seat, or in hot seat the human to move (null:
// show no board), or the whole board (perfect information, watching bots).
function boardSeat() {
  if (G.seat !== null) return { seat: undefined, show: true };
  if (!hotSeat()) return { seat: undefined, show: true };
  return { seat: G.holder, show: G.holder !== null };
}

// Draws the position now, outside the game loop.
function redraw() {
  render(G.gen).catch((e) => {
    if (!(e instanceof Stale)) showError(e.message);
  });
}

async function render(gen) {
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
        showCurtain(`Pass the device to seat ${next}`, `I am seat ${next}: show my board`, () => {
          G.holder = next;
          hideCurtain();
          redraw();
        });
        $("status").textContent = `Seat ${next}'s turn`;
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
    const legal = await askIn(gen, "legal");
    if (G.status !== st) return; // a move was made meanwhile: a newer drawing follows
    G.legal = legal.moves || [];
  }
  const which = boardSeat();
  let board = null;
  if (which.show) {
    const fields = which.seat === undefined ? {} : { seat: which.seat };
    // A human's board shows what lies in front of their seat now, unless memory aids are on.
    if (G.humans.length > 0 && !G.memoryAids) fields.memory_aids = false;
    board = await askIn(gen, "board", fields);
    if (G.status !== st) return;
  }
  drawBoard(board);
  drawMoves();
  $("status").textContent = statusText();
  updateControls();
  markPhase(st.terminal ? "over" : humanToMove() ? "move" : "auto");
}

function drawBoard(board) {
  const box = $("board");
  box.replaceChildren();
  $("text-board").textContent = board ? board.text : "";
  if (!board) return;
  const module = boards.get(G.game.name);
  const ctx = {
    players: G.players,
    params: G.params,
    seat: G.seat !== null ? G.seat : hotSeat() ? G.holder : G.humans.length === 1 ? G.humans[0] : null,
    toMove: G.status.current_player,
    legal: G.legal.slice(),
    play: (action) => play(action),
    last: G.last,
  };
  if (module && board.json !== null) {
    try {
      module.render(box, board.json, ctx);
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

function drawMoves() {
  const box = $("moves");
  box.replaceChildren();
  for (const m of G.legal) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.action = String(m.action);
    b.textContent = m.action_string;
    // The action is read when clicked, as the board's targets give theirs.
    b.addEventListener("click", () => play(Number(b.dataset.action)));
    box.appendChild(b);
  }
  $("moves-box").hidden = G.legal.length === 0;
}

// For scripts and tests: what the page waits for, and a counter of finished drawings.
function markPhase(phase) {
  document.body.dataset.phase = phase;
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
}

function showCurtain(text, buttonText, onClick) {
  $("curtain-text").textContent = text;
  const button = $("curtain-button");
  button.hidden = !buttonText;
  button.textContent = buttonText || "";
  button.onclick = onClick;
  $("curtain").hidden = false;
}

function hideCurtain() {
  $("curtain").hidden = true;
}

function updateControls() {
  const playing = G.status !== null;
  const mine = playing && humanToMove() && (!hotSeat() || G.holder === G.status.current_player);
  $("hint").disabled = !mine || G.searching;
  $("stop").disabled = !G.searching;
  $("resume").hidden = !(playing && G.paused && !G.status.terminal);
  $("undo").disabled = !playing || G.searching || !G.history.some((h) => h.own);
  // A seat's connection may not read the position, nor may the page fetch it for one human in hot seat.
  $("save").disabled = !playing || G.searching || (G.hidden && (G.seat !== null || G.humans.length > 0));
  $("save").title = $("save").disabled && G.hidden ? "the position holds cards a human has not seen" : "";
  for (const b of document.querySelectorAll("button.move")) b.disabled = !mine || G.searching;
}

// ----- the human's actions

let playing = false;

async function play(action) {
  if (playing || !humanToMove() || G.searching) return;
  playing = true;
  const gen = G.gen;
  const player = G.status.current_player;
  try {
    const r = await askIn(gen, "apply", { moves: [action] });
    clearError();
    const m = r.applied[0];
    const text = hotSeat() ? "(hidden)" : m.action_string;
    addHistory(`seat ${player}: ${text}`, true, false, player);
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

function progressText(info) {
  // A busy server runs a few searches at once; the others wait for a slot.
  if (info.queued) return `waiting for the server… ${info.elapsed.toFixed(2)} s`;
  const b = info.budget || {};
  const of = b.time_limit ? ` of ${b.time_limit} s` : b.iterations ? ` (${b.iterations} iterations)` : "";
  return `thinking… ${info.elapsed.toFixed(2)} s${of}`;
}

// A progress line: the elapsed time and, from MCTS and ISMCTS, the visit bars of the search so far.
function showProgress(title, info, player) {
  if (Array.isArray(info.actions) && info.actions.length) {
    const best = info.actions.reduce((a, b) => (b.visits > a.visits ? b : a));
    showResult(title, {
      action: best.action,
      action_string: `${best.action_string} so far`,
      value: null,
      algorithm: "searching",
      iterations: info.iterations,
      actions: info.actions,
    }, player);
  }
  $("ai-progress").textContent = progressText(info);
}

function clearAi(title) {
  $("ai-title").textContent = title;
  $("ai-progress").textContent = "";
  $("ai-best").textContent = "";
  $("ai-bars").replaceChildren();
}

function showResult(title, result, player) {
  $("ai-title").textContent = title;
  const value = Array.isArray(result.value) ? result.value[player] : null;
  const valueText = typeof value === "number" ? `, value ${value.toFixed(3)} for seat ${player}` : "";
  $("ai-best").textContent = `${result.action_string}${valueText} (${result.algorithm}, ${result.iterations ?? "-"} iterations)`;
  const stats = (result.actions || []).slice();
  const byVisits = stats.some((s) => typeof s.visits === "number");
  stats.sort((a, b) => (byVisits ? b.visits - a.visits : b.value - a.value));
  const top = Math.max(1e-9, ...stats.map((s) => (byVisits ? s.visits : Math.max(0, s.value))));
  const list = $("ai-bars");
  list.replaceChildren();
  for (const s of stats) {
    const li = document.createElement("li");
    li.className = s.action === result.action ? "best" : "";
    const numbers = document.createElement("span");
    numbers.className = "numbers";
    numbers.textContent = byVisits ? `${s.visits} · ${s.value.toFixed(3)}` : s.value.toFixed(3);
    const name = document.createElement("span");
    name.textContent = s.action_string;
    const bar = document.createElement("div");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.style.width = `${(100 * Math.max(0, byVisits ? s.visits : s.value)) / top}%`;
    bar.appendChild(fill);
    li.append(numbers, name, bar);
    list.appendChild(li);
  }
}

async function hint() {
  if (!humanToMove() || G.searching) return;
  const gen = G.gen;
  const player = G.status.current_player;
  const budget = Number($("hint-budget").value);
  G.searching = true;
  G.searchKind = "hint";
  updateControls();
  clearAi(`Hint for seat ${player}: thinking…`);
  try {
    const r = await askIn(gen, "best_move", { time_limit: budget }, (info) => {
      if (gen === G.gen) showProgress(`Hint for seat ${player}: thinking…`, info, player);
    });
    showResult(`Hint for seat ${player}${r.stopped ? " (stopped)" : ""}`, r.result, player);
    $("ai-progress").textContent = `${r.result.elapsed.toFixed(2)} s`;
  } catch (e) {
    if (!(e instanceof Stale)) showError(e.message);
  } finally {
    if (gen === G.gen) {
      G.searching = false;
      updateControls();
    }
  }
}

async function stop() {
  // A bot's move still lands (its best so far); then the page waits for Continue.
  if (G.searchKind === "go") G.paused = true;
  updateControls();
  try {
    await ask("stop");
  } catch (e) {
    showError(e.message);
  }
}

function resume() {
  G.paused = false;
  clearError();
  G.gen++;
  kick();
}

async function undo() {
  if (G.searching) return;
  G.gen++; // ends the loop of automatic steps
  const gen = G.gen;
  try {
    const r = await askIn(gen, "undo");
    clearError();
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

async function save() {
  try {
    const r = await ask("get_position");
    const data = { game: G.game.name, players: G.players, params: G.params, position: r.position };
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${G.game.name}-position.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (e) {
    showError(e.message);
  }
}

async function load(file) {
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (e) {
    return showError(`${file.name}: not valid JSON (${e.message})`);
  }
  if (!data || typeof data !== "object" || typeof data.position !== "object" || data.position === null) {
    return showError(`${file.name}: a saved position is an object with "game", "players", "params" and "position"`);
  }
  if (!catalogue.some((g) => g.name === data.game)) return showError(`${file.name}: unknown game ${JSON.stringify(data.game)}`);
  $("game").value = data.game;
  fillPlayers();
  $("players").value = String(data.players);
  fillSeats(false);
  const params = { ...(data.params || {}) };
  delete params.players;
  $("params").value = JSON.stringify(params);
  await startGame(data.position, file.name);
}

// ----- wiring

async function main() {
  try {
    await connect();
    catalogue = (await ask("list_games")).games;
  } catch (e) {
    $("connection").textContent = "not connected";
    return showError(e.message);
  }
  const sel = $("game");
  for (const g of catalogue) sel.add(new Option(g.title || g.name, g.name));
  sel.addEventListener("change", fillPlayers);
  $("players").addEventListener("change", () => fillSeats(false));
  fillPlayers();
  $("start").disabled = false;
  $("start").addEventListener("click", () => startGame());
  $("hint").addEventListener("click", hint);
  $("stop").addEventListener("click", stop);
  $("resume").addEventListener("click", resume);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("load").addEventListener("change", (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) load(file);
  });
  performance.mark("nutcore-ready");
  document.body.dataset.ready = "true"; // for tests and scripts: the games are listed
}

main();
