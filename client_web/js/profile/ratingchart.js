// @ts-check
// The rating chart on a profile: a game's rating over its rated races as an SVG line (the
// arithmetic in chart.js), labelled with a summary, and its text alternative, the races one
// by one in a table a screen reader reads.

import { scaleSeries } from "../shared/chart.js";
import { h } from "../shared/dom.js";
import { dateTime, num, t } from "../shared/i18n.js";
import { gameName, ratingChange } from "../shared/widgets.js";

const BOX = { width: 260, height: 110, pad: 14 };

/** The rating history as a line in an SVG (numbers through Intl on its ticks). */
export function chartView(values, game) {
  if (values.length < 2) return h("p", { class: "muted chart-empty" }, t("profile.noChart"));
  const { points, ticks } = scaleSeries(values, { ...BOX, pad: BOX.pad });
  const svg = (tag, attrs, ...children) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    el.append(...children);
    return el;
  };
  const label = t("profile.chartLabel", {
    game: gameName(game),
    first: values[0],
    last: values[values.length - 1],
    n: values.length - 1,
  });
  return svg(
    "svg",
    {
      class: "chart",
      viewBox: `0 0 ${BOX.width + 36} ${BOX.height}`,
      role: "img",
      "aria-label": label,
    },
    ...ticks.map((tick) =>
      svg("line", { class: "chart-grid", x1: 36, x2: BOX.width + 36, y1: tick.y, y2: tick.y }),
    ),
    ...ticks.map((tick) =>
      svg(
        "text",
        { class: "chart-tick", x: 32, y: tick.y + 4, "text-anchor": "end" },
        num(tick.value),
      ),
    ),
    svg("polyline", {
      class: "chart-line",
      points: points.map(([x, y]) => `${x + 36},${y}`).join(" "),
    }),
    ...points.map(([x, y]) => svg("circle", { class: "chart-dot", cx: x + 36, cy: y, r: 2.5 })),
  );
}

/** The chart's text alternative: the rated races as a table, race by race, in a disclosure
 * (read whole by a screen reader once opened; the chart's own label sums it up). */
export function chartTable(rows) {
  if (!rows.length) return null;
  return h(
    "details",
    { class: "chart-table" },
    h("summary", {}, t("profile.chartTable")),
    h(
      "table",
      { class: "results" },
      h("thead", {}, h("tr", {}, h("th", {}, t("profile.when")), h("th", {}, t("results.rating")))),
      h(
        "tbody",
        {},
        [...rows]
          .reverse()
          .map((row) =>
            h(
              "tr",
              { key: row.room },
              h("td", {}, dateTime(row.at)),
              h("td", {}, ratingChange(row.before, row.after) ?? num(row.after)),
            ),
          ),
      ),
    ),
  );
}
