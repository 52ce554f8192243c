// @ts-check
// The race page's panels, drawn from plain data: the actions under the board, the waiting
// room, the countdown, the end screen, and the notice for a seat that is no longer valid.

import { h, tableScroll, toast } from "../shared/dom.js";
import { clockText, ordinal, t } from "../shared/i18n.js";
import { botTag, resultsTable } from "../shared/widgets.js";
import { racerName } from "../shared/ghost.js";
import { standingsTable } from "../tournament/tournamentviews.js";
import { revealView } from "./fairness.js";

/** A button's words with its key ("Undo (u)"): the key in a span of its own, which a phone's
 * narrow bar leaves out (the button keeps its whole name for screen readers and voice). */
function keyed(text) {
  const m = /^(.*\S)\s*(\([^()]+\))$/.exec(text);
  if (!m) return { label: text, words: text };
  return { label: text, words: [m[1], h("span", { class: "key-hint" }, ` ${m[2]}`)] };
}

function button(text, props) {
  const { label, words } = keyed(text);
  const named = label === words ? {} : { "aria-label": label };
  return h("button", { ...named, ...props }, words);
}

/** Buttons by the board. `does` holds the handlers: declare, undo, hint, resign, keys, results. */
export function actionsView(view, does) {
  const buttons = [];
  if (view.canDeclare) {
    const busy = Boolean(view.busy);
    const declare = (step) => does.declare(step);
    buttons.push(
      h("span", { class: "step-label" }, t("race.build")),
      button(t("race.byOnes"), { class: "btn", disabled: busy, onclick: () => declare("ones") }),
      button(t("race.byTwos"), { class: "btn", disabled: busy, onclick: () => declare("twos") }),
    );
  } else if (view.step) {
    buttons.push(h("span", { class: "step-fixed" }, t(`race.building.${view.step}`)));
  }
  if (view.playing && view.undo) {
    buttons.push(button(t("race.undo"), { class: "btn", onclick: does.undo }));
  }
  if (view.playing && view.solo) {
    const busy = Boolean(view.hinting);
    buttons.push(button(t("race.hint"), { class: "btn", onclick: does.hint, disabled: busy }));
  }
  if (view.playing && view.resign !== false) {
    buttons.push(button(t("race.resign"), { class: "btn btn-quiet", onclick: does.resign }));
  }
  buttons.push(
    button(t("race.keys"), {
      class: "btn btn-quiet keys-button",
      onclick: does.keys,
      "aria-label": t("race.showKeys"),
    }),
  );
  if (view.finished || view.over) {
    const text = t(view.finished ? "race.results" : "race.resultsSoFar");
    buttons.push(h("button", { class: "btn results-button", onclick: does.results }, text));
  }
  return buttons;
}

/** Who is here and who is ready, the link to share, and the Ready button. */
export function waitingRoomView({ roomId, seats, players, you, ready, onReady, quick }) {
  const link = `${location.origin}${location.pathname}#/room/${roomId}`;
  const rows = players.map((p) =>
    h(
      "li",
      {},
      racerName(p),
      botTag(p),
      p.player_id === you ? h("span", { class: "tag" }, t("racers.you")) : null,
      h(
        "span",
        { class: p.ready ? "ok" : "muted" },
        p.ready ? t("race.readyMark") : t("status.not_ready"),
      ),
    ),
  );
  if (quick) {
    // A quick race: the matched players are seated; each is ready once connected.
    return [
      h("h2", {}, t("quick.matchedTitle")),
      h("p", {}, t("quick.connecting")),
      h("ul", { class: "waiting-list" }, rows),
    ];
  }
  return [
    h("h2", {}, t("race.waitingRoom")),
    h("p", {}, t("race.seatsTaken", { n: players.length, seats }), " ", t("race.startsWhen")),
    seats > 1 ? shareBox(link) : null, // a solo room waits for nobody
    h("ul", { class: "waiting-list" }, rows),
    h(
      "button",
      { class: "btn btn-big", onclick: onReady, disabled: Boolean(ready) },
      ready ? t("race.readyDone") : t("race.ready"),
    ),
  ];
}

/** An arena's race before the start: go berserk (half the time, no undo, a point more for a
 * win), or the word that you have. */
export function berserkView({ on, busy, onBerserk }) {
  if (on) return h("p", { class: "berserk-on", role: "status" }, "⚔ ", t("race.berserkOn"));
  return h(
    "div",
    { class: "berserk-offer" },
    h(
      "button",
      { class: "btn btn-berserk", onclick: onBerserk, disabled: Boolean(busy) },
      "⚔ ",
      t("race.berserk"),
    ),
    h("p", { class: "muted" }, t("race.berserkTerms")),
  );
}

/** The big number counting down to the start: the seconds left, as text. */
export function countdownView(seconds) {
  return h(
    "div",
    { class: "countdown" },
    h("p", {}, t("race.getReady")),
    h("div", { class: "countdown-number" }, seconds),
  );
}

/** Places, results and times, with the replay link and the way back. */
export function endScreenView(end) {
  const { standings, game, you, roomId, tournament, tour, reveal, chosen, onHide } = end;
  const { action = null, rematch = null, arena = null } = end;
  const mine = standings.find((r) => r.player_id === you);
  // A resigned racer is placed by their cards too, but "You finished 1st" would read as a win.
  const finished = mine?.status === "resigned" ? "race.youResignedPlaced" : "race.youFinished";
  const headline = mine?.place ? t(finished, { place: ordinal(mine.place) }) : t("race.over");
  const back = tournament
    ? h("a", { class: "btn", href: `#/tournament/${tournament}` }, t("race.backTournament"))
    : arena
      ? arenaBack(arena)
      : h("a", { class: "btn", href: "#/" }, t("common.backLobby"));
  const replay = h(
    "a",
    { class: "btn btn-primary replay-link", href: `#/replay/${roomId}` },
    t("race.watchReplay"),
  );
  return [
    h("h2", {}, headline),
    tableScroll(resultsTable(standings, { game, you, action }), t("race.results")),
    tour ? tournamentAfterRound(tour.data, you, tour.now) : null,
    arena ? arenaNote(arena) : null,
    revealView(reveal),
    chosen ? h("p", { class: "deal-chosen" }, t("settings.chosenDeal")) : null,
    h(
      "div",
      { class: "end-actions" },
      rematch,
      replay,
      back,
      h("button", { class: "btn btn-quiet", onclick: onHide }, t("race.lookBoard")),
    ),
  ];
}

/**
 * A racer whose own race is over while others still race: the results so far (the places
 * given, and each rival's cards as they go), and the way to their board or the lobby. The
 * analysis and the replay open when every racer has finished (the end screen takes over).
 */
export function soFarView({ players, game, you, onHide, arena = null }) {
  const mine = players.find((p) => p.player_id === you);
  const headline = mine?.status === "won" ? "race.soFarWon" : "race.soFarOver";
  return [
    h("h2", {}, t(headline)),
    h("p", { class: "so-far-note", role: "status" }, t("race.soFarNote")),
    tableScroll(resultsTable(players, { game, you }), t("race.resultsSoFar")),
    arena ? arenaNote(arena) : null,
    h(
      "div",
      { class: "end-actions" },
      h("button", { class: "btn btn-quiet", onclick: onHide }, t("race.lookBoard")),
      arena ? arenaBack(arena) : h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
    ),
  ];
}

/** An arena's race: the way back to its page, and what comes next (by itself). */
function arenaBack(arena) {
  const href = `#/arena/${encodeURIComponent(arena.id)}`;
  return h("a", { class: "btn arena-back", href }, t("arenas.back"));
}

function arenaNote(arena) {
  return h("p", { class: "arena-next", role: "status" }, t(arena.note));
}

/** After a tournament round: when the next one starts (its board opens by itself), or that
 * the tournament is over; and the standings so far. */
function tournamentAfterRound(tm, you, now) {
  const next =
    tm.status === "break" && tm.break_ends_at
      ? t("race.nextRound", { n: (tm.round ?? 0) + 1, clock: clockText(tm.break_ends_at - now) })
      : tm.status === "finished"
        ? t("race.tournamentOver")
        : null;
  return h(
    "div",
    { class: "after-round" },
    next ? h("p", { class: "next-round", role: "status" }, next) : null,
    h("h3", {}, t("tour.standings")),
    standingsTable(tm.standings ?? [], you),
  );
}

/** The notice shown when the server refuses this browser's seat. */
export function badSeatView(message) {
  return [
    h("h2", {}, t("race.badSeat")),
    h("p", {}, message),
    h(
      "div",
      { class: "end-actions" },
      h("a", { class: "btn btn-primary", href: "#/" }, t("common.backLobby")),
      h("button", { class: "btn", onclick: () => location.reload() }, t("race.openAgain")),
    ),
  ];
}

function shareBox(link) {
  const input = h("input", {
    class: "share-link",
    value: link,
    readonly: true,
    "aria-label": t("race.linkLabel"),
  });
  // The button's own box holds the input (the live one: the page patches this view in place).
  const copy = async (event) => {
    event.currentTarget.parentElement.querySelector(".share-link")?.select();
    try {
      await navigator.clipboard.writeText(link);
      toast(t("race.copied"), "good");
    } catch {
      toast(t("race.copyYourself"), "info");
    }
  };
  const button = h("button", { class: "btn", onclick: copy }, t("race.copy"));
  return h("div", { class: "share" }, h("label", {}, t("race.share")), " ", input, button);
}
