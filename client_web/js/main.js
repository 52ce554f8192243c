// The router: one page at a time, chosen by the address's #fragment.
//   #/                 lobby
//   #/quick/GAME[/STEP] waiting for a quick race (the matchmaking queue)
//   #/room/ID          race (or the join form when this browser has no seat there)
//   #/watch/ID         spectator view
//   #/tournament/ID    tournament page
//   #/replay/ID        replay viewer
//   #/rules/GAME       the rules of stalactites or squadron, with pictures
//   #/learn            a guided first game of Stalactites
//   #/help             keys
//   #/me               your own profile, with your account (sign in, register, sign out...)
//   #/player/ID        a player's profile: ratings, statistics, races
//   #/leaderboard/GAME a game's leaderboard
//   #/daily/GAME       the daily deal: today's leaderboard and the archive
// And the language: the one saved, else the browser's; the header's switch changes it and
// draws the page again.

import { DailyPage } from "./daily.js";
import { h, replace } from "./dom.js";
import { HelpPage } from "./help.js";
import { CATALOGUES, LANGUAGES, num, pickLanguage, setLanguage, t } from "./i18n.js";
import { JoinPage } from "./join.js";
import { LearnPage } from "./learn.js";
import { LeaderboardPage } from "./leaderboard.js";
import { LobbyPage } from "./lobby.js";
import { ProfilePage } from "./profile.js";
import { QueuePage } from "./quickrace.js";
import { RacePage } from "./race.js";
import { ReplayPage } from "./replay.js";
import { RulesPage } from "./rules.js";
import { ensurePlayer, headlineRating, me, onPlayer } from "./session.js";
import { SpectatorPage } from "./spectate.js";
import { roomSeat, saveLanguage, savedLanguage } from "./storage.js";
import { TournamentPage } from "./tournament.js";

const app = document.getElementById("app");
let page = null;

function roomPage(id) {
  const seat = roomSeat(id);
  if (seat?.token) return new RacePage(app, id, seat);
  return new JoinPage(app, id, () => route());
}

const queuePage = (game, step) => new QueuePage(app, game, step);

const ROUTES = [
  [/^#?\/?$/, () => new LobbyPage(app)],
  [/^#\/quick\/(stalactites|squadron)(?:\/(choice|ones|twos))?$/, (g, s) => queuePage(g, s)],
  [/^#\/room\/([^/]+)$/, (id) => roomPage(id)],
  [/^#\/watch\/([^/]+)$/, (id) => new SpectatorPage(app, id)],
  [/^#\/tournament\/([^/]+)$/, (id) => new TournamentPage(app, id)],
  [/^#\/replay\/([^/]+)$/, (id) => new ReplayPage(app, id)],
  [/^#\/rules\/(stalactites|squadron)$/, (game) => new RulesPage(app, game)],
  [/^#\/learn$/, () => new LearnPage(app)],
  [/^#\/help$/, () => new HelpPage(app)],
  [/^#\/me$/, () => new ProfilePage(app, null)],
  [/^#\/player\/([^/]+)$/, (id) => new ProfilePage(app, id)],
  [/^#\/leaderboard\/(stalactites|squadron)$/, (game) => new LeaderboardPage(app, game)],
  [/^#\/daily\/(stalactites|squadron)$/, (game) => new DailyPage(app, game)],
];

function route() {
  page?.destroy();
  page = null;
  const hash = location.hash;
  for (const [pattern, make] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      page = make(...match.slice(1).map(decodeURIComponent));
      document.body.dataset.page = hash.split("/")[1] || "lobby";
      return;
    }
  }
  replace(
    app,
    h(
      "section",
      { class: "panel narrow" },
      h("h1", {}, t("page.notFound")),
      h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
    ),
  );
}

/** Who you are, in the header: your name and rating, a link to your profile. */
function drawMe(profile) {
  const link = document.getElementById("me");
  link.hidden = false;
  if (!profile) {
    replace(link, h("span", { class: "me-name" }, t("me.signIn")));
    return;
  }
  const rating = headlineRating(profile);
  replace(
    link,
    h("span", { class: "me-name" }, profile.name),
    rating
      ? h("span", { class: "me-rating", title: t(`game.${rating.game}`) }, num(rating.rating))
      : null,
  );
  link.setAttribute("aria-label", t("me.label", { name: profile.name }));
}

/** The header's words and the language switch, in the current language. */
function drawHeader() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  document.title = t("app.name");
  const select = document.getElementById("lang");
  select.setAttribute("aria-label", t("lang.label"));
  replace(
    select,
    LANGUAGES.map((lang) =>
      h(
        "option",
        { value: lang, lang, selected: lang === document.documentElement.lang },
        CATALOGUES[lang]["lang.name"],
      ),
    ),
  );
}

function useLanguage(lang) {
  setLanguage(lang);
  drawHeader();
  drawMe(me());
}

useLanguage(pickLanguage(savedLanguage(), navigator.languages ?? [navigator.language]));
document.getElementById("lang").addEventListener("change", (event) => {
  saveLanguage(event.target.value);
  useLanguage(event.target.value);
  route();
});
window.addEventListener("hashchange", route);
route();
ensurePlayer().then(() => onPlayer(drawMe));
