// @ts-check
// The daily deal's page (#/daily/GAME): today's deal to play, today's leaderboard (official
// attempts) and the archive of past days with their winners; #/daily/GAME/DATE: a past day's
// leaderboard, each entry linking to its replay and to "Race this run" (its ghost on that
// day's deal). Today's attempts get neither until the day is over: the deal is secret.

import { errorText, getRoom } from "../shared/api.js";
import { dailyArchive, dailyBoard, dailyToday } from "./daily_api.js";
import { h, replace, tableScroll } from "../shared/dom.js";
import { raceRunButton } from "../shared/ghost.js";
import { reportButton } from "../fairplay/fairplayview.js";
import { elapsedText, num, t } from "../shared/i18n.js";
import { dailyButtons, playToday } from "../lobby/lobbydaily.js";
import { me } from "../shared/session.js";

export class DailyPage {
  constructor(app, game, date = null) {
    this.game = game;
    this.date = date;
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
          (this.actions = h(
            "div",
            { class: "daily-actions" },
            h(
              "button",
              { class: "btn btn-primary btn-big daily-play", onclick: () => playToday(game) },
              t("daily.play"),
            ),
          )),
          (this.title = h("h2", {}, t("daily.today"))),
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
      if (today.room_id) {
        const room = await getRoom(today.room_id).catch(() => null);
        replace(this.actions, dailyButtons(this.game, today, room));
      }
      const past = this.date && this.date < today.date ? this.date : null;
      const day = past ?? today.date;
      const [page, guests] = await Promise.all([
        dailyBoard(this.game, day),
        dailyBoard(this.game, day, "guests"),
      ]);
      const apart = guests.entries.length
        ? [h("h3", {}, t("daily.guests")), boardTable(guests.entries, Boolean(past))]
        : [];
      if (past) {
        replace(this.title, t("daily.dayBoard", { date: past }));
        const back = h("a", { href: `#/daily/${this.game}` }, t("daily.backToday"));
        replace(this.board, boardTable(page.entries, true), ...apart, h("p", {}, back));
      } else {
        const later = h("p", { class: "muted" }, t("daily.replaysLater"));
        replace(this.board, boardTable(page.entries, false), ...apart, later);
      }
      const days = await dailyArchive(this.game);
      replace(this.archive, archiveList(days.days, this.game));
    } catch (error) {
      replace(this.board, h("p", { class: "error" }, errorText(error)));
    }
  }
}

function resultCell(entry) {
  return entry.won ? t("daily.wonShort") : t("daily.cards", { cards: entry.foundation_cards });
}

/** An entry's replay link and its "Race this run" (not for your own run). */
function runLinks(entry) {
  const yours = entry.player_id === me()?.player_id;
  const race = yours ? null : raceRunButton(entry.room_id, entry.player_id);
  return [h("a", { class: "daily-replay", href: entry.replay }, t("daily.replay")), " ", race];
}

function boardTable(entries, links) {
  if (!entries.length) {
    return h("p", { class: "muted" }, t(links ? "daily.nobodyThen" : "daily.nobody"));
  }
  const rows = entries.map((entry, i) =>
    h(
      "tr",
      { dataset: { player: entry.player_id } },
      h("td", {}, num(i + 1)),
      h(
        "td",
        { class: "daily-who" },
        h("a", { href: `#/player/${entry.player_id}` }, entry.name),
        " ",
        reportButton({ playerId: entry.player_id, name: entry.name, roomId: entry.room_id }),
      ),
      h("td", {}, resultCell(entry)),
      h("td", {}, elapsedText(entry.elapsed_ms)),
      h("td", {}, num(entry.foundation_cards)),
      links ? h("td", { class: "daily-runs" }, runLinks(entry)) : null,
    ),
  );
  const head = ["#", t("daily.who"), t("daily.result"), t("daily.time"), t("daily.found")];
  if (links) head.push(t("daily.run"));
  return tableScroll(
    h(
      "table",
      { class: "results daily-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map((text) => h("th", {}, text)),
        ),
      ),
      h("tbody", {}, rows),
    ),
    t("daily.board"),
  );
}

function archiveList(days, game) {
  if (!days.length) return h("p", { class: "muted" }, t("daily.noArchive"));
  return h(
    "ul",
    { class: "daily-days" },
    days.map((day) =>
      h(
        "li",
        { dataset: { date: day.date } },
        h(
          "a",
          { class: "daily-day", href: `#/daily/${game}/${day.date}` },
          h("strong", {}, day.date),
        ),
        " · ",
        h("code", {}, day.deal),
        " · ",
        day.winner
          ? h(
              "span",
              {},
              t("daily.winner", {
                name: day.winner.name,
                time: elapsedText(day.winner.elapsed_ms),
              }),
              " ",
              runLinks(day.winner),
            )
          : t("daily.noWinner"),
        " · ",
        t("daily.attempts", { n: day.attempts }),
      ),
    ),
  );
}
