// The race page's panels, drawn from plain data: the actions under the board, the waiting
// room, the countdown, the end screen, and the notice for a seat that is no longer valid.

import { h, ordinal, toast } from "./dom.js";
import { resultsTable } from "./widgets.js";
import { revealView } from "./fairness.js";

/** Buttons under the board. `does` holds the handlers: declare, undo, resign, keys, results. */
export function actionsView(view, does) {
  const buttons = [];
  if (view.canDeclare) {
    const busy = Boolean(view.busy);
    buttons.push(
      h("span", { class: "step-label" }, "Build foundations:"),
      h(
        "button",
        { class: "btn", onclick: () => does.declare("ones"), disabled: busy },
        "by ones (o)",
      ),
      h(
        "button",
        { class: "btn", onclick: () => does.declare("twos"), disabled: busy },
        "by twos (t)",
      ),
    );
  } else if (view.step) {
    buttons.push(h("span", { class: "step-fixed" }, `Building by ${view.step}`));
  }
  if (view.playing && view.undo) {
    buttons.push(h("button", { class: "btn", onclick: does.undo }, "Undo (u)"));
  }
  if (view.playing) {
    buttons.push(h("button", { class: "btn btn-quiet", onclick: does.resign }, "Resign"));
  }
  buttons.push(
    h(
      "button",
      { class: "btn btn-quiet", onclick: does.keys, "aria-label": "show the keys" },
      "Keys (?)",
    ),
  );
  if (view.finished) buttons.push(h("button", { class: "btn", onclick: does.results }, "Results"));
  return buttons;
}

/** Who is here and who is ready, the link to share, and the Ready button. */
export function waitingRoomView({ roomId, seats, players, you, ready, onReady }) {
  const link = `${location.origin}${location.pathname}#/room/${roomId}`;
  const rows = players.map((p) =>
    h(
      "li",
      {},
      h("span", { class: "racer-name" }, p.name ?? "?"),
      p.player_id === you ? h("span", { class: "tag" }, "you") : null,
      h("span", { class: p.ready ? "ok" : "muted" }, p.ready ? "ready ✓" : "not ready"),
    ),
  );
  return [
    h("h2", {}, "Waiting room"),
    h(
      "p",
      {},
      `${players.length} of ${seats} seats taken. `,
      "The race starts when every seat is taken and everyone is ready.",
    ),
    shareBox(link),
    h("ul", { class: "waiting-list" }, rows),
    h(
      "button",
      { class: "btn btn-big", onclick: onReady, disabled: Boolean(ready) },
      ready ? "Ready ✓" : "I'm ready (r)",
    ),
  ];
}

/** The big number counting down to the start: the seconds left, as text. */
export function countdownView(seconds) {
  return h(
    "div",
    { class: "countdown" },
    h("p", {}, "Get ready"),
    h("div", { class: "countdown-number" }, seconds),
  );
}

/** Places, results and times, with the replay link and the way back. */
export function endScreenView({ standings, game, you, roomId, tournament, reveal, onHide }) {
  const mine = standings.find((r) => r.player_id === you);
  const headline = mine?.place ? `You finished ${ordinal(mine.place)}` : "Race over";
  const back = tournament
    ? h("a", { class: "btn", href: `#/tournament/${tournament}` }, "Back to the tournament")
    : h("a", { class: "btn", href: "#/" }, "Back to the lobby");
  const replay = h(
    "a",
    { class: "btn btn-primary replay-link", href: `#/replay/${roomId}` },
    "Watch the replay",
  );
  return [
    h("h2", {}, headline),
    resultsTable(standings, { game, you }),
    revealView(reveal),
    h(
      "div",
      { class: "end-actions" },
      replay,
      back,
      h("button", { class: "btn btn-quiet", onclick: onHide }, "Look at my board"),
    ),
  ];
}

/** The notice shown when the server refuses this browser's seat. */
export function badSeatView(message) {
  return [
    h("h2", {}, "This seat is not valid any more"),
    h("p", {}, message),
    h(
      "div",
      { class: "end-actions" },
      h("a", { class: "btn btn-primary", href: "#/" }, "Back to the lobby"),
      h("button", { class: "btn", onclick: () => location.reload() }, "Open the room again"),
    ),
  ];
}

function shareBox(link) {
  const input = h("input", {
    class: "share-link",
    value: link,
    readonly: true,
    "aria-label": "link to this room",
  });
  // The button's own box holds the input (the live one: the page patches this view in place).
  const copy = async (event) => {
    event.currentTarget.parentElement.querySelector(".share-link")?.select();
    try {
      await navigator.clipboard.writeText(link);
      toast("Link copied", "good");
    } catch {
      toast("Select the link and copy it", "info");
    }
  };
  const button = h("button", { class: "btn", onclick: copy }, "Copy link");
  return h("div", { class: "share" }, h("label", {}, "Share this link: "), input, button);
}
