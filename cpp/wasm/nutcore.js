// nutcore's engine in JavaScript (docs/web.md): the WebAssembly build of the C++ engine
// (nutcore-engine.js and .wasm, next to this file) behind a small API that speaks the engine
// protocol (docs/engine-protocol.md) in objects, with no C glue for its user.
//
//   const engine = await createEngine();                  // Node: finds its own .wasm
//   const reply = await engine.request({ cmd: "best_move", time_limit: 1 }, { onInfo });
//   await engine.close();                                 // quit: resolves on its reply
//
// The module has one thread, and a search runs inside the call that handed it its request; it
// yields to the event loop every few milliseconds (cpp/wasm/host.js), when its progress lines come
// out and the lines that came meanwhile go in. So this file sends one line at a time into the
// module; while a search runs, the lines for it (stop, quit, and every raw send) are handed to it
// at its next yield, as a native engine reads them from its input while it searches.
import createNutcore from "./nutcore-engine.js";

const NC_OK = 0;
const NC_TIMEOUT = 4;
const NC_CLOSED = 5;

const inNode =
  typeof process == "object" && process.versions != null && typeof process.versions.node == "string";

const here = (name) => new URL(`./${name}`, import.meta.url);

// The module's bytes, a URL to fetch them from, or (in Node) a file path.
async function wasmBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  let url;
  if (source instanceof URL) url = source;
  else if (!inNode) url = new URL(String(source), self.location.href);
  else if (/^(file|https?):/.test(String(source))) url = new URL(String(source));
  else {
    const { pathToFileURL } = await import("node:url");
    url = pathToFileURL(String(source));
  }
  if (inNode && url.protocol == "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  return url;
}

// Compiles while it downloads where the server says application/wasm, and from the whole file
// where it does not (some static servers do not know .wasm).
async function instantiateFrom(url, imports) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  if (typeof WebAssembly.instantiateStreaming == "function") {
    try {
      return (await WebAssembly.instantiateStreaming(response.clone(), imports)).instance;
    } catch (e) {
      // not served as application/wasm: the bytes below
    }
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

/**
 * The raw module: the C ABI (cpp/include/nutcore.h) as `_nc_*` functions, with `_malloc`,
 * `_free`, `HEAPU8`, `ccall`, `UTF8ToString`, `stringToUTF8`, `lengthBytesUTF8`, `getValue`
 * and `setValue`. Options: `wasm` (the .wasm's bytes, URL or, in Node, path; by default the
 * file next to this one).
 */
export async function loadModule(options = {}) {
  const source = await wasmBytes(options.wasm ?? here("nutcore-engine.wasm"));
  const settings = {};
  let failure = null;
  if (source instanceof URL) {
    let failed;
    failure = new Promise((_, reject) => (failed = reject));
    settings.instantiateWasm = (imports, receive) => {
      instantiateFrom(source, imports).then(receive, failed);
      return {};
    };
  } else settings.wasmBinary = source;
  const loading = inNode ? inNodeScope(() => createNutcore(settings)) : createNutcore(settings);
  return failure ? Promise.race([loading, failure]) : loading;
}

// emscripten's loader, built for web, worker and node, reads CommonJS's __dirname (and would reach
// for require to read files, which the options above spare it) as its factory starts: they are
// lent to it for that synchronous call only, so loads running at once cannot mix them up.
async function inNodeScope(start) {
  const { createRequire } = await import("node:module");
  const { fileURLToPath } = await import("node:url");
  const saved = { __dirname: globalThis.__dirname, require: globalThis.require };
  if (typeof saved.require != "function") globalThis.require = createRequire(import.meta.url);
  if (typeof saved.__dirname != "string") globalThis.__dirname = fileURLToPath(new URL(".", import.meta.url));
  try {
    return start();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete globalThis[name];
      else globalThis[name] = value;
    }
  }
}

// Protocol ids this file gives requests that have none (a user's own ids are kept).
let counter = 0;
const validId = (id) => id === null || typeof id == "string" || (typeof id == "number" && Number.isFinite(id));
const sameId = (a, b) => a === b || (typeof a == "number" && typeof b == "number" && a == b);

class QuitError extends Error {}

/** One engine: one connection's game, as a native engine over stdio gives it. */
export class Engine {
  #M;
  #handle;
  #slot; // nc_engine_receive's out-pointer (32-bit)
  #lines = []; // lines for the module, in order: the next send, or the running search's next take
  #sending = false; // a send call is running (a search inside may be suspended)
  #queued = []; // requests waiting for the one before them to be answered
  #current = null; // the request whose reply is awaited (not stop or quit)
  #pending = []; // requests sent whose reply has not come, in order
  #listeners = new Set();
  #closed = false; // the quit reply came (or the engine was freed)
  #quit = null; // the promise of close()

  constructor(M, limits = {}) {
    this.#M = M;
    if (M.nutcoreHost) throw new Error("this module already drives an engine: one engine per module");
    this.#slot = M._malloc(4);
    const status = this.#withString(JSON.stringify(limits ?? {}), (p) => M._nc_engine_new(p, this.#slot));
    if (status !== NC_OK) {
      const message = M.UTF8ToString(M._nc_last_error());
      M._free(this.#slot);
      throw new RangeError(`bad engine limits: ${message}`);
    }
    this.#handle = M.getValue(this.#slot, "i32");
    M.nutcoreHost = {
      replies: (text) => {
        for (const line of text.split("\n")) if (line) this.#reply(line);
      },
      take: () => (this.#lines.length ? this.#lines.shift() : null),
    };
  }

  /** Whether the quit reply came: nothing more will. */
  get closed() {
    return this.#closed;
  }

  /** Calls `listener(line)` with every line the engine sends, progress included; returns the way off. */
  onLine(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A raw request line, handed to the engine as soon as it can read it (to a running search at its
   * next yield): the engine answers it as a native one does. Replies go to onLine's listeners.
   */
  send(line) {
    if (this.#closed) return false;
    this.#lines.push(String(line));
    this.#pump();
    return true;
  }

  /**
   * Sends `message` (an object with `cmd`) and resolves with its reply object (an error reply
   * too: `type` "error"). Requests wait for the one before them to be answered, except `stop` and
   * `quit`, which go to a running search at once. Progress lines go to `onInfo`. Rejects only when
   * the engine quit before answering.
   */
  request(message, { onInfo } = {}) {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new QuitError("the engine has quit"));
      const out = { ...message };
      if (!("id" in out)) {
        do out.id = `nutcore.js:${++counter}`;
        while (this.#taken(out.id));
      }
      const entry = { id: out.id, line: JSON.stringify(out), resolve, reject, onInfo };
      if (out.cmd === "stop" || out.cmd === "quit") this.#start(entry);
      else {
        this.#queued.push(entry);
        this.#next();
      }
    });
  }

  /** Stops the running search, if any (it still answers its request); resolves with the stop's reply. */
  stop() {
    return this.request({ cmd: "stop" });
  }

  /** Quits (a running search is stopped and answers first) and frees the engine; resolves with the quit reply. */
  close() {
    if (!this.#quit) {
      this.#quit = this.#closed
        ? Promise.resolve({ type: "quit" })
        : this.request({ cmd: "quit" }).catch((e) => {
            if (e instanceof QuitError) return { type: "quit" }; // quit by a raw line before
            throw e;
          });
    }
    return this.#quit;
  }

  #taken(id) {
    return [...this.#pending, ...this.#queued].some((e) => sameId(e.id, id));
  }

  #withString(text, use) {
    const M = this.#M;
    const size = M.lengthBytesUTF8(text);
    const p = M._malloc(size + 1);
    M.stringToUTF8(text, p, size + 1);
    try {
      return use(p, size);
    } finally {
      M._free(p);
    }
  }

  #next() {
    if (this.#current || !this.#queued.length) return;
    this.#current = this.#queued.shift();
    this.#start(this.#current);
  }

  #start(entry) {
    this.#pending.push(entry);
    this.#lines.push(entry.line);
    this.#pump();
  }

  // One send at a time: the module's stack is suspended inside it while a search yields, and
  // another call into it then would take over that suspension's result.
  async #pump() {
    if (this.#sending) return;
    this.#sending = true;
    try {
      while (this.#lines.length && !this.#closed) {
        const line = this.#lines.shift();
        const status = await this.#withStringAsync(line);
        this.#drain();
        if (status === NC_CLOSED) this.#close();
      }
    } catch (e) {
      this.#close(e); // the module failed (it aborts on a bug): nothing more can come
    } finally {
      this.#sending = false;
    }
    if (this.#closed) this.#free();
  }

  async #withStringAsync(line) {
    const M = this.#M;
    const size = M.lengthBytesUTF8(line);
    const p = M._malloc(size + 1);
    M.stringToUTF8(line, p, size + 1);
    try {
      return await M.ccall("nc_engine_send_bytes", "number", ["number", "number", "number"], [this.#handle, p, size], {
        async: true,
      });
    } finally {
      M._free(p);
    }
  }

  // Every reply the engine has queued, in order.
  #drain() {
    const M = this.#M;
    for (;;) {
      const status = M._nc_engine_receive(this.#handle, 0, this.#slot);
      if (status !== NC_OK) {
        if (status === NC_CLOSED) this.#close();
        else if (status !== NC_TIMEOUT) throw new Error(`nc_engine_receive: ${M.UTF8ToString(M._nc_last_error())}`);
        return;
      }
      const p = M.getValue(this.#slot, "i32");
      const line = M.UTF8ToString(p);
      M._nc_free(p);
      this.#reply(line);
    }
  }

  #reply(line) {
    for (const listener of this.#listeners) {
      try {
        listener(line);
      } catch (e) {
        console.error("nutcore: an onLine listener threw:", e);
      }
    }
    let reply;
    try {
      reply = JSON.parse(line);
    } catch (e) {
      return;
    }
    // A reply carries its request's id; one whose id the engine could not read carries none.
    const index = this.#pending.findIndex((e) =>
      "id" in reply ? validId(e.id) && sameId(e.id, reply.id) : reply.type === "error" && !validId(e.id),
    );
    const entry = index < 0 ? null : this.#pending[index];
    if (reply.type === "info") {
      if (entry && entry.onInfo) {
        try {
          entry.onInfo(reply);
        } catch (e) {
          console.error("nutcore: an onInfo callback threw:", e);
        }
      }
      return;
    }
    if (entry) {
      this.#pending.splice(index, 1);
      entry.resolve(reply);
      if (entry === this.#current) {
        this.#current = null;
        if (reply.type !== "quit") this.#next();
      }
    }
    if (reply.type === "quit") this.#close(); // the last line the engine sends
  }

  // After the quit reply (or a failure of the module): nothing more comes; the requests not
  // answered are told so. The engine is freed once the send that got here has returned (#pump).
  #close(failure = null) {
    if (this.#closed) return;
    this.#closed = true;
    this.#lines.length = 0;
    const unanswered = [...this.#pending, ...this.#queued];
    this.#pending.length = 0;
    this.#queued.length = 0;
    this.#current = null;
    for (const entry of unanswered) entry.reject(failure ?? new QuitError("the engine has quit"));
  }

  #free() {
    if (!this.#handle) return;
    const handle = this.#handle;
    this.#handle = 0;
    this.#M.nutcoreHost = null;
    try {
      this.#M._nc_engine_free(handle);
      this.#M._free(this.#slot);
    } catch (e) {
      // a module that aborted has nothing left to free
    }
  }
}

/**
 * A new engine in a module of its own. Options: `wasm` (as loadModule), `limits` (the engine's
 * limits, docs/engine-protocol.md: the JSON nc_engine_new takes), `module` (a module from
 * loadModule to use instead, one engine per module).
 */
export async function createEngine(options = {}) {
  const M = options.module ?? (await loadModule(options));
  return new Engine(M, options.limits ?? {});
}
