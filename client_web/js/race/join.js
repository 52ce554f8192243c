// @ts-check
// A room link opened without a seat: take one (while the room waits), or watch.

import { errorText, getRoom, joinRoom } from "../shared/api.js";
import { dailyToday } from "../daily/daily_api.js";
import { h, replace } from "../shared/dom.js";
import { list, t } from "../shared/i18n.js";
import { nameForm } from "../shared/forms.js";
import { ensurePlayer } from "../shared/session.js";
import { saveRoomSeat } from "../shared/storage.js";
import { gameName, settingsText } from "../shared/widgets.js";

export class JoinPage {
  constructor(app, roomId, onJoined) {
    this.app = app;
    this.roomId = roomId;
    this.onJoined = onJoined;
    /** @type {any} the session's player, once loaded */
    this.player = undefined;
    replace(app, h("section", { class: "panel narrow" }, h("p", {}, t("common.loading"))));
    this.load();
  }

  destroy() {}

  async load() {
    let room;
    try {
      [room, this.player] = await Promise.all([getRoom(this.roomId), ensurePlayer()]);
    } catch (error) {
      replace(
        this.app,
        h(
          "section",
          { class: "panel narrow" },
          h("h1", {}, t("join.notFound")),
          h("p", {}, errorText(error)),
          h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
        ),
      );
      return;
    }
    const players = room.players ?? [];
    if (await this.ownAttempt(room)) return;
    const open = room.status === "waiting" && players.length < (room.seats ?? 0);
    const parts = [
      h("h1", {}, t("race.title", { game: gameName(room.game) })),
      h("p", { class: "race-settings" }, settingsText(room)),
      room.rated ? h("p", { class: "rated-note" }, t("join.ratedNote")) : null,
      h(
        "p",
        {},
        t("join.seatsTaken", { n: players.length, seats: room.seats }),
        players.length ? ": " : "",
        list(players.map((p) => p.name)),
      ),
    ];
    if (open) parts.push(this.joinForm());
    else
      parts.push(
        h("p", { class: "muted" }, room.status === "finished" ? t("join.over") : t("join.full")),
      );
    const links = [h("a", { class: "btn", href: `#/watch/${this.roomId}` }, t("lobby.watch"))];
    if (room.status === "finished")
      links.push(h("a", { class: "btn", href: `#/replay/${this.roomId}` }, t("join.replay")));
    parts.push(h("div", { class: "end-actions" }, links));
    replace(this.app, h("section", { class: "panel narrow join" }, parts));
  }

  /** Your own daily attempt, opened where this browser kept no seat (another tab or device):
   * the server hands its seat back to your session, and the race opens. */
  async ownAttempt(room) {
    const you = this.player?.player_id;
    const mine = you && (room.players ?? []).some((p) => p.player_id === you);
    if (!room.daily || !mine) return false;
    const today = await dailyToday(room.game).catch(() => null);
    if (today?.room_id !== this.roomId || !today.token) return false;
    saveRoomSeat(this.roomId, { player_id: this.player.player_id, token: today.token });
    this.onJoined();
    return true;
  }

  joinForm() {
    return nameForm(
      t("join.join"),
      async (name) => {
        const seat = await joinRoom(this.roomId, name);
        saveRoomSeat(this.roomId, { player_id: seat.player_id, token: seat.token });
        this.onJoined();
      },
      this.player,
    );
  }
}
