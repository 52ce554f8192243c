// @ts-check
// The arena page (#/arena/ID): the arena's name and terms, the clock to its start or end,
// Join (then Pause and Resume), the live standings (the top ten and your line), the top race
// to watch, all the standings page by page, and the podium at the end. An entrant's frames
// come from the tab's arena socket (arenasocket.js), which takes them to each race by itself;
// anyone else's from a spectator's socket of the page's own. The arena as last heard (HTTP,
// then frames) is the page's state (arenas.js); one scheduled render draws it in place.

import { serverNow, syncClock } from "../shared/clock.js";
import { Connection } from "../shared/connection.js";
import { EMPTY, PAGE, fromAnswer, pagesOf, reduce } from "./arenas.js";
import { arenaError, enterArena, getArena, pauseArena } from "./arenas_api.js";
import { enteredArena, onArena, playArena, setPaused } from "./arenasocket.js";
import {
  arenaName,
  clockWords,
  liveTable,
  podiumView,
  standingsTable,
  termsText,
} from "./arenaviews.js";
import { h, replace } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { patch, scheduled, setData, setText } from "../shared/render.js";
import { ensurePlayer } from "../shared/session.js";
import { roomSeat } from "../shared/storage.js";

const POLL_MS = 15000;
const TICK_MS = 250;

export class ArenaPage {
  constructor(app, id) {
    this.id = id;
    this.state = EMPTY;
    this.all = { offset: 0, lines: null, total: 0 }; // the full standings' page shown
    this.renderer = scheduled(() => this.render());
    this.parts = {
      title: h("h1", { class: "race-title" }),
      terms: h("p", { class: "race-settings" }),
      status: h("p", { class: "round-line" }),
      clockLabel: h("span", { class: "arena-clock-label" }),
      clock: h("strong", { class: "clock" }, "–:––"),
      actions: h("div", { class: "arena-actions" }),
      note: h("p", { class: "arena-note", role: "status", "aria-live": "polite" }),
      podium: h("div", { class: "arena-podium-box" }),
      standings: h("section", { class: "panel standings-box" }),
      all: h("details", { class: "arena-all", ontoggle: () => this.pageAt(this.all.offset) }),
    };
    const p = this.parts;
    const head = h(
      "div",
      { class: "race-head" },
      h("div", {}, p.title, p.terms, p.status),
      h("div", { class: "arena-clock" }, p.clockLabel, p.clock),
    );
    const rules = h(
      "details",
      { class: "arena-rules" },
      h("summary", {}, t("arenas.rulesTitle")),
      h("p", {}, t("arenas.rulesText")),
    );
    this.root = h(
      "section",
      { class: "arena", dataset: { arena: id } },
      head,
      p.actions,
      p.note,
      p.podium,
      p.standings,
      p.all,
      rules,
    );
    replace(app, this.root);
    syncClock();
    this.load().then(() => this.listen());
    this.poller = setInterval(() => this.load(), POLL_MS);
    this.ticker = setInterval(() => this.drawClock(), TICK_MS);
  }

  destroy() {
    clearInterval(this.poller);
    clearInterval(this.ticker);
    this.renderer.stop();
    this.stopListening();
  }

  async load() {
    let answer;
    try {
      await ensurePlayer(); // (a first visit's session: then the answer has your line)
      answer = await getArena(this.id);
    } catch (error) {
      if (!this.state.arena) this.gone(error);
      return;
    }
    this.state = { ...fromAnswer(answer), topRace: this.state.topRace };
    if (this.listening === "spectator" && this.playing()) this.listen(); // entered elsewhere
    this.renderer.schedule();
  }

  /** Whether this player is an entrant of the arena, still on: they play from this tab (its
   * socket makes them present, and takes them to each race). */
  playing() {
    return Boolean(this.state.you) && this.state.status !== "finished";
  }

  gone(error) {
    replace(
      this.root,
      h("h1", {}, t("arenas.notFound")),
      h("p", {}, arenaError(error)),
      h("a", { class: "btn", href: "#/" }, t("common.backLobby")),
    );
  }

  /** Frames from the tab's socket (an entrant of this arena) or a spectator's of our own. */
  listen() {
    if (!this.state.arena) return;
    this.stopListening();
    if (this.playing() && enteredArena() !== this.id) playArena(this.id);
    if (enteredArena() === this.id) {
      this.unlisten = onArena((_, frame) => frame && this.frame(frame));
      this.listening = "entrant";
      return;
    }
    const conn = new Connection(`/ws/arenas/${encodeURIComponent(this.id)}`, {
      hello: () => ({ type: "hello" }),
      onFrame: (frame) => this.frame(frame),
    });
    conn.connect();
    this.unlisten = () => conn.close();
    this.listening = "spectator";
  }

  stopListening() {
    this.unlisten?.();
    this.unlisten = null;
    this.listening = null;
  }

  frame(frame) {
    if (frame.arena_id && frame.arena_id !== this.id) return;
    this.state = reduce(this.state, frame);
    if (frame.type === "ended") this.load(); // the full standings, final
    this.renderer.schedule();
  }

  // The entrant's actions.

  async join(button) {
    button.disabled = true;
    try {
      if (!(await ensurePlayer())) return this.say(arenaError({ code: "unauthorized" }), true);
      const answer = await enterArena(this.id);
      this.state = { ...this.state, you: answer.you };
      this.say("");
      this.listen(); // now as an entrant: the tab's socket
    } catch (error) {
      this.say(arenaError(error), true);
    } finally {
      button.disabled = false;
    }
    this.renderer.schedule();
  }

  async pause(paused, button) {
    button.disabled = true;
    try {
      const answer = await pauseArena(this.id, paused);
      this.state = { ...this.state, you: { ...this.state.you, paused: answer.paused } };
      setPaused(answer.paused);
      this.say("");
    } catch (error) {
      this.say(arenaError(error), true);
    } finally {
      button.disabled = false;
    }
    this.renderer.schedule();
  }

  say(text, bad = false) {
    setText(this.parts.note, text);
    this.parts.note.classList.toggle("form-error", bad);
  }

  /** A page of the full standings (when the details are open). */
  async pageAt(offset) {
    if (!this.parts.all.open) return;
    try {
      const answer = await getArena(this.id, offset);
      this.all = { offset, lines: answer.standings, total: answer.total };
    } catch (error) {
      this.all = { offset, lines: null, total: 0, error: arenaError(error) };
    }
    this.renderer.schedule();
  }

  // Drawing.

  render() {
    const s = this.state;
    if (!s.arena) return;
    const p = this.parts;
    setData(this.root, "status", s.status);
    setText(p.title, arenaName(s.arena));
    setText(p.terms, termsText(s.arena));
    const entrants = t("arenas.entrants", { n: s.entrants });
    setText(p.status, `${t(`arenas.status.${s.status}`)} · ${entrants}`);
    patch(p.actions, this.actions(s));
    patch(p.podium, s.podium ? podiumView(s.podium, s.you) : null);
    const live = s.status === "running" ? h("span", { class: "tag live" }, t("arenas.live")) : null;
    patch(p.standings, h("h2", {}, t("arenas.standings"), live), liveTable(s));
    patch(p.all, this.allView());
    this.drawClock();
  }

  drawClock() {
    const s = this.state;
    if (!s.arena) return;
    const [label, time] = clockWords(s.arena, s.status, serverNow());
    setText(this.parts.clockLabel, label);
    setText(this.parts.clock, time);
    if (this.parts.clock.hidden !== !time) this.parts.clock.hidden = !time;
  }

  actions(s) {
    const parts = [];
    const over = s.status === "finished";
    const mine = enteredArena() === this.id;
    if (!over && (!s.you || !mine)) {
      const join = (e) => this.join(e.currentTarget);
      const words = t(s.you ? "arenas.playHere" : "arenas.join");
      parts.push(h("button", { class: "btn btn-primary arena-join", onclick: join }, words));
    }
    if (!over && s.you && mine) {
      const paused = Boolean(s.you.paused);
      const line = paused ? "arenas.pausedLine" : "arenas.entered";
      parts.push(
        h("p", { class: `entrant-line ${paused ? "muted" : "ok"}` }, t(line)),
        h(
          "button",
          { class: "btn", onclick: (e) => this.pause(!paused, e.currentTarget) },
          t(paused ? "arenas.resume" : "arenas.pause"),
        ),
      );
    }
    const racing = s.roomId && roomSeat(s.roomId)?.token;
    if (racing && !over) {
      const back = t("arenas.backToRace");
      parts.push(h("a", { class: "btn btn-primary", href: `#/room/${s.roomId}` }, back));
    }
    if (s.topRace && !over) {
      parts.push(
        h("a", { class: "btn arena-watch", href: `#/watch/${s.topRace}` }, t("arenas.watchTop")),
      );
    }
    return h("div", { class: "end-actions" }, parts);
  }

  allView() {
    const summary = h("summary", {}, t("arenas.all", { n: this.state.entrants }));
    if (!this.parts.all.open) return summary;
    const { offset, lines, error } = this.all;
    if (error) return [summary, h("p", { class: "muted" }, error)];
    if (!lines) return summary;
    const you = this.state.you?.player_id;
    const marked = lines.map((line) => ({ ...line, mine: line.player_id === you }));
    const pages = pagesOf(this.all.total, PAGE);
    const nav = pages.length > 1 ? this.pager(pages, offset) : null;
    return [summary, standingsTable(marked, t("arenas.allTitle")), nav];
  }

  pager(pages, offset) {
    const at = pages.findIndex((page) => page.offset === offset);
    const page = pages[Math.max(at, 0)];
    const button = (to, disabled, words) =>
      h("button", { class: "btn btn-small", disabled, onclick: () => this.pageAt(to) }, words);
    return h(
      "div",
      { class: "arena-pager" },
      button(offset - PAGE, at <= 0, t("arenas.prev")),
      h("span", { class: "muted" }, t("arenas.pageOf", { ...page, total: this.all.total })),
      button(offset + PAGE, at >= pages.length - 1, t("arenas.next")),
    );
  }
}
