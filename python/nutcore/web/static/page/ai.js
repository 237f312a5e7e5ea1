// The AI panel: a search's progress, its result in words with its statistics, the Hint and Stop.

import { ask } from "./connection.js";
import { $, showError } from "./dom.js";
import { G, Stale, humanToMove, phrase, stamp } from "./state.js";
import { redrawBoard, updateControls } from "./draw.js";

export function progressText(info) {
  // A busy server runs a few searches at once; the others wait for a slot.
  if (info.queued) return `waiting for the server… ${info.elapsed.toFixed(2)} s`;
  const b = info.budget || {};
  const of = b.time_limit ? ` of ${b.time_limit} s` : b.iterations ? ` (${b.iterations} iterations)` : "";
  return `thinking… ${info.elapsed.toFixed(2)} s${of}`;
}

// A progress line: the elapsed time and, from MCTS and ISMCTS, the visit bars of the search so far.
export function showProgress(title, info, player) {
  if (Array.isArray(info.actions) && info.actions.length) {
    const best = info.actions.reduce((a, b) => (b.visits > a.visits ? b : a));
    showResult(title, {
      action: best.action,
      action_string: `${best.action_string} so far`,
      value: null,
      algorithm: "searching",
      iterations: info.iterations,
      actions: info.actions,
    }, player);
  }
  $("ai-progress").textContent = progressText(info);
}

export function clearAi(title) {
  $("ai-title").textContent = title;
  $("ai-progress").textContent = "";
  $("ai-best").textContent = "";
  $("ai-bars").replaceChildren();
}

export function showResult(title, result, player) {
  $("ai-title").textContent = title;
  const value = Array.isArray(result.value) ? result.value[player] : null;
  // A value between 0 and 1 is a share of wins (a win counts 1); other values are the game's points.
  const valueText =
    typeof value !== "number"
      ? ""
      : value >= 0 && value <= 1
        ? ` (about a ${Math.round(100 * value)} % chance to win)`
        : ` (expected value ${value.toFixed(1)})`;
  const looked = typeof result.iterations === "number" ? ` It looked at ${result.iterations.toLocaleString("en")} games.` : "";
  $("ai-best").textContent = `${phrase(result.action_string.replace(/ so far$/, ""), player)}${result.action_string.endsWith(" so far") ? " so far" : ""}${valueText}.${looked}`;
  const stats = (result.actions || []).slice();
  const byVisits = stats.some((s) => typeof s.visits === "number");
  stats.sort((a, b) => (byVisits ? b.visits - a.visits : b.value - a.value));
  const top = Math.max(1e-9, ...stats.map((s) => (byVisits ? s.visits : Math.max(0, s.value))));
  const list = $("ai-bars");
  list.replaceChildren();
  for (const s of stats) {
    const li = document.createElement("li");
    li.className = s.action === result.action ? "best" : "";
    const numbers = document.createElement("span");
    numbers.className = "numbers";
    numbers.textContent = byVisits ? `${s.visits} · ${s.value.toFixed(3)}` : s.value.toFixed(3);
    const name = document.createElement("span");
    name.textContent = phrase(s.action_string, player);
    const bar = document.createElement("div");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.style.width = `${(100 * Math.max(0, byVisits ? s.visits : s.value)) / top}%`;
    bar.appendChild(fill);
    li.append(numbers, name, bar);
    list.appendChild(li);
  }
}

// A hint for the human to move: said in words in the panel and marked on the board (ctx.hint) until
// the position changes. In a memory game without memory aids it searches as a player who forgot
// what the game asks them to remember, so that it gives none of it away.
export async function hint() {
  if (!humanToMove() || G.searching) return;
  const s = stamp({ position: true });
  const player = G.status.current_player;
  const fields = { time_limit: Number($("hint-budget").value) };
  if (G.game.memory_aids && !G.memoryAids) fields.memory_aids = false;
  G.searching = true;
  G.searchKind = "hint";
  G.hint = null;
  updateControls();
  clearAi("Hint: thinking…");
  try {
    const r = await s.ask("best_move", fields, (info) => showProgress("Hint: thinking…", info, player));
    showResult(`Hint: the AI would play${r.stopped ? " (stopped)" : ""}`, r.result, player);
    $("ai-progress").textContent = `${r.result.elapsed.toFixed(2)} s`;
    G.hint = { action: r.result.action, status: G.status };
    redrawBoard();
  } catch (e) {
    if (!(e instanceof Stale)) showError(e.message);
  } finally {
    // A hint is only ever asked at the human's turn, so no move can come between: only a new game
    // (which resets the search flags itself) makes it stale.
    if (!s.gameGone()) {
      G.searching = false;
      updateControls();
    }
  }
}

export async function stop() {
  // A bot's move still lands (its best so far); then the page waits for Continue.
  if (G.searchKind === "go") G.paused = true;
  updateControls();
  try {
    await ask("stop");
  } catch (e) {
    showError(e.message);
  }
}
