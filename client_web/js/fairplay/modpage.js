// @ts-check
// The moderators' page (#/mod, docs/fair-play.md): the open cases, oldest first
// (GET /api/mod/cases), each with its player, why it is open, its runs' signals as a table,
// the held and reported runs drawn (the move-time strip and the accuracy at each position,
// from the room's analysis: fairplay.js does the arithmetic), the reports, the appeal,
// earlier decisions and the decision itself (Mark / Clear with a reason); then the audit log.
// Anyone else is told the page is for moderators (403), or to sign in (401).

import { ApiError, errorText, quietly } from "../shared/api.js";
import { h, replace, tableScroll, toast } from "../shared/dom.js";
import { dateTime, num, t } from "../shared/i18n.js";
import {
  gapBars,
  holdKey,
  kindCounts,
  median,
  positionCells,
  positionKinds,
  reasonOf,
  splitRuns,
} from "./fairplay.js";
import { gameName } from "../shared/widgets.js";

const MOVE_INPUT_MS = 160; // two inputs at the best typist's pace (docs/fair-play.md)
const REASON_MAX = 500;
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  for (const child of children) if (child != null) el.append(child); // nodes, or text
  return el;
}

/** A time in ms under a second ("48 ms"), else in seconds ("1.25 s"); "—" for none. */
const seconds = (ms) => {
  if (ms == null) return "—";
  if (ms < 1000) return t("mod.ms", { n: Math.round(ms) });
  const digits = ms < 10_000 ? 2 : 1;
  return t("mod.seconds", {
    s: num(ms / 1000, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  });
};
const percent = (share) =>
  share == null ? "—" : num(share, { style: "percent", maximumFractionDigits: 1 });
const share = (value, kept, of) =>
  value == null ? "—" : t("mod.share", { pct: percent(value), kept: num(kept), n: num(of) });

export class ModPage {
  constructor(app) {
    this.app = app;
    this.gone = false;
    this.analyses = new Map(); // room id -> the analysis' promise
    this.root = h("div", { class: "mod-page" });
    replace(app, this.root);
    this.load();
  }

  destroy() {
    this.gone = true;
  }

  async load() {
    const loading = h("p", { class: "muted" }, t("common.loading"));
    replace(this.root, h("h1", {}, t("mod.title")), loading);
    let cases;
    try {
      cases = (await quietly("GET", "/api/mod/cases")).cases ?? [];
    } catch (error) {
      if (!this.gone) this.refused(error);
      return;
    }
    const audit = await quietly("GET", "/api/mod/audit").catch(() => null);
    if (this.gone) return;
    this.names = new Map(cases.map((kase) => [kase.player_id, kase.name]));
    replace(
      this.root,
      h("h1", {}, t("mod.title")),
      h(
        "section",
        { class: "panel mod-queue", "aria-labelledby": "mod-queue-title" },
        h("h2", { id: "mod-queue-title" }, t("mod.queue", { n: cases.length })),
        cases.length
          ? h(
              "ol",
              { class: "mod-cases" },
              cases.map((kase) => h("li", {}, this.caseView(kase))),
            )
          : h("p", { class: "muted mod-empty" }, t("mod.noCases")),
      ),
      this.auditView(audit?.decisions ?? null),
    );
    for (const plot of this.root.querySelectorAll(".mod-plots[data-room]")) this.plot(plot);
    this.nameAudit();
  }

  /** The audit log's players and moderators by name (those not in a case are asked for). */
  async nameAudit() {
    const links = [...this.root.querySelectorAll(".mod-audit-table a[data-unnamed]")];
    const ids = [...new Set(links.map((link) => link.dataset.unnamed))].slice(0, 30);
    await Promise.all(
      ids.map(async (id) => {
        const profile = await quietly("GET", `/api/players/${encodeURIComponent(id)}`).catch(
          () => null,
        );
        if (!profile?.name || this.gone) return;
        for (const link of links) if (link.dataset.unnamed === id) link.textContent = profile.name;
      }),
    );
  }

  refused(error) {
    const status = error instanceof ApiError ? error.status : 0;
    const words =
      status === 403 ? t("mod.forbidden") : status === 401 ? t("mod.signIn") : errorText(error);
    replace(
      this.root,
      h(
        "section",
        { class: "panel narrow mod-refused" },
        h("h1", {}, t("mod.title")),
        h("p", { role: "alert" }, words),
        status === 401
          ? h("a", { class: "btn", href: "#/me" }, t("mod.signInLink"))
          : h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
      ),
    );
  }

  caseView(kase) {
    const { evidence, others } = splitRuns(kase);
    const name = kase.name || kase.player_id;
    const titleId = `case-${kase.player_id}`;
    return h(
      "article",
      { class: "mod-case", dataset: { player: kase.player_id }, "aria-labelledby": titleId },
      h(
        "h3",
        { id: titleId },
        h("a", { href: `#/player/${encodeURIComponent(kase.player_id)}` }, name),
        kase.marked ? [" ", h("span", { class: "tag tag-off" }, t("mod.markedTag"))] : null,
      ),
      h("p", { class: "muted" }, t("mod.opened", { date: dateTime(kase.opened_ms) })),
      h(
        "ul",
        { class: "mod-reasons", "aria-label": t("mod.reasons") },
        (kase.reasons ?? []).map((code) =>
          h("li", { dataset: { reason: code } }, reasonText(code)),
        ),
      ),
      standingText(kase.standing),
      h("h4", {}, t("mod.runs")),
      (kase.runs ?? []).length
        ? tableScroll(signalsTable([...evidence, ...others], this), t("mod.runs"))
        : h("p", { class: "muted" }, t("mod.noRuns")),
      evidence.map((run) => this.plotsView(run, kase.player_id)),
      h("div", { class: "mod-more-plots" }),
      reportsView(kase.reports ?? []),
      kase.appeal
        ? [h("h4", {}, t("mod.appeal")), h("blockquote", { class: "appeal-text" }, kase.appeal)]
        : null,
      decisionsView(kase.decisions ?? []),
      this.decisionForm(kase),
    );
  }

  /** A run's two plots, drawn once its analysis comes. */
  plotsView(run, playerId) {
    return h(
      "section",
      {
        class: "mod-plots",
        dataset: { room: run.room_id, player: playerId },
        "aria-label": t("mod.plotsOf", { date: dateTime(run.at_ms) }),
      },
      h(
        "h4",
        {},
        t("mod.plotsOf", { date: dateTime(run.at_ms) }),
        " · ",
        h("a", { href: run.replay ?? `#/replay/${run.room_id}` }, t("mod.replay")),
      ),
      h("div", { class: "mod-plot-body" }, h("p", { class: "muted" }, t("mod.plotLoading"))),
    );
  }

  /** "Plots" on a run that is not drawn yet: draw it under the others. */
  showPlots(run, playerId, button) {
    const article = button.closest(".mod-case");
    const shown = article.querySelector(`.mod-plots[data-room="${CSS.escape(run.room_id)}"]`);
    if (shown) {
      shown.scrollIntoView({ block: "nearest" });
      return;
    }
    const plots = this.plotsView(run, playerId);
    article.querySelector(".mod-more-plots").append(plots);
    button.disabled = true;
    this.plot(plots);
  }

  analysis(roomId) {
    if (!this.analyses.has(roomId)) {
      const asked = quietly("GET", `/api/rooms/${encodeURIComponent(roomId)}/analysis`);
      asked.catch(() => this.analyses.delete(roomId)); // asked again on the next reload
      this.analyses.set(roomId, asked);
    }
    return this.analyses.get(roomId);
  }

  async plot(section) {
    const body = section.querySelector(".mod-plot-body");
    const { room, player } = section.dataset;
    try {
      const data = await this.analysis(room);
      if (this.gone) return;
      const run = data.players?.find((p) => p.player_id === player);
      if (!run) {
        replace(body, h("p", { class: "muted" }, t("mod.noAnalysis")));
        return;
      }
      const width = Math.max(260, Math.floor(body.clientWidth || 600));
      replace(body, stripView(run.times_ms ?? [], width), accuracyView(run.verdicts ?? [], width));
      section.dataset.drawn = "true";
    } catch (error) {
      const daily = error instanceof ApiError && error.code === "not_finished";
      replace(
        body,
        h(
          "p",
          { class: "delay-note mod-plot-note" },
          daily ? t("mod.dailyLater") : errorText(error),
        ),
      );
      section.dataset.drawn = "false";
    }
  }

  decisionForm(kase) {
    const id = `reason-${kase.player_id}`;
    const submit = async (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      const action = event.submitter?.value;
      const reason = String(new FormData(form).get("reason") ?? "").trim();
      const status = form.querySelector(".mod-decision-status");
      if (!reason || !action) return;
      for (const button of form.querySelectorAll("button")) button.disabled = true;
      try {
        const url = `/api/mod/players/${encodeURIComponent(kase.player_id)}`;
        await quietly("POST", url, { action, reason });
        toast(t(`mod.done.${action}`, { name: kase.name || kase.player_id }), "good");
        this.load();
      } catch (error) {
        replace(status, errorText(error));
        for (const button of form.querySelectorAll("button")) button.disabled = false;
      }
    };
    return h(
      "form",
      { class: "mod-decision", onsubmit: submit },
      h(
        "label",
        { class: "field", for: id },
        h("span", { class: "field-label" }, t("mod.reasonLabel")),
      ),
      h("textarea", {
        id,
        name: "reason",
        rows: "2",
        required: true,
        maxlength: String(REASON_MAX),
      }),
      h("p", { class: "form-error mod-decision-status", role: "status" }),
      h(
        "div",
        { class: "dialog-actions" },
        ["mark", "clear"].map((action) =>
          h(
            "button",
            { type: "submit", name: "action", value: action, class: `btn mod-${action}` },
            t(`mod.${action}`),
          ),
        ),
      ),
    );
  }

  auditView(entries) {
    const title = h("h2", { id: "mod-audit-title" }, t("mod.audit"));
    const section = (...content) =>
      h(
        "section",
        { class: "panel mod-audit", "aria-labelledby": "mod-audit-title" },
        title,
        content,
      );
    if (entries === null) return section(h("p", { class: "muted" }, t("mod.noAudit")));
    if (!entries.length) return section(h("p", { class: "muted" }, t("mod.auditEmpty")));
    const who = (id) =>
      id === "operator"
        ? t("mod.operator")
        : h(
            "a",
            {
              href: `#/player/${encodeURIComponent(id)}`,
              dataset: this.names.has(id) ? {} : { unnamed: id },
            },
            this.names.get(id) || id,
          );
    const head = ["mod.when", "mod.action", "mod.player", "mod.reason", "mod.by"];
    return section(
      tableScroll(
        h(
          "table",
          { class: "results mod-audit-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              head.map((key) => h("th", {}, t(key))),
            ),
          ),
          h(
            "tbody",
            {},
            entries.map((entry) =>
              h(
                "tr",
                { dataset: { action: entry.action, player: entry.player_id } },
                h("td", {}, dateTime(entry.at_ms)),
                h("td", {}, actionText(entry.action)),
                h("td", {}, who(entry.player_id)),
                h("td", {}, entry.reason || "—"),
                h("td", {}, who(entry.by)),
              ),
            ),
          ),
        ),
        t("mod.audit"),
      ),
    );
  }
}

function actionText(action) {
  return ["mark", "clear", "grant", "revoke"].includes(action) ? t(`mod.action.${action}`) : action;
}

/** A case's reason in words. */
export function reasonText(code) {
  const { key, room } = reasonOf(code);
  if (key === "other") return code;
  if (key === "held") {
    return [
      t("mod.reason.held"),
      " ",
      h("a", { href: `#/replay/${encodeURIComponent(room)}` }, t("mod.replay")),
    ];
  }
  return t(`mod.reason.${key}`);
}

function holdText(codes) {
  if (!codes?.length) return t("mod.notHeld");
  return codes.map((code) => (holdKey(code) === "other" ? code : t(`mod.hold.${code}`))).join(", ");
}

function standingText(standing) {
  if (!standing) return null;
  return h(
    "p",
    { class: "mod-standing" },
    t("mod.standing", {
      n: standing.runs ?? 0,
      held: num(standing.held ?? 0),
      won: num(standing.won ?? 0),
      perfect: num(standing.perfect ?? 0),
      kept: num(standing.hard_kept ?? 0),
      hard: num(standing.hard_positions ?? 0),
      even: num(standing.even_runs ?? 0),
      paced: num(standing.paced_runs ?? 0),
    }),
  );
}

function signalsTable(runs, page) {
  const head = [
    "mod.run",
    "mod.held",
    "mod.firstMove",
    "mod.medianGap",
    "mod.cv",
    "mod.fastest",
    "mod.accuracy",
    "mod.hardAccuracy",
    "mod.plots",
  ];
  return h(
    "table",
    { class: "results mod-signals" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((key) => h("th", { scope: "col" }, t(key))),
      ),
    ),
    h(
      "tbody",
      {},
      runs.map((run) => {
        const s = run.signals ?? {};
        const held = (run.held ?? []).length > 0;
        return h(
          "tr",
          { class: held ? "mod-held" : null, dataset: { room: run.room_id } },
          h(
            "th",
            { scope: "row" },
            h("a", { href: run.replay ?? `#/replay/${run.room_id}` }, dateTime(run.at_ms)),
            h(
              "div",
              { class: "muted" },
              gameName(run.game),
              s.won ? ` · ${t("mod.won")}` : "",
              run.counts ? ` · ${t("mod.counts")}` : "",
              run.decision ? ` · ${t(`mod.decision.${run.decision}`)}` : "",
            ),
          ),
          h("td", {}, holdText(run.held)),
          h("td", {}, seconds(s.first_move_ms)),
          h("td", {}, seconds(s.median_gap_ms)),
          h(
            "td",
            {},
            s.gap_cv == null
              ? "—"
              : num(s.gap_cv, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
          ),
          h("td", {}, seconds(s.fastest_stretch_ms)),
          h("td", {}, share(s.accuracy, s.kept, s.decided)),
          h("td", {}, share(s.hard_accuracy, s.hard_kept, s.hard_positions)),
          h(
            "td",
            {},
            h(
              "button",
              {
                type: "button",
                class: "btn btn-small mod-show-plots",
                onclick: (event) => {
                  const button = event.currentTarget;
                  page.showPlots(run, button.closest(".mod-case").dataset.player, button);
                },
              },
              t("mod.showPlots"),
            ),
          ),
        );
      }),
    ),
  );
}

function reportsView(reports) {
  if (!reports.length) return null;
  return [
    h("h4", {}, t("mod.reports", { n: reports.length })),
    h(
      "ul",
      { class: "mod-reports" },
      reports.map((report) =>
        h(
          "li",
          { dataset: { reason: report.reason } },
          h(
            "p",
            {},
            h("strong", {}, t(`report.reason.${report.reason}`)),
            " · ",
            dateTime(report.at_ms),
            " · ",
            h(
              "a",
              { href: `#/player/${encodeURIComponent(report.reporter_id)}` },
              t("mod.reporter"),
            ),
            report.room_id
              ? [
                  " · ",
                  h(
                    "a",
                    { href: `#/replay/${encodeURIComponent(report.room_id)}` },
                    t("mod.theRace"),
                  ),
                ]
              : null,
          ),
          report.text ? h("blockquote", { class: "report-text" }, report.text) : null,
        ),
      ),
    ),
  ];
}

function decisionsView(decisions) {
  if (!decisions.length) return null;
  return [
    h("h4", {}, t("mod.earlier")),
    h(
      "ul",
      { class: "mod-earlier" },
      decisions.map((d) =>
        h(
          "li",
          {},
          t("mod.earlierItem", {
            action: actionText(d.action),
            date: dateTime(d.at_ms),
            reason: d.reason,
          }),
        ),
      ),
    ),
  ];
}

// The plots.

const AXIS = 48; // room for the time ticks

/** The move-time strip: each action's time as a bar (log scale), the fast ones in red. */
function stripView(times, width) {
  const box = { width: width - AXIS - 4, height: 96 };
  const { bars, ticks, y } = gapBars(times, box);
  const label = t("mod.stripLabel", {
    n: times.length,
    median: seconds(median(times)),
    fastest: seconds(times.length ? Math.min(...times) : null),
    fast: num(times.filter((ms) => ms < MOVE_INPUT_MS).length),
  });
  const line = y(MOVE_INPUT_MS);
  return h(
    "figure",
    { class: "mod-strip" },
    h("h5", {}, t("mod.strip")),
    svg(
      "svg",
      {
        class: "mod-plot",
        width,
        height: box.height + 6,
        viewBox: `0 0 ${width} ${box.height + 6}`,
        role: "img",
        "aria-label": label,
      },
      ...ticks.map((tick) =>
        svg("line", { class: "chart-grid", x1: AXIS, x2: width, y1: tick.y + 3, y2: tick.y + 3 }),
      ),
      ...ticks.map((tick) =>
        svg(
          "text",
          { class: "chart-tick", x: AXIS - 4, y: tick.y + 7, "text-anchor": "end" },
          seconds(tick.ms),
        ),
      ),
      ...bars.map((bar, i) =>
        svg(
          "rect",
          {
            class: bar.ms < MOVE_INPUT_MS ? "gap-bar gap-fast" : "gap-bar",
            x: bar.x + AXIS,
            y: Math.min(bar.y, box.height - 2) + 3, // at least 2 px: a 0 ms action shows
            width: bar.w,
            height: Math.max(2, bar.h),
          },
          svg("title", {}, t("mod.barTitle", { n: i + 1, time: seconds(bar.ms) })),
        ),
      ),
      svg("line", { class: "gap-bound", x1: AXIS, x2: width, y1: line + 3, y2: line + 3 }),
    ),
    h(
      "figcaption",
      { class: "muted" },
      label,
      " ",
      t("mod.boundKey", { time: seconds(MOVE_INPUT_MS) }),
    ),
  );
}

/** The accuracy at each position: one box per action, coloured by what it did to the win. */
function accuracyView(verdicts, width) {
  const box = { width: width - AXIS - 4 };
  const cells = positionCells(verdicts, box);
  const counts = kindCounts(positionKinds(verdicts));
  const label = t("mod.accuracyLabel", {
    kept: num(counts.kept),
    lost: num(counts.lost),
    already: num(counts.already),
    unknown: num(counts.unknown),
  });
  return h(
    "figure",
    { class: "mod-accuracy" },
    h("h5", {}, t("mod.accuracyPlot")),
    svg(
      "svg",
      {
        class: "mod-plot",
        width,
        height: 28,
        viewBox: `0 0 ${width} 28`,
        role: "img",
        "aria-label": label,
      },
      ...cells.map((cell, i) =>
        svg(
          "rect",
          { class: `pos-cell pos-${cell.kind}`, x: cell.x + AXIS, y: 2, width: cell.w, height: 24 },
          svg("title", {}, t("mod.cellTitle", { n: i + 1, what: t(`mod.pos.${cell.kind}`) })),
        ),
      ),
    ),
    h(
      "ul",
      { class: "mod-legend" },
      ["kept", "lost", "already", "unknown"].map((kind) =>
        h(
          "li",
          {},
          h("span", { class: `swatch pos-${kind}`, "aria-hidden": "true" }),
          t(`mod.pos.${kind}`),
          ` (${num(counts[kind])})`,
        ),
      ),
    ),
  );
}
