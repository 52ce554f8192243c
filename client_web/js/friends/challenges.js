// @ts-check
// Challenges in any page (docs/friends.md): the dialog that sends one (game, step, time limit,
// rated), and the cards in the screen's corner, one per open challenge: one received says who
// challenges you and on what, with Accept, Decline and the seconds left; one sent says you
// wait for them, with Cancel. Accepted, the race's room opens seated (the seat saved as a
// quick race's is): in the tab that accepted, and in the tab that sent it; another tab of the
// challenger's gets a link to it. Declined, cancelled or expired: a toast says so.

import { h, replace, showModal, toast } from "../shared/dom.js";
import { serverNow } from "../shared/clock.js";
import { field, select } from "../shared/forms.js";
import {
  TIME_LIMITS_MIN,
  challengeBody,
  live,
  otherOf,
  secondsLeft,
  sentBy,
  termsOf,
} from "./friends.js";
import { acceptChallenge, answerChallenge, friendsError, sendChallenge } from "./friends_api.js";
import { t } from "../shared/i18n.js";
import { applyFrame, friendsState, onFriends } from "./notify.js";
import { patch } from "../shared/render.js";
import { saveRoomSeat } from "../shared/storage.js";

const sent = new Set(); // the challenges this tab sent: it goes to their race when accepted
const ready = []; // accepted challenges of yours sent from another tab: {challenge, token}
let box = null;
let ticker = null;

/** The challenge's terms in words: "Stalactites · by ones · 5 min · rated". */
export const termsText = (challenge) =>
  termsOf(challenge)
    .map(([key, params]) => t(key, params))
    .join(" · ");

/** Start drawing the challenges' cards (once, for the tab's life). */
export function startChallenges() {
  box = h("div", { class: "challenge-cards", "aria-live": "polite" });
  document.body.append(box);
  onFriends((state, frame) => {
    if (frame?.type === "challenge") heard(frame, state.you);
    draw();
  });
}

/** A challenge frame: the race to go to, or what became of one of yours. */
function heard(frame, you) {
  const c = frame.challenge;
  const mine = sentBy(c, you);
  if (c.status === "accepted" && frame.token && mine) {
    if (sent.has(c.challenge_id)) goToRace(c.room_id, you, frame.token);
    else ready.push({ challenge: c, token: frame.token });
  } else if (c.status === "declined" && mine && sent.has(c.challenge_id)) {
    toast(t("challenge.declined", { name: c.to_name }), "info", 6000);
  } else if (c.status === "cancelled" && !mine) {
    toast(t("challenge.cancelled", { name: c.from_name }), "info", 6000);
  }
}

function goToRace(roomId, you, token) {
  const dialog = /** @type {HTMLDialogElement | null} */ (
    document.querySelector("dialog.challenge-dialog")
  );
  dialog?.close();
  saveRoomSeat(roomId, { player_id: you, token });
  location.hash = `#/room/${encodeURIComponent(roomId)}`;
}

/** The cards, patched in place (a focused button stays focused); a second's tick while any
 * shows a countdown. */
function draw() {
  if (!box) return;
  const { you, challenges } = friendsState();
  const now = serverNow();
  for (const c of challenges) {
    if (c.expires_ms <= now && sent.delete(c.challenge_id))
      toast(t("challenge.expired", { name: c.to_name }), "info", 6000);
  }
  const open = you ? live(challenges, now) : [];
  patch(
    box,
    open.map((c) => card(c, you, now)),
    ready.map((r) => readyCard(r, you)),
  );
  if (open.length && !ticker) ticker = setInterval(draw, 1000);
  if (!open.length && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

function card(c, you, now) {
  const mine = sentBy(c, you);
  const other = otherOf(c, you);
  const left = secondsLeft(c, now);
  const title = mine
    ? t("challenge.waiting", { name: other.name })
    : t("challenge.incoming", { name: other.name });
  const buttons = mine
    ? [button(t("challenge.cancel"), "btn", () => answer(c, "cancel"))]
    : [
        button(t("challenge.accept"), "btn btn-primary", (e) => accept(c, e.currentTarget)),
        button(t("challenge.decline"), "btn", () => answer(c, "decline")),
      ];
  return h(
    "div",
    {
      class: `challenge-card panel ${mine ? "challenge-out" : "challenge-in"}`,
      role: "group",
      "aria-label": title,
      key: c.challenge_id,
      dataset: { challenge: c.challenge_id },
    },
    h("p", { class: "challenge-title" }, title),
    h("p", { class: "challenge-terms" }, termsText(c)),
    // (not read out each second: the card's words are, once, as it comes)
    h(
      "p",
      { class: "challenge-left muted", "aria-hidden": "true" },
      t("challenge.secondsLeft", { n: left }),
    ),
    h("div", { class: "dialog-actions" }, buttons),
  );
}

/** Your challenge accepted while you were in another tab: the way to its race. */
function readyCard(r, you) {
  const c = r.challenge;
  const go = () => {
    ready.splice(ready.indexOf(r), 1);
    goToRace(c.room_id, you, r.token);
    draw();
  };
  return h(
    "div",
    { class: "challenge-card panel challenge-out", role: "group", key: `ready:${c.challenge_id}` },
    h("p", { class: "challenge-title" }, t("challenge.accepted", { name: c.to_name })),
    h("p", { class: "challenge-terms" }, termsText(c)),
    h("div", { class: "dialog-actions" }, button(t("challenge.go"), "btn btn-primary", go)),
  );
}

const button = (text, cls, onclick) => h("button", { type: "button", class: cls, onclick }, text);

async function accept(c, el) {
  el.disabled = true;
  try {
    const answer = await acceptChallenge(c.challenge_id);
    applyFrame({ type: "challenge", challenge: answer.challenge });
    goToRace(answer.room_id, friendsState().you, answer.token);
  } catch (error) {
    el.disabled = false;
    toast(friendsError(error), "error", 6000);
  }
}

async function answer(c, how) {
  sent.delete(c.challenge_id);
  try {
    const answered = await answerChallenge(c.challenge_id, how);
    applyFrame({ type: "challenge", challenge: answered.challenge });
  } catch (error) {
    toast(friendsError(error), "error", 6000);
  }
}

/**
 * The challenge dialog (a modal <dialog>) for a player: the terms, Send; a refusal is said
 * in it. `preset`: terms to start from.
 * @param {{ playerId: string, name: string,
 *   preset?: { game?: string, step?: string, minutes?: number, rated?: boolean } }} options
 */
export function openChallenge({ playerId, name, preset = {} }) {
  document.querySelector("dialog.challenge-dialog")?.remove();
  const game = select(
    "game",
    ["stalactites", "squadron"].map((g) => [g, t(`game.${g}`)]),
    preset.game ?? "stalactites",
  );
  const step = select(
    "step",
    ["choice", "ones", "twos"].map((s) => [s, t(`step.${s}`)]),
    preset.step ?? "choice",
  );
  const stepField = field(t("lobby.step"), step);
  const showStep = () => (stepField.hidden = game.value === "squadron");
  game.addEventListener("change", showStep);
  showStep();
  const minutes = select(
    "minutes",
    TIME_LIMITS_MIN.map((n) => [String(n), t("unit.minutes", { n })]),
    String(preset.minutes ?? 5),
  );
  const rated = h("input", { type: "checkbox", name: "rated", checked: Boolean(preset.rated) });
  const status = h("p", { class: "challenge-status", role: "status" });
  const send = h("button", { type: "submit", class: "btn btn-primary" }, t("challenge.send"));
  const close = () => dialog.close();
  const form = h(
    "form",
    { class: "challenge-form", onsubmit: (event) => submit(event) },
    h("div", { class: "field-row" }, field(t("lobby.game"), game), stepField),
    field(t("challenge.time"), minutes),
    h("label", { class: "check" }, rated, t("challenge.ratedLabel")),
    status,
    h(
      "div",
      { class: "dialog-actions" },
      send,
      h("button", { type: "button", class: "btn", onclick: close }, t("challenge.cancel")),
    ),
  );
  const dialog = h(
    "dialog",
    { class: "challenge-dialog panel", "aria-labelledby": "challenge-title" },
    h("h2", { id: "challenge-title" }, t("challenge.title", { name: name || "?" })),
    form,
  );

  async function submit(event) {
    event.preventDefault();
    send.disabled = true;
    replace(status);
    status.classList.remove("form-error");
    const body = challengeBody({
      playerId,
      game: game.value,
      step: step.value,
      minutes: minutes.value,
      rated: rated.checked,
    });
    try {
      await challenge(body);
      close();
    } catch (error) {
      status.classList.add("form-error");
      replace(status, refusal(error));
      send.disabled = false;
    }
  }

  return showModal(dialog);
}

/** Send a challenge (its card shows at once: the frame that follows changes nothing). */
export async function challenge(body) {
  const view = await sendChallenge(body);
  sent.add(view.challenge_id);
  applyFrame({ type: "challenge", challenge: view });
  return view;
}

/** A refusal in words, with its code for anyone who reports it. */
export function refusal(error) {
  return error?.code ? `${friendsError(error)} (${error.code})` : friendsError(error);
}
