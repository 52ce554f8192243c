// @ts-check
// The router: one page at a time, chosen by the address's #fragment.
//   #/                 lobby
//   #/quick/GAME[/STEP] waiting for a quick race (the matchmaking queue)
//   #/room/ID          race (or the join form when this browser has no seat there)
//   #/watch/ID         spectator view
//   #/tournament/ID    tournament page
//   #/arena/ID         arena page (arena.js; the arena socket lives for the tab: arenasocket.js)
//   #/replay/ID        replay viewer
//   #/rules/GAME       the rules of stalactites or squadron, with pictures
//   #/learn            a guided first game of Stalactites
//   #/help             keys
//   #/me               your own profile, with your account (sign in, register, sign out...)
//   #/player/ID        a player's profile: ratings, statistics, races
//   #/leaderboard/GAME a game's leaderboard
//   #/daily/GAME       the daily deal: today's leaderboard and the archive
//   #/daily/GAME/DATE  a past day's leaderboard: each run's replay and "Race this run"
//   #/mod              the moderators' page: fair play's open cases and the audit log
// And the language: the one saved, else the browser's; its catalogue alone is fetched before
// the first page is drawn, and the header's switch fetches another and draws the page again.

import { h, replace } from "./shared/dom.js";
import {
  LANGUAGE_NAMES,
  LANGUAGES,
  loadLanguage,
  num,
  pickLanguage,
  setLanguage,
  t,
} from "./shared/i18n.js";
import { ensurePlayer, headlineRating, me, onPlayer } from "./shared/session.js";
import { startChallenges } from "./friends/challenges.js";
import { drawFriendsHeader, startFriendsHeader } from "./friends/friendsheader.js";
import { startNotify } from "./friends/notify.js";
import { startModLink } from "./fairplay/modlink.js";
import { roomSeat, saveLanguage, savedLanguage } from "./shared/storage.js";
import { startArenas } from "./arena/arenasocket.js";

const app = document.getElementById("app");
let page = null;

// Each page's modules are loaded when it is first shown (the browser keeps what it imported),
// so the lobby does not fetch the race's board, the replay's chart or the tournament's tables.
// A route gives a function that draws its page once the modules have come.
const lazy =
  (load, name) =>
  async (...args) => {
    const module = await load();
    return () => new module[name](app, ...args);
  };

const racePage = lazy(() => import("./race/race.js"), "RacePage");
const joinPage = lazy(() => import("./race/join.js"), "JoinPage");
const profilePage = lazy(() => import("./profile/profile.js"), "ProfilePage");

function roomPage(id) {
  const seat = roomSeat(id);
  return seat?.token ? racePage(id, seat) : joinPage(id, () => route());
}

/** @type {[RegExp, (...args: string[]) => Promise<() => any>][]} the pattern, the page */
const ROUTES = [
  [/^#?\/?$/, lazy(() => import("./lobby/lobby.js"), "LobbyPage")],
  [
    /^#\/quick\/(stalactites|squadron)(?:\/(choice|ones|twos))?$/,
    lazy(() => import("./lobby/quickrace.js"), "QueuePage"),
  ],
  [/^#\/room\/([^/]+)$/, roomPage],
  [/^#\/watch\/([^/]+)$/, lazy(() => import("./race/spectate.js"), "SpectatorPage")],
  [/^#\/tournament\/([^/]+)$/, lazy(() => import("./tournament/tournament.js"), "TournamentPage")],
  [/^#\/arena\/([^/]+)$/, lazy(() => import("./arena/arena.js"), "ArenaPage")],
  [/^#\/replay\/([^/]+)$/, lazy(() => import("./replay/replay.js"), "ReplayPage")],
  [/^#\/rules\/(stalactites|squadron)$/, lazy(() => import("./learn/rules.js"), "RulesPage")],
  [/^#\/learn$/, lazy(() => import("./learn/learn.js"), "LearnPage")],
  [/^#\/help$/, lazy(() => import("./learn/help.js"), "HelpPage")],
  [/^#\/mod$/, lazy(() => import("./fairplay/modpage.js"), "ModPage")],
  [/^#\/me$/, () => profilePage(null)],
  [/^#\/player\/([^/]+)$/, profilePage],
  [
    /^#\/leaderboard\/(stalactites|squadron)$/,
    lazy(() => import("./profile/leaderboard.js"), "LeaderboardPage"),
  ],
  [/^#\/daily\/(stalactites|squadron)$/, lazy(() => import("./daily/daily.js"), "DailyPage")],
  [
    /^#\/daily\/(stalactites|squadron)\/(\d{4}-\d{2}-\d{2})$/,
    lazy(() => import("./daily/daily.js"), "DailyPage"),
  ],
];

let routing = 0; // the latest route() call: a page whose modules arrive after another was asked
// for is never drawn

async function route() {
  const turn = ++routing;
  page?.destroy();
  page = null;
  const hash = location.hash;
  for (const [pattern, load] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      document.body.dataset.page = hash.split("/")[1] || "lobby";
      const make = await load(...match.slice(1).map(decodeURIComponent));
      if (turn === routing) page = make();
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

/** Who you are, in the header: your name and rating, a link to your profile, named by what
 * it shows (an aria-label would hide that from voice control) plus "(your profile)" for
 * screen readers only. */
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
    h("span", { class: "sr-only" }, t("me.label")),
  );
}

/** The header's words and the language switch, in the current language. */
function drawHeader() {
  const marked = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-t]"));
  for (const el of marked) el.textContent = t(el.dataset.t);
  document.title = t("app.name");
  const select = document.getElementById("lang");
  select.setAttribute("aria-label", t("lang.label"));
  replace(
    select,
    LANGUAGES.map((lang) =>
      h(
        "option",
        { value: lang, lang, selected: lang === document.documentElement.lang },
        LANGUAGE_NAMES[lang],
      ),
    ),
  );
}

/** Fetch the language's catalogue (only that one), then draw the header in it. */
async function useLanguage(lang) {
  await loadLanguage(lang);
  setLanguage(lang);
  drawHeader();
  drawMe(me());
  drawFriendsHeader();
}

document.getElementById("lang").addEventListener("change", async (event) => {
  const chosen = /** @type {HTMLSelectElement} */ (event.target).value;
  saveLanguage(chosen);
  await useLanguage(chosen);
  route();
});
await useLanguage(pickLanguage(savedLanguage(), navigator.languages ?? [navigator.language]));
window.addEventListener("hashchange", route);
route();
ensurePlayer().then(() => onPlayer(drawMe));
startModLink(document.getElementById("mod-link")); // moderators only: asked once a player
// Arenas: the socket of the arena this tab entered, opened again after a reload.
startArenas();
// Friends (docs/friends.md): the header's online list and inbox, and challenges on any page,
// from one notification socket per tab.
startFriendsHeader(document.getElementById("friends"));
startChallenges();
startNotify();
