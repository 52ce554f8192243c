// Drawing one board state: Stalactites (8 columns, 2 cells, 4 foundations with the base
// card turned sideways) or Squadron (10 columns, 3 cells, 8 foundations, stock, waste).
// Every pile carries data-pile="t3" and every card data-pile and data-index, which is all
// the move controls need to know.

import { cardInfo } from "./cards.js";
import { h } from "./dom.js";

const PILE_NAMES = { t: "column", c: "cell", f: "foundation", s: "stock", w: "waste" };

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
  const foundations = h("div", { class: "group foundations", "aria-label": "foundations" });
  (state.foundations ?? []).forEach((pile, i) => foundations.append(baseFoundation(pile, i, view)));
  return h("div", { class: "row top" }, foundations, cells(state, view));
}

function squadronTop(state, view) {
  const stock = pileBox("s", view, "pile-stock");
  const count = state.stock_count ?? 0;
  stock.setAttribute("aria-label", `stock, ${count} cards`);
  stock.append(
    count > 0 ? h("div", { class: "card back", dataset: { pile: "s" } }) : emptyMark("∅"),
    h("span", { class: "badge" }, String(count)),
  );
  const waste = pileBox("w", view, "pile-waste");
  const shown = (state.waste ?? []).slice(-3);
  const first = (state.waste ?? []).length - shown.length;
  waste.setAttribute("aria-label", `waste, ${(state.waste ?? []).length} cards`);
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
  const row = h("div", { class: "group foundations", "aria-label": "foundations" });
  (state.foundations ?? []).forEach((pile, i) => {
    const name = `f${i + 1}`;
    const box = pileBox(name, view, "pile-f");
    box.setAttribute("aria-label", describe(name, pile));
    if (pile.length) box.append(cardEl(pile[pile.length - 1], name, pile.length - 1, view));
    else box.append(emptyMark("A"));
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
    base.title = `began with the ${cardInfo(pile[0])?.name ?? pile[0]}`;
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
  const group = h("div", { class: "group cells", "aria-label": "cells" });
  (state.cells ?? []).forEach((code, i) => {
    const name = `c${i + 1}`;
    const box = pileBox(name, view, "pile-c");
    box.setAttribute("aria-label", code ? describe(name, [code]) : `cell ${i + 1}, empty`);
    box.append(code ? cardEl(code, name, 0, view, 1) : emptyMark("cell"));
    group.append(box);
  });
  return group;
}

function tableau(state, view) {
  const columns = state.tableau ?? [];
  const row = h("div", {
    class: "tableau",
    style: { "--cols": String(columns.length) },
    "aria-label": "columns",
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
  return h("div", { class: "slot" }, text);
}

function describe(name, cards, base = false) {
  const what = `${PILE_NAMES[name[0]]} ${name.slice(1)}`;
  if (!cards.length) return `${what}, empty`;
  const top = cardInfo(cards[cards.length - 1])?.name ?? cards[cards.length - 1];
  const began = base ? `, began with the ${cardInfo(cards[0])?.name ?? cards[0]}` : "";
  return `${what}, ${cards.length} cards, top ${top}${began}`;
}

/** The number of cards a finished board holds. */
export function cardTotal(game) {
  return game === "squadron" ? 104 : 52;
}
