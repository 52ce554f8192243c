// @ts-check
// #/learn: make the guided first game (a solo room on the guide's deal, through the HTTP API
// as any host would), take its seat, and go to its race page, where the guide speaks.

import { createRoom, errorText, joinRoom } from "../shared/api.js";
import { h, replace } from "../shared/dom.js";
import { GUIDED_SETTINGS } from "./guide.js";
import { t } from "../shared/i18n.js";
import { saveGuideOffered, saveRoomSeat, savedName } from "../shared/storage.js";

export class LearnPage {
  constructor(app) {
    this.app = app;
    this.live = true;
    saveGuideOffered();
    replace(
      app,
      h(
        "section",
        { class: "panel narrow" },
        h("h1", {}, t("learn.title")),
        h("p", {}, t("learn.making")),
      ),
    );
    this.start();
  }

  destroy() {
    this.live = false;
  }

  async start() {
    try {
      const room = await createRoom(GUIDED_SETTINGS);
      const seat = await joinRoom(room.room_id, savedName() || t("learn.defaultName"));
      saveRoomSeat(room.room_id, { player_id: seat.player_id, token: seat.token, guide: true });
      if (this.live) location.hash = `#/room/${room.room_id}`;
    } catch (error) {
      if (!this.live) return;
      replace(
        this.app,
        h(
          "section",
          { class: "panel narrow" },
          h("h1", {}, t("learn.title")),
          h("p", { class: "form-error" }, t("learn.failed", { why: errorText(error) })),
          h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
        ),
      );
    }
  }
}
