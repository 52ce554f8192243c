// The replay viewer: a finished room's records, stepped forward and back, one board or all
// side by side. The record answer carries the deal's starting layout (`initial_state`, with
// Squadron's stock in order); each board is drawn by moving cards as its record says, so the
// client still judges nothing. The step and whose board are the page's state; one render,
// run at once on each key or click, draws the boards in place.

import { errorText, getRecord, getRoom } from "./api.js";
import { renderBoard } from "./board.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { patch, scheduled, setText } from "./render.js";
import { applyMove, dealFromStock, parseMove } from "./moves.js";
import { resultsTable, settingsText } from "./widgets.js";
import { runAction } from "./ghost.js";

export class ReplayPage {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.step = 0;
    this.focus = "all";
    this.lines = []; // {player_id, name, moves: [text], states: [state] | null}
    this.renderer = scheduled(() => this.draw());
    this.keys = (e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    replace(app, h("section", { class: "panel" }, h("p", {}, t("common.loading"))));
    this.load();
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    this.renderer.stop();
  }

  async load() {
    let data;
    let room = null;
    try {
      [data, room] = await Promise.all([
        getRecord(this.roomId),
        getRoom(this.roomId).catch(() => null),
      ]);
    } catch (error) {
      replace(
        this.app,
        h(
          "section",
          { class: "panel narrow" },
          h("h1", {}, t("replay.none")),
          h("p", {}, errorText(error)),
          h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
        ),
      );
      return;
    }
    this.room = room;
    this.lines = linesOf(data, room);
    this.longest = Math.max(0, ...this.lines.map((l) => l.moves.length));
    this.build();
    this.renderer.now();
  }

  build() {
    this.boards = h("div", { class: "replay-boards" });
    const title = this.room
      ? t("replay.title", { settings: settingsText(this.room) })
      : t("join.replay");
    const standings = this.room?.standings ?? this.room?.players;
    replace(
      this.app,
      h(
        "section",
        { class: "replay" },
        h("div", { class: "race-head" }, h("h1", { class: "race-title" }, title)),
        this.controlsBar(),
        h("p", { class: "muted" }, t("replay.keys")),
        this.lines.some((l) => l.states)
          ? null
          : h("p", { class: "delay-note" }, t("replay.noLayout")),
        this.boards,
        standings?.length
          ? h(
              "details",
              { class: "panel" },
              h("summary", {}, t("race.results")),
              resultsTable(standings, { game: this.room?.game, action: runAction(this.room) }),
            )
          : null,
      ),
    );
  }

  /** The buttons, the counter, the slider and the choice of board. */
  controlsBar() {
    this.counter = h("output", { class: "replay-counter" });
    this.slider = h("input", {
      type: "range",
      min: "0",
      max: String(this.longest),
      value: "0",
      "aria-label": t("replay.moveNumber"),
      oninput: (e) => this.go(Number(e.target.value)),
    });
    const who = h(
      "select",
      {
        "aria-label": t("replay.whose"),
        onchange: (e) => {
          this.focus = e.target.value;
          this.renderer.now();
        },
      },
      h("option", { value: "all" }, t("replay.all")),
      this.lines.map((l) => h("option", { value: l.player_id }, l.name)),
    );
    const button = (more, label, text, to) =>
      h("button", { class: `btn${more}`, onclick: () => this.go(to()), "aria-label": label }, text);
    return h(
      "div",
      { class: "replay-controls" },
      button("", t("replay.firstMove"), t("replay.start"), () => 0),
      button(" replay-back", t("replay.backOne"), "◀", () => this.step - 1),
      this.counter,
      button(" replay-forward", t("replay.forwardOne"), "▶", () => this.step + 1),
      button("", t("replay.lastMove"), t("replay.end"), () => this.longest),
      this.slider,
      who,
    );
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.longest, step));
    this.renderer.now();
  }

  key(event) {
    if (event.target?.tagName === "INPUT" || event.target?.tagName === "SELECT") return;
    const moves = {
      ArrowRight: this.step + 1,
      ArrowLeft: this.step - 1,
      Home: 0,
      End: this.longest,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.go(moves[event.key]);
  }

  draw() {
    setText(this.counter, t("replay.counter", { n: this.step, total: this.longest }));
    this.slider.value = String(this.step);
    const shown =
      this.focus === "all" ? this.lines : this.lines.filter((l) => l.player_id === this.focus);
    patch(
      this.boards,
      shown.map((line) => this.boardOf(line)),
    );
    this.boards.classList.toggle("single", shown.length === 1);
  }

  boardOf(line) {
    const k = Math.min(this.step, line.moves.length);
    const last = k > 0 ? line.moves[k - 1] : null;
    const known = line.states ? Math.min(k, line.states.length - 1) : -1;
    const state = known >= 0 ? line.states[known] : null;
    const head = h(
      "header",
      { class: "replay-head" },
      h("strong", {}, line.name),
      h("span", { class: "muted" }, " ", t("replay.moves", { n: k, total: line.moves.length })),
      last ? h("span", { class: "last-move" }, " ", t("replay.last", { move: last })) : null,
      state && known < k ? h("span", { class: "muted" }, " ", t("replay.drawnBefore")) : null,
    );
    const body = state
      ? renderBoard(state, {
          compact: this.focus === "all" && this.lines.length > 1,
          targets: last ? new Set([parseMove(last)?.dst]) : new Set(),
        })
      : h(
          "ol",
          { class: "move-list", start: "1" },
          line.moves.map((m, i) => h("li", { class: i < k ? "done" : "" }, m)),
        );
    const props = {
      class: "replay-board",
      dataset: { player: line.player_id },
      key: line.player_id,
    };
    return h("article", props, head, body);
  }
}

/** Each player's line (and the solver's) from a record answer, with the boards along it. */
function linesOf(data, room) {
  const names = new Map((room?.players ?? []).map((p) => [p.player_id, p.name]));
  const lines = (data?.players ?? []).map((entry, i) => ({
    player_id: entry.player_id ?? `p${i + 1}`,
    name: entry.name ?? names.get(entry.player_id) ?? t("replay.racer", { n: i + 1 }),
    moves: entry.record?.moves ?? entry.moves ?? [],
    states: null,
  }));
  for (const [step, moves] of Object.entries(data?.solution ?? {})) {
    const name = step === "play" ? t("replay.solver") : t(`replay.solver.${step}`);
    lines.push({ player_id: `solver-${step}`, name, moves, states: null });
  }
  const initial = data?.initial_state ?? null;
  for (const line of lines) line.states = initial ? statesAlong(initial, line.moves) : null;
  return lines;
}

/** The board after each move, from the starting layout; it stops where a card is unknown. */
function statesAlong(initial, moves) {
  const states = [initial];
  let state = initial;
  for (const text of moves) {
    const move = parseMove(text);
    const next = move?.src === "s" ? dealFromStock(state) : move && applyMove(state, move);
    if (!next) break;
    states.push(next);
    state = next;
  }
  return states;
}
