// @ts-check
// The race timeline, drawn: every racer's foundation cards against the one race clock as an
// SVG (timeline.js does the arithmetic), the moment each racer lost the win marked on their
// line, "who lost the win first" said under it, and the same figures as a table, the
// chart's text alternative.

import { h, tableScroll } from "../shared/dom.js";
import { clockText, num, t } from "../shared/i18n.js";
import { cardsAt, timelineChart } from "./timeline.js";

const LEFT = 34; // room for the cards' ticks
const BOTTOM = 22; // room for the time's ticks
const TOP = 8;
export const COLOURS = ["#ffc83d", "#7fd3ff", "#ff8fc8", "#b6f36b", "#ffa45c", "#c9a7ff"];

/** Race time as m:ss, whole seconds down (0:00 until a second has passed). */
export const raceTime = (ms) => clockText(Math.floor(Math.max(0, ms) / 1000) * 1000);

/**
 * The timeline figure. `racers` are the analysis's timeline racers, `names` a Map from player
 * id to name, `total` the cards a finished board holds, `endMs` where the clock ends, `width`
 * the figure's width in pixels (the chart is drawn at its own size, so its words stay
 * readable on a phone).
 */
export function timelineView({ timeline, names, total, endMs, width }) {
  const racers = timeline?.racers ?? [];
  if (!racers.length) return null;
  const box = { width: Math.max(240, width) - LEFT - 8, height: width < 560 ? 150 : 210 };
  const chart = timelineChart(racers, { ...box, endMs, total });
  const name = (id) => names.get(id) ?? id;
  const first = timeline.first_to_lose_win;
  const firstRacer = racers.find((r) => r.player_id === first);
  const caption = firstRacer
    ? t("analysis.firstLost", { name: name(first), time: raceTime(firstRacer.lost_win_at_ms) })
    : t("analysis.noneLost");
  return h(
    "figure",
    { class: "timeline" },
    h("h3", {}, t("analysis.timeline")),
    chartSvg(chart, box, racers, name, caption),
    h(
      "ul",
      { class: "timeline-legend" },
      racers.map((r, i) =>
        h(
          "li",
          { style: { "--racer": COLOURS[i % COLOURS.length] } },
          h("span", { class: "swatch", "aria-hidden": "true" }),
          name(r.player_id),
        ),
      ),
      h(
        "li",
        { class: "lost-key" },
        h("span", { class: "cross", "aria-hidden": "true" }, "✕"),
        t("analysis.lostMark"),
      ),
    ),
    h("figcaption", { class: "timeline-caption", id: "timeline-caption" }, caption),
    tableView(racers, name, endMs),
  );
}

function chartSvg(chart, box, racers, name, caption) {
  const width = box.width + LEFT + 8;
  const height = box.height + BOTTOM + TOP;
  const grid = chart.yTicks.map((tick) => [
    svg("line", { class: "chart-grid", x1: LEFT, x2: width, y1: tick.y, y2: tick.y }),
    svg(
      "text",
      { class: "chart-tick", x: LEFT - 5, y: tick.y + 4, "text-anchor": "end" },
      num(tick.value),
    ),
  ]);
  const times = chart.xTicks.map((tick) =>
    svg(
      "text",
      {
        class: "chart-tick",
        x: tick.x + LEFT,
        y: box.height + BOTTOM - 4,
        "text-anchor": tick.x + LEFT > width - 20 ? "end" : tick.x === 0 ? "start" : "middle",
      },
      raceTime(tick.ms),
    ),
  );
  const lines = chart.lines.map((line, i) =>
    racerLine(line, racers[i], COLOURS[i % COLOURS.length], name),
  );
  const plot = svg(
    "g",
    { transform: `translate(0 ${TOP})` },
    ...grid.flat(),
    ...times,
    ...lines.flat(),
  );
  return svg(
    "svg",
    {
      class: "chart timeline-chart",
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: "img",
      "aria-label": `${t("analysis.timelineAlt")} ${caption}`,
    },
    plot,
  );
}

/** One racer's step line, and the mark where they lost the win. */
function racerLine(line, racer, colour, name) {
  const points = line.points.map(([x, y]) => `${x + LEFT},${y}`).join(" ");
  const parts = [svg("polyline", { class: "timeline-line", points, stroke: colour })];
  if (line.lost) {
    const [x, y] = line.lost;
    const said = t("analysis.lostAt", {
      name: name(racer.player_id),
      time: raceTime(racer.lost_win_at_ms),
    });
    parts.push(
      svg(
        "g",
        { class: "timeline-lost", "data-player": line.player_id },
        svg("title", {}, said),
        svg("circle", { cx: x + LEFT, cy: y, r: 7, fill: "#0a3528", stroke: colour }),
        svg("path", { d: cross(x + LEFT, y, 3.5), stroke: colour }),
      ),
    );
  }
  return parts;
}

const cross = (x, y, r) =>
  `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`;

/** The chart's figures as a table: cards at the end, the last card's time, the lost win. */
function tableView(racers, name, endMs) {
  const rows = racers.map((r) => {
    const last = r.foundation.at(-1) ?? [0, 0];
    const lost = r.lost_win_at_ms;
    return h(
      "tr",
      { dataset: { player: r.player_id } },
      h("th", { scope: "row" }, name(r.player_id)),
      h("td", { class: "num" }, num(cardsAt(r, endMs ?? last[0]))),
      h("td", { class: "num" }, raceTime(last[0])),
      h(
        "td",
        { class: "num" },
        lost === null || lost === undefined ? t("analysis.never") : raceTime(lost),
      ),
    );
  });
  return h(
    "details",
    { class: "timeline-table" },
    h("summary", {}, t("analysis.table")),
    tableScroll(
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["racer", "cards", "last", "lost"].map((c) =>
              h("th", { scope: "col" }, t(`analysis.col.${c}`)),
            ),
          ),
        ),
        h("tbody", {}, rows),
      ),
      t("analysis.table"),
    ),
  );
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}
