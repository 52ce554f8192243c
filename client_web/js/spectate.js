// The spectator view: every racer's board side by side, shown the room's delay behind, with
// live progress bars, the number watching, and the results at the end. The server sends the
// boards (`boards` in the welcome, then a `board` frame per move, already delayed), so this
// page only draws what it is given.

import { serverNow, syncClock } from "./clock.js";
import { renderBoard } from "./board.js";
import { Connection, showConnection } from "./connection.js";
import { clockText, h, replace } from "./dom.js";
import { mergePlayer, racersPanel, resultsTable, settingsText } from "./widgets.js";
import { checkReveal, commitmentLine, revealView } from "./fairness.js";

export class SpectatorPage {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.room = null;
    this.players = [];
    this.boards = new Map(); // player_id -> board state
    this.lastSeq = null;
    this.standings = null;
    this.clock = h("div", { class: "clock" }, "–:––");
    this.delay = h("p", { class: "delay-note" });
    this.watching = h("p", { class: "watchers muted", "aria-live": "polite" });
    this.title = h("h1", { class: "race-title" }, "Watching");
    this.settings = h("p", { class: "race-settings" });
    this.commitment = h("div", { class: "commitment-host" });
    this.revealed = null;
    this.grid = h("div", { class: "spectator-grid" });
    this.results = h("div", { class: "spectator-results" });
    this.root = h(
      "section",
      { class: "spectate", dataset: { room: roomId } },
      h(
        "div",
        { class: "race-head" },
        h("div", {}, this.title, this.settings, this.commitment, this.delay, this.watching),
        this.clock,
      ),
      this.results,
      this.grid,
    );
    replace(app, this.root);
    this.conn = new Connection(`/ws/rooms/${encodeURIComponent(roomId)}`, {
      hello: () => this.hello(),
      onFrame: (f) => this.frame(f),
      onState: (state, detail) => showConnection(state, detail),
    });
    this.conn.connect();
    syncClock();
    this.ticker = setInterval(() => this.tick(), 250);
  }

  destroy() {
    clearInterval(this.ticker);
    this.conn.close();
    showConnection("closed");
  }

  hello() {
    const frame = { type: "hello", spectator: true };
    if (this.lastSeq !== null) frame.last_seq = this.lastSeq;
    return frame;
  }

  frame(f) {
    if (typeof f?.seq === "number") {
      if (this.lastSeq !== null && f.seq <= this.lastSeq && f.type !== "welcome") return;
      this.lastSeq = Math.max(this.lastSeq ?? f.seq, f.seq);
    }
    const handler = {
      welcome: () => this.welcome(f),
      countdown: () => this.setStatus("countdown", { starts_at: f.starts_at, ends_at: f.ends_at }),
      started: () => this.started(f),
      board: () => this.board(f),
      spectators: () => this.spectators(f.count),
      player: () => this.progress({ ...f.player }),
      progress: () => this.progress(f),
      progress_batch: () => f.events.forEach((e) => this.progress(e)),
      finished: () => this.progress(f),
      results: () => this.finish(f),
      error: () => this.delay.replaceChildren(`Error: ${f.message ?? f.code}`),
    }[f?.type];
    if (handler) handler();
  }

  welcome(f) {
    this.room = f.room ?? this.room;
    this.players = [...(this.room?.players ?? [])];
    this.lastSeq = f.seq ?? this.lastSeq;
    this.boards = new Map(Object.entries(f.boards ?? {}));
    if (this.room?.status === "finished") {
      this.standings = this.players;
      this.reveal(this.room);
    }
    this.render();
  }

  started(f) {
    for (const p of this.players) if (!p.status || p.status === "waiting") p.status = "playing";
    // Every board starts as the deal; the moves follow as board frames (the delay behind).
    for (const p of this.players)
      if (!this.boards.has(p.player_id)) this.boards.set(p.player_id, f.state);
    this.setStatus("racing", { ends_at: f.ends_at });
  }

  setStatus(status, fields) {
    if (!this.room) return;
    Object.assign(this.room, { status }, fields);
    this.render();
  }

  board(f) {
    if (!f.player_id || !f.state) return;
    this.boards.set(f.player_id, f.state);
    this.drawBoard(f.player_id);
  }

  spectators(count) {
    if (!this.room) return;
    this.room.spectators = count;
    this.drawWatching();
  }

  progress(f) {
    mergePlayer(this.players, f);
    this.drawBoard(f.player_id);
  }

  reveal(f) {
    checkReveal(f).then((checked) => {
      this.revealed = checked;
      this.render();
    });
  }

  finish(f) {
    this.reveal(f);
    this.standings = f.standings ?? [];
    if (this.room) this.room.status = "finished";
    for (const row of this.standings) if (row.player_id) mergePlayer(this.players, row);
    this.render();
  }

  render() {
    const room = this.room;
    if (!room) return;
    this.title.textContent = `Watching: ${room.game === "squadron" ? "Squadron" : "Stalactites"} race`;
    this.settings.textContent = settingsText(room);
    replace(this.commitment, commitmentLine(room));
    this.delay.textContent = delayText(room);
    this.drawWatching();
    this.root.dataset.status = room.status;
    replace(
      this.grid,
      this.players.map((p) => this.boardCard(p)),
    );
    if (this.standings) {
      replace(
        this.results,
        h("h2", {}, "Results"),
        resultsTable(this.standings, { game: room.game }),
        revealView(this.revealed),
        h(
          "a",
          { class: "btn btn-primary replay-link", href: `#/replay/${this.roomId}` },
          "Watch the replay",
        ),
      );
    } else replace(this.results);
    this.tick();
  }

  drawWatching() {
    const count = this.room?.spectators ?? 0;
    this.watching.textContent = `${count} watching`;
  }

  boardCard(player) {
    const state = this.boards.get(player.player_id);
    return h(
      "article",
      { class: "spectated", dataset: { player: player.player_id } },
      racersPanel([player], { game: this.room?.game }),
      state
        ? renderBoard(state, { compact: true })
        : h("div", { class: "board-placeholder" }, "Waiting for the start"),
    );
  }

  drawBoard(playerId) {
    const old = this.grid.querySelector(`.spectated[data-player="${CSS.escape(playerId ?? "")}"]`);
    const player = this.players.find((p) => p.player_id === playerId);
    if (!old || !player) return this.render();
    old.replaceWith(this.boardCard(player));
  }

  tick() {
    const room = this.room;
    if (!room) return;
    if (room.status === "racing" && room.ends_at)
      this.clock.textContent = clockText(room.ends_at - serverNow());
    else if (room.status === "countdown" && room.starts_at)
      this.clock.textContent = `Starts in ${Math.max(0, Math.ceil((room.starts_at - serverNow()) / 1000))}`;
    else if (room.status === "finished") this.clock.textContent = "Finished";
    else this.clock.textContent = "Waiting";
  }
}

function delayText(room) {
  if (room.status === "finished") return "The race is over: every board is shown as it ended.";
  const delay = room.spectator_delay_s ?? 0;
  if (!delay) return "Boards are shown live.";
  return `Boards are shown ${delay} s behind the racers, so nobody can copy the leader. Progress bars are live.`;
}
