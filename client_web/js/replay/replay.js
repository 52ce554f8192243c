// @ts-check
// A finished race's page, #/replay/ID: the results, the solver's analysis (analysisview.js)
// and the replay by the race clock. Every board is drawn as it stood at the same race-clock
// time, from the deal's starting layout and each racer's timed actions in the record
// (timeline.js), played at 1x, 2x, 4x or 8x, or set by the time slider; each racer's actions
// are listed with their times, undone moves marked. The clock and the boards are the page's
// state; one render, run each animation frame while playing and at once on each key or
// click, draws them in place (the boards only when some board's action changed).

import { errorText, getAnalysis, getRecord, getRoom } from "../shared/api.js";
import { cardTotal } from "../board/cards.js";
import { h, replace, tableScroll } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { patch, setText } from "../shared/render.js";
import { Playhead, SPEEDS, stepAt } from "./timeline.js";
import { raceTime } from "./timelineview.js";
import { AnalysisView } from "./analysisview.js";
import { replayBoard, runsOf, scrollToCurrent } from "./replayviews.js";
import { resultsTable, settingsText } from "../shared/widgets.js";
import { runAction } from "../shared/ghost.js";
import { withReport } from "../fairplay/fairplayview.js";
import { ensurePlayer } from "../shared/session.js";

export class ReplayPage {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.focus = "all";
    this.runs = []; // {player_id, name, steps, timed}
    this.frame = null;
    this.keys = (e) => this.key(e);
    this.resize = () => this.analysis?.resized();
    document.addEventListener("keydown", this.keys);
    window.addEventListener("resize", this.resize);
    replace(app, h("section", { class: "panel" }, h("p", {}, t("common.loading"))));
    this.load();
  }

  destroy() {
    this.gone = true;
    document.removeEventListener("keydown", this.keys);
    window.removeEventListener("resize", this.resize);
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  async load() {
    let data;
    // Who is looking (for "Report" on the others' results rows, never their own).
    const [room, viewer] = await Promise.all([
      getRoom(this.roomId).catch(() => null),
      ensurePlayer().catch(() => null),
    ]);
    this.you = viewer?.player_id;
    // A daily deal's attempt keeps its deal, record and replay secret until its day is over:
    // say so, without asking for the record the server would refuse.
    const later = room?.daily && !room.deal ? t("replay.dailyLater") : null;
    try {
      if (later) throw new Error(later);
      data = await getRecord(this.roomId);
    } catch (error) {
      replace(
        this.app,
        h(
          "section",
          { class: "panel narrow replay-none" },
          h("h1", {}, t("replay.none")),
          h("p", {}, later ?? errorText(error)),
          h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
        ),
      );
      return;
    }
    if (this.gone) return;
    this.room = room;
    this.game = data?.game ?? room?.game;
    this.runs = runsOf(data, room);
    const ends = (data?.players ?? []).map((p) => p.elapsed_ms ?? 0);
    const last = this.runs.flatMap((r) => r.steps.map((s) => s.at_ms));
    this.head = new Playhead(Math.max(0, ...ends, ...last));
    this.analysis = new AnalysisView({
      names: new Map(this.runs.map((r) => [r.player_id, r.name])),
      runs: new Map(this.runs.map((r) => [r.player_id, r.steps])),
      total: cardTotal(this.game),
      endMs: this.head.duration,
      onJump: (ms) => this.jump(ms),
      onRetry: () => this.loadAnalysis(),
    });
    this.build(data);
    this.draw();
    this.loadAnalysis();
  }

  async loadAnalysis() {
    this.analysis.show({ loading: true });
    try {
      const data = await getAnalysis(this.roomId);
      this.turning = new Map(data.players.map((p) => [p.player_id, p.turning_point]));
      this.analysis.show({ data });
    } catch (error) {
      this.analysis.show({ error: errorText(error) });
    }
    if (!this.gone) this.draw(true);
  }

  build(data) {
    this.boards = h("div", { class: "replay-boards" });
    // The heading says what the page is; the room's settings go on a line of their own.
    const title = t(this.room ? "replay.heading" : "join.replay");
    const standings = this.room?.standings ?? data?.players;
    const untimed = this.runs.some((r) => !r.timed);
    replace(
      this.app,
      h(
        "div",
        { class: "replay" },
        h(
          "div",
          { class: "race-head" },
          h(
            "div",
            {},
            h("h1", { class: "race-title" }, title),
            this.room ? h("p", { class: "race-settings" }, settingsText(this.room)) : null,
          ),
        ),
        standings?.length
          ? h(
              "section",
              { class: "panel replay-results" },
              h("h2", {}, t("race.results")),
              tableScroll(
                resultsTable(standings, {
                  game: this.game,
                  action: withReport(runAction(this.room), this.roomId, this.you),
                }),
                t("race.results"),
              ),
            )
          : null,
        this.analysis.el,
        h(
          "section",
          { class: "panel replay-clock", "aria-labelledby": "replay-title" },
          h("h2", { id: "replay-title" }, t("replay.byClock")),
          this.controlsBar(),
          h("p", { class: "muted replay-keys" }, t("replay.keys")),
          untimed ? h("p", { class: "delay-note" }, t("replay.untimed")) : null,
          this.runs.some((r) => r.steps[0].state)
            ? null
            : h("p", { class: "delay-note" }, t("replay.noLayout")),
          this.boards,
        ),
      ),
    );
  }

  /** Play and pause, the speeds, the time slider and its readout, whose boards, the jumps. */
  controlsBar() {
    this.playButton = h("button", {
      class: "btn btn-primary replay-play",
      onclick: () => this.toggle(),
    });
    this.speeds = SPEEDS.map((speed) =>
      h(
        "button",
        {
          class: "btn replay-speed",
          dataset: { speed: String(speed) },
          "aria-label": t("replay.speedLabel", { n: speed }),
          onclick: () => this.setSpeed(speed),
        },
        t("replay.speed", { n: speed }),
      ),
    );
    this.readout = h("output", { class: "replay-readout", "aria-live": "off" });
    this.slider = h("input", {
      class: "replay-slider",
      type: "range",
      min: "0",
      max: String(Math.ceil(this.head.duration)),
      step: "100",
      value: "0",
      "aria-label": t("replay.time"),
      oninput: (e) => this.seek(Number(e.target.value)),
    });
    const who = h(
      "select",
      {
        class: "replay-whose",
        "aria-label": t("replay.whose"),
        onchange: (e) => {
          this.focus = e.target.value;
          this.draw(true);
        },
      },
      h("option", { value: "all" }, t("replay.all")),
      this.runs.map((r) => h("option", { value: r.player_id }, r.name)),
    );
    this.jumps = h("div", { class: "replay-jumps" });
    return h(
      "div",
      { class: "replay-controls" },
      h(
        "div",
        { class: "replay-transport" },
        h(
          "button",
          { class: "btn", onclick: () => this.seek(0), "aria-label": t("replay.toStart") },
          t("replay.start"),
        ),
        this.playButton,
        h(
          "div",
          { class: "replay-speeds", role: "group", "aria-label": t("replay.speeds") },
          this.speeds,
        ),
        who,
      ),
      h("div", { class: "replay-time" }, this.slider, this.readout),
      this.jumps,
    );
  }

  toggle() {
    const wall = performance.now();
    if (this.head.playing) this.head.pause(wall);
    else this.head.play(wall);
    this.draw();
  }

  setSpeed(speed) {
    this.head.setSpeed(speed, performance.now());
    this.draw();
  }

  seek(ms) {
    this.head.seek(ms, performance.now());
    this.draw();
  }

  /** Show the race at `ms`, paused. */
  pause(ms) {
    this.head.pause(performance.now());
    this.seek(ms);
  }

  /** Show the race at `ms`, paused, with the replay in view. */
  jump(ms) {
    this.pause(ms);
    this.boards.scrollIntoView?.({ block: "start" });
  }

  /** The race time of the next action of the boards shown, or just before the last shown. */
  neighbour(direction) {
    const now = this.head.ms;
    const times = this.shown().flatMap((r) => r.steps.slice(1).map((s) => s.at_ms));
    if (direction > 0) return Math.min(this.head.duration, ...times.filter((ms) => ms > now));
    return Math.max(0, ...times.filter((ms) => ms <= now)) - 1;
  }

  key(event) {
    if (!this.head) return;
    const tag = event.target?.tagName;
    if (tag === "INPUT" || tag === "SELECT" || (tag === "BUTTON" && event.key === " ")) return;
    const moves = {
      ArrowRight: () => this.neighbour(1),
      ArrowLeft: () => this.neighbour(-1),
      Home: () => 0,
      End: () => this.head.duration,
    };
    if (event.key === " ") {
      event.preventDefault();
      this.toggle();
    } else if (event.key in moves) {
      event.preventDefault();
      this.pause(moves[event.key]());
    }
  }

  shown() {
    return this.focus === "all" ? this.runs : this.runs.filter((r) => r.player_id === this.focus);
  }

  /** Bring the page up to the clock; while playing, again next frame. */
  draw(force = false) {
    if (this.gone) return;
    const wall = performance.now();
    const ms = this.head.tick(wall);
    const playing = this.head.playing;
    setText(
      this.readout,
      t("replay.clock", { now: raceTime(ms), total: raceTime(this.head.duration) }),
    );
    this.readout.dataset.ms = String(Math.round(ms));
    this.readout.dataset.wall = String(Math.round(wall)); // the page's clock when it was read
    this.slider.value = String(Math.round(ms));
    this.slider.setAttribute("aria-valuetext", raceTime(ms));
    setText(this.playButton, playing ? t("replay.pause") : t("replay.play"));
    this.playButton.setAttribute("aria-pressed", String(playing));
    for (const b of this.speeds)
      b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === this.head.speed));
    const shown = this.shown();
    const sig = `${this.focus}|${shown.map((r) => stepAt(r.steps, ms).index).join(",")}`;
    if (force || sig !== this.sig) {
      this.sig = sig;
      const compact = this.focus === "all" && this.runs.length > 1;
      const view = { game: this.game, compact, onPick: (at) => this.pause(at) };
      patch(
        this.boards,
        shown.map((run) => replayBoard(run, ms, view)),
      );
      this.boards.classList.toggle("single", shown.length === 1);
      for (const list of this.boards.querySelectorAll(".action-list")) scrollToCurrent(list);
      patch(this.jumps, this.jumpButtons());
    }
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = playing ? requestAnimationFrame(() => this.draw()) : null;
  }

  jumpButtons() {
    const jumps = this.runs
      .map((r) => [r, this.turning?.get(r.player_id)])
      .filter(([, tp]) => tp?.at_ms != null);
    if (!jumps.length) return [];
    return [
      h("span", { class: "muted" }, t("replay.jumpTo")),
      jumps.map(([run, tp]) =>
        h(
          "button",
          {
            class: "btn btn-quiet replay-jump",
            dataset: { player: run.player_id },
            onclick: () => this.jump(Math.max(0, tp.at_ms - 1)),
          },
          t("replay.turningOf", { name: run.name }),
        ),
      ),
    ];
  }
}
