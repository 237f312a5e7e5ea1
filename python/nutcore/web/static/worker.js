// The engine in a Web Worker (docs/web.md): nutcore's C++ engine built for WebAssembly, through its
// JavaScript API (wasm/nutcore.js), one engine per worker, speaking the engine protocol
// (docs/engine-protocol.md). The page posts request lines and gets reply lines back, strings both
// ways, as over the WebSocket of `nutcore serve`. Before the first line it posts {limits} (the
// engine's limits, docs/engine-protocol.md); the worker answers {ready: version} or {failed: why}.
//
// The lines go to the engine raw (engine.send), so it answers them as a native engine does: a
// search yields to this worker's event loop every few milliseconds, its progress lines go out
// then, and the lines that came meanwhile (a stop, a status) reach it. No shared memory, so no
// cross-origin isolation: any static file server will do.

import { createEngine, loadModule } from "./wasm/nutcore.js";

const DIRECT = "nutcore-direct:"; // the ids of the test hooks' requests, never shown to the page

async function start(limits) {
  const module = await loadModule();
  const engine = await createEngine({ module, limits: limits || {} });
  engine.onLine((line) => {
    // A test hook's reply (its id starts with DIRECT) is the test's, not the page's.
    if (!line.includes(DIRECT)) return self.postMessage(line);
    const reply = JSON.parse(line);
    if (typeof reply.id != "string" || !reply.id.startsWith(DIRECT)) self.postMessage(line);
  });
  if (limits && limits.test_hooks) {
    // For the test suites only (export-web --test-hooks): a line answered straight to the caller,
    // not to the page, e.g. the true position behind a seat's view.
    let count = 0;
    self.nutcoreDirect = async (line) => {
      const reply = await engine.request({ ...JSON.parse(line), id: `${DIRECT}${++count}` });
      return [JSON.stringify(reply)];
    };
  }
  return { engine, version: module.UTF8ToString(module._nc_version()) };
}

let ready = null;
self.onmessage = (event) => {
  const data = event.data;
  if (typeof data === "string") {
    if (ready) ready.then(({ engine }) => engine.send(data), () => {});
    return;
  }
  if (data && typeof data === "object" && "limits" in data && !ready) {
    ready = start(data.limits);
    ready.then(
      ({ version }) => self.postMessage({ ready: version }),
      (e) => self.postMessage({ failed: String(e && e.message ? e.message : e) }),
    );
  }
};
