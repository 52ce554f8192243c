// The daily deal's page (#/daily/GAME): today's deal to play, today's leaderboard (official
// attempts, each linking to its replay) and the archive of past days with their winners.

import { errorText } from "./api.js";
import { dailyArchive, dailyBoard, dailyToday } from "./daily_api.js";
import { h, replace } from "./dom.js";
import { elapsedText, num, t } from "./i18n.js";
import { playToday } from "./lobbydaily.js";

export class DailyPage {
  constructor(app, game) {
    this.game = game;
    this.board = h("div", { class: "daily-board", "aria-live": "polite" }, t("daily.loading"));
    this.archive = h("div", { class: "daily-archive" });
    this.head = h("p", { class: "muted" });
    replace(
      app,
      h(
        "div",
        { class: "lobby daily-page" },
        h(
          "section",
          { class: "panel" },
          h("h1", {}, t("daily.pageTitle", { game: t(`game.${game}`) })),
          this.head,
          h(
            "button",
            { class: "btn btn-primary btn-big daily-play", onclick: () => playToday(game) },
            t("daily.play"),
          ),
          h("h2", {}, t("daily.today")),
          this.board,
        ),
        h("section", { class: "panel" }, h("h2", {}, t("daily.archive")), this.archive),
      ),
    );
    this.load();
  }

  destroy() {}

  async load() {
    try {
      const today = await dailyToday(this.game);
      replace(this.head, t("daily.date", { date: today.date }));
      const page = await dailyBoard(this.game, today.date);
      replace(this.board, boardTable(page.entries), h("p", { class: "muted" }, t("daily.replaysLater")));
      const past = await dailyArchive(this.game);
      replace(this.archive, archiveList(past.days));
    } catch (error) {
      replace(this.board, h("p", { class: "error" }, errorText(error)));
    }
  }
}

function resultCell(entry) {
  return entry.won ? t("daily.wonShort") : t("daily.cards", { cards: entry.foundation_cards });
}

function boardTable(entries) {
  if (!entries.length) return h("p", { class: "muted" }, t("daily.nobody"));
  const rows = entries.map((entry, i) =>
    h(
      "tr",
      {},
      h("td", {}, num(i + 1)),
      h("td", {}, h("a", { href: `#/player/${entry.player_id}` }, entry.name)),
      h("td", {}, resultCell(entry)),
      h("td", {}, elapsedText(entry.elapsed_ms)),
      h("td", {}, num(entry.foundation_cards)),
    ),
  );
  const head = ["#", t("daily.who"), t("daily.result"), t("daily.time"), t("daily.found")];
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: "results daily-table" },
      h("thead", {}, h("tr", {}, head.map((text) => h("th", {}, text)))),
      h("tbody", {}, rows),
    ),
  );
}

function archiveList(days) {
  if (!days.length) return h("p", { class: "muted" }, t("daily.noArchive"));
  return h(
    "ul",
    { class: "daily-days" },
    days.map((day) =>
      h(
        "li",
        {},
        h("strong", {}, day.date),
        " · ",
        h("code", {}, day.deal),
        " · ",
        day.winner
          ? h(
              "span",
              {},
              t("daily.winner", { name: day.winner.name, time: elapsedText(day.winner.elapsed_ms) }),
              " ",
              h("a", { href: day.winner.replay }, t("daily.replay")),
            )
          : t("daily.noWinner"),
        " · ",
        t("daily.attempts", { n: day.attempts }),
      ),
    ),
  );
}
