// The page: keeps the game's id in the address, sends taps to the server (or, for a game on this
// device, to local.js) and draws the answers. The rules are decided there; this file only shows
// what they say.

import * as server from "./api.js";
import * as local from "./local.js";
import { drawBoard } from "./board.js";
import { drawChart } from "./chart.js";

const $ = (id) => document.getElementById(id);
const ID = /^[0-9a-f]{32}$/;
// The server's games or this device's: chosen by the game's id.
const sourceOf = (id) => (local.isLocal(id) ? local : server);
const api = {
  readGame: (id) => sourceOf(id).readGame(id),
  play: (id, square) => sourceOf(id).play(id, square),
  undo: (id) => sourceOf(id).undo(id),
  hint: (id) => sourceOf(id).hint(id),
  computerMove: (id, signal) => sourceOf(id).computerMove(id, signal),
  analysis: (id) => sourceOf(id).analysis(id),
  downloadPath: server.downloadPath,
  /** A game on the server, or on this device when the server cannot be reached. */
  async createGame(settings) {
    try {
      return await server.createGame(settings);
    } catch (error) {
      // No answer, or a static host's (an export) 404, 405 or 501 (no API): play on the device.
      if (![0, 404, 405, 501].includes(error.status)) throw error;
      if (!(await local.available())) {
        throw new server.ApiError(0, "the server cannot be reached and this device cannot play offline");
      }
      page.offlineNotice = "The server cannot be reached: this game is played on this device.";
      return local.createGame(settings);
    }
  },
};

const page = {
  view: null,
  hint: null,
  thinking: null, // the AbortController of the computer's move being waited for
  busy: false,
  chartFor: null, // the game id and move count the chart shows
  offlineNotice: "", // said once when a new game is played on this device
};

/** A first visit's game, and the dialog's default: as `othello play`, you against the computer. */
const FIRST_GAME = { black: "human", white: "computer:3" };

const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);
const nameOf = (view, color) => view[color].name;
// "Ada (black)", or just "Black" when the name is the colour's.
const who = (view, color) => {
  const name = nameOf(view, color);
  return name === capital(color) ? name : `${name} (${color})`;
};

/** The status line as phrases, each kept on one line when the line wraps. */
function statusPhrases(view) {
  if (view.over) {
    const { black, white } = view;
    const score = `${black.discs} to ${white.discs}.`;
    if (!view.winner) return ["Game over:", "a draw,", score];
    return ["Game over:", `${who(view, view.winner)} wins,`, score];
  }
  const mover = who(view, view.turn);
  if (view.thinking || (page.thinking && view[view.turn].computer)) {
    return [`${mover} is thinking…`];
  }
  return [`${mover} to move.`];
}

function showStatus(phrases) {
  const parts = [];
  phrases.forEach((phrase, index) => {
    if (index > 0) parts.push(" ");
    const span = document.createElement("span");
    span.className = "phrase";
    span.textContent = phrase;
    parts.push(span);
  });
  $("status").replaceChildren(...parts);
}

/** The moves played, numbered, with who played each and the passes. */
function showMoves(view) {
  const items = view.history.map((move, index) => {
    const item = document.createElement("li");
    item.className = move.player;
    item.textContent = move.square;
    item.title = `${index + 1}. ${capital(move.player)} ${move.square}`;
    if (move.passed) item.dataset.passed = `${capital(move.passed)} passes`;
    return item;
  });
  const list = $("moves");
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
  $("move-count").textContent = view.history.length ? `(${view.history.length})` : "";
}

function show(view) {
  page.view = view;
  const main = document.querySelector("main");
  main.dataset.turn = view.turn ?? "";
  main.dataset.over = String(view.over);
  main.dataset.winner = view.winner ?? "";
  main.dataset.thinking = String(Boolean(page.thinking));
  for (const color of ["black", "white"]) {
    const player = view[color];
    const name = $(`${color}-name`);
    name.replaceChildren(player.name);
    if (player.computer) {
      const level = document.createElement("span");
      level.className = "level";
      level.textContent = ` (level ${player.computer})`;
      name.append(level);
    }
    $(`${color}-count`).textContent = String(player.discs);
    const toMove = view.turn === color;
    $(color).classList.toggle("to-move", toMove);
    $(color).setAttribute(
      "aria-label",
      `${capital(color)}: ${player.name}, ${player.discs} discs${toMove ? ", to move" : ""}`,
    );
  }
  showStatus(statusPhrases(view));
  showMoves(view);
  if (page.chartFor && page.chartFor !== `${view.id}/${view.moves}`) hideChart();
  drawBoard($("board"), view, { showLegal: $("show-legal").checked, hint: page.hint }, tap);
  $("undo").disabled = !view.can_undo;
  $("hint").disabled = view.over || Boolean(view.turn && view[view.turn].computer);
  $("download").hidden = Boolean(view.local);
  $("download").href = api.downloadPath(view.id);
  $("download").setAttribute("download", `othello-${view.id}.ggf`);
}

function notify(text) {
  $("notice").textContent = text;
}

function passNotice(view) {
  if (!view.passed) return "";
  const other = view.passed === "black" ? "white" : "black";
  return `${who(view, view.passed)} has no legal move and passes; ${who(view, other)} plays again.`;
}

/** Shows a game the server returned, then lets the computer move if it is its turn. */
function arrive(view, said = "") {
  page.hint = null;
  show(view);
  notify(said || passNotice(view) || page.offlineNotice);
  page.offlineNotice = "";
  if (!view.over && view[view.turn].computer) computerMoves();
  if (view.over) showChart();
}

function hideChart() {
  page.chartFor = null;
  $("chart").hidden = true;
}

/** Asks the server for the engine's evaluation after each move and draws it. */
async function showChart() {
  const view = page.view;
  const key = `${view.id}/${view.moves}`;
  if (page.chartFor === key) return;
  page.chartFor = key;
  $("chart").hidden = false;
  $("chart-plot").replaceChildren("Evaluating the game…");
  try {
    const analysis = await api.analysis(view.id);
    if (page.chartFor !== key) return;
    drawChart($("chart-plot"), analysis);
  } catch (error) {
    if (page.chartFor !== key) return;
    $("chart-plot").replaceChildren(`No chart: ${error.message}.`);
  }
}

async function computerMoves() {
  if (page.thinking) return;
  const controller = new AbortController();
  page.thinking = controller;
  const id = page.view.id;
  show(page.view);
  try {
    const view = await api.computerMove(id, controller.signal);
    if (page.thinking !== controller) return;
    page.thinking = null;
    const said = view.last ? `${nameOf(view, view.last_player)} played ${view.last}.` : "";
    arrive(view, [said, passNotice(view)].filter(Boolean).join(" "));
  } catch (error) {
    if (page.thinking !== controller) return;
    page.thinking = null;
    if (error.name !== "AbortError") {
      notify(error.message);
      show(page.view);
    }
  }
}

function stopThinking() {
  if (page.thinking) {
    page.thinking.abort();
    page.thinking = null;
  }
}

async function act(action) {
  if (page.busy) return;
  page.busy = true;
  try {
    await action();
  } catch (error) {
    if (error.name !== "AbortError") notify(error.message);
  } finally {
    page.busy = false;
  }
}

function tap(square) {
  const view = page.view;
  if (!view) return;
  if (view.over) {
    notify("The game is over: start a new game.");
    return;
  }
  if (view[view.turn].computer) {
    notify("Wait for the computer's move.");
    return;
  }
  act(async () => arrive(await api.play(view.id, square)));
}

function showMissing(text) {
  stopThinking();
  page.view = null;
  document.querySelector("main").dataset.missing = "true";
  $("missing").hidden = false;
  $("missing-text").textContent = text;
  $("status").textContent = "";
}

function showGame(view) {
  stopThinking();
  document.querySelector("main").dataset.missing = "false";
  $("missing").hidden = true;
  if (location.hash.slice(1) !== view.id) history.replaceState(null, "", `#${view.id}`);
  arrive(view);
}

async function load() {
  const id = location.hash.slice(1);
  if (page.view && page.view.id === id) return;
  await act(async () => {
    if (ID.test(id) || local.isLocal(id)) {
      try {
        showGame(await api.readGame(id));
      } catch (error) {
        if (error.status !== 404) throw error;
        showMissing(
          local.isLocal(id)
            ? "The game of this link is not on this device (it was played on another one, or cleared)."
            : "The game of this link is not on this server (an old link, or its file is gone).",
        );
      }
      return;
    }
    if (id) {
      showMissing(`“#${id.slice(0, 40)}” is not a game's address.`);
      return;
    }
    showGame(await api.createGame(FIRST_GAME));
  });
}

function settingsOf(form) {
  const data = new FormData(form);
  const settings = {
    size: Number(data.get("size")),
    rules: data.get("rules"),
    win: data.get("win"),
    first: data.get("first"),
  };
  if (data.get("opponent") === "computer") {
    const human = data.get("human");
    const computer = human === "black" ? "white" : "black";
    settings[human] = "human";
    settings[computer] = `computer:${data.get("level")}`;
  }
  for (const field of ["black_name", "white_name"]) {
    const name = String(data.get(field) ?? "").trim();
    if (name) settings[field] = name;
  }
  return settings;
}

function setUp() {
  const dialog = $("new-game");
  const form = $("new-game-form");
  const computerOnly = form.querySelector(".computer-only");
  const opponentChanged = () => {
    computerOnly.hidden = new FormData(form).get("opponent") !== "computer";
  };
  form.addEventListener("change", opponentChanged);
  opponentChanged();
  $("new").addEventListener("click", () => dialog.showModal());
  $("new-cancel").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    dialog.close();
    stopThinking();
    act(async () => showGame(await api.createGame(settingsOf(form))));
  });
  $("undo").addEventListener("click", () => {
    stopThinking();
    act(async () => arrive(await api.undo(page.view.id), "Moves taken back."));
  });
  $("hint").addEventListener("click", () => {
    act(async () => {
      notify("Looking for the best move…");
      const hint = await api.hint(page.view.id);
      page.hint = hint.square;
      show(page.view);
      notify(hint.text);
    });
  });
  $("show-chart").addEventListener("click", () => page.view && showChart());
  $("missing-new").addEventListener("click", () => {
    act(async () => showGame(await api.createGame(FIRST_GAME)));
  });
  $("missing-choose").addEventListener("click", () => dialog.showModal());
  $("show-legal").addEventListener("change", () => page.view && show(page.view));
  window.addEventListener("hashchange", load);
  // A phone waking up: the game may have moved on (another tab, a restart).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && page.view && !page.thinking && !page.busy) {
      act(async () => arrive(await api.readGame(page.view.id)));
    }
  });
  load();
  // Installed on a home screen, the page's files come from the service worker's cache when the
  // network is off.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
}

setUp();
