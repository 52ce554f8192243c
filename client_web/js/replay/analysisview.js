// @ts-check
// The analysis part of a finished race's page (GET /api/rooms/{id}/analysis, made by the
// server's solver once the race is over): the race timeline (timelineview.js), then each
// racer's accuracy, moves (against the fewest a win needs, where that means something),
// slowest moves and turning point, with the board before it, the move played, a move that
// would have kept it winnable, and the winning line from there to step through on a board.
// Moves are told in words with their cards (movewords.js). The client judges nothing: every
// verdict and number here is the server's.

import { renderBoard } from "../board/board.js";
import { h } from "../shared/dom.js";
import { num, t } from "../shared/i18n.js";
import { parseMove } from "../board/moves.js";
import { describeMove, stepWords } from "./movewords.js";
import { patch } from "../shared/render.js";
import { boardsAlong } from "./timeline.js";
import { raceTime, timelineView } from "./timelineview.js";

export class AnalysisView {
  /**
   * `names`: player id to name; `runs`: player id to their run (timeline.js's steps, for the
   * actions' texts and times); `onJump(ms)`: show the replay at this race time.
   * @param {{ names: Map<string, string>, runs: Map<string, any[]>, total: number,
   *   endMs: number, onJump: (ms: number) => void, onRetry: () => void }} options
   */
  constructor({ names, runs, total, endMs, onJump, onRetry }) {
    this.names = names;
    this.runs = runs;
    this.total = total;
    this.endMs = endMs;
    this.onJump = onJump;
    this.onRetry = onRetry;
    this.el = h("section", { class: "panel analysis", "aria-labelledby": "analysis-title" });
    this.lineAt = new Map(); // player id -> how far along the winning line the board is
    this.state = { loading: true };
    this.draw();
  }

  /** The width the chart has to fill, in pixels. */
  width() {
    const style = getComputedStyle(this.el);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return Math.floor((this.el.clientWidth || 680) - (padding || 0));
  }

  /** Draw again for a new width (the chart is drawn at its size). */
  resized() {
    if (this.state.data && Math.abs(this.width() - (this.drawnWidth ?? 0)) > 8) this.draw();
  }

  /** {loading: true} | {error: text} | {data: analysis} */
  show(state) {
    this.state = state;
    this.draw();
  }

  draw() {
    const { loading, error, data } = this.state;
    const title = h("h2", { id: "analysis-title" }, t("analysis.title"));
    if (loading) {
      patch(
        this.el,
        title,
        h(
          "p",
          { class: "analysis-loading", role: "status" },
          h("span", { class: "spinner", "aria-hidden": "true" }),
          t("analysis.loading"),
        ),
      );
    } else if (error) {
      const retry = h(
        "button",
        { class: "btn", onclick: () => this.onRetry() },
        t("analysis.retry"),
      );
      patch(
        this.el,
        title,
        h("p", { class: "analysis-error", role: "alert" }, t("analysis.failed", { reason: error })),
        retry,
      );
    } else {
      patch(
        this.el,
        title,
        timelineView({
          timeline: data.timeline,
          names: this.names,
          total: this.total,
          endMs: this.endMs,
          width: this.width(),
        }),
        h(
          "div",
          { class: "analysis-racers" },
          data.players.map((p) => this.racerView(p)),
        ),
      );
    }
    this.el.dataset.state = loading ? "loading" : error ? "failed" : "ready";
    this.drawnWidth = this.width();
  }

  racerView(p) {
    const name = this.names.get(p.player_id) ?? p.name;
    return h(
      "article",
      { class: "analysis-racer", dataset: { player: p.player_id }, key: p.player_id },
      h("h3", {}, name),
      h(
        "dl",
        { class: "analysis-stats" },
        stat("accuracy", accuracyText(p.accuracy)),
        stat("moves", movesText(p, this.cardsAtEnd(p.player_id), this.total)),
        p.time_after_turning_point_ms != null
          ? stat("timeAfter", raceTime(p.time_after_turning_point_ms))
          : null,
      ),
      slowestView(p, this.runs.get(p.player_id) ?? []),
      this.turningView(p),
    );
  }

  /** A racer's foundation cards at the end, by the timeline (null when it has no line). */
  cardsAtEnd(playerId) {
    const racer = this.state.data?.timeline?.racers?.find((r) => r.player_id === playerId);
    return racer?.foundation?.at(-1)?.[1] ?? null;
  }

  turningView(p) {
    const tp = p.turning_point;
    if (!tp) {
      const key = verdictKey(p.verdicts ?? [], this.cardsAtEnd(p.player_id), this.total);
      const name = this.names.get(p.player_id) ?? p.name;
      return h(
        "p",
        { class: "analysis-verdict", dataset: { verdict: key } },
        t(`analysis.${key}`, { name }),
      );
    }
    const line = tp.continuation ?? [];
    const boards = boardsAlong(tp.position, line);
    const k = Math.min(this.lineAt.get(p.player_id) ?? 0, line.length);
    const go = (to) => {
      this.lineAt.set(p.player_id, Math.max(0, Math.min(line.length, to)));
      this.draw();
    };
    const kept = line[0] ? parseMove(line[0]) : null;
    const next = line[k] ? parseMove(line[k]) : null;
    const view = marks(k === 0 ? kept : next);
    const board = boards[k] ?? boards.findLast(Boolean);
    const when = tp.at_ms == null ? "" : raceTime(tp.at_ms);
    return h(
      "section",
      { class: "turning-point" },
      h("h4", {}, t("analysis.turningPoint")),
      h(
        "p",
        {},
        t(when ? "analysis.turningText" : "analysis.turningUntimed", {
          n: tp.action_index,
          time: when,
        }),
      ),
      h(
        "dl",
        { class: "analysis-moves" },
        h("dt", {}, t("analysis.played")),
        h("dd", { class: "played-move" }, describeMove(tp.action, tp.position)),
        kept ? h("dt", {}, t("analysis.kept")) : null,
        kept ? h("dd", { class: "kept-move" }, describeMove(line[0], tp.position)) : null,
      ),
      board
        ? h("div", { class: "turning-board" }, renderBoard(board, { compact: true, ...view }))
        : null,
      line.length ? this.stepper(k, line, boards, go) : null,
      tp.at_ms != null
        ? h(
            "button",
            {
              class: "btn btn-quiet jump-turning",
              onclick: () => this.onJump(Math.max(0, tp.at_ms - 1)),
            },
            t("analysis.showInReplay"),
          )
        : null,
    );
  }

  stepper(k, line, boards, go) {
    const button = (label, text, to, off) =>
      h(
        "button",
        { class: "btn", "aria-label": label, onclick: () => go(to), disabled: off },
        text,
      );
    return h(
      "div",
      { class: "line-stepper" },
      button(t("analysis.lineStart"), "«", 0, k === 0),
      button(t("analysis.lineBack"), "◀", k - 1, k === 0),
      h("output", { class: "line-counter" }, t("analysis.line", { k, n: line.length })),
      button(t("analysis.lineForward"), "▶", k + 1, k >= line.length),
      k < line.length
        ? h(
            "span",
            { class: "line-next" },
            t("analysis.next", { move: describeMove(line[k], boards[k], boards[k + 1]) }),
          )
        : null,
    );
  }
}

/** The board's marks: the next move of the winning line, its card lifted and its place lit. */
function marks(move) {
  return {
    selected: move ? { pile: move.src, count: 1 } : null,
    targets: new Set(move ? [move.dst] : []),
  };
}

function stat(key, value) {
  return [h("dt", {}, t(`analysis.${key}`)), h("dd", { class: `stat-${key}` }, value)];
}

/** A share from 0 to 1 as a whole percentage ("—" when no move was played from a winnable board). */
export function accuracyText(accuracy) {
  if (accuracy === null || accuracy === undefined) return t("analysis.accuracyNone");
  return num(accuracy, { style: "percent", maximumFractionDigits: 0 });
}

// A run "came close" with at least this share of the cards on the foundations.
const CLOSE = 0.75;

/**
 * The player's moves, against the fewest any win needs only where that tells them something:
 * the figure is exact (never Squadron's upper bound) and they won or came close (not after a
 * resignation at move 5). `cards`: their foundation cards at the end; `total`: a win's.
 */
export function movesText(p, cards, total) {
  const fewest = p.fewest_moves ?? {};
  const known = fewest.exact && fewest.value !== null && fewest.value !== undefined;
  const close = cards !== null && cards !== undefined && total > 0 && cards >= total * CLOSE;
  if (!known || !close) return num(p.moves);
  return t("analysis.movesAgainst", { n: p.moves, fewest: fewest.value });
}

/**
 * What a run with no turning point says: lost from the deal, undecided, won, or still
 * winnable when the player stopped (a resignation on a board that could still be won).
 */
export function verdictKey(verdicts, cards, total) {
  if (verdicts[0] === "lost") return "lostFromStart";
  if (verdicts.includes("unknown")) return "undecided";
  if (verdicts.at(-1) === "won" && cards !== null && cards !== undefined && cards < total)
    return "stillWinnable";
  return "noTurning";
}

function slowestView(p, steps) {
  const times = p.times_ms ?? [];
  if (!times.length || !p.slowest?.length) return null;
  const items = p.slowest.map((index) => {
    const ms = times[index - 1] ?? 0;
    const seconds = num(ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const step = steps[index];
    const action = step ? stepWords(steps, index) : "?";
    const time = raceTime(step?.at_ms ?? 0);
    return h(
      "li",
      { dataset: { index: String(index) } },
      t("analysis.slowMove", { n: index, action, seconds, time }),
    );
  });
  return h(
    "div",
    { class: "analysis-slowest" },
    h("h4", {}, t("analysis.slowest")),
    h("ol", {}, items),
  );
}

/** An action as the lists show it: a move's notation, or undo and step declarations in words. */
export function actionText(action) {
  if (action === "undo") return t("replay.action.undo");
  if (action?.startsWith("step:")) return t(`race.building.${action.slice(5)}`);
  return action ?? "";
}
