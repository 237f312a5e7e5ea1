// The connection to the engine: `nutcore serve`'s WebSocket or the WebAssembly engine in a Web
// Worker (worker.js). Both carry the same protocol lines (docs/engine-protocol.md); `ask` sends one
// request and resolves with its final reply.

import { $, showError } from "./dom.js";

export class EngineError extends Error {
  constructor(reply) {
    super(reply.message);
    this.reply = reply;
  }
}

let transport = null; // {send(line)}
let nextId = 1;
const pending = new Map(); // request id -> {resolve, onInfo}

export function meta(name) {
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
      worker = new Worker(new URL("../worker.js", import.meta.url), { type: "module" });
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

export const connect = () => (engineKind() === "worker" ? connectWorker() : connectServer());

// The final reply to one request (its "info" lines go to onInfo); an error reply is thrown.
export async function ask(cmd, fields = {}, onInfo = null) {
  if (!transport) throw new EngineError({ message: "not connected" });
  const id = nextId++;
  const reply = await new Promise((resolve) => {
    pending.set(id, { resolve, onInfo });
    transport.send(JSON.stringify({ cmd, id, ...fields }));
  });
  if (reply.type === "error") throw new EngineError(reply);
  return reply;
}
