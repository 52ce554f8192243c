// @ts-check
// Move notation ("t3-f1", "t2-t7:3", "s-w") and the server's legal list, read as data.
// Nothing here decides legality: a move is possible only when the server listed it.

/** Parse a move's notation into {text, src, dst, count}. */
export function parseMove(text) {
  const match = /^([a-z]\d*)-([a-z]\d*)(?::(\d+))?$/.exec(text);
  if (!match) return null;
  return { text, src: match[1], dst: match[2], count: match[3] ? Number(match[3]) : 1 };
}

/** The legal list indexed for the board: which piles and runs can move, and where. */
export class LegalIndex {
  constructor(legal) {
    this.moves = (legal ?? []).map(parseMove).filter(Boolean);
  }

  get size() {
    return this.moves.length;
  }

  has(text) {
    return this.moves.some((m) => m.text === text);
  }

  /** Moves leaving pile `src`, with `count` cards when given. */
  from(src, count = undefined) {
    return this.moves.filter((m) => m.src === src && (count === undefined || m.count === count));
  }

  /** Whether a run of `count` cards on top of `src` has anywhere to go. */
  canMove(src, count = 1) {
    return this.from(src, count).length > 0;
  }

  /** Destination pile names for a run leaving `src`. */
  targets(src, count = 1) {
    return new Set(this.from(src, count).map((m) => m.dst));
  }

  /** The move from `src` to `dst`; with no count given, the longest run that fits. */
  find(src, dst, count = undefined) {
    const found = this.from(src, count).filter((m) => m.dst === dst);
    found.sort((a, b) => b.count - a.count);
    return found[0] ?? null;
  }

  /** The first move from `src` to a pile of `kind` ("f", "c", "t"), longest run first. */
  findKind(src, kind, count = undefined) {
    const found = this.from(src, count).filter((m) => m.dst[0] === kind);
    found.sort((a, b) => b.count - a.count || a.dst.localeCompare(b.dst, "en", { numeric: true }));
    return found[0] ?? null;
  }
}

/** A pile's cards in a board state, by pile name; cells give [] or [card]. */
export function pileCards(state, name) {
  const index = Number(name.slice(1)) - 1;
  switch (name[0]) {
    case "t":
      return state.tableau?.[index] ?? [];
    case "f":
      return state.foundations?.[index] ?? [];
    case "c":
      return state.cells?.[index] ? [state.cells[index]] : [];
    case "w":
      return state.waste ?? [];
    default:
      return [];
  }
}

/**
 * The board after moving the top `count` cards of one pile onto another: how an
 * accepted move will look, drawn before the server confirms it. Returns null when
 * the result cannot be drawn in advance (a stock deal shows a card not yet known).
 */
export function applyMove(state, move) {
  if (move.src === "s") return null;
  return shiftCards(state, move.src, move.dst, move.count);
}

/** Deal the known top card of the stock onto the waste; null when it is not known. */
export function dealFromStock(state) {
  if (!Array.isArray(state.stock) || !state.stock.length) return null;
  const next = structuredClone(state);
  next.waste = [...(next.waste ?? []), next.stock.pop()];
  next.stock_count = Math.max(0, (next.stock_count ?? 1) - 1);
  return next;
}

function shiftCards(state, from, to, count) {
  const next = structuredClone(state);
  const taken = takeCards(next, from, count);
  if (!taken || !putCards(next, to, taken)) return null;
  return next;
}

function takeCards(state, name, count) {
  const index = Number(name.slice(1)) - 1;
  if (name[0] === "c") {
    const card = state.cells?.[index];
    if (!card || count !== 1) return null;
    state.cells[index] = null;
    return [card];
  }
  const piles = { t: state.tableau?.[index], f: state.foundations?.[index], w: state.waste };
  const pile = piles[name[0]];
  if (!pile || pile.length < count) return null;
  return pile.splice(pile.length - count, count);
}

function putCards(state, name, cards) {
  const index = Number(name.slice(1)) - 1;
  const piles = { t: state.tableau?.[index], f: state.foundations?.[index], w: state.waste };
  if (name[0] === "c") {
    if (!state.cells || index >= state.cells.length || state.cells[index]) return false;
    state.cells[index] = cards[0];
    return cards.length === 1;
  }
  if (!piles[name[0]]) return false;
  piles[name[0]].push(...cards);
  return true;
}
