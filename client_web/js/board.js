// Drawing one board state: Stalactites (8 columns, 2 cells, 4 foundations with the base
// card turned sideways) or Squadron (10 columns, 3 cells, 8 foundations, stock, waste).
// Every pile carries data-pile="t3" and every card data-pile and data-index, which is all
// the move controls need to know.

import { cardInfo, cardLabel } from "./cards.js";
import { h } from "./dom.js";
import { parseMove, pileCards } from "./moves.js";
import { t } from "./i18n.js";

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
    "aria-label": t("board.foundations"),
  });
  (state.foundations ?? []).forEach((pile, i) => foundations.append(baseFoundation(pile, i, view)));
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
  const row = h("div", { class: "group foundations", "aria-label": t("board.foundations") });
  (state.foundations ?? []).forEach((pile, i) => {
    const name = `f${i + 1}`;
    const box = pileBox(name, view, "pile-f");
    box.setAttribute("aria-label", describe(name, pile));
    if (pile.length) box.append(cardEl(pile[pile.length - 1], name, pile.length - 1, view));
    else box.append(emptyMark(t("card.rank.A")));
    if (pile.length) box.append(h("span", { class: "badge" }, `${pile.length}`));
    row.append(box);
  });
  return h("div", { class: "row" }, row);
}

function baseFoundation(pile, i, view) {
  const name = `f${i + 1}`;
  const box = pileBox(name, view, "pile-f pile-base");
  box.setAttribute("aria-label", describe(name, pile, true));
  if (pile.length) {
    const base = cardEl(pile[0], name, 0, view, 1, pile.length === 1);
    base.classList.add("sideways");
    base.title = t("board.began", { card: cardInfo(pile[0])?.name ?? pile[0] });
    box.append(base);
  }
  if (pile.length > 1) {
    box.append(cardEl(pile[pile.length - 1], name, pile.length - 1, view));
  }
  const full = pile.length >= 13;
  box.append(h("span", { class: `badge${full ? " full" : ""}` }, full ? "13 ✓" : `${pile.length}`));
  return box;
}

function cells(state, view) {
  const group = h("div", { class: "group cells", "aria-label": t("board.cells") });
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
  return h("div", { class: classes.join(" "), dataset: { pile: name }, key: name });
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
  if (sel && sel.pile === pile && count <= sel.count) classes.push("selected");
  if (top && inRun(view.landed, "dst", pile, count)) classes.push("landed");
  if (top && inRun(view.refused, "src", pile, count)) classes.push("spring");
  return h(
    "div",
    {
      class: classes.join(" "),
      dataset: { pile, index: String(index), card: code },
      "aria-label": info.name,
      key: code,
    },
    h(
      "span",
      { class: "corner" },
      h("span", { class: "rank" }, info.rank),
      h("span", { class: "suit" }, info.symbol),
    ),
    h("span", { class: "pip", "aria-hidden": "true" }, info.symbol),
  );
}

/** Whether a card `count` from the top of `pile` is in the run `move` took to or from it. */
function inRun(move, end, pile, count) {
  return Boolean(move && move[end] === pile && count <= move.count);
}

function emptyMark(text) {
  // A word's length scales it down to fit the slot ("cell", "komórka", "ұяшық").
  return h("div", { class: "slot", style: { "--len": String(Math.max(4, text.length)) } }, text);
}

function describe(name, cards, base = false) {
  const what = pileName(name);
  if (!cards.length) return t("board.empty", { pile: what });
  const top = cardInfo(cards[cards.length - 1])?.name ?? cards[cards.length - 1];
  const text = t("board.pile", { pile: what, n: cards.length, top });
  if (!base) return text;
  return `${text}, ${t("board.began", { card: cardInfo(cards[0])?.name ?? cards[0] })}`;
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

/** The number of cards a finished board holds. */
export function cardTotal(game) {
  return game === "squadron" ? 104 : 52;
}
