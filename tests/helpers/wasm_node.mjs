// The WebAssembly engine in Node, headless (docs/web.md): loads the module from a folder (with
// nutcore.js's loadModule) and runs wasm_workload.mjs on it: `games` (a full game of every game through the engine
// protocol), `bench F` (the `nutcore bench` workload in F, from `nutcore bench --workload F`) or
// `chance F` (the legal actions and chance outcomes of the positions in F) or `exact F` (time
// limits and stops of the exact searches, the cases in F).
// It prints one JSON object per line: node tests/helpers/wasm_node.mjs DIR games|bench F
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, mode, file] = process.argv.slice(2);
if (!dir || !["games", "bench", "chance", "exact"].includes(mode) || (mode !== "games" && !file)) {
  console.error("usage: node wasm_node.mjs MODULE_DIR games | bench WORKLOAD_JSON | chance|exact CASES_JSON");
  process.exit(2);
}

// The raw module (the C ABI), as nutcore.js's loadModule gives it.
const { loadModule } = await import(pathToFileURL(path.join(path.resolve(dir), "nutcore.js")).href);
const M = await loadModule();

import { bench, chance, exact, playGames } from "./wasm_workload.mjs";

const emit = (object) => console.log(JSON.stringify(object));
if (mode === "games") await playGames(M, emit);
else if (mode === "bench") bench(M, emit, JSON.parse(readFileSync(file, "utf8")));
else if (mode === "exact") await exact(M, emit, JSON.parse(readFileSync(file, "utf8")));
else chance(M, emit, JSON.parse(readFileSync(file, "utf8")));
