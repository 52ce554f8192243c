// @ts-check
// Fair play's arithmetic for the pages (pure, unit-tested in tests/js/fairplay.test.mjs): a
// case's reasons as catalogue keys, the move-time strip (each action's time, on a log scale)
// and the accuracy at each position (from the analysis' verdicts) as boxes to draw, and the
// runs of a case worth drawing first. Nothing here judges: the server's signals and verdicts
// are shown as they come.

/** Known reason codes of a case (docs/fair-play.md); anything else is shown as its code. */
const REASONS = new Set(["held", "even_timing", "perfect_at_hard_positions", "reported", "appeal"]);
/** Known hold reasons of a run. */
const HOLDS = new Set(["inhuman_speed", "perfect_and_fast"]);

/** A case's reason ("held:ROOM", a pattern's code, "reported", "appeal") as
 * {key, room, code}: `key` a known code or "other". */
export function reasonOf(code) {
  const text = String(code ?? "");
  const [head, ...rest] = text.split(":");
  const room = rest.length ? rest.join(":") : null;
  return { key: REASONS.has(head) ? head : "other", room, code: text };
}

/** A run's hold reason as a known key, or "other". */
export const holdKey = (code) => (HOLDS.has(code) ? code : "other");

// The move-time strip's scale: 10 ms to a power of ten at least a second, logarithmic, so a
// bot's 50 ms and a person's 20 s think both show.
const FLOOR_MS = 10;

/**
 * The move-time strip: `times` (ms each action took, the analysis' `times_ms`) as bars in a
 * width x height box, on a log scale from 10 ms up. Returns {bars: [{x, w, y, h, ms}],
 * ticks: [{ms, y}], y(ms), high}.
 */
export function gapBars(times, { width, height }) {
  const list = (times ?? []).map((ms) => Math.max(0, Number(ms) || 0));
  const top = Math.max(1000, ...list);
  const high = 10 ** Math.ceil(Math.log10(top));
  const span = Math.log10(high) - Math.log10(FLOOR_MS);
  const y = (ms) =>
    round(height - ((Math.log10(Math.max(FLOOR_MS, ms)) - Math.log10(FLOOR_MS)) / span) * height);
  const step = list.length ? width / list.length : width;
  const w = round(Math.max(0.5, step * (list.length > 60 ? 1 : 0.8)));
  const bars = list.map((ms, i) => {
    const top = y(ms);
    return { x: round(i * step + (step - w) / 2), w, y: top, h: round(height - top), ms };
  });
  const ticks = [];
  for (let ms = FLOOR_MS * 10; ms <= high; ms *= 10) ticks.push({ ms, y: y(ms) });
  return { bars, ticks, y, high };
}

/**
 * What each action did to the position, from the analysis' `verdicts` (the deal's, then
 * after each action): "kept" (won to won), "lost" (won to lost: the win thrown away),
 * "already" (played from a lost board) or "unknown" (not decided).
 */
export function positionKinds(verdicts) {
  const list = verdicts ?? [];
  const kinds = [];
  for (let i = 1; i < list.length; i++) {
    const [before, after] = [list[i - 1], list[i]];
    if (before === "lost") kinds.push("already");
    else if (before === "won" && after === "won") kinds.push("kept");
    else if (before === "won" && after === "lost") kinds.push("lost");
    else kinds.push("unknown");
  }
  return kinds;
}

/** The accuracy strip: one box per action, as wide as the move-time strip's slots. */
export function positionCells(verdicts, { width }) {
  const kinds = positionKinds(verdicts);
  const step = kinds.length ? width / kinds.length : width;
  return kinds.map((kind, i) => ({ x: round(i * step), w: round(Math.max(0.5, step)), kind }));
}

/** How many actions of each kind: {kept, lost, already, unknown}. */
export function kindCounts(kinds) {
  const counts = { kept: 0, lost: 0, already: 0, unknown: 0 };
  for (const kind of kinds) counts[kind] += 1;
  return counts;
}

/** The median of a list of numbers (null for none). */
export function median(values) {
  const list = (values ?? []).filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!list.length) return null;
  const middle = Math.floor(list.length / 2);
  return list.length % 2 ? list[middle] : (list[middle - 1] + list[middle]) / 2;
}

/**
 * A case's runs in the order a moderator reads them: those its reasons or reports name (held
 * runs, reported rooms) first, as `evidence`; the rest as `others`, newest first as given.
 */
export function splitRuns(kase) {
  const named = new Set();
  for (const code of kase?.reasons ?? []) {
    const { room } = reasonOf(code);
    if (room) named.add(room);
  }
  for (const report of kase?.reports ?? []) if (report.room_id) named.add(report.room_id);
  const runs = kase?.runs ?? [];
  const evidence = runs.filter((run) => named.has(run.room_id) || (run.held ?? []).length);
  const others = runs.filter((run) => !evidence.includes(run));
  return { evidence, others };
}

const round = (n) => Math.round(n * 10) / 10;
