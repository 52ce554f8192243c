// The rules of docs/rules.md written out plainly for small positions, so that tests can check the
// client's reading of a legal list against them. The client itself never judges a move: the
// server sends `legal`; these only stand in for the server in tests.

const RANK = Object.fromEntries([..."A23456789TJQK"].map((r, i) => [r, i + 1]));
const rank = (card) => RANK[card[0]];
const top = (pile) => pile[pile.length - 1];

/** Stalactites: whether foundation `pile` takes `card` with step 1 or 2. */
function stalactitesTakes(pile, card, step) {
  if (pile.length >= 13) return false;
  const wanted = ((rank(pile[0]) - 1 + step * pile.length) % 13) + 1;
  return rank(card) === wanted;
}

/** Stalactites' legal moves: column top to a foundation or an empty cell, cell to a foundation.
 * With the step not fixed (null), moves legal under either step count. */
export function stalactitesLegal(state) {
  const steps = state.step === "ones" ? [1] : state.step === "twos" ? [2] : [1, 2];
  const moves = [];
  const toFoundations = (src, card) =>
    state.foundations.forEach((pile, i) => {
      if (steps.some((step) => stalactitesTakes(pile, card, step))) moves.push(`${src}-f${i + 1}`);
    });
  state.tableau.forEach((column, i) => {
    if (!column.length) return;
    toFoundations(`t${i + 1}`, top(column));
    state.cells.forEach((cell, j) => {
      if (!cell) moves.push(`t${i + 1}-c${j + 1}`);
    });
  });
  state.cells.forEach((cell, j) => cell && toFoundations(`c${j + 1}`, cell));
  return moves;
}

const suit = (card) => card[1];

function onColumn(column, card) {
  if (!column.length) return true;
  const under = top(column);
  return suit(under) === suit(card) && rank(under) === rank(card) + 1;
}

function onFoundation(pile, card) {
  if (!pile.length) return rank(card) === 1;
  return pile.length < 13 && suit(top(pile)) === suit(card) && rank(card) === rank(top(pile)) + 1;
}

/** The same-suit descending run on top of a column, longest first: its lengths 1..n. */
function runLength(column) {
  let n = column.length ? 1 : 0;
  while (n < column.length) {
    const [upper, lower] = [column[column.length - n], column[column.length - n - 1]];
    if (suit(upper) !== suit(lower) || rank(lower) !== rank(upper) + 1) break;
    n += 1;
  }
  return n;
}

/** Squadron's legal moves (docs/rules.md), the stock deal and supermoves included. */
export function squadronLegal(state) {
  const moves = [];
  const free = state.cells.filter((c) => !c).length;
  const sources = [];
  state.tableau.forEach((col, i) => col.length && sources.push([`t${i + 1}`, top(col)]));
  state.cells.forEach((card, j) => card && sources.push([`c${j + 1}`, card]));
  if (state.waste.length) sources.push(["w", top(state.waste)]);
  for (const [src, card] of sources) {
    state.foundations.forEach(
      (pile, i) => onFoundation(pile, card) && moves.push(`${src}-f${i + 1}`),
    );
    state.tableau.forEach((col, i) => {
      if (`t${i + 1}` !== src && onColumn(col, card)) moves.push(`${src}-t${i + 1}`);
    });
    if (src[0] !== "c") state.cells.forEach((c, j) => !c && moves.push(`${src}-c${j + 1}`));
  }
  state.tableau.forEach((col, i) => {
    for (let n = 2; n <= runLength(col); n += 1) {
      const card = col[col.length - n];
      state.tableau.forEach((dst, k) => {
        if (k === i || !onColumn(dst, card)) return;
        const empty = state.tableau.filter((c, m) => !c.length && m !== k).length;
        if (n <= (free + 1) * 2 ** empty) moves.push(`t${i + 1}-t${k + 1}:${n}`);
      });
    }
  });
  if (state.stock_count > 0) moves.push("s-w");
  return moves;
}

/** The board after a legal move, as the rules say (the top `n` cards, in order). */
export function played(state, text) {
  const next = structuredClone(state);
  const [, src, dst, n] = /^(\w+)-(\w+)(?::(\d+))?$/.exec(text);
  const count = Number(n ?? 1);
  const pile = (name) =>
    ({ t: next.tableau, f: next.foundations })[name[0]]?.[Number(name.slice(1)) - 1] ??
    (name === "w" ? next.waste : null);
  let cards;
  if (src[0] === "c") {
    cards = [next.cells[Number(src.slice(1)) - 1]];
    next.cells[Number(src.slice(1)) - 1] = null;
  } else cards = pile(src).splice(-count, count);
  if (dst[0] === "c") next.cells[Number(dst.slice(1)) - 1] = cards[0];
  else pile(dst).push(...cards);
  return next;
}
