// The engine in a Web Worker (docs/web.md): nutcore's C++ engine built for WebAssembly
// (wasm/nutcore-engine.js and .wasm), one engine per worker, speaking the engine protocol
// (docs/engine-protocol.md). The page posts request lines and gets reply lines back, strings both
// ways, as over the WebSocket of `nutcore serve`. Before the first line it posts {limits} (the
// engine's limits, docs/engine-protocol.md); the worker answers {ready: version} or {failed: why}.
//
// A search runs inside the engine's send call and yields to this worker's event loop every few
// milliseconds (cpp/core/stop.h): its progress lines go out then, and the lines that came meanwhile
// (a stop, a status) are handed to the engine, which answers them as it does on its own threads
// natively. No shared memory, so no cross-origin isolation: any static file server will do.

let M = null; // the module
let engine = 0; // its nc_engine handle
let busy = false; // a line is being handled
const waiting = []; // lines that came while busy

const post = (line) => self.postMessage(line);

function check(status, what) {
  if (status !== 0) throw new Error(`${what}: ${M.UTF8ToString(M._nc_last_error())}`);
}

function cString(text) {
  const bytes = new TextEncoder().encode(text);
  const p = M._malloc(bytes.length + 1);
  M.HEAPU8.set(bytes, p);
  M.HEAPU8[p + bytes.length] = 0;
  return [p, bytes.length];
}

// Every reply the engine has queued, in order.
function replies() {
  const out = [];
  const slot = M._malloc(4);
  while (M._nc_engine_receive(engine, 0, slot) === 0) {
    const p = M.getValue(slot, "i32");
    out.push(M.UTF8ToString(p));
    M._nc_free(p);
  }
  M._free(slot);
  return out;
}

async function handle(line) {
  const [p, n] = cString(line);
  try {
    // Asynchronous: a search inside yields to the event loop before the call returns.
    await M.ccall("nc_engine_send_bytes", "number", ["number", "number", "number"], [engine, p, n], { async: true });
  } finally {
    M._free(p);
  }
}

async function pump() {
  if (busy) return;
  busy = true;
  try {
    while (waiting.length) {
      await handle(waiting.shift());
      for (const reply of replies()) post(reply);
    }
  } finally {
    busy = false;
  }
}

async function start(limits) {
  const { default: createNutcore } = await import("./wasm/nutcore-engine.js");
  let failed;
  const failure = new Promise((_, reject) => {
    failed = reject;
  });
  // The module compiles while it downloads where the server says application/wasm, and from
  // the whole file where it does not (some static servers don't know .wasm).
  const instantiateWasm = (imports, receive) => {
    const url = new URL("./wasm/nutcore-engine.wasm", import.meta.url);
    (async () => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      let result;
      try {
        result = await WebAssembly.instantiateStreaming(response.clone(), imports);
      } catch (e) {
        result = await WebAssembly.instantiate(await response.arrayBuffer(), imports);
      }
      receive(result.instance);
    })().catch(failed);
    return {};
  };
  M = await Promise.race([createNutcore({ instantiateWasm }), failure]);
  M.nutcoreHost = {
    replies: (text) => {
      for (const line of text.split("\n")) if (line) post(line);
    },
    take: () => (waiting.length ? waiting.shift() : null),
  };
  const [p] = cString(JSON.stringify(limits || {}));
  const slot = M._malloc(4);
  try {
    check(M._nc_engine_new(p, slot), "nc_engine_new");
    engine = M.getValue(slot, "i32");
  } finally {
    M._free(p);
    M._free(slot);
  }
  if (limits && limits.test_hooks) {
    // For the test suites only (export-web --test-hooks): a line answered straight to the caller,
    // not to the page, e.g. the true position behind a seat's view.
    self.nutcoreDirect = async (line) => {
      if (busy) throw new Error("the engine is busy");
      busy = true;
      try {
        await handle(line);
        return replies();
      } finally {
        busy = false;
      }
    };
  }
  return M.UTF8ToString(M._nc_version());
}

let ready = null;
self.onmessage = (event) => {
  const data = event.data;
  if (typeof data === "string") {
    waiting.push(data);
    if (ready) ready.then(pump, () => {});
    return;
  }
  if (data && typeof data === "object" && "limits" in data && !ready) {
    ready = start(data.limits);
    ready.then(
      (version) => self.postMessage({ ready: version }),
      (e) => self.postMessage({ failed: String(e && e.message ? e.message : e) }),
    );
  }
};
