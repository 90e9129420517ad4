// Games played on this device: the same calls as api.js, answered by the WebAssembly build of
// the rules and the computer in a Web Worker, the games kept in localStorage. Used when the
// server cannot be reached, or for games whose id starts with "local-".

import { ApiError } from "./api.js";

let worker = null;
let next = 0;
const waiting = new Map();

function call(name, ...args) {
  if (!worker) {
    worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (event) => {
      const { id, result, error } = event.data;
      const promise = waiting.get(id);
      waiting.delete(id);
      if (error === undefined) promise.resolve(result);
      else promise.reject(new ApiError(400, error));
    };
    worker.onerror = () => {
      for (const promise of waiting.values()) {
        promise.reject(new ApiError(0, "this device's game engine did not load"));
      }
      waiting.clear();
      worker = null;
    };
  }
  next += 1;
  const id = next;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, call: name, args });
  });
}

/** Whether this device can play: the WebAssembly build loads (from the cache when offline). */
export async function available() {
  try {
    await call("position", "{}", "");
    return true;
  } catch {
    return false;
  }
}

export const isLocal = (id) => /^local-[0-9a-f]{16}$/.test(id);
const KEY = (id) => `othello-game-${id}`;

function load(id) {
  const text = localStorage.getItem(KEY(id));
  if (!text) throw new ApiError(404, "no such game on this device");
  return JSON.parse(text);
}

function save(game) {
  localStorage.setItem(KEY(game.id), JSON.stringify(game));
}

const moveText = (game) => game.moves.map((move) => move.square).join(" ");
const settingsText = (game) => JSON.stringify(game.settings);

async function view(game) {
  const position = await call("position", settingsText(game), moveText(game));
  const seat = (color) => ({
    name: game.players[color].name,
    computer: game.players[color].computer,
    discs: position.discs[color],
  });
  return {
    ...position,
    id: game.id,
    black: seat("black"),
    white: seat("white"),
    can_undo: game.moves.some((move) => !game.players[move.player].computer),
    thinking: false,
    local: true,
  };
}

function player(seat, name, color) {
  const level = /^computer:([1-6])$/.exec(seat ?? "");
  const computer = level ? Number(level[1]) : null;
  const fallback = computer ? "Computer" : color.charAt(0).toUpperCase() + color.slice(1);
  return { name: name || fallback, computer };
}

/** A new game on this device from the new-game form's settings. */
export async function createGame(settings) {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const id = `local-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  const game = {
    id,
    settings: { size: settings.size, rules: settings.rules, win: settings.win, first: settings.first },
    players: {
      black: player(settings.black, settings.black_name, "black"),
      white: player(settings.white, settings.white_name, "white"),
    },
    moves: [],
  };
  const answer = await view(game);
  save(game);
  return answer;
}

export const readGame = async (id) => view(load(id));

async function playFor(game, square) {
  const before = await call("position", settingsText(game), moveText(game));
  if (!before.turn) throw new ApiError(409, "the game is over");
  if (!before.legal.includes(square)) {
    throw new ApiError(422, `${square} is not a legal move`);
  }
  game.moves.push({ square, player: before.turn });
  save(game);
  return view(game);
}

export async function play(id, square) {
  const game = load(id);
  const position = await call("position", settingsText(game), moveText(game));
  if (position.turn && game.players[position.turn].computer) {
    throw new ApiError(409, "it is the computer's turn");
  }
  return playFor(game, square);
}

export async function computerMove(id) {
  const game = load(id);
  const position = await call("position", settingsText(game), moveText(game));
  const level = position.turn && game.players[position.turn].computer;
  if (!level) throw new ApiError(409, "it is not the computer's turn");
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  const square = await call("computerMove", settingsText(game), moveText(game), level, seed);
  return playFor(game, square);
}

export async function undo(id) {
  const game = load(id);
  while (game.moves.length > 0) {
    const move = game.moves.pop();
    if (!game.players[move.player].computer) break;
  }
  save(game);
  return view(game);
}

export async function hint(id) {
  const game = load(id);
  const square = await call("computerMove", settingsText(game), moveText(game), 5, 1);
  return { square, text: `Hint: ${square}.` };
}

/** The moves in GGF's notation (B[d3]W[c5]...), as the server's record gives them. */
export async function record(id) {
  const game = load(id);
  const moves = game.moves.map((move) => `${move.player === "black" ? "B" : "W"}[${move.square}]`);
  return `BO[]${moves.join("")}`;
}

/** The evaluation (discs, black's view) after each move of `moves`, `depth` plies deep. */
export async function evaluations(settings, moves, depth) {
  return call("evaluations", JSON.stringify(settings), moves.join(" "), depth);
}

/** The chart's points, as the server's analysis gives them: the evaluation after each move. */
export async function analysis(id) {
  const game = load(id);
  const scores = await evaluations(game.settings, game.moves.map((move) => move.square), 4);
  const over = (await view(game)).over;
  const points = game.moves.map((move, index) => ({
    move: index + 1,
    square: move.square,
    player: move.player,
    black: scores[index + 1],
    exact: over && index + 1 === game.moves.length,
  }));
  return { points };
}
