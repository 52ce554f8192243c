// Rematch on the results: propose one, or join the one another racer proposed (the offer
// comes live as the room event `rematch`). Either way this browser goes to the new room with
// the seat it holds here: a rematch seats the finished race's players, each under their seat
// id and token, and no one else. A racer who does not want one simply leaves. A ghost cannot
// join a rematch: after a ghost race, "Race again" opens the quick race's queue instead
// (another player, or a ghost at once).

import { errorText } from "./api.js";
import { proposeRematch } from "./daily_api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { quickHash } from "./quickrace.js";
import { saveRoomSeat } from "./storage.js";

/** The rematch part of the end screen (`s`: the race state). */
export function rematchView(s) {
  if (s.seat.tournament || !s.you) return null;
  if (s.players.some((p) => p.ghost_of)) {
    const again = quickHash(s.room?.game, s.room?.step);
    return h("a", { class: "btn btn-primary race-again", href: again }, t("rematch.raceAgain"));
  }
  const offer = s.rematch;
  if (!offer) {
    const propose = () => rematch(s, null);
    return h("button", { class: "btn btn-primary rematch", onclick: propose }, t("rematch.propose"));
  }
  const by = s.players.find((p) => p.player_id === offer.by);
  const mine = offer.by === s.you;
  return h(
    "div",
    { class: "rematch-offer", role: "status" },
    h("span", {}, mine ? t("rematch.youOffered") : t("rematch.offered", { name: by?.name ?? "?" })),
    " ",
    h(
      "button",
      { class: "btn btn-primary rematch", onclick: () => rematch(s, offer.room_id) },
      t("rematch.join"),
    ),
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
