// @ts-check
// A finished race by the clock, with no DOM: each racer's run (every action of the record
// with its race-clock time and the board after it), the board at any race time, the race
// timeline's series scaled into a chart's box, and the replay's playhead. The boards are
// drawn by moving cards as the record says (moves.js), from the deal's starting layout, so
// the client still judges nothing: every action in a record was accepted by the server.

import { niceStep } from "../shared/chart.js";
import { applyMove, dealFromStock, parseMove } from "../board/moves.js";

export const SPEEDS = [1, 2, 4, 8];
const UNDO = "undo";
const STEP = "step:";
const RANKS = "A23456789TJQK";

/**
 * One racer's run from the deal's layout and the record's actions ({action, at_ms}): a step
 * per action (index 1 = the first; step 0 is the deal at 0 ms), each {index, action, at_ms,
 * state, cards, undone, undoes}. `state` is the board after the action (null once a card is
 * unknown), `cards` its foundation cards, `undone` whether a later undo took the action back,
 * `undoes` the index of the action an undo took back.
 */
export function runOf(initial, actions) {
  const steps = [{ index: 0, action: null, at_ms: 0, state: initial, cards: cardsOf(initial) }];
  const played = []; // indexes of the moves on the board, oldest first
  const before = []; // the board before each of them
  let declared = null;
  let state = initial;
  (actions ?? []).forEach((entry, i) => {
    const step = { index: i + 1, action: entry.action, at_ms: entry.at_ms ?? 0, undone: false };
    if (entry.action === UNDO) {
      const taken = played.pop();
      const back = before.pop();
      if (taken !== undefined) steps[taken].undone = true;
      step.undoes = taken ?? null;
      state = back && declared && !back.step ? { ...back, step: declared } : (back ?? state);
    } else if (entry.action?.startsWith(STEP)) {
      declared = entry.action.slice(STEP.length);
      state = state && { ...state, step: declared };
    } else {
      played.push(i + 1);
      before.push(state);
      state = state && afterMove(state, entry.action);
    }
    steps.push({ ...step, state, cards: cardsOf(state) });
  });
  return steps;
}

/** The board after one move, the step fixed by a first foundation play; null if unknown. */
function afterMove(state, text) {
  const move = parseMove(text ?? "");
  if (!move) return null;
  if (move.src === "s") return dealFromStock(state);
  const next = applyMove(state, move);
  if (next && move.dst[0] === "f" && state.game !== "squadron" && !state.step) {
    const pile = state.foundations[Number(move.dst.slice(1)) - 1];
    const moved = next.foundations[Number(move.dst.slice(1)) - 1].at(-1);
    const gap = (rankOf(moved) - rankOf(pile.at(-1)) + 13) % 13;
    next.step = gap === 2 ? "twos" : "ones";
  }
  return next;
}

const rankOf = (card) => RANKS.indexOf(card?.[0]);

/** The cards on a board's foundations (null for an unknown board). */
export function cardsOf(state) {
  if (!state) return null;
  return (state.foundations ?? []).reduce((sum, pile) => sum + pile.length, 0);
}

/** The step of a run as it stood at race time `ms`: the last action played by then. */
export function stepAt(steps, ms) {
  let low = 0;
  let high = steps.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (steps[middle].at_ms <= ms) low = middle;
    else high = middle - 1;
  }
  return steps[low];
}

/** The boards along a line of moves from one board (a winning continuation, say). */
export function boardsAlong(state, moves) {
  const boards = [state];
  for (const text of moves ?? []) {
    const next = boards.at(-1) && afterMove(boards.at(-1), text);
    boards.push(next);
  }
  return boards;
}

/**
 * A record's actions, or, for a record made before actions were timed, its moves a second
 * apart (`timed` says which).
 */
export function actionsOf(entry) {
  const actions = entry?.actions ?? [];
  if (actions.length || !(entry?.record?.moves ?? []).length) return { actions, timed: true };
  const moves = entry.record.moves.map((action, i) => ({ action, at_ms: (i + 1) * 1000 }));
  return { actions: moves, timed: false };
}

/**
 * The race timeline in a width x height box inside `pad`: x the race clock from 0 to
 * `endMs`, y the foundation cards from 0 to `total`. Each racer's `foundation` ([[at_ms,
 * cards]]) becomes a step line [[x, y]] held to the end, and `lost_win_at_ms` a point on it.
 * Returns {lines: [{player_id, points, lost}], xTicks: [{ms, x}], yTicks: [{value, y}], x, y}.
 */
export function timelineChart(racers, { width, height, pad = 0, endMs, total }) {
  const end = Math.max(1000, endMs ?? 0, ...racers.flatMap((r) => r.foundation.map((p) => p[0])));
  const x = (ms) => round(pad + (Math.min(ms, end) / end) * (width - 2 * pad));
  const y = (n) => round(height - pad - (n / total) * (height - 2 * pad));
  const lines = racers.map((racer) => {
    const points = [];
    let last = racer.foundation[0]?.[1] ?? 0;
    for (const [ms, n] of racer.foundation) {
      if (points.length) points.push([x(ms), y(last)]);
      points.push([x(ms), y(n)]);
      last = n;
    }
    points.push([x(end), y(last)]);
    const at = racer.lost_win_at_ms;
    const lost = at === null || at === undefined ? null : [x(at), y(cardsAt(racer, at))];
    return { player_id: racer.player_id, points, lost };
  });
  const xStep = niceStep(end / 1000, 5) * 1000;
  const xTicks = [];
  for (let ms = 0; ms <= end; ms += xStep) xTicks.push({ ms, x: x(ms) });
  const yStep = niceStep(total, 4);
  const yTicks = [];
  for (let n = 0; n <= total; n += yStep) yTicks.push({ value: n, y: y(n) });
  return { lines, xTicks, yTicks, x, y };
}

/** A racer's foundation cards at race time `ms`, by their timeline. */
export function cardsAt(racer, ms) {
  let cards = racer.foundation[0]?.[1] ?? 0;
  for (const [at, n] of racer.foundation) if (at <= ms) cards = n;
  return cards;
}

const round = (n) => Math.round(n * 10) / 10;

/**
 * The replay's race clock: `ms` from 0 to `duration`, run at `speed` times the wall clock
 * while playing. Every change takes the wall time (performance.now()) it happens at, so the
 * clock is exact however seldom it is read; it stops by itself at the end.
 */
export class Playhead {
  constructor(duration) {
    this.duration = Math.max(0, duration);
    this.ms = 0;
    this.speed = 1;
    this.playing = false;
    this.wall = 0;
  }

  /** Bring the clock up to wall time `wall`; returns ms. */
  tick(wall) {
    if (this.playing) {
      this.ms = Math.min(this.duration, this.ms + (wall - this.wall) * this.speed);
      if (this.ms >= this.duration) this.playing = false;
    }
    this.wall = wall;
    return this.ms;
  }

  /** Play from here (from the start when at the end). */
  play(wall) {
    this.tick(wall);
    if (this.ms >= this.duration) this.ms = 0;
    this.playing = this.duration > 0;
  }

  pause(wall) {
    this.tick(wall);
    this.playing = false;
  }

  /** Run at `speed` from now on (the time run so far at the old speed). */
  setSpeed(speed, wall) {
    this.tick(wall);
    if (SPEEDS.includes(speed)) this.speed = speed;
  }

  seek(ms, wall) {
    this.tick(wall);
    this.ms = Math.max(0, Math.min(this.duration, ms));
    if (this.ms >= this.duration) this.playing = false;
  }
}
