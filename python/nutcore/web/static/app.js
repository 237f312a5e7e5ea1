// The nutcore page: speaks the engine protocol (docs/engine-protocol.md) to one of two engines and
// draws each game with its board module (boards/<game>.js). It names no game and knows no bot: the
// games, their player counts, parameters, algorithms, default bot, example bots and levels come from
// list_games.
//
// The engines: `nutcore serve` over the WebSocket /ws, or, in a static folder that `nutcore
// export-web` wrote (docs/web.md), the WebAssembly engine in a Web Worker (worker.js). The page's
// <meta name="nutcore-engine"> says which ("server" or "worker"); ?engine=server or ?engine=worker
// in the address overrides it. Both carry the same lines, so everything below is the same for both.
//
// What a human may see in games of hidden information: with one human seat the page connects as that
// seat, so it never receives what the seat has not seen; with several humans (hot seat) it hosts the
// game but only ever asks for the board of the human to move, names no move or chance outcome, and
// hides the board between two humans' turns. Memory aids (off unless chosen) decide whether a human
// sees what their seat has seen before, or only what lies in front of it now.
//
// The page's parts live in page/: connection.js (the two transports and `ask`), state.js (what the
// page knows, and the one staleness check), loop.js (new games, the automatic steps, the human's
// moves, undo), draw.js (the board, the moves, the move list), ai.js (the AI panel and the hint),
// dialogs.js (setup, game over, curtain, save and load, how to play). This file wires them.

import { ask, connect } from "./page/connection.js";
import { $, showError } from "./page/dom.js";
import { catalogue } from "./page/state.js";
import { fillPlayers, fillSeats, load, save, showRules } from "./page/dialogs.js";
import { hint, stop } from "./page/ai.js";
import { readableText } from "./page/draw.js";
import { resume, startGame, undo } from "./page/loop.js";


async function main() {
  try {
    await connect();
    catalogue.push(...(await ask("list_games")).games);
  } catch (e) {
    $("connection").textContent = "not connected";
    return showError(e.message);
  }
  const sel = $("game");
  for (const g of catalogue) sel.add(new Option(g.title || g.name, g.name));
  sel.addEventListener("change", fillPlayers);
  $("players").addEventListener("change", () => fillSeats(false));
  fillPlayers();
  showRules();
  $("start").disabled = false;
  $("start").addEventListener("click", () => startGame());
  $("hint").addEventListener("click", hint);
  $("stop").addEventListener("click", stop);
  $("resume").addEventListener("click", resume);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("load-button").addEventListener("click", () => $("load").click());
  $("play-again").addEventListener("click", () => startGame());
  $("new-game").addEventListener("click", () => {
    const open = document.body.classList.toggle("setup-open");
    $("new-game").setAttribute("aria-expanded", String(open));
    if (open) $("game").focus();
  });
  $("game").addEventListener("change", showRules);
  $("load").addEventListener("change", (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) load(file);
  });
  window.addEventListener("resize", readableText);
  performance.mark("nutcore-ready");
  document.body.dataset.ready = "true"; // for tests and scripts: the games are listed
}

main();
