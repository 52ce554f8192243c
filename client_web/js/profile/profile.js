// @ts-check
// A player's profile (#/player/ID, and #/me for your own): name, ratings per game with a
// chart of their history, statistics per game and step, and the races, paged, with links to
// their replays. Your own profile also holds your account (account.js). Friends' parts
// (friendsview.js): Follow, Challenge and Block on another's; your friends on your own. One
// state, one scheduled render, patched in place.

import { errorText } from "../shared/api.js";
import { ratingRows, ratingSeries } from "../shared/chart.js";
import { h, replace, tableScroll } from "../shared/dom.js";
import { dateTime, elapsedText, num, ordinal, t } from "../shared/i18n.js";
import { accountView } from "./account.js";
import { chartTable, chartView } from "./ratingchart.js";
import { raceRunButton } from "../shared/ghost.js";
import { fairNotices, myFairPlay, reportButton, underReviewTag } from "../fairplay/fairplayview.js";
import { ownFriendsView, profileButtons } from "../friends/friendsview.js";
import { patch, scheduled } from "../shared/render.js";
import { ensurePlayer, me, onPlayer, profileOf, racesOf, seen } from "../shared/session.js";
import { gameName, ratingChange, statusText, stepText } from "../shared/widgets.js";

const GAMES = ["stalactites", "squadron"];
const PAGE = 10;
const CHART_RACES = 100;

export class ProfilePage {
  /** who: a player id or username; null for your own. */
  constructor(app, who) {
    this.own = who === null;
    this.s = { who, profile: null, error: null, races: null, cursors: [null], chart: [] };
    this.root = h("div", { class: "profile", "aria-live": "polite" });
    replace(app, this.root);
    this.renderer = scheduled(() => this.render());
    this.stop = this.own ? onPlayer(() => this.renderer.schedule()) : () => {};
    this.load();
  }

  destroy() {
    this.stop();
    this.renderer.stop();
  }

  update(change) {
    change(this.s);
    this.renderer.schedule();
  }

  async load() {
    try {
      const who = this.own ? (await ensurePlayer())?.player_id : this.s.who;
      if (!who) throw new Error("no player");
      const profile = await profileOf(who);
      seen(profile);
      const chart = await racesOf(profile.player_id, null, CHART_RACES);
      // Your own standing in fair play: runs under review, a mark, the appeal.
      const self = this.own || me()?.player_id === profile.player_id;
      const fair = self ? await myFairPlay() : null;
      this.update((s) => Object.assign(s, { profile, fair, chart: chart.races, cursors: [null] }));
      await this.page(0);
    } catch (error) {
      this.update((s) => (s.error = errorText(error)));
    }
  }

  /** Show the page of races at this index of the cursors seen (0: the newest). */
  async page(index) {
    const answer = await racesOf(this.s.profile.player_id, this.s.cursors[index], PAGE);
    this.update((s) => {
      s.races = { list: answer.races, index, next: answer.next };
      s.cursors[index + 1] = answer.next;
    });
  }

  /** After a change to the account: your own profile, drawn afresh. */
  changed() {
    this.update((s) => Object.assign(s, { profile: null, races: null, error: null }));
    this.load();
  }

  render() {
    const { profile, error } = this.s;
    if (error) return patch(this.root, h("section", { class: "panel narrow" }, h("p", {}, error)));
    if (!profile) return patch(this.root, h("p", { class: "muted" }, t("common.loading")));
    const mine = this.own || me()?.player_id === profile.player_id;
    patch(
      this.root,
      headView(profile, mine),
      fairNotices(profile, mine ? this.s.fair : null, () => this.changed()),
      h("section", { class: "panel" }, h("h2", {}, t("profile.ratings")), ratingsView(this.s)),
      h("section", { class: "panel" }, h("h2", {}, t("profile.stats")), statsView(profile)),
      h("section", { class: "panel" }, h("h2", {}, t("profile.races")), this.racesView()),
      this.own ? ownFriendsView(profile) : null,
      this.own ? accountView(profile, () => this.changed()) : null,
    );
  }

  racesView() {
    const races = this.s.races;
    if (!races) return h("p", { class: "muted" }, t("common.loading"));
    if (!races.list.length && races.index === 0)
      return h("p", { class: "muted" }, t("profile.noRaces"));
    const pager = h(
      "div",
      { class: "pager" },
      h(
        "button",
        { class: "btn", disabled: races.index === 0, onclick: () => this.page(races.index - 1) },
        t("page.newer"),
      ),
      h(
        "button",
        { class: "btn", disabled: !races.next, onclick: () => this.page(races.index + 1) },
        t("page.older"),
      ),
    );
    return [racesTable(races.list, this.s.profile, this.own), pager];
  }
}

function headView(profile, mine) {
  const kind = profile.registered
    ? h("span", { class: "tag" }, t("profile.registered", { username: profile.username ?? "" }))
    : h("span", { class: "tag tag-off" }, t("profile.anonymous"));
  return h(
    "section",
    { class: "panel profile-head" },
    h("h1", { class: "profile-name" }, profile.name),
    h(
      "p",
      {},
      kind,
      profile.bot ? h("span", { class: "tag tag-bot" }, t("profile.bot")) : null,
      mine ? h("span", { class: "tag" }, t("racers.you")) : null,
      " ",
      h("span", { class: "muted" }, t("profile.since", { date: dateTime(profile.member_since) })),
      " ",
      profile.daily_streak
        ? h("span", { class: "tag daily-streak" }, t("daily.streak", { n: profile.daily_streak }))
        : null,
    ),
    mine ? null : profileButtons(profile),
    mine ? null : reportButton({ playerId: profile.player_id, name: profile.name }),
  );
}

function ratingsView(s) {
  return h(
    "div",
    { class: "ratings" },
    GAMES.map((game) => {
      const rating = s.profile.ratings?.[game];
      if (!rating) return null;
      return h(
        "div",
        { class: "rating-card", dataset: { game }, key: game },
        h("h3", {}, gameName(game)),
        h("div", { class: "rating-number" }, num(rating.rating)), // a figure, not a paragraph
        h(
          "p",
          { class: "muted" },
          t("profile.ratedRaces", { n: rating.races }),
          rating.provisional
            ? h(
                "span",
                { class: "tag provisional", title: t("profile.provisionalHint") },
                t("profile.provisional"),
              )
            : null,
        ),
        chartView(ratingSeries(s.chart, game), game),
        chartTable(ratingRows(s.chart, game)),
        h("a", { href: `#/leaderboard/${game}` }, t("profile.board")),
      );
    }),
  );
}

/** Where a race was: a tournament's round or an arena (a link to it), else nothing. */
function roundOf(race) {
  if (race.arena) {
    const href = `#/arena/${encodeURIComponent(race.arena)}`;
    return h("div", { class: "muted history-round" }, h("a", { href }, t("profile.arenaRace")));
  }
  const round = race.tournament;
  if (!round) return null;
  return h(
    "div",
    { class: "muted history-round" },
    h(
      "a",
      { href: `#/tournament/${encodeURIComponent(round.tournament_id)}` },
      t("settings.round", { name: round.name, n: round.round }),
    ),
  );
}

function statsView(profile) {
  const rows = Object.entries(profile.stats ?? {}).filter(([, st]) => st.races > 0);
  if (!rows.length) return h("p", { class: "muted" }, t("profile.noRaces"));
  const head = [
    "profile.gameStep",
    "profile.racesN",
    "profile.wins",
    "profile.winRate",
    "profile.best",
    "profile.median",
    "profile.streak",
    "profile.bestStreak",
  ];
  return tableScroll(
    h(
      "table",
      { class: "results stats" },
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
        rows.map(([key, st]) => {
          const [game, step] = key.split(":");
          const rate =
            st.win_rate == null
              ? "—"
              : num(st.win_rate, { style: "percent", maximumFractionDigits: 1 });
          return h(
            "tr",
            { key, dataset: { stats: key } },
            h(
              "td",
              {},
              gameName(game),
              game === "squadron" || step === "none" ? "" : ` · ${stepText(step)}`,
            ),
            h("td", {}, num(st.races)),
            h("td", {}, num(st.wins)),
            h("td", {}, rate),
            h("td", {}, elapsedText(st.best_ms)),
            h("td", {}, elapsedText(st.median_ms)),
            h("td", {}, num(st.streak)),
            h("td", {}, num(st.best_streak)),
          );
        }),
      ),
    ),
    t("profile.stats"),
  );
}

/** The run "Race this run" races from a history entry: the profile's own run (someone else's
 * profile), or on your own profile the ghost's original run you raced; null for neither. */
export function runOfEntry(entry, profile, own) {
  if (!own && profile.player_id !== me()?.player_id)
    return { room: entry.room_id, player: profile.player_id };
  if (entry.ghost) return { room: entry.ghost.room_id, player: entry.ghost.player_id };
  return null;
}

function runButton(run) {
  return run ? [" ", raceRunButton(run.room, run.player)] : null;
}

function ghostNote(entry) {
  if (!entry.ghost) return null;
  return h(
    "span",
    { class: "ghost-note muted" },
    " · ",
    t("ghost.raced", { name: entry.ghost.name, time: elapsedText(entry.ghost.elapsed_ms) }),
  );
}

function racesTable(races, profile, own) {
  const head = [
    "profile.when",
    "lobby.game",
    "results.place",
    "results.result",
    "results.time",
    "results.cards",
    "results.rating",
    "profile.replay",
  ];
  return tableScroll(
    h(
      "table",
      { class: "results history" },
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
        races.map((r) =>
          h(
            "tr",
            { key: r.room_id, dataset: { room: r.room_id } },
            h("td", {}, dateTime(r.finished_at)),
            h("td", {}, gameName(r.game), roundOf(r), ghostNote(r)),
            h(
              "td",
              {},
              r.place ? t("profile.placeOf", { place: ordinal(r.place), n: r.players }) : "—",
            ),
            h(
              "td",
              {},
              statusText(r.status),
              underReviewTag(r),
              r.hints
                ? h("span", { class: "muted" }, " · ", t("profile.hints", { n: r.hints }))
                : null,
            ),
            h("td", {}, elapsedText(r.elapsed_ms)),
            h("td", {}, num(r.foundation_cards ?? 0)),
            h(
              "td",
              {},
              r.rated
                ? ratingChange(r.rating_before, r.rating_after)
                : h("span", { class: "muted" }, t("profile.unrated")),
              r.refund
                ? h("span", { class: "refund muted" }, " ", t("profile.refund", { n: r.refund }))
                : null,
            ),
            h(
              "td",
              {},
              h("a", { href: `#/replay/${encodeURIComponent(r.room_id)}` }, t("profile.replay")),
              runButton(runOfEntry(r, profile, own)),
            ),
          ),
        ),
      ),
    ),
    t("profile.races"),
  );
}
