// The JavaScript API of the WebAssembly engine (cpp/wasm/nutcore.js, docs/web.md) in plain Node,
// no flags: `node wasm_js_api.mjs MODULE_DIR CASE` runs one case and prints one JSON object with
// what it saw, for tests/doors/test_wasm_js_api.py to check.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, name] = process.argv.slice(2);
const api = await import(pathToFileURL(path.join(path.resolve(dir), "nutcore.js")).href);

// A new game at its first decision (the chance draws before it dealt).
async function firstDecision(engine, game = "auf_die_nuesse", seed = 7) {
  let { status } = await engine.request({ cmd: "new_game", game, seed, seat: null });
  while (status.chance) ({ status } = await engine.request({ cmd: "chance" }));
  return status;
}

// A search that runs until stopped, with `during` called at its first progress line.
function longSearch(engine, during, id = "think") {
  let infos = 0;
  const reply = engine.request(
    { cmd: "best_move", time_limit: 600, id },
    {
      onInfo: (info) => {
        if (info.id !== id) throw new Error(`progress of another request: ${JSON.stringify(info)}`);
        if (++infos === 1) during();
      },
    },
  );
  return { reply, infos: () => infos };
}

const cases = {
  // Every game played to its end by the engine's bots, chance by the engine's dealer.
  async games() {
    const out = {};
    const engine = await api.createEngine();
    const { games } = await engine.request({ cmd: "list_games" });
    for (const game of games.map((g) => g.name)) {
      let { status } = await engine.request({ cmd: "new_game", game, seed: 3, seat: null });
      let moves = 0;
      while (!status.terminal) {
        const reply = status.chance
          ? await engine.request({ cmd: "chance" })
          : await engine.request({ cmd: "go", iterations: 50 });
        if (reply.type === "error") throw new Error(JSON.stringify(reply));
        status = reply.status;
        moves += 1;
      }
      out[game] = { moves, returns: status.returns };
    }
    out.closed = await engine.close();
    return out;
  },

  async progress() {
    const engine = await api.createEngine();
    await firstDecision(engine);
    const infos = [];
    const reply = await engine.request({ cmd: "best_move", time_limit: 0.8 }, { onInfo: (i) => infos.push(i) });
    return { reply, infos };
  },

  // Requests sent all at once, none awaited before the next: each answered, in order.
  async queued() {
    const engine = await api.createEngine();
    const resolved = [];
    const requests = [
      { cmd: "new_game", game: "purzelbaum", seed: 5 },
      { cmd: "best_move", iterations: 300 },
      { cmd: "status" },
      { cmd: "go", iterations: 200 },
      { cmd: "legal" },
      { cmd: "undo" },
      { cmd: "best_move", iterations: 200, id: 42 },
      { cmd: "frobnicate" },
      { cmd: "hello" },
    ];
    const replies = await Promise.all(
      requests.map((r, i) =>
        engine.request(r).then((reply) => {
          resolved.push(i);
          return reply;
        }),
      ),
    );
    return { commands: requests.map((r) => r.cmd), replies, resolved };
  },

  async stop() {
    const engine = await api.createEngine();
    await firstDecision(engine);
    let stopReply = null;
    const search = longSearch(engine, () => engine.stop().then((r) => (stopReply = r)));
    const reply = await search.reply;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const after = await engine.request({ cmd: "status" });
    return { reply, stopReply, infos: search.infos(), after };
  },

  // quit while a search runs: its reply comes first, and the quit reply is the last line.
  async quit() {
    const engine = await api.createEngine();
    await firstDecision(engine);
    const lines = [];
    engine.onLine((line) => lines.push(JSON.parse(line)));
    const order = [];
    let closing;
    const search = longSearch(engine, () => {
      closing = engine.close().then((r) => order.push(["quit", r]));
    });
    const reply = await search.reply.then((r) => (order.push(["search", r]), r));
    await closing;
    let after;
    try {
      after = await engine.request({ cmd: "status" });
    } catch (e) {
      after = { rejected: String(e.message) };
    }
    return {
      reply,
      order: order.map(([what]) => what),
      lines: lines.map((l) => l.type),
      sendAfter: engine.send('{"cmd": "status"}'),
      closed: engine.closed,
      after,
    };
  },

  async close() {
    const engine = await api.createEngine({ limits: { iterations: 1000 } });
    const hello = await engine.request({ cmd: "hello" });
    const first = engine.close();
    const second = engine.close();
    const reply = await first;
    let after;
    try {
      after = await engine.request({ cmd: "hello" });
    } catch (e) {
      after = { rejected: String(e.message) };
    }
    return { hello: hello.type, reply, same: first === second, closed: engine.closed, after };
  },

  async bad() {
    const engine = await api.createEngine();
    const lines = [];
    engine.onLine((line) => lines.push(JSON.parse(line)));
    const unknown = await engine.request({ cmd: "frobnicate" });
    const noGame = await engine.request({ cmd: "best_move" });
    const badId = await engine.request({ cmd: "hello", id: { not: "an id" } });
    const badField = await engine.request({ cmd: "new_game", game: "auf_die_nuesse", players: "two" });
    engine.send("this is not JSON");
    const after = await engine.request({ cmd: "hello" });
    let limits;
    try {
      await api.createEngine({ limits: { no_such_limit: 1 } });
      limits = "accepted";
    } catch (e) {
      limits = String(e.message);
    }
    return { unknown, noGame, badId, badField, after: after.type, raw: lines.filter((l) => !("id" in l)), limits };
  },

  // The .wasm from bytes, a path and a file URL, three loads at once: each engine answers, and
  // the CommonJS globals lent to emscripten's loader are not left behind.
  async sources() {
    const wasm = path.join(path.resolve(dir), "nutcore-engine.wasm");
    const { readFileSync } = await import("node:fs");
    const engines = await Promise.all(
      [readFileSync(wasm), wasm, pathToFileURL(wasm)].map((source) => api.createEngine({ wasm: source })),
    );
    const hellos = await Promise.all(engines.map((e) => e.request({ cmd: "hello" })));
    await Promise.all(engines.map((e) => e.close()));
    return { hellos: hellos.map((h) => h.type), dirname: typeof __dirname, require: typeof require };
  },

  // The raw module without a host: a search's progress lines wait for nc_engine_receive.
  async raw() {
    const M = await api.loadModule();
    const cell = M._malloc(4);
    const sendLine = async (handle, line) => {
      const size = M.lengthBytesUTF8(line);
      const p = M._malloc(size + 1);
      M.stringToUTF8(line, p, size + 1);
      const status = await M.ccall("nc_engine_send_bytes", "number", ["number", "number", "number"], [handle, p, size], {
        async: true,
      });
      M._free(p);
      const replies = [];
      while (M._nc_engine_receive(handle, 0, cell) === 0) {
        const q = M.getValue(cell, "i32");
        replies.push(JSON.parse(M.UTF8ToString(q)));
        M._nc_free(q);
      }
      return { status, replies };
    };
    const limits = M._malloc(3);
    M.stringToUTF8("{}", limits, 3);
    const made = M._nc_engine_new(limits, cell);
    const handle = M.getValue(cell, "i32");
    const out = { made };
    out.newGame = (await sendLine(handle, '{"cmd": "new_game", "game": "purzelbaum", "seed": 1}')).status;
    let legal = (await sendLine(handle, '{"cmd": "legal"}')).replies[0];
    while (legal.chance) {
      await sendLine(handle, '{"cmd": "chance"}');
      legal = (await sendLine(handle, '{"cmd": "legal"}')).replies[0];
    }
    const search = '{"cmd": "best_move", "time_limit": 0.7}';
    out.noHost = (await sendLine(handle, search)).replies.map((r) => r.type);
    M.nutcoreHost = { replies: () => {} }; // replies taken, but no take: no line comes in
    out.noTake = (await sendLine(handle, search)).replies.map((r) => r.type);
    // A 64-bit argument is a BigInt: nc_state_sample_chance(state, seed, &action).
    const gameName = M._malloc(16);
    M.stringToUTF8("auf_die_nuesse", gameName, 16);
    out.gameLoad = M._nc_game_load(gameName, 0, cell);
    out.stateNew = M._nc_state_new(M.getValue(cell, "i32"), cell);
    const state = M.getValue(cell, "i32");
    out.sample = M._nc_state_sample_chance(state, 2n ** 63n + 5n, cell);
    out.action = M.getValue(cell, "i32");
    const wide = M._malloc(8); // nc_state_random_playouts(state, count, seed, stop, &transitions)
    out.playouts = M._nc_state_random_playouts(state, 3n, 1n, 0, wide);
    out.transitions = Number(new BigInt64Array(M.HEAPU8.buffer, wide, 1)[0]);
    try {
      M._nc_state_sample_chance(state, 5, cell);
      out.numberSeed = "accepted";
    } catch (e) {
      out.numberSeed = e.constructor.name;
    }
    return out;
  },
};

const run = cases[name];
if (!run) {
  console.error(`usage: node wasm_js_api.mjs MODULE_DIR ${Object.keys(cases).join("|")}`);
  process.exit(2);
}
console.log(JSON.stringify(await run()));
