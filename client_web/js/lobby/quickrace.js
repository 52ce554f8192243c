// @ts-check
// Quick races: the lobby's "Race now" panel and the waiting screen (#/quick/GAME/STEP).
// The waiting screen opens /ws/match with the session cookie, queues, and shows the queue
// live from the server's `queued` frames (the time waited counts on between them); Cancel
// leaves the queue; "Race a ghost now" asks for a recorded run at once (none near enough: the
// player stays queued, their place kept). On `matched` the seat is saved and the race page
// opens. The page says who else waits ("Nobody else is waiting", "1 other player waiting"),
// promises a ghost only where the server has a recorded run to race (`ghost_ready`), and to
// a player waiting alone offers what there is meanwhile: a solo race against the clock on a
// certified deal, or the daily deal.

import { createRoom, errorText, joinRoom } from "../shared/api.js";
import { Connection } from "../shared/connection.js";
import { h, replace } from "../shared/dom.js";
import { field, select } from "../shared/forms.js";
import { clockText, has, t } from "../shared/i18n.js";
import { ensurePlayer } from "../shared/session.js";
import { saveRoomSeat } from "../shared/storage.js";

const TICK_MS = 250;
const GAMES = () => [
  ["stalactites", t("game.stalactites")],
  ["squadron", t("game.squadron")],
];
const STEPS = () => [
  ["choice", t("lobby.stepChoice")],
  ["ones", t("lobby.stepOnes")],
  ["twos", t("lobby.stepTwos")],
];

/** The address of the waiting screen for a game (and Stalactites' step policy). */
export function quickHash(game, step) {
  return game === "squadron" ? "#/quick/squadron" : `#/quick/stalactites/${step || "choice"}`;
}

/** The lobby's first panel: the game, the step policy, and one button. */
export function quickRacePanel() {
  const game = select("game", GAMES(), "stalactites");
  const step = select("step", STEPS(), "choice");
  const stepField = field(t("lobby.step"), step);
  game.addEventListener("change", () => (stepField.hidden = game.value === "squadron"));
  const go = (event) => {
    event.preventDefault();
    location.hash = quickHash(game.value, step.value);
  };
  return h(
    "section",
    { class: "panel panel-quick" },
    h("h2", {}, t("quick.title")),
    h("p", { class: "hint" }, t("quick.intro")),
    h(
      "form",
      { class: "quick-form", onsubmit: go },
      h("div", { class: "field-row" }, field(t("lobby.game"), game), stepField),
      h("button", { class: "btn btn-primary btn-big", type: "submit" }, t("quick.raceNow")),
    ),
  );
}

export class QueuePage {
  constructor(app, game, step) {
    this.game = game;
    this.step = game === "squadron" ? null : STEPS().some(([v]) => v === step) ? step : "choice";
    this.waitedMs = 0;
    this.heardAt = Date.now();
    this.waiting = h("p", { class: "queue-waiting", role: "status" }, "…");
    this.ghostHint = h("p", { class: "hint queue-ghost-hint" }, t("quick.ghostLater"));
    this.alone = aloneView(game, (button) => this.raceClock(button));
    this.alone.hidden = true;
    this.clock = h("strong", { class: "queue-clock" }, clockText(0));
    this.note = h("p", { class: "queue-note", role: "status", "aria-live": "polite" });
    const what = this.step ? `${t(`game.${game}`)} · ${stepName(this.step)}` : t(`game.${game}`);
    replace(
      app,
      h(
        "section",
        { class: "panel narrow queue-page" },
        h("h1", {}, t("quick.finding")),
        h("p", { class: "queue-what" }, what),
        h(
          "dl",
          { class: "queue-stats" },
          h("div", {}, h("dt", {}, t("quick.waited")), h("dd", {}, this.clock)),
        ),
        this.waiting,
        h("div", { class: "queue-spinner", "aria-hidden": "true" }),
        this.ghostHint,
        this.note,
        this.alone,
        h(
          "div",
          { class: "end-actions queue-actions" },
          (this.ghostButton = h(
            "button",
            {
              class: "btn",
              type: "button",
              style: { display: "none" }, // until a run is there to race
              onclick: () => this.ghost(),
            },
            t("quick.ghostNow"),
          )),
          h(
            "button",
            { class: "btn", type: "button", onclick: () => this.cancel() },
            t("quick.cancel"),
          ),
        ),
      ),
    );
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.start();
  }

  async start() {
    if (!(await ensurePlayer())) return this.fail(t("quick.noSession"));
    if (this.stopped) return;
    this.socket = new Connection("/ws/match", {
      hello: () => ({ type: "hello", session: true }),
      onFrame: (frame) => this.frame(frame),
    });
    this.socket.connect();
  }

  frame(frame) {
    if (frame.type === "welcome") {
      this.you = frame.player_id;
      const queue = { type: "queue", game: this.game };
      if (this.step) queue.step = this.step;
      this.socket.send(queue);
    } else if (frame.type === "queued") {
      if (this.askedGhost) this.noGhost(t("quick.noGhost"));
      this.waitedMs = frame.waited_ms;
      this.heardAt = Date.now();
      this.showQueue(frame.others ?? Math.max((frame.waiting ?? 1) - 1, 0), frame.ghost_ready);
      this.tick();
    } else if (frame.type === "matched") {
      this.matched(frame);
    } else if (frame.type === "error" && this.askedGhost && frame.code === "ghost_unavailable") {
      this.ghostButton.style.display = "none";
      this.noGhost(t("quick.error.ghost_unavailable"));
    } else if (frame.type === "error") {
      const own = `quick.error.${frame.code}`; // the queue's own words, else any error's
      this.fail(has(own) ? t(own) : errorText(frame));
    }
  }

  /** Who else waits, in words; a ghost promised only when there is a run to race; and,
   * alone, what to play meanwhile. */
  showQueue(others, ghostReady) {
    const text = others ? t("quick.others", { n: others }) : t("quick.nobodyElse");
    if (this.waiting.textContent !== text) this.waiting.textContent = text;
    this.ghostHint.textContent = t(ghostReady ? "quick.ghostLater" : "quick.noGhostYet");
    this.ghostButton.style.display = ghostReady ? "" : "none"; // (.btn's display beats hidden)
    this.alone.hidden = others > 0;
  }

  /** Leave the queue for a solo race on a certified deal (unrated, against the clock). */
  async raceClock(button) {
    button.disabled = true;
    this.cancelled(); // out of the queue first: no match may come meanwhile
    try {
      const settings = { game: this.game, seats: 1, countdown_s: 3 };
      if (this.step) settings.step = this.step;
      const room = await createRoom(settings);
      const seat = await joinRoom(room.room_id, null);
      saveRoomSeat(room.room_id, { player_id: seat.player_id, token: seat.token });
      location.hash = `#/room/${room.room_id}`;
    } catch (error) {
      button.disabled = false;
      this.note.textContent = errorText(error);
    }
  }

  /** Race a ghost now: the same queue asked again with `"ghost": true`. */
  ghost() {
    if (!this.you || this.askedGhost) return;
    this.askedGhost = true;
    this.ghostButton.disabled = true;
    const queue = { type: "queue", game: this.game, ghost: true };
    if (this.step) queue.step = this.step;
    this.socket.send(queue);
  }

  noGhost(message) {
    this.askedGhost = false;
    this.ghostButton.disabled = false;
    this.note.textContent = message;
  }

  matched(frame) {
    this.stop();
    saveRoomSeat(frame.room_id, { player_id: this.you, token: frame.token, quick: true });
    location.hash = `#/room/${frame.room_id}`;
  }

  tick() {
    this.clock.textContent = clockText(this.waitedMs + (Date.now() - this.heardAt));
  }

  fail(message) {
    this.note.textContent = message;
    this.note.classList.add("error");
    this.stop();
  }

  cancel() {
    this.cancelled();
    location.hash = "#/";
  }

  cancelled() {
    this.socket?.send({ type: "leave" });
    this.stop();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.ticker);
    this.socket?.close();
  }

  destroy() {
    this.stop();
  }
}

/** Waiting alone: a solo race against the clock, or the daily deal, meanwhile. */
function aloneView(game, onClock) {
  return h(
    "div",
    { class: "queue-alone" },
    h("h2", {}, t("quick.aloneTitle")),
    h("p", {}, t("quick.aloneText")),
    h(
      "div",
      { class: "end-actions queue-actions" },
      h(
        "button",
        {
          class: "btn btn-primary race-clock",
          type: "button",
          onclick: (e) => onClock(e.currentTarget),
        },
        t("quick.raceClock"),
      ),
      h("a", { class: "btn daily-link", href: `#/daily/${game}` }, t("quick.dailyDeal")),
    ),
  );
}

function stepName(step) {
  return t({ choice: "lobby.stepChoice", ones: "lobby.stepOnes", twos: "lobby.stepTwos" }[step]);
}
