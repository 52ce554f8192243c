// @ts-check
// The lobby's "Today's deal" card (each game: played or not yet, and your result; an
// official attempt still on is taken up again with "Back to your attempt", on any tab or
// device where the player is signed in: the server hands its seat's token back to their
// session) and its "Play a friend" panel (a private room and the link to share). lobby.js
// only places them.

import { createRoom, errorText, getRoom, joinRoom } from "../shared/api.js";
import { DAILY_GAMES, dailyToday, startAttempt } from "../daily/daily_api.js";
import { h, replace, toast } from "../shared/dom.js";
import { elapsedText, t } from "../shared/i18n.js";
import { ensurePlayer, me } from "../shared/session.js";
import { saveRoomSeat } from "../shared/storage.js";

/** "Today's deal": a line per game, filled in as the answers come. */
export function todayCard() {
  const lines = DAILY_GAMES.map((game) => h("li", { class: "daily-line", "data-game": game }));
  const card = h(
    "section",
    { class: "panel panel-daily" },
    h("h2", {}, t("daily.title")),
    h("ul", { class: "daily-lines" }, lines),
  );
  ensurePlayer()
    .catch(() => null)
    .then(() => lines.forEach((line, i) => fillLine(line, DAILY_GAMES[i])));
  return card;
}

async function fillLine(line, game) {
  let today;
  try {
    today = await dailyToday(game);
  } catch (error) {
    replace(line, h("span", { class: "muted" }, errorText(error)));
    return;
  }
  const room = today.room_id ? await getRoom(today.room_id).catch(() => null) : null;
  const on = Boolean(room && room.status !== "finished");
  replace(
    line,
    h("strong", {}, t(`game.${game}`)),
    " ",
    h("span", { class: "daily-result" }, today.room_id ? resultText(room) : t("daily.notYet")),
    " ",
    dailyButtons(game, today, room),
    " ",
    h("a", { class: "btn btn-quiet", href: `#/daily/${game}` }, t("daily.board")),
  );
  if (on) line.classList.add("daily-on");
}

/** Your official attempt today, in words (`room`: its view, null when it could not be read). */
function resultText(room) {
  const you = room?.players?.[0];
  if (!room) return t("daily.played");
  if (room.status !== "finished" || !you) return t("daily.playing");
  if (you.status === "won") return t("daily.won", { time: elapsedText(you.elapsed_ms) });
  return t("daily.lost", { cards: you.foundation_cards });
}

/** Play today's deal; with an official attempt still on, go back to it (and practise). */
export function dailyButtons(game, today, room) {
  const play = (label, primary) =>
    h(
      "button",
      { class: `btn${primary ? " btn-primary" : ""} daily-play`, onclick: () => playToday(game) },
      label,
    );
  if (!today.room_id) return play(t("daily.play"), true);
  if (!room || room.status === "finished" || !today.token) return play(t("daily.practice"), true);
  const back = () => resumeAttempt(today, room);
  return [
    h("button", { class: "btn btn-primary daily-resume", onclick: back }, t("daily.resume")),
    " ",
    play(t("daily.practice"), false),
  ];
}

/** Back to your official attempt: its seat (the token the server handed back) kept here. */
export function resumeAttempt(today, room) {
  const you = room.players?.find((p) => p.player_id === me()?.player_id) ?? room.players?.[0];
  saveRoomSeat(today.room_id, { player_id: you?.player_id, token: today.token });
  location.hash = `#/room/${today.room_id}`;
}

/** A new attempt at today's deal: seated, then to its room. */
export async function playToday(game) {
  try {
    await ensurePlayer();
    const made = await startAttempt(game);
    saveRoomSeat(made.room_id, { player_id: made.player_id, token: made.token });
    if (!made.official) toast(t("daily.practiceNote"), "info", 5000);
    location.hash = `#/room/${made.room_id}`;
  } catch (error) {
    toast(errorText(error), "error");
  }
}

/** "Play a friend": a private two-seat room of the default settings, this browser seated;
 * the link to share is shown in the panel (and again in the room's waiting screen). */
export function friendPanel() {
  const out = h("div", { class: "friend-link", "aria-live": "polite" });
  const make = async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const player = await ensurePlayer();
      const room = await createRoom({ private: true, seats: 2 });
      const seat = await joinRoom(room.room_id, player ? null : t("friend.guestName"));
      saveRoomSeat(room.room_id, { player_id: seat.player_id, token: seat.token });
      const link = `${location.origin}${location.pathname}#/room/${room.room_id}`;
      replace(
        out,
        h("p", {}, t("friend.share")),
        h("input", {
          class: "share-link",
          value: link,
          readonly: true,
          "aria-label": t("friend.share"),
        }),
        h("a", { class: "btn btn-primary", href: `#/room/${room.room_id}` }, t("friend.go")),
      );
    } catch (error) {
      replace(out, h("p", { class: "error" }, errorText(error)));
    } finally {
      button.disabled = false;
    }
  };
  return h(
    "section",
    { class: "panel panel-friend" },
    h("h2", {}, t("friend.title")),
    h("p", { class: "muted" }, t("friend.hint")),
    h("button", { class: "btn btn-big play-friend", onclick: make }, t("friend.create")),
    out,
  );
}
