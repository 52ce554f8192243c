// @ts-check
// Rematch on the results: propose one, or join the one another racer proposed (the offer
// comes live as the room event `rematch`). Either way this browser goes to the new room with
// the seat it holds here: a rematch seats the finished race's players, each under their seat
// id and token, and no one else. A racer who does not want one simply leaves. A ghost cannot
// join a rematch: after a ghost race, "Race again" opens the quick race's queue instead
// (another player, or a ghost at once). A daily deal's attempt has no rematch (a new room
// would be another deal, nothing to do with the day's): its end screen says instead whether
// it was the official attempt or practice, that its replay opens when the day ends, and
// leads to the day's leaderboard.

import { errorText } from "../shared/api.js";
import { proposeRematch } from "../daily/daily_api.js";
import { h, toast } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { quickHash } from "../lobby/quickrace.js";
import { saveRoomSeat } from "../shared/storage.js";

/** The rematch part of the end screen (`s`: the race state). */
export function rematchView(s) {
  if (s.seat.tournament || s.seat.arena || !s.you) return null; // (an arena pairs by itself)
  if (s.room?.daily) return dailyEndView(s);
  if (s.players.some((p) => p.ghost_of)) {
    const again = quickHash(s.room?.game, s.room?.step);
    return h("a", { class: "btn btn-primary race-again", href: again }, t("rematch.raceAgain"));
  }
  const offer = s.rematch;
  if (!offer) {
    const propose = () => rematch(s, null);
    return h(
      "button",
      { class: "btn btn-primary rematch", onclick: propose },
      t("rematch.propose"),
    );
  }
  return h(
    "div",
    { class: "rematch-offer", role: "status" },
    h("span", {}, offerText(s, offer)),
    " ",
    h(
      "button",
      { class: "btn btn-primary rematch", onclick: () => rematch(s, offer.room_id) },
      t("rematch.join"),
    ),
  );
}

/** Who offered the rematch: you, or a racer by name (the live event's `by`, or the view's
 * `rematch_by` for a room opened again after the offer); else simply that one is open. */
function offerText(s, offer) {
  if (offer.by && offer.by === s.you) return t("rematch.youOffered");
  const by = offer.by ? s.players.find((p) => p.player_id === offer.by) : null;
  return by?.name ? t("rematch.offered", { name: by.name }) : t("rematch.open");
}

/** A daily attempt's end: official or practice (once the server has said), the replay's
 * day, the way to the day's leaderboard. */
function dailyEndView(s) {
  const kind = s.dailyKind;
  const what = kind ? t(`daily.end.${kind}`) : null;
  return h(
    "div",
    { class: "daily-end", role: "status", dataset: { kind: kind ?? "" } },
    what ? h("p", { class: "daily-kind" }, h("strong", {}, what)) : null,
    h("p", { class: "muted" }, t("daily.end.replayLater")),
    h("a", { class: "btn daily-board-link", href: `#/daily/${s.room.game}` }, t("daily.board")),
  );
}

async function rematch(s, roomId) {
  try {
    const target = roomId ?? (await proposeRematch(s.roomId, s.seat.token)).room_id;
    saveRoomSeat(target, { player_id: s.you, token: s.seat.token });
    location.hash = `#/room/${target}`;
  } catch (error) {
    toast(errorText(error), "error");
  }
}
