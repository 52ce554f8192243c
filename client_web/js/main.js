// The router: one page at a time, chosen by the address's #fragment.
//   #/                 lobby
//   #/room/ID          race (or the join form when this browser has no seat there)
//   #/watch/ID         spectator view
//   #/tournament/ID    tournament page
//   #/replay/ID        replay viewer
//   #/help             keys

import { h, replace } from "./dom.js";
import { HelpPage } from "./help.js";
import { JoinPage } from "./join.js";
import { LobbyPage } from "./lobby.js";
import { RacePage } from "./race.js";
import { ReplayPage } from "./replay.js";
import { SpectatorPage } from "./spectate.js";
import { roomSeat } from "./storage.js";
import { TournamentPage } from "./tournament.js";

const app = document.getElementById("app");
let page = null;

function roomPage(id) {
  const seat = roomSeat(id);
  if (seat?.token) return new RacePage(app, id, seat);
  return new JoinPage(app, id, () => route());
}

const ROUTES = [
  [/^#?\/?$/, () => new LobbyPage(app)],
  [/^#\/room\/([^/]+)$/, (id) => roomPage(id)],
  [/^#\/watch\/([^/]+)$/, (id) => new SpectatorPage(app, id)],
  [/^#\/tournament\/([^/]+)$/, (id) => new TournamentPage(app, id)],
  [/^#\/replay\/([^/]+)$/, (id) => new ReplayPage(app, id)],
  [/^#\/help$/, () => new HelpPage(app)],
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
      h("h1", {}, "Page not found"),
      h("a", { class: "btn", href: "#/" }, "Back to the lobby"),
    ),
  );
}

window.addEventListener("hashchange", route);
route();
