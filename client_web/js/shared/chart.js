// @ts-check
// The rating chart's arithmetic, with no DOM: a game's rating history from a player's races,
// and its points scaled into a box with round ticks. profile.js draws the SVG from this.

/** A game's ratings, oldest first: the first rated race's rating before, then each after. */
export function ratingSeries(races, game) {
  const rated = races
    .filter((r) => r.game === game && r.rated && r.rating_after != null)
    .sort((a, b) => a.finished_at - b.finished_at);
  if (!rated.length) return [];
  const first = rated[0];
  const points = first.rating_before != null ? [first.rating_before] : [];
  return points.concat(rated.map((r) => r.rating_after));
}

/** A game's rated races as rows to read, oldest first: {at, before, after, room}. The same
 * races as ratingSeries, for a table beside the chart (what a screen reader reads). */
export function ratingRows(races, game) {
  return races
    .filter((r) => r.game === game && r.rated && r.rating_after != null)
    .sort((a, b) => a.finished_at - b.finished_at)
    .map((r) => ({
      at: r.finished_at,
      before: r.rating_before,
      after: r.rating_after,
      room: r.room_id,
    }));
}

/** A step for ticks over `span`: 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceStep(span, count = 4) {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw) * power;
  return Math.max(1, step);
}

/**
 * The values as points in a width x height box inside `pad`: x evenly spaced (one value: in
 * the middle), y from the rounded range [low, high] (at least `minSpan` apart, high at the
 * top). Returns {points: [[x, y]], ticks: [{value, y}], low, high}.
 * @param {number[]} values
 * @param {{ width?: number, height?: number, pad?: number, minSpan?: number }} [box]
 */
export function scaleSeries(values, { width, height, pad = 0, minSpan = 20 } = {}) {
  if (!values.length) return { points: [], ticks: [], low: 0, high: 0 };
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < minSpan) {
    const middle = (high + low) / 2;
    [low, high] = [middle - minSpan / 2, middle + minSpan / 2];
  }
  const step = niceStep(high - low);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const inner = { w: width - 2 * pad, h: height - 2 * pad };
  const y = (v) => round(pad + ((high - v) / (high - low)) * inner.h);
  const x = (i) =>
    round(values.length === 1 ? width / 2 : pad + (i / (values.length - 1)) * inner.w);
  const ticks = [];
  for (let v = low; v <= high + 1e-9; v += step) ticks.push({ value: v, y: y(v) });
  return { points: values.map((v, i) => [x(i), y(v)]), ticks, low, high };
}

const round = (n) => Math.round(n * 10) / 10;
