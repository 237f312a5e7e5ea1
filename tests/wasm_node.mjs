// The WebAssembly engine in Node, headless (docs/web.md): loads nutcore-engine.js and .wasm from a
// folder and runs wasm_workload.mjs on it: `games` (a full game of every game through the engine
// protocol), `bench F` (the `nutcore bench` workload in F, from `nutcore bench --workload F`) or
// `chance F` (the legal actions and chance outcomes of the positions in F) or `exact F` (time
// limits and stops of the exact searches, the cases in F).
// It prints one JSON object per line. Run it with Node's fetch off (emscripten 3.1.6's loader
// breaks on it): node --no-experimental-fetch tests/wasm_node.mjs DIR games|bench F
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, mode, file] = process.argv.slice(2);
if (!dir || !["games", "bench", "chance", "exact"].includes(mode) || (mode !== "games" && !file)) {
  console.error("usage: node --no-experimental-fetch wasm_node.mjs MODULE_DIR games | bench WORKLOAD_JSON | chance|exact CASES_JSON");
  process.exit(2);
}

// The module was built for web, worker and node; as an ES module in Node it still reaches for
// CommonJS's __dirname and require, and reads its .wasm from a URL: give it both, and the bytes.
const moduleDir = path.resolve(dir);
globalThis.__dirname = moduleDir;
globalThis.require = createRequire(import.meta.url);
const { default: createNutcore } = await import(pathToFileURL(path.join(moduleDir, "nutcore-engine.js")).href);
const M = await createNutcore({ wasmBinary: readFileSync(path.join(moduleDir, "nutcore-engine.wasm")) });

import { bench, chance, exact, playGames } from "./wasm_workload.mjs";

const emit = (object) => console.log(JSON.stringify(object));
if (mode === "games") await playGames(M, emit);
else if (mode === "bench") bench(M, emit, JSON.parse(readFileSync(file, "utf8")));
else if (mode === "exact") await exact(M, emit, JSON.parse(readFileSync(file, "utf8")));
else chance(M, emit, JSON.parse(readFileSync(file, "utf8")));
