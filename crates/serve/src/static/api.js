// The server's JSON API: every answer is a game (or a hint); every error has a message.

/** An answer the server refused, with its HTTP status. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body, signal) {
  const options = { method, signal, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "the server cannot be reached");
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (!response.ok) {
    const message = answer && answer.error ? answer.error : `the server answered ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return answer;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const createGame = (settings) => request("POST", "/api/games", settings);
export const readGame = (id) => request("GET", game(id));
export const play = (id, square) => request("POST", `${game(id)}/play`, { square });
export const undo = (id) => request("POST", `${game(id)}/undo`, {});
export const hint = (id) => request("POST", `${game(id)}/hint`, {});
export const computerMove = (id, signal) => request("POST", `${game(id)}/computer`, {}, signal);
export const downloadPath = (id) => `${game(id)}/ggf`;
export const analysis = (id) => request("GET", `${game(id)}/analysis`);
