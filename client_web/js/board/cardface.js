// @ts-check
// Card faces drawn as SVG, in the page (no image files, nothing fetched): the rank top-left and
// a large suit top-right (the strip that shows of a card under others),
// then the pips laid out as on real cards for A to 10, and for the courts a framed panel with
// the rank's letter, a mark of its own (a crown for the king, a tiara for the queen, a plume
// for the jack) and a panel colour of its own. Every pip is one path of its suit's shape, placed
// and scaled (not a <use> of a shared symbol: each <use> is a shadow tree of its own to style
// and lay out, which made a board's first drawing twice as slow); colour comes from the
// card's CSS colour (its suit's).

const NS = "http://www.w3.org/2000/svg";

// Suit shapes in a 100 × 100 box, one path each (the club's three leaves are circles drawn as
// two arcs each, turning the same way as its stem, so their overlaps fill).
const SUIT_PATHS = {
  h:
    "M50 90C22 68 4 50 4 31 4 15 16 5 29 5c10 0 17 6 21 14 4-8 11-14 21-14 13 0 25 10 " +
    "25 26 0 19-18 37-46 59Z",
  d: "M50 3 87 50 50 97 13 50Z",
  s:
    "M50 3C38 22 6 38 6 60c0 13 10 22 22 22 8 0 14-4 18-9-1 9-5 17-12 23h32c-7-6-11-14-12" +
    "-23 4 5 10 9 18 9 12 0 22-9 22-22C94 38 62 22 50 3Z",
  c:
    "M29 27a21 21 0 1 1 42 0a21 21 0 1 1-42 0ZM5 58a21 21 0 1 1 42 0a21 21 0 1 1-42 0Z" +
    "M53 58a21 21 0 1 1 42 0a21 21 0 1 1-42 0ZM45 50h10c0 20 4 34 13 46H32c9-12 13-26 13-46Z",
};

// Where the pips of 2 to 10 sit: [column, row] with columns 0 1 2 and rows 0 (top) to 1.
const L = 0;
const C = 1;
const R = 2;
const PIPS = {
  2: [
    [C, 0],
    [C, 1],
  ],
  3: [
    [C, 0],
    [C, 0.5],
    [C, 1],
  ],
  4: [
    [L, 0],
    [R, 0],
    [L, 1],
    [R, 1],
  ],
  5: [
    [L, 0],
    [R, 0],
    [C, 0.5],
    [L, 1],
    [R, 1],
  ],
  6: [
    [L, 0],
    [R, 0],
    [L, 0.5],
    [R, 0.5],
    [L, 1],
    [R, 1],
  ],
  7: [
    [L, 0],
    [R, 0],
    [C, 0.25],
    [L, 0.5],
    [R, 0.5],
    [L, 1],
    [R, 1],
  ],
  8: [
    [L, 0],
    [R, 0],
    [C, 0.25],
    [L, 0.5],
    [R, 0.5],
    [C, 0.75],
    [L, 1],
    [R, 1],
  ],
  9: [
    [L, 0],
    [R, 0],
    [L, 1 / 3],
    [R, 1 / 3],
    [C, 0.5],
    [L, 2 / 3],
    [R, 2 / 3],
    [L, 1],
    [R, 1],
  ],
  10: [
    [L, 0],
    [R, 0],
    [C, 1 / 6],
    [L, 1 / 3],
    [R, 1 / 3],
    [L, 2 / 3],
    [R, 2 / 3],
    [C, 5 / 6],
    [L, 1],
    [R, 1],
  ],
};
const COLUMN_X = [20, 32, 44];
const TOP_Y = 37;
const BOTTOM_Y = 74;

// The courts' marks, drawn above the letter in a 40 × 14 box at (12, 33).
const COURT_MARKS = {
  K: [["path", { class: "mark", d: "M18 47 15 36 22 41 27 33 32 41 37 33 42 41 49 36 46 47Z" }]],
  Q: [
    ["path", { class: "mark", d: "M19 47c2-6 6-9 13-9s11 3 13 9Z" }],
    ["circle", { class: "mark", cx: "32", cy: "35", r: "2.6" }],
    ["circle", { class: "mark", cx: "22", cy: "39", r: "2" }],
    ["circle", { class: "mark", cx: "42", cy: "39", r: "2" }],
  ],
  J: [
    ["path", { class: "mark", d: "M22 47c1-8 8-13 22-15-5 3-8 7-9 11 3-2 6-2 9-2-5 2-9 4-11 6Z" }],
  ],
};

const drawnFaces = new Map(); // "TD|10" -> a face drawn once, copied for every card of it

function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

/** One suit shape of `size` centred on (x, y), upside down when `flip`. */
function pip(suit, x, y, size, flip = false) {
  const half = size / 2;
  const place = `translate(${x - half} ${y - half}) scale(${size / 100})`;
  const transform = flip ? `rotate(180 ${x} ${y}) ${place}` : place;
  return svgEl("path", { class: "pip", d: SUIT_PATHS[suit], transform, "data-suit": suit });
}

/**
 * The face of a card: `code` as "TD" (rank letter and suit letter), `rank` the corner's text
 * in the page's language. An SVG element 60 × 84, hidden from screen readers (the card has
 * its name). Each face is drawn once and copied after (a board is redrawn often).
 */
export function cardFace(code, rank) {
  const key = `${code}|${rank}`;
  if (!drawnFaces.has(key)) drawnFaces.set(key, drawFace(code, rank));
  return drawnFaces.get(key).cloneNode(true);
}

function drawFace(code, rank) {
  const [r, s] = [code[0], code[1].toLowerCase()];
  const svg = svgEl("svg", {
    class: "face",
    viewBox: "0 0 60 84",
    "aria-hidden": "true",
    focusable: "false",
  });
  const index = svgEl("text", { class: "rank", x: "4", y: "18" }, rank);
  if (rank.length > 1) index.setAttribute("textLength", "21");
  svg.append(index, pip(s, 46, 11.5, 15));
  if ("JQK".includes(r)) svg.append(...court(r, s, rank));
  else if (r === "A") svg.append(pip(s, 32, 56, 30));
  else {
    const n = r === "T" ? 10 : Number(r);
    const size = n >= 9 ? 10.5 : 12;
    for (const [col, row] of PIPS[n]) {
      const y = TOP_Y + row * (BOTTOM_Y - TOP_Y);
      svg.append(pip(s, COLUMN_X[col], y, size, row > 0.5));
    }
  }
  return svg;
}

function court(r, s, rank) {
  const panel = svgEl("rect", {
    class: `court court-${r.toLowerCase()}`,
    x: "12",
    y: "31",
    width: "40",
    height: "49",
    rx: "4",
  });
  const marks = COURT_MARKS[r].map(([tag, attrs]) => svgEl(tag, attrs));
  const letter = svgEl("text", { class: "court-letter", x: "32", y: "72" }, rank);
  return [panel, ...marks, letter, pip(s, 18, 75, 7), pip(s, 46, 75, 7)];
}
