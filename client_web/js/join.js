// A room link opened without a seat: take one (while the room waits), or watch.

import { getRoom, joinRoom } from "./api.js";
import { h, replace } from "./dom.js";
import { nameForm } from "./forms.js";
import { saveRoomSeat } from "./storage.js";
import { settingsText } from "./widgets.js";

export class JoinPage {
  constructor(app, roomId, onJoined) {
    this.app = app;
    this.roomId = roomId;
    this.onJoined = onJoined;
    replace(app, h("section", { class: "panel narrow" }, h("p", {}, "Loading the room…")));
    this.load();
  }

  destroy() {}

  async load() {
    let room;
    try {
      room = await getRoom(this.roomId);
    } catch (error) {
      replace(
        this.app,
        h(
          "section",
          { class: "panel narrow" },
          h("h1", {}, "Room not found"),
          h("p", {}, error.message),
          h("a", { class: "btn", href: "#/" }, "Back to the lobby"),
        ),
      );
      return;
    }
    const players = room.players ?? [];
    const open = room.status === "waiting" && players.length < (room.seats ?? 0);
    const parts = [
      h("h1", {}, room.game === "squadron" ? "Squadron race" : "Stalactites race"),
      h("p", { class: "race-settings" }, settingsText(room)),
      h(
        "p",
        {},
        `${players.length} of ${room.seats} seats taken`,
        players.length ? ": " : "",
        players.map((p) => p.name).join(", "),
      ),
    ];
    if (open) parts.push(this.joinForm());
    else
      parts.push(
        h(
          "p",
          { class: "muted" },
          room.status === "finished"
            ? "This race is over."
            : "This race is full or already running.",
        ),
      );
    const links = [h("a", { class: "btn", href: `#/watch/${this.roomId}` }, "Watch")];
    if (room.status === "finished")
      links.push(h("a", { class: "btn", href: `#/replay/${this.roomId}` }, "Replay"));
    parts.push(h("div", { class: "end-actions" }, links));
    replace(this.app, h("section", { class: "panel narrow join" }, parts));
  }

  joinForm() {
    return nameForm("Join the race", async (name) => {
      const seat = await joinRoom(this.roomId, name);
      saveRoomSeat(this.roomId, { player_id: seat.player_id, token: seat.token });
      this.onJoined();
    });
  }
}
