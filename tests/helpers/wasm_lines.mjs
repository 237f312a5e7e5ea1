// The WebAssembly engine as a line engine, through nutcore.js (docs/web.md): request lines on
// stdin, reply lines on stdout, as the nutcore-engine binary speaks; tests/helpers/protocol.py's "wasm"
// transport. At the end of the input it quits silently, as the binary does (a running search
// answers first).
//
//   node tests/helpers/wasm_lines.mjs MODULE_DIR [--limits JSON] [--test-hooks] [--allow-files]
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, ...flags] = process.argv.slice(2);
const limits = {};
for (let i = 0; i < flags.length; i++) {
  if (flags[i] === "--limits") Object.assign(limits, JSON.parse(flags[++i]));
  else if (flags[i] === "--test-hooks") limits.test_hooks = true;
  else if (flags[i] === "--allow-files") limits.file_params = true;
  else {
    console.error(`usage: node wasm_lines.mjs MODULE_DIR [--limits JSON] [--test-hooks] [--allow-files]; got ${flags[i]}`);
    process.exit(2);
  }
}
if (!dir) {
  console.error("usage: node wasm_lines.mjs MODULE_DIR [--limits JSON] [--test-hooks] [--allow-files]");
  process.exit(2);
}

const { createEngine } = await import(pathToFileURL(path.join(path.resolve(dir), "nutcore.js")).href);
const engine = await createEngine({ limits });
// The end of the input is a quit whose reply is not written, as the binary takes it.
const END = "wasm_lines.mjs:end of input";
const quit = new Promise((resolve) =>
  engine.onLine((line) => {
    const reply = JSON.parse(line);
    if (reply.id !== END) process.stdout.write(line + "\n");
    if (reply.type === "quit") resolve();
  }),
);
// Lines end at "\n" only, as the binary reads them (readline would end them at "\r" too). A JS
// string holds no invalid UTF-8: such bytes reach the engine as U+FFFD.
let rest = Buffer.alloc(0);
reading: for await (const chunk of process.stdin) {
  rest = Buffer.concat([rest, chunk]);
  for (let end; (end = rest.indexOf(10)) >= 0; rest = rest.subarray(end + 1))
    if (!engine.send(rest.subarray(0, end).toString("utf8"))) break reading;
}
if (rest.length) engine.send(rest.toString("utf8"));
engine.send(JSON.stringify({ cmd: "quit", id: END })); // refused if the engine quit already
await quit;
