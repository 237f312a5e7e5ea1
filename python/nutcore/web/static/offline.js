// Offline use of the exported page (docs/web.md, "Offline and installed"): in a folder that
// `nutcore export-web` wrote (<meta name="nutcore-engine" content="worker">) the page registers
// the folder's service worker, sw.js, which keeps the page and the engine in a cache. With
// `nutcore serve` (content "server") the page needs the server anyway, so no worker is registered,
// and one left on this address by an exported folder is removed.

const root = new URL("../", import.meta.url);
const exported = document.querySelector('meta[name="nutcore-engine"]')?.content === "worker";

async function register() {
  const registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.href });
  // A newer export installed on an earlier visit is asked to take over now, while no game runs
  // yet (one reload); otherwise it does once no page of this version is open.
  if (registration.waiting && navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
    registration.waiting.postMessage("activate");
  }
}

async function unregister() {
  for (const registration of await navigator.serviceWorker.getRegistrations()) {
    if (registration.scope === root.href) await registration.unregister();
  }
}

if ("serviceWorker" in navigator) {
  // A failure here costs the offline use only, never the page.
  (exported ? register() : unregister()).catch((e) => console.warn(`service worker: ${e}`));
}
