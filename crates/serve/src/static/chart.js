// The chart of a game: the engine's evaluation after each move, in discs for Black, as an SVG
// line over the moves. Above the middle line Black is ahead, below White is; a filled dot is
// exact (perfect play from there), a hollow one an estimate.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 160;
const LEFT = 30;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 20;

function node(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

const signed = (value) => (value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0");

/** Draws `analysis` (`{ points: [{ move, square, player, black, exact }] }`) into `element`. */
export function drawChart(element, analysis) {
  const points = analysis.points;
  if (points.length === 0) {
    element.replaceChildren("No moves yet.");
    return;
  }
  const range = Math.max(8, ...points.map((point) => Math.abs(point.black)));
  const x = (move) => LEFT + ((WIDTH - LEFT - RIGHT) * move) / Math.max(1, points.length);
  const y = (value) => TOP + ((HEIGHT - TOP - BOTTOM) * (range - value)) / (2 * range);
  const svg = node("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": `Evaluation after each of ${points.length} moves, from ${signed(points[0].black)} to ${signed(points.at(-1).black)} for Black`,
  });
  svg.append(
    node("rect", { class: "plot", x: LEFT, y: TOP, width: WIDTH - LEFT - RIGHT, height: HEIGHT - TOP - BOTTOM }),
    node("line", { class: "zero", x1: LEFT, x2: WIDTH - RIGHT, y1: y(0), y2: y(0) }),
    node("text", { class: "axis", x: LEFT - 4, y: y(range) + 10, "text-anchor": "end" }, signed(range)),
    node("text", { class: "axis", x: LEFT - 4, y: y(0) + 4, "text-anchor": "end" }, "0"),
    node("text", { class: "axis", x: LEFT - 4, y: y(-range), "text-anchor": "end" }, signed(-range)),
    node("text", { class: "axis", x: x(0), y: HEIGHT - 4, "text-anchor": "start" }, "move 0"),
    node("text", { class: "axis", x: x(points.length), y: HEIGHT - 4, "text-anchor": "end" }, String(points.length)),
  );
  const line = [[x(0), y(0)], ...points.map((point) => [x(point.move), y(point.black)])];
  const path = line.map(([px, py], index) => `${index ? "L" : "M"}${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
  svg.append(
    node("path", { class: "area", d: `${path} L${x(points.length).toFixed(1)},${y(0)} L${x(0)},${y(0)} Z` }),
    node("path", { class: "line", d: path }),
  );
  for (const point of points) {
    const dot = node("circle", {
      class: point.exact ? "dot exact" : "dot",
      cx: x(point.move).toFixed(1),
      cy: y(point.black).toFixed(1),
      r: 2.5,
    });
    dot.append(node("title", {}, `${point.move}. ${point.player} ${point.square}: ${signed(point.black)} for Black${point.exact ? " (exact)" : ""}`));
    svg.append(dot);
  }
  element.replaceChildren(svg);
}
