// @ts-check
// Drawing one board state: Stalactites (8 columns, 2 cells, 4 foundations, each a pile with
// its base card showing under its top card) or Squadron (10 columns, 3 cells, 8 foundations,
// stock, waste). Every foundation says the card it takes next (foundations.js).
// Every pile carries data-pile="t3" and every card data-pile and data-index, which is all
// the move controls need to know.

import { cardInfo, cardLabel } from "./cards.js";
import { cardFace } from "./cardface.js";
import { h } from "../shared/dom.js";
import { nextCard } from "./foundations.js";
import { parseMove, pileCards } from "./moves.js";
import { t } from "../shared/i18n.js";

/**
 * Render a board. `view` may hold: selected {pile, count}, targets (Set of pile names),
 * movable(pile, count) -> bool, hover (the pile a dragged card is over), landed and refused
 * (a parsed move: its cards just arrived, or just sprang back from its destination), label
 * (a caption), compact (smaller cards). Piles are keyed by name and cards by their code, so
 * patch() keeps each card's element while it stays on its pile.
 */
export function renderBoard(state, view = {}) {
  const game = state.game === "squadron" ? "squadron" : "stalactites";
  const board = h("div", {
    class: `board board-${game}${view.compact ? " compact" : ""}`,
    dataset: { game },
  });
  if (game === "squadron") board.append(squadronTop(state, view), squadronFoundations(state, view));
  else board.append(stalactitesTop(state, view));
  board.append(tableau(state, view));
  return board;
}

function stalactitesTop(state, view) {
  const foundations = h("div", {
    class: "group foundations",
    role: "group",
    "aria-label": t("board.foundations"),
  });
  (state.foundations ?? []).forEach((pile, i) =>
    foundations.append(foundation(state, pile, i, view)),
  );
  return h("div", { class: "row top" }, foundations, cells(state, view));
}

function squadronTop(state, view) {
  const stock = pileBox("s", view, "pile-stock");
  const count = state.stock_count ?? 0;
  stock.setAttribute("aria-label", t("board.stock", { n: count }));
  stock.append(
    count > 0 ? h("div", { class: "card back", dataset: { pile: "s" } }) : emptyMark("∅"),
    h("span", { class: "badge" }, String(count)),
  );
  const waste = pileBox("w", view, "pile-waste");
  const shown = (state.waste ?? []).slice(-3);
  const first = (state.waste ?? []).length - shown.length;
  waste.setAttribute("aria-label", t("board.waste", { n: (state.waste ?? []).length }));
  if (!shown.length) waste.append(emptyMark(""));
  shown.forEach((code, k) => {
    const card = cardEl(code, "w", first + k, view, (state.waste ?? []).length);
    card.style.setProperty("--k", String(k));
    waste.append(card);
  });
  const left = h("div", { class: "group stockwaste" }, stock, waste);
  return h("div", { class: "row top" }, left, cells(state, view));
}

function squadronFoundations(state, view) {
  const row = h("div", {
    class: "group foundations",
    role: "group",
    "aria-label": t("board.foundations"),
  });
  (state.foundations ?? []).forEach((pile, i) => row.append(foundation(state, pile, i, view)));
  return h("div", { class: "row" }, row);
}

/**
 * A foundation as a pile: its first card at the bottom (peeking out above the rest), its
 * top card on top, the edges of the cards between, and under it the card it takes next.
 */
function foundation(state, pile, i, view) {
  const name = `f${i + 1}`;
  const box = pileBox(name, view, "pile-f");
  const next = nextCard(state, i);
  box.setAttribute("aria-label", describe(name, pile, state.game !== "squadron", next));
  box.style.setProperty("--depth", String(Math.min(Math.max(pile.length - 2, 0), 4)));
  if (!pile.length) box.append(emptyMark(next?.label ?? ""));
  if (pile.length > 1) {
    const base = cardEl(pile[0], name, 0, view, 1, false);
    base.classList.add("base");
    base.title = t("board.began", { card: cardInfo(pile[0])?.name ?? pile[0] });
    box.append(base);
  }
  if (pile.length) {
    const top = cardEl(pile[pile.length - 1], name, pile.length - 1, view);
    if (pile.length > 1) top.classList.add("over-base");
    box.append(top);
  }
  const full = pile.length >= 13;
  // What it takes next, under it (an empty one says so on its slot).
  const label = full
    ? "✓ 13"
    : next && pile.length
      ? [h("span", { class: "next-word" }, t("board.nextWord")), " ", h("span", {}, next.label)]
      : "";
  box.append(h("span", { class: `next${full ? " full" : ""}`, "aria-hidden": "true" }, label));
  return box;
}

function cells(state, view) {
  const group = h("div", { class: "group cells", role: "group", "aria-label": t("board.cells") });
  (state.cells ?? []).forEach((code, i) => {
    const name = `c${i + 1}`;
    const box = pileBox(name, view, "pile-c");
    box.setAttribute("aria-label", describe(name, code ? [code] : []));
    box.append(code ? cardEl(code, name, 0, view, 1) : emptyMark(t("board.cell")));
    group.append(box);
  });
  return group;
}

function tableau(state, view) {
  const columns = state.tableau ?? [];
  const row = h("div", {
    class: "tableau",
    style: { "--cols": String(columns.length) },
    role: "group",
    "aria-label": t("board.columns"),
  });
  columns.forEach((column, i) => {
    const name = `t${i + 1}`;
    const box = pileBox(name, view, "pile-t");
    box.style.setProperty("--n", String(Math.max(column.length, 1)));
    box.setAttribute("aria-label", describe(name, column));
    box.append(h("span", { class: "col-number", "aria-hidden": "true" }, String(i + 1)));
    if (!column.length) box.append(emptyMark(""));
    column.forEach((code, k) => {
      const card = cardEl(code, name, k, view, column.length);
      card.style.setProperty("--i", String(k));
      box.append(card);
    });
    row.append(box);
  });
  return row;
}

function pileBox(name, view, extra) {
  const classes = ["pile", extra];
  if (view.targets?.has(name)) classes.push("target");
  if (view.selected?.pile === name) classes.push("has-selected");
  if (view.hover === name) classes.push("hover");
  if (view.refused?.dst === name) classes.push("refused");
  if (view.hint?.has(name)) classes.push("hint");
  // A pile is a named group (its aria-label, set by its maker, lists its cards).
  return h("div", { class: classes.join(" "), role: "group", dataset: { pile: name }, key: name });
}

/** One card; `count` is the run from it to the top. `top` false: a card under the top one
 * that only shows (a foundation's base), never part of a run that moves, lands or springs. */
function cardEl(code, pile, index, view, length = index + 1, top = true) {
  const info = cardInfo(code);
  if (!info) return h("div", { class: "card unknown", dataset: { pile, index }, key: code }, "?");
  const count = length - index;
  const classes = ["card", `suit-${info.suit}`];
  if (view.movable?.(pile, count)) classes.push("movable");
  const sel = view.selected;
  if (sel && sel.pile === pile && count <= (sel.count ?? 1)) classes.push("selected");
  if (top && inRun(view.landed, "dst", pile, count)) classes.push("landed");
  if (top && inRun(view.refused, "src", pile, count)) classes.push("spring");
  const card = h("div", {
    class: classes.join(" "),
    dataset: { pile, index: String(index), card: code },
    role: "img", // a picture named by its card ("six of spades"); its face is aria-hidden
    "aria-label": info.name,
    key: code,
  });
  const face = cardFace(code, info.rank);
  face._sig = `${code}${info.rank}`; // patch() leaves a drawn face as it is
  card.append(face);
  return card;
}

/** Whether a card `count` from the top of `pile` is in the run `move` took to or from it. */
function inRun(move, end, pile, count) {
  return Boolean(move && move[end] === pile && count <= move.count);
}

function emptyMark(text) {
  // A word's length scales it down to fit the slot ("cell", "komórka", "ұяшық").
  return h("div", { class: "slot", style: { "--len": String(Math.max(4, text.length)) } }, text);
}

function describe(name, cards, base = false, next = null) {
  const what = pileName(name);
  const parts = [];
  if (!cards.length) parts.push(t("board.empty", { pile: what }));
  else {
    const top = cardInfo(cards[cards.length - 1])?.name ?? cards[cards.length - 1];
    parts.push(t("board.pile", { pile: what, n: cards.length, top }));
    if (base) parts.push(t("board.began", { card: cardInfo(cards[0])?.name ?? cards[0] }));
  }
  if (next) parts.push(t("board.next", { card: next.words }));
  return parts.join(", ");
}

/** A pile's name as players say it: "column 3", "cell 1", "the stock". */
export function pileName(name) {
  return t(`pile.${name[0]}`, { n: Number(name.slice(1)) || 0 });
}

/** A move in words, read on the board it leaves: "the 7♥ to cell 1" (notation if unknown). */
export function moveWords(text, state) {
  const move = parseMove(text ?? "");
  if (!move) return text ?? "";
  if (move.src === "s") return t("move.deal");
  const cards = state ? pileCards(state, move.src) : [];
  const card = cards[cards.length - move.count];
  if (!card) return t("move.unknown", { to: pileName(move.dst) });
  const key = move.count > 1 ? "move.run" : "move.card";
  return t(key, { card: cardLabel(card), n: move.count, to: pileName(move.dst) });
}
