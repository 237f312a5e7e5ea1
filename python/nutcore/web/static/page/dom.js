// The page's few shared helpers for its elements: lookup, the error box, the phase marks that
// scripts and tests wait for.

export const $ = (id) => document.getElementById(id);

export function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
}

export function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// For scripts and tests: what the page waits for, and a counter of finished drawings.
export function markPhase(phase) {
  document.body.dataset.phase = phase;
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
}
