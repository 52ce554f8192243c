// @ts-check
// A game's leaderboard (#/leaderboard/GAME): registered players with a rating no longer
// provisional, by rating, paged; "around me" shows the page with you in its middle. Above
// it, where you stand: your rating and, while it is provisional, your rated races so far out
// of the 10 the board asks (an empty board says more then). One state, one scheduled render,
// patched in place.

import { errorText } from "../shared/api.js";
import { h, replace } from "../shared/dom.js";
import { num, t } from "../shared/i18n.js";
import { patch, scheduled } from "../shared/render.js";
import { me, onPlayer, leaderboard } from "../shared/session.js";
import { gameName } from "../shared/widgets.js";

const GAMES = ["stalactites", "squadron"];
const PAGE = 20;
const NEEDED = 10; // rated races before a rating leaves provisional (the server's PROVISIONAL_RACES)

export class LeaderboardPage {
  constructor(app, game) {
    this.s = { game, offset: 0, around: false, lines: null, error: null };
    this.root = h("section", { class: "panel leaderboard" });
    replace(app, this.root);
    this.renderer = scheduled(() => this.render());
    this.stop = onPlayer(() => this.renderer.schedule());
    this.load();
  }

  destroy() {
    this.stop();
    this.renderer.stop();
  }

  async load() {
    const { game, offset, around } = this.s;
    try {
      const answer = await leaderboard(game, { offset, around, limit: PAGE });
      this.s.lines = answer.players ?? [];
      this.s.error = null;
    } catch (error) {
      this.s.error = errorText(error);
    }
    this.renderer.schedule();
  }

  go(change) {
    Object.assign(this.s, change, { lines: null });
    this.renderer.now();
    this.load();
  }

  render() {
    const s = this.s;
    const tabs = h(
      "nav",
      { class: "tabs", "aria-label": t("leaders.games") },
      GAMES.map((game) =>
        h(
          "a",
          {
            href: `#/leaderboard/${game}`,
            class: game === s.game ? "tab active" : "tab",
            "aria-current": game === s.game ? "page" : null,
          },
          gameName(game),
        ),
      ),
    );
    patch(
      this.root,
      h("h1", {}, t("leaders.title", { game: gameName(s.game) })),
      tabs,
      h("p", { class: "muted" }, t("leaders.who")),
      standingView(me(), s.game),
      this.body(),
      this.pager(),
    );
  }

  body() {
    const s = this.s;
    if (s.error) return h("p", { class: "form-error" }, s.error);
    if (!s.lines) return h("p", { class: "muted" }, t("common.loading"));
    if (!s.lines.length)
      return h(
        "p",
        { class: "muted board-empty" },
        t(s.around ? "leaders.notOnIt" : "leaders.empty"),
      );
    const you = me()?.player_id;
    return h(
      "table",
      { class: "results leaderboard-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["results.place", "results.racer", "leaders.rating", "leaders.races"].map((k) =>
            h("th", {}, t(k)),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        s.lines.map((line) =>
          h(
            "tr",
            {
              key: line.player_id,
              class: line.player_id === you ? "you" : null,
              dataset: { player: line.player_id },
            },
            h("td", { class: "place" }, num(line.rank)),
            h(
              "td",
              {},
              h("a", { href: `#/player/${encodeURIComponent(line.player_id)}` }, line.name),
            ),
            h("td", {}, num(line.rating)),
            h("td", {}, num(line.races)),
          ),
        ),
      ),
    );
  }

  /** The pager: up, down, around me. */
  pager() {
    const s = this.s;
    const full = (s.lines?.length ?? 0) >= PAGE;
    return h(
      "div",
      { class: "pager" },
      h(
        "button",
        {
          class: "btn",
          disabled: s.offset === 0 && !s.around,
          onclick: () => this.go({ offset: Math.max(0, s.offset - PAGE), around: false }),
        },
        t("leaders.up"),
      ),
      h(
        "button",
        {
          class: "btn",
          disabled: !full || s.around,
          onclick: () => this.go({ offset: s.offset + PAGE, around: false }),
        },
        t("leaders.down"),
      ),
      me()?.registered
        ? h(
            "button",
            {
              class: "btn",
              "aria-pressed": String(s.around),
              onclick: () => this.go({ around: true, offset: 0 }),
            },
            t("leaders.aroundMe"),
          )
        : h("span", { class: "muted" }, t("leaders.registerToJoin")),
    );
  }
}

/** Where the player stands in this game, or null for no player yet. */
export function standingView(player, game) {
  if (!player) return null;
  const rating = player.ratings?.[game];
  const races = rating?.races ?? 0;
  let text;
  if (!rating || races === 0) text = t("leaders.mineNone", { needed: NEEDED });
  else if (rating.provisional || races < NEEDED) {
    const params = { rating: num(rating.rating), n: races, needed: NEEDED };
    text = t("leaders.mineProvisional", { ...params, left: Math.max(1, NEEDED - races) });
  } else {
    const params = { rating: num(rating.rating), n: races };
    text = t(player.registered ? "leaders.mineOn" : "leaders.mineUnregistered", params);
  }
  return h("p", { class: "where-i-stand", dataset: { races: String(races) } }, text);
}
