// The dialogs: the setup (game, seats, difficulty in words), the game-over screen, the curtain of
// hot seat, save and load, and "How to play".

import { ask } from "./connection.js";
import { $, showError } from "./dom.js";
import { G, boards, catalogue, fromBoard, loadBoardModule, nameOf } from "./state.js";
import { startGame } from "./loop.js";

// ----- setup

// Difficulty in words. The levels and what each plays come from list_games (docs/levels.md); the
// page only words them: a name by its place among the levels (however many there are), and what its
// spec does. Custom specs sit behind "Custom bot (advanced)" and are checked before Start.
const LEVEL_WORDS = ["Very easy", "Easy", "Medium", "Hard", "Very hard"];
const BOT_NAMES = ["Hazel", "Pip", "Nutkin", "Sable"];

function levelName(index, count) {
  if (index === count - 1 && count > 1) return "Strongest";
  return LEVEL_WORDS[Math.min(LEVEL_WORDS.length - 1, Math.floor((index * LEVEL_WORDS.length) / Math.max(1, count - 1)))];
}

function parseSpec(spec) {
  const [kind, rest] = spec.split(/:(.*)/s);
  const options = {};
  for (const part of rest ? rest.split(",") : []) {
    const [k, v] = part.split("=");
    options[k] = v;
  }
  return { kind, options };
}

const percent = (x) => `${Math.round(100 * Number(x))} %`;

// What a bot spec does, for people.
export function describeSpec(spec) {
  const { kind, options } = parseSpec(spec);
  const parts = [];
  if (kind === "greedy") parts.push("takes the move that looks best right now");
  else if (kind === "random") parts.push("plays at random");
  else if (kind === "solver") parts.push("plays perfectly where it can compute it");
  else if (options.iterations) parts.push(`thinks ahead (${Number(options.iterations).toLocaleString("en")} simulated games a move)`);
  else if (options.time_limit) parts.push(`thinks ahead (${options.time_limit} s a move)`);
  else parts.push("thinks ahead");
  if (options.evaluator && options.evaluator.startsWith("learned")) parts.push("with its trained network");
  if (options.noise) parts.push(`${percent(options.noise)} of its moves at random`);
  if (options.memory) parts.push(`remembers about ${percent(options.memory)} of what it saw`);
  return parts.join(", ");
}

// A seat's choices: a person, the engine's default bot, its levels, or a custom spec.
function seatChoices(entry) {
  const n = entry.levels.length;
  return [
    { value: "human", label: "A person (you)" },
    { value: entry.default_bot, label: `The usual AI: ${describeSpec(entry.default_bot)}`, title: entry.default_bot },
    ...entry.levels.map((level, i) => ({
      value: level.bot,
      label: `Level ${i + 1} of ${n} · ${levelName(i, n)}: ${describeSpec(level.plays)}`,
      title: level.plays,
    })),
    { value: "custom", label: "Custom bot (advanced)…" },
  ];
}

// A custom spec is checked against what list_games offers before Start, so that "Hard", "level 5"
// or a level the game lacks are refused at once, not after the first move.
export function specProblem(entry, spec) {
  const levels = entry.levels.map((l) => l.bot);
  if (/^level:/.test(spec)) return levels.includes(spec) ? null : `the levels are ${levels[0]} to ${levels[levels.length - 1]}`;
  const kinds = new Set([...entry.bots, entry.default_bot, ...entry.levels.map((l) => l.plays)].map((b) => parseSpec(b).kind));
  const m = /^([a-z]+)(?::([a-z_]+=[^,=\s]+(?:,[a-z_]+=[^,=\s]+)*))?$/.exec(spec);
  if (!m) return "a bot is written kind or kind:setting=value,…, such as greedy or mcts:iterations=1000";
  if (!kinds.has(m[1])) return `no bot "${m[1]}" here; the kinds are ${[...kinds, "level"].join(", ")}`;
  return null;
}

export function chosenEntry() {
  return catalogue.find((g) => g.name === $("game").value);
}

export function fillPlayers() {
  const entry = chosenEntry();
  const sel = $("players");
  const keep = Number(sel.value) || 2;
  sel.replaceChildren();
  for (let n = entry.players.min; n <= entry.players.max; n++) sel.add(new Option(String(n), String(n)));
  sel.value = String(Math.min(Math.max(keep, entry.players.min), entry.players.max));
  const list = $("bot-specs");
  list.replaceChildren(...[...entry.bots, ...entry.levels.map((l) => l.bot)].map((spec) => new Option(spec, spec)));
  $("memory-aids-box").hidden = !entry.memory_aids;
  $("params").value = "{}"; // another game's parameters would not fit this one
  fillSeats(true);
}

export function seatChoice(s) {
  const choice = $(`seat-choice-${s}`);
  return choice.value === "custom" ? $(`seat-${s}`).value.trim() : choice.value;
}

export function setSeat(s, spec) {
  const choice = $(`seat-choice-${s}`);
  const known = [...choice.options].some((o) => o.value === spec && spec !== "custom");
  choice.value = known ? spec : "custom";
  $(`seat-${s}`).value = known ? "" : spec;
  $(`seat-${s}`).hidden = known;
}

export function fillSeats(reset) {
  const entry = chosenEntry();
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((_, s) => ({ spec: seatChoice(s), name: $(`seat-name-${s}`).value }));
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    const row = document.createElement("div");
    row.className = "seat";
    const label = document.createElement("label");
    label.textContent = `Player ${s + 1} `;
    const choice = document.createElement("select");
    choice.id = `seat-choice-${s}`;
    for (const c of seatChoices(entry)) {
      const o = new Option(c.label, c.value);
      if (c.title) o.title = c.title;
      choice.add(o);
    }
    label.appendChild(choice);
    const custom = document.createElement("input");
    custom.id = `seat-${s}`;
    custom.setAttribute("list", "bot-specs");
    custom.spellcheck = false;
    custom.placeholder = "a bot spec, e.g. mcts:iterations=1000";
    custom.setAttribute("aria-label", `Player ${s + 1}: custom bot`);
    choice.addEventListener("change", () => {
      custom.hidden = choice.value !== "custom";
      if (!custom.hidden) custom.focus();
    });
    const name = document.createElement("input");
    name.id = `seat-name-${s}`;
    name.className = "seat-name";
    name.placeholder = "name (optional)";
    name.setAttribute("aria-label", `Player ${s + 1}: name`);
    row.append(label, custom, name);
    box.appendChild(row);
    const keep = !reset && old[s] !== undefined;
    setSeat(s, keep ? old[s].spec : s === 0 ? "human" : entry.default_bot);
    name.value = keep ? old[s].name : "";
  }
  const defaults = entry.default_params.find((p) => p.players === n) || entry.default_params[0];
  $("defaults").textContent = JSON.stringify(defaults, null, 1);
}

// Seats' names: what the player typed, else "You" (one person), "Player N" (several), a bot's name.
export function seatNames(seats) {
  const humans = seats.filter((spec) => spec === "human").length;
  let bots = 0;
  return seats.map((spec, s) => {
    const typed = $(`seat-name-${s}`) ? $(`seat-name-${s}`).value.trim() : "";
    if (typed) return typed;
    if (spec === "human") return humans === 1 ? "You" : `Player ${s + 1}`;
    return BOT_NAMES[bots++ % BOT_NAMES.length];
  });
}

// Who won, in words: the seats with the best return (above 0; all equal is a draw).
export function winners() {
  const r = G.status.returns;
  if (!Array.isArray(r) || !r.length) return [];
  const best = Math.max(...r);
  if (r.every((x) => x === best)) return [];
  return r.flatMap((x, s) => (x === best ? [s] : []));
}

export function winnerText() {
  const w = winners();
  if (!w.length) return "It is a draw.";
  const names = w.map((s) => nameOf(s));
  if (w.length === 1) return names[0] === "You" ? "You won!" : `${names[0]} won.`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share the win.`;
}

// The game-over screen: who won, each seat's points, why the game ended (where the board module,
// or the turn limit, says), and Play again.
export function showGameOver() {
  const st = G.status;
  $("over-title").textContent = winnerText();
  // Where the points came from, per seat, when the board module can tell from the view; parts
  // that do not add up to the seat's points are not shown (the total is).
  const parts = G.view ? fromBoard("points", null, G.view, G.params) : null;
  const rows = G.names.map((name, s) => {
    const li = document.createElement("li");
    const score = Array.isArray(st.scores) && typeof st.scores[s] === "number" ? st.scores[s] : null;
    const points = score !== null ? `${score} points` : "";
    li.textContent = `${name}${points ? `: ${points}` : ""}${winners().includes(s) ? " (winner)" : ""}`;
    const own = Array.isArray(parts) ? parts[s] : null;
    const sane = Array.isArray(own) && own.length > 0 && own.every((p) => p && typeof p.label === "string" && typeof p.value === "number");
    if (sane && (score === null || Math.abs(own.reduce((a, p) => a + p.value, 0) - score) < 1e-9)) {
      const list = document.createElement("ul");
      list.className = "points-parts";
      for (const p of own) {
        const item = document.createElement("li");
        item.textContent = `${p.label}: ${p.value}`;
        list.appendChild(item);
      }
      li.appendChild(list);
    }
    return li;
  });
  $("over-points").replaceChildren(...rows);
  const view = G.view;
  let reason = (view && fromBoard("endReason", "", view, G.params)) || "";
  const cap = G.params && G.params.turn_cap;
  if (!reason && view && typeof view.turn === "number" && typeof cap === "number" && view.turn >= cap) {
    reason = `The game reached its limit of ${cap} turns and was scored as it stood.`;
  }
  $("over-reason").textContent = reason;
  $("over-reason").hidden = !reason;
  $("game-over").hidden = false;
}

export function showCurtain(text, buttonText, onClick) {
  $("curtain-text").textContent = text;
  const button = $("curtain-button");
  button.hidden = !buttonText;
  button.textContent = buttonText || "";
  button.onclick = onClick;
  $("curtain").hidden = false;
}

export function hideCurtain() {
  $("curtain").hidden = true;
}
export async function save() {
  try {
    const r = await ask("get_position");
    // The seats and the move list too, so that Load continues the same game against the same bots.
    const data = {
      game: G.game.name,
      players: G.players,
      params: G.params,
      position: r.position,
      seats: G.seats,
      names: G.names,
      history: G.history,
    };
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${G.game.name}-position.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (e) {
    showError(e.message);
  }
}

export async function load(file) {
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (e) {
    return showError(`${file.name}: not valid JSON (${e.message})`);
  }
  if (!data || typeof data !== "object" || typeof data.position !== "object" || data.position === null) {
    return showError(`${file.name}: a saved position is an object with "game", "players", "params" and "position"`);
  }
  if (!catalogue.some((g) => g.name === data.game)) return showError(`${file.name}: unknown game ${JSON.stringify(data.game)}`);
  // The seats chosen in the setup stay (the opponent the player picked); for another game than the
  // one selected they come from the file where it has them.
  const sameGame = $("game").value === data.game;
  if (!sameGame) {
    $("game").value = data.game;
    fillPlayers();
  }
  $("players").value = String(data.players);
  fillSeats(false);
  for (let s = 0; s < data.players; s++) {
    if (!sameGame && Array.isArray(data.seats) && typeof data.seats[s] === "string") setSeat(s, data.seats[s]);
    if (Array.isArray(data.names) && typeof data.names[s] === "string" && !$(`seat-name-${s}`).value) {
      const shown = ["You", `Player ${s + 1}`, ...BOT_NAMES];
      if (!shown.includes(data.names[s])) $(`seat-name-${s}`).value = data.names[s];
    }
  }
  // The file's parameters go to this game only: the Parameters field keeps what the player typed,
  // so a new game of another kind afterwards does not inherit them.
  const params = { ...(data.params || {}) };
  delete params.players;
  await startGame({ name: file.name, position: data.position, params, history: data.history });
}

// ----- how to play

// The chosen game's "How to play" (its board module's `rules`, HTML written for players).
export async function showRules() {
  const name = $("game").value;
  await loadBoardModule(name);
  if ($("game").value !== name) return;
  const module = boards.get(name);
  const entry = chosenEntry();
  $("rules-title").textContent = `How to play ${entry.title || entry.name}`;
  $("rules-body").innerHTML = module && typeof module.rules === "string" ? module.rules : "<p>No rules text for this game yet.</p>";
}
