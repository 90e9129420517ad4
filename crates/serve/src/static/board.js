// Draws the board the server returned: one button per square, with the discs, the legal
// moves, the last move, the flipped discs and a hint. Every mark has a shape as well as a
// colour, and every square says what it holds to a screen reader ("d3, empty, legal move").
// Around the board, the columns' letters and the rows' numbers, as the page names squares.

const COLUMNS = "abcdefghijklmnop";

/** The square's name: column letter and 1-based row. */
export const squareName = (row, col) => `${COLUMNS[col]}${row + 1}`;

/**
 * Draws `view` into `element`; `onTap(square)` is called for a tap or click on a square.
 * `options.showLegal` marks the legal moves, `options.hint` names a square to point out.
 */
export function drawBoard(element, view, options, onTap) {
  if (element.dataset.shape !== `${view.rows}x${view.cols}`) {
    build(element, view.rows, view.cols, onTap);
  }
  const legal = new Set(view.legal);
  const flipped = new Set(view.flipped);
  for (const cell of element.querySelectorAll("button.cell")) {
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    const name = cell.dataset.square;
    const content = view.board[row][col];
    const disc = content === "b" ? "black" : content === "w" ? "white" : null;
    const isLegal = legal.has(name);
    const words = [name, disc ?? "empty"];
    if (isLegal) words.push("legal move");
    if (view.last === name) words.push("last move");
    if (flipped.has(name)) words.push("just flipped");
    if (options.hint === name) words.push("hint");
    cell.setAttribute("aria-label", words.join(", "));
    cell.dataset.disc = disc ?? "";
    cell.classList.toggle("legal", isLegal && options.showLegal);
    cell.classList.toggle("last", view.last === name);
    cell.classList.toggle("flipped", flipped.has(name));
    cell.classList.toggle("hint", options.hint === name);
    const piece = cell.firstElementChild;
    piece.className = disc ? `disc ${disc}` : "dot";
  }
}

function build(element, rows, cols, onTap) {
  element.replaceChildren();
  element.dataset.shape = `${rows}x${cols}`;
  const frame = element.parentElement;
  frame.style.setProperty("--cols", String(cols));
  frame.style.setProperty("--rows", String(rows));
  const label = (text) => {
    const span = document.createElement("span");
    span.textContent = text;
    return span;
  };
  frame.querySelector(".files").replaceChildren(
    ...Array.from({ length: cols }, (_, col) => label(COLUMNS[col])),
  );
  frame.querySelector(".ranks").replaceChildren(
    ...Array.from({ length: rows }, (_, row) => label(String(row + 1))),
  );
  for (let row = 0; row < rows; row += 1) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    line.className = "row";
    for (let col = 0; col < cols; col += 1) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.dataset.row = String(row);
      cell.dataset.col = String(col);
      cell.dataset.square = squareName(row, col);
      cell.append(document.createElement("span"));
      cell.addEventListener("click", () => onTap(cell.dataset.square));
      line.append(cell);
    }
    element.append(line);
  }
}
