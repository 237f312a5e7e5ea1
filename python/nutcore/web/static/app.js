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

// Difficulty in words. The levels and what each plays come from list_games (docs/levels.md); the
// page only words them: a name by its place among the levels (however many there are), and what its
// spec does. Custom specs sit behind "Custom bot (advanced)" and are checked before Start.
const LEVEL_WORDS = ["Very easy", "Easy", "Medium", "Hard", "Very hard"];
const BOT_NAMES = ["Hazel", "Pip", "Nutkin", "Sable"];

function levelName(index, count) {
  if (index === count - 1 && count > 1) return "Strongest";
  return LEVEL_WORDS[Math.min(LEVEL_WORDS.length - 1, Math.floor((index * LEVEL_WORDS.length) / Math.max(1, count - 1)))];
}

function parseSpec(spec) {
  const [kind, rest] = spec.split(/:(.*)/s);
  const options = {};
  for (const part of rest ? rest.split(",") : []) {
    const [k, v] = part.split("=");
    options[k] = v;
  }
  return { kind, options };
}

const percent = (x) => `${Math.round(100 * Number(x))} %`;

// What a bot spec does, for people.
function describeSpec(spec) {
  const { kind, options } = parseSpec(spec);
  const parts = [];
  if (kind === "greedy") parts.push("takes the move that looks best right now");
  else if (kind === "random") parts.push("plays at random");
  else if (kind === "solver") parts.push("plays perfectly where it can compute it");
  else if (options.iterations) parts.push(`thinks ahead (${Number(options.iterations).toLocaleString("en")} simulated games a move)`);
  else if (options.time_limit) parts.push(`thinks ahead (${options.time_limit} s a move)`);
  else parts.push("thinks ahead");
  if (options.evaluator && options.evaluator.startsWith("learned")) parts.push("with its trained network");
  if (options.noise) parts.push(`${percent(options.noise)} of its moves at random`);
  if (options.memory) parts.push(`remembers about ${percent(options.memory)} of what it saw`);
  return parts.join(", ");
}

// A seat's choices: a person, the engine's default bot, its levels, or a custom spec.
function seatChoices(entry) {
  const n = entry.levels.length;
  return [
    { value: "human", label: "A person (you)" },
    { value: entry.default_bot, label: `The usual AI: ${describeSpec(entry.default_bot)}`, title: entry.default_bot },
    ...entry.levels.map((level, i) => ({
      value: level.bot,
      label: `Level ${i + 1} of ${n} · ${levelName(i, n)}: ${describeSpec(level.plays)}`,
      title: level.plays,
    })),
    { value: "custom", label: "Custom bot (advanced)…" },
  ];
}

// A custom spec is checked against what list_games offers before Start, so that "Hard", "level 5"
// or a level the game lacks are refused at once, not after the first move.
function specProblem(entry, spec) {
  const levels = entry.levels.map((l) => l.bot);
  if (/^level:/.test(spec)) return levels.includes(spec) ? null : `the levels are ${levels[0]} to ${levels[levels.length - 1]}`;
  const kinds = new Set([...entry.bots, entry.default_bot, ...entry.levels.map((l) => l.plays)].map((b) => parseSpec(b).kind));
  const m = /^([a-z]+)(?::([a-z_]+=[^,=\s]+(?:,[a-z_]+=[^,=\s]+)*))?$/.exec(spec);
  if (!m) return "a bot is written kind or kind:setting=value,…, such as greedy or mcts:iterations=1000";
  if (!kinds.has(m[1])) return `no bot "${m[1]}" here; the kinds are ${[...kinds, "level"].join(", ")}`;
  return null;
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
  list.replaceChildren(...[...entry.bots, ...entry.levels.map((l) => l.bot)].map((spec) => new Option(spec, spec)));
  $("memory-aids-box").hidden = !entry.memory_aids;
  $("params").value = "{}"; // another game's parameters would not fit this one
  fillSeats(true);
}

function seatChoice(s) {
  const choice = $(`seat-choice-${s}`);
  return choice.value === "custom" ? $(`seat-${s}`).value.trim() : choice.value;
}

function setSeat(s, spec) {
  const choice = $(`seat-choice-${s}`);
  const known = [...choice.options].some((o) => o.value === spec && spec !== "custom");
  choice.value = known ? spec : "custom";
  $(`seat-${s}`).value = known ? "" : spec;
  $(`seat-${s}`).hidden = known;
}

function fillSeats(reset) {
  const entry = chosenEntry();
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((_, s) => ({ spec: seatChoice(s), name: $(`seat-name-${s}`).value }));
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    const row = document.createElement("div");
    row.className = "seat";
    const label = document.createElement("label");
    label.textContent = `Player ${s + 1} `;
    const choice = document.createElement("select");
    choice.id = `seat-choice-${s}`;
    for (const c of seatChoices(entry)) {
      const o = new Option(c.label, c.value);
      if (c.title) o.title = c.title;
      choice.add(o);
    }
    label.appendChild(choice);
    const custom = document.createElement("input");
    custom.id = `seat-${s}`;
    custom.setAttribute("list", "bot-specs");
    custom.spellcheck = false;
    custom.placeholder = "a bot spec, e.g. mcts:iterations=1000";
    custom.setAttribute("aria-label", `Player ${s + 1}: custom bot`);
    choice.addEventListener("change", () => {
      custom.hidden = choice.value !== "custom";
      if (!custom.hidden) custom.focus();
    });
    const name = document.createElement("input");
    name.id = `seat-name-${s}`;
    name.className = "seat-name";
    name.placeholder = "name (optional)";
    name.setAttribute("aria-label", `Player ${s + 1}: name`);
    row.append(label, custom, name);
    box.appendChild(row);
    const keep = !reset && old[s] !== undefined;
    setSeat(s, keep ? old[s].spec : s === 0 ? "human" : entry.default_bot);
    name.value = keep ? old[s].name : "";
  }
  const defaults = entry.default_params.find((p) => p.players === n) || entry.default_params[0];
  $("defaults").textContent = JSON.stringify(defaults, null, 1);
}

// Seats' names: what the player typed, else "You" (one person), "Player N" (several), a bot's name.
function seatNames(seats) {
  const humans = seats.filter((spec) => spec === "human").length;
  let bots = 0;
  return seats.map((spec, s) => {
    const typed = $(`seat-name-${s}`) ? $(`seat-name-${s}`).value.trim() : "";
    if (typed) return typed;
    if (spec === "human") return humans === 1 ? "You" : `Player ${s + 1}`;
    return BOT_NAMES[bots++ % BOT_NAMES.length];
  });
}

const nameOf = (seat) => (seat === null || seat === undefined ? "Chance" : G.names[seat] || `Player ${seat + 1}`);

// ----- a game

// A new game from the setup; `loaded` (a saved file: {name, position, params, history}) continues one.
async function startGame(loaded = null) {
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
  const gen = G.gen;
  performance.mark("nutcore-game-start");
  let reply;
  try {
    reply = await askIn(gen, "new_game", request);
    if (loaded) reply = { ...reply, status: (await askIn(gen, "set_position", { position: loaded.position })).status };
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
        noteMove(null, r.outcome);
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
    const r = await askIn(gen, "go", { bot: spec }, (info) => {
      if (gen !== G.gen) return;
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

// A move in words: the board module's describe(), else the engine's own text.
function phrase(text, player) {
  const module = G.game && boards.get(G.game.name);
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

// The history grouped by turn: a turn is a seat's moves in a row, with the chance steps among and
// after them (a roll, a draw); what chance does before anyone moves is the deal.
function turns(entries) {
  const groups = [];
  for (const h of entries) {
    const cur = groups[groups.length - 1];
    if (!cur || (!h.chance && h.player !== cur.player)) groups.push({ player: h.chance ? null : h.player, steps: [h] });
    else cur.steps.push(h);
  }
  return groups;
}

function redrawHistory() {
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

function statusText() {
  const st = G.status;
  if (st.terminal) return `Game over. ${winnerText()}`;
  if (st.chance) return "Dealing and rolling…";
  const p = st.current_player;
  if (isHuman(p)) return G.humans.length > 1 ? `${nameOf(p)}, your move` : "Your move";
  return `${nameOf(p)} to move${G.paused ? " (paused: press Continue)" : ""}`;
}

// Who won, in words: the seats with the best return (above 0; all equal is a draw).
function winners() {
  const r = G.status.returns;
  if (!Array.isArray(r) || !r.length) return [];
  const best = Math.max(...r);
  if (r.every((x) => x === best)) return [];
  return r.flatMap((x, s) => (x === best ? [s] : []));
}

function winnerText() {
  const w = winners();
  if (!w.length) return "It is a draw.";
  const names = w.map((s) => nameOf(s));
  if (w.length === 1) return names[0] === "You" ? "You won!" : `${names[0]} won.`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share the win.`;
}

// The game-over screen: who won, each seat's points, why the game ended (where the board module,
// or the turn limit, says), and Play again.
function showGameOver() {
  const st = G.status;
  $("over-title").textContent = winnerText();
  const rows = G.names.map((name, s) => {
    const li = document.createElement("li");
    const points = Array.isArray(st.scores) && st.scores[s] !== null && st.scores[s] !== undefined ? `${st.scores[s]} points` : "";
    li.textContent = `${name}${points ? `: ${points}` : ""}${winners().includes(s) ? " (winner)" : ""}`;
    return li;
  });
  $("over-points").replaceChildren(...rows);
  let reason = "";
  const module = boards.get(G.game.name);
  const view = G.view;
  if (module && typeof module.endReason === "function" && view) {
    try {
      reason = module.endReason(view, G.params) || "";
    } catch (e) {
      console.error(e);
    }
  }
  const cap = G.params && G.params.turn_cap;
  if (!reason && view && typeof view.turn === "number" && typeof cap === "number" && view.turn >= cap) {
    reason = `The game reached its limit of ${cap} turns and was scored as it stood.`;
  }
  $("over-reason").textContent = reason;
  $("over-reason").hidden = !reason;
  $("game-over").hidden = false;
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
  G.view = board && board.json ? board.json : null;
  drawBoard(board);
  drawMoves();
  $("status").textContent = statusText();
  if (st.terminal) {
    clearAi(""); // an old hint says nothing about a finished game
    showGameOver();
  }
  updateControls();
  keepFocus();
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
    names: G.names,
    describe: (text, player) => phrase(text, player),
  };
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

function readableText() {
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

function drawMoves() {
  const box = $("moves");
  box.replaceChildren();
  for (const m of G.legal) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.action = String(m.action);
    b.textContent = phrase(m.action_string, G.status.current_player);
    b.title = m.action_string; // the engine's name of the move, for those who know it
    // The action is read when clicked, as the board's targets give theirs.
    b.addEventListener("click", () => play(Number(b.dataset.action)));
    box.appendChild(b);
  }
  $("moves-box").hidden = G.legal.length === 0;
}

// A move button the player used is gone after the move: focus goes to the next sensible thing (the
// first move, else the status line), without scrolling the window.
function keepFocus() {
  const lost = !document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected;
  if (!lost || !G.refocus) return;
  G.refocus = false;
  const next = document.querySelector("button.move:not(:disabled)") || (G.status.terminal ? $("play-again") : $("status"));
  next.focus({ preventScroll: true });
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
  $("undo").disabled = !playing || G.searching || G.status.terminal || !G.history.some((h) => h.own);
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
  G.refocus = true;
  const gen = G.gen;
  const player = G.status.current_player;
  try {
    const r = await askIn(gen, "apply", { moves: [action] });
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
  // A value between 0 and 1 is a share of wins (a win counts 1); other values are the game's points.
  const valueText =
    typeof value !== "number"
      ? ""
      : value >= 0 && value <= 1
        ? ` (about a ${Math.round(100 * value)} % chance to win)`
        : ` (expected value ${value.toFixed(1)})`;
  const looked = typeof result.iterations === "number" ? ` It looked at ${result.iterations.toLocaleString("en")} games.` : "";
  $("ai-best").textContent = `${phrase(result.action_string.replace(/ so far$/, ""), player)}${result.action_string.endsWith(" so far") ? " so far" : ""}${valueText}.${looked}`;
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
    name.textContent = phrase(s.action_string, player);
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
  clearAi("Hint: thinking…");
  try {
    const r = await askIn(gen, "best_move", { time_limit: budget }, (info) => {
      if (gen === G.gen) showProgress("Hint: thinking…", info, player);
    });
    showResult(`Hint: the AI would play${r.stopped ? " (stopped)" : ""}`, r.result, player);
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
    // The seats and the move list too, so that Load continues the same game against the same bots.
    const data = {
      game: G.game.name,
      players: G.players,
      params: G.params,
      position: r.position,
      seats: G.seats,
      names: G.names,
      history: G.history,
    };
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
  // The seats chosen in the setup stay (the opponent the player picked); for another game than the
  // one selected they come from the file where it has them.
  const sameGame = $("game").value === data.game;
  if (!sameGame) {
    $("game").value = data.game;
    fillPlayers();
  }
  $("players").value = String(data.players);
  fillSeats(false);
  for (let s = 0; s < data.players; s++) {
    if (!sameGame && Array.isArray(data.seats) && typeof data.seats[s] === "string") setSeat(s, data.seats[s]);
    if (Array.isArray(data.names) && typeof data.names[s] === "string" && !$(`seat-name-${s}`).value) {
      const shown = ["You", `Player ${s + 1}`, ...BOT_NAMES];
      if (!shown.includes(data.names[s])) $(`seat-name-${s}`).value = data.names[s];
    }
  }
  // The file's parameters go to this game only: the Parameters field keeps what the player typed,
  // so a new game of another kind afterwards does not inherit them.
  const params = { ...(data.params || {}) };
  delete params.players;
  await startGame({ name: file.name, position: data.position, params, history: data.history });
}

// ----- how to play

// The chosen game's "How to play" (its board module's `rules`, HTML written for players).
async function showRules() {
  const name = $("game").value;
  await loadBoardModule(name);
  if ($("game").value !== name) return;
  const module = boards.get(name);
  const entry = chosenEntry();
  $("rules-title").textContent = `How to play ${entry.title || entry.name}`;
  $("rules-body").innerHTML = module && typeof module.rules === "string" ? module.rules : "<p>No rules text for this game yet.</p>";
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
  showRules();
  $("start").disabled = false;
  $("start").addEventListener("click", () => startGame());
  $("hint").addEventListener("click", hint);
  $("stop").addEventListener("click", stop);
  $("resume").addEventListener("click", resume);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("load-button").addEventListener("click", () => $("load").click());
  $("play-again").addEventListener("click", () => startGame());
  $("new-game").addEventListener("click", () => {
    const open = document.body.classList.toggle("setup-open");
    $("new-game").setAttribute("aria-expanded", String(open));
    if (open) $("game").focus();
  });
  $("game").addEventListener("change", showRules);
  $("load").addEventListener("change", (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) load(file);
  });
  window.addEventListener("resize", readableText);
  performance.mark("nutcore-ready");
  document.body.dataset.ready = "true"; // for tests and scripts: the games are listed
}

main();
