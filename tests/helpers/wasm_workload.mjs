// The engine's checks and the bench workload over the WebAssembly module's C ABI, for any host
// that has loaded it: Node (wasm_node.mjs) and Chromium (bench/wasm_speed.py). Each function takes
// the module M and `emit`, which gets one object per result.
//   playGames(M, emit)        a full game of every game through the engine protocol: a search
//                             with progress lines, a status and a stop while a search runs, the
//                             other seat's bot
//   bench(M, emit, workload)  the `nutcore bench` workload (`nutcore bench --workload F`): the
//                             same searches and playouts, with their nodes, transitions and times
//   chance(M, emit, cases)    for each {name, params, positions}, every position's legal actions
//                             (at a chance node its outcomes, with their probabilities)
//   exact(M, emit, cases)     time limits without threads: each of cases.requests ({name, params,
//                             position, request}) through nc_best_move, then a time-limited and
//                             a stopped expectimax through the engine (cases.engine: {name,
//                             position}), whose own yields must go on meanwhile

let M = null;
let slot = 0;

function use(module) {
  if (M !== module) {
    M = module;
    slot = M._malloc(8);
  }
}


function check(status, what) {
  if (status !== 0) throw new Error(`${what}: status ${status}: ${M.UTF8ToString(M._nc_last_error())}`);
}

function withString(text, use) {
  const bytes = new TextEncoder().encode(text);
  const p = M._malloc(bytes.length + 1);
  M.HEAPU8.set(bytes, p);
  M.HEAPU8[p + bytes.length] = 0;
  try {
    return use(p, bytes.length);
  } finally {
    M._free(p);
  }
}

function takeString() {
  const p = M.getValue(slot, "i32");
  const text = M.UTF8ToString(p);
  M._nc_free(p);
  return text;
}

// ----- the engine through the raw C ABI, as a host without nutcore.js drives it (docs/web.md)

class Engine {
  constructor() {
    this.waiting = [];
    this.replies = [];
    this.busy = false;
    M.nutcoreHost = {
      replies: (text) => this.replies.push(...text.split("\n").filter(Boolean).map((l) => JSON.parse(l))),
      take: () => (this.waiting.length ? this.waiting.shift() : null),
    };
    withString("{}", (p) => check(M._nc_engine_new(p, slot), "nc_engine_new"));
    this.handle = M.getValue(slot, "i32");
  }

  drain() {
    while (M._nc_engine_receive(this.handle, 0, slot) === 0) this.replies.push(JSON.parse(takeString()));
  }

  // Sends a request; while a search runs, it is handed to the engine at the search's next yield.
  async send(request) {
    const line = JSON.stringify(request);
    if (this.busy) {
      this.waiting.push(line);
      return;
    }
    this.busy = true;
    try {
      await withString(line, (p, n) =>
        M.ccall("nc_engine_send_bytes", "number", ["number", "number", "number"], [this.handle, p, n], { async: true }),
      );
      this.drain();
    } finally {
      this.busy = false;
    }
  }

  // The final reply to the request with this id (its info lines are kept in this.replies).
  async ask(request) {
    await this.send(request);
    const reply = this.replies.find((r) => r.id === request.id && r.type !== "info");
    if (!reply) throw new Error(`no reply to ${JSON.stringify(request)}`);
    if (reply.type === "error") throw new Error(`${request.cmd}: ${reply.message}`);
    return reply;
  }
}

// ----- a full game of every game

export async function playGames(module, emit) {
  use(module);
  check(M._nc_list_games(slot), "nc_list_games");
  const games = JSON.parse(takeString());
  let id = 0;
  for (const game of games) {
    const engine = new Engine();
    const seat = game.hidden_information ? 0 : null;
    const started = await engine.ask({ cmd: "new_game", id: ++id, game: game.name, players: 2, seed: 11, seat });
    let status = started.status;
    const counts = { moves: 0, chance: 0, searches: 0, info: 0, hidden: 0 };
    // One long search on seat 0's first turn: a status and a stop reach it while it runs.
    let interrupted = null;
    while (!status.terminal) {
      if (status.chance) {
        const r = await engine.ask({ cmd: "chance", id: ++id });
        counts.chance += 1;
        counts.hidden += r.hidden ? 1 : 0;
        status = r.status;
        continue;
      }
      if (status.current_player === 0 && interrupted === null) {
        const goId = ++id;
        const go = engine.send({ cmd: "go", id: goId, iterations: 1e9 });
        setTimeout(() => engine.send({ cmd: "status", id: "during" }), 300);
        setTimeout(() => engine.send({ cmd: "stop", id: "stop" }), 700);
        await go;
        const reply = engine.replies.find((r) => r.id === goId && r.type === "go");
        const during = engine.replies.find((r) => r.id === "during");
        const stopped = engine.replies.find((r) => r.id === "stop");
        interrupted = {
          stopped: reply.stopped,
          status_searching: during ? during.status.searching : null,
          stop_searching: stopped ? stopped.searching : null,
          info_lines: engine.replies.filter((r) => r.id === goId && r.type === "info").length,
        };
        counts.moves += 1;
        status = reply.status;
        continue;
      }
      // Seat 0: a search with a budget; seat 1: the greedy bot.
      const request = status.current_player === 0 ? { iterations: 300 } : { bot: "greedy" };
      const r = await engine.ask({ cmd: "go", id: ++id, ...request });
      counts.moves += 1;
      counts.searches += status.current_player === 0 ? 1 : 0;
      status = r.status;
      if (counts.moves > 5000) throw new Error(`${game.name}: no end after 5000 moves`);
    }
    counts.info = engine.replies.filter((r) => r.type === "info").length;
    const errors = engine.replies.filter((r) => r.type === "error");
    emit({ game: game.name, title: game.title, ...counts, interrupted, scores: status.scores, returns: status.returns, errors });
  }
}

// ----- the bench workload

export function bench(module, emit, work) {
  use(module);
  for (const entry of work.games) {
    const row = { game: entry.name, positions: entry.searches.length, nodes: 0, iterations: 0, search_seconds: 0 };
    withString(JSON.stringify(entry.params), (p) => withString(entry.name, (n) => check(M._nc_game_load(n, p, slot), "nc_game_load")));
    const game = M.getValue(slot, "i32");
    for (const search of entry.searches) {
      withString(JSON.stringify(search.position), (p) => check(M._nc_state_from_json(game, p, slot), "nc_state_from_json"));
      const state = M.getValue(slot, "i32");
      // Timed here: emscripten's clocks tick in milliseconds in some hosts, performance.now() finer.
      const t0 = performance.now();
      withString(JSON.stringify(search.request), (p) => check(M._nc_best_move(state, p, 0, slot), "nc_best_move"));
      row.search_seconds += (performance.now() - t0) / 1000;
      const result = JSON.parse(takeString());
      row.nodes += result.nodes;
      row.iterations += result.iterations;
      M._nc_state_free(state);
    }
    check(M._nc_state_new(game, slot), "nc_state_new");
    const start = M.getValue(slot, "i32");
    const t = performance.now();
    check(M._nc_state_random_playouts(start, BigInt(entry.playouts), BigInt(entry.seed), 0, slot), "nc_state_random_playouts");
    row.playout_seconds = (performance.now() - t) / 1000;
    row.playouts = entry.playouts;
    row.transitions = M.HEAP32[(slot >> 2) + 1] * 2 ** 32 + M.HEAPU32[slot >> 2];
    M._nc_state_free(start);
    M._nc_game_free(game);
    emit(row);
  }
}


export function chance(module, emit, cases) {
  use(module);
  for (const c of cases) {
    withString(JSON.stringify(c.params), (p) => withString(c.name, (n) => check(M._nc_game_load(n, p, slot), "nc_game_load")));
    const game = M.getValue(slot, "i32");
    const listed = [];
    for (const position of c.positions) {
      withString(JSON.stringify(position), (p) => check(M._nc_state_from_json(game, p, slot), "nc_state_from_json"));
      const state = M.getValue(slot, "i32");
      check(M._nc_state_legal_actions(state, slot), "nc_state_legal_actions");
      listed.push(JSON.parse(takeString()));
      M._nc_state_free(state);
    }
    M._nc_game_free(game);
    emit({ name: c.name, params: c.params, legal: listed });
  }
}

// ----- time limits and stops of the exact searches, where there are no threads

export async function exact(module, emit, cases) {
  use(module);
  for (const c of cases.requests) {
    withString(JSON.stringify(c.params), (p) => withString(c.name, (n) => check(M._nc_game_load(n, p, slot), "nc_game_load")));
    const game = M.getValue(slot, "i32");
    withString(JSON.stringify(c.position), (p) => check(M._nc_state_from_json(game, p, slot), "nc_state_from_json"));
    const state = M.getValue(slot, "i32");
    const t0 = performance.now();
    const status = withString(JSON.stringify(c.request), (p) => M._nc_best_move(state, p, 0, slot));
    const seconds = (performance.now() - t0) / 1000;
    if (status === 0) emit({ kind: "abi", request: c.request, seconds, result: JSON.parse(takeString()) });
    else emit({ kind: "abi", request: c.request, seconds, status, error: M.UTF8ToString(M._nc_last_error()) });
    M._nc_state_free(state);
    M._nc_game_free(game);
  }
  const engine = new Engine();
  await engine.ask({ cmd: "new_game", id: "new", game: cases.engine.name, seed: 1 });
  await engine.ask({ cmd: "set_position", id: "position", position: cases.engine.position });
  const deep = { cmd: "best_move", algorithm: "expectimax", options: { depth: 40 } };
  let t0 = performance.now();
  const timed = await engine.ask({ ...deep, id: "timed", time_limit: 0.6 });
  const infos = (id) => engine.replies.filter((r) => r.id === id && r.type === "info").length;
  emit({ kind: "engine_timed", seconds: (performance.now() - t0) / 1000, info_lines: infos("timed"), reply: timed });
  t0 = performance.now();
  const running = engine.send({ ...deep, id: "stopped" });
  setTimeout(() => engine.send({ cmd: "stop", id: "stop" }), 600);
  await running;
  const stopped = engine.replies.find((r) => r.id === "stopped" && r.type !== "info");
  emit({ kind: "engine_stopped", seconds: (performance.now() - t0) / 1000, info_lines: infos("stopped"), reply: stopped });
}
