// The Web Worker that runs the WebAssembly build of the rules and the computer, so that the
// page stays responsive while the computer thinks. Messages: `{ id, call, args }` in,
// `{ id, result }` or `{ id, error }` out.

import init, * as othello from "./wasm/othello_wasm.js";

const ready = init();

self.onmessage = async (event) => {
  const { id, call, args } = event.data;
  try {
    await ready;
    let result;
    if (call === "position") result = JSON.parse(othello.position(...args));
    else if (call === "computerMove") result = othello.computerMove(...args);
    else if (call === "evaluations") result = Array.from(othello.evaluations(...args));
    else throw new Error(`no call ${call}`);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
