// @ts-check
// One player's board as the client holds it: the last state the server confirmed, plus
// moves sent or queued but not yet answered, drawn on top of it at once.
//
// - A move can be made only when it is in the server's legal list for the position it
//   would be played in. While a move is in flight, the old list still holds for the piles
//   that move does not touch; such moves queue behind it and are sent, in order, only if
//   the server's next list contains them.
// - `accepted` replaces the confirmed state; `rejected` drops the move and everything
//   queued after it, and the board springs back to the confirmed state.
// - The move in flight keeps its id across reconnects and reloads, so re-sending it can
//   never apply it twice (the server answers a repeated id with its first answer).

import { applyMove, LegalIndex, parseMove } from "../board/moves.js";

const MAX_QUEUE = 4;

export class PlayerBoard {
  constructor() {
    this.state = null;
    this.legal = new LegalIndex([]);
    this.status = "playing";
    this.inflight = null; // {type, id, move?}
    this.queue = []; // move notations waiting for the move in flight
  }

  /** Take a position from the server (welcome, started, accepted). */
  confirm(state, legal, status) {
    if (state) this.state = state;
    if (legal) this.legal = new LegalIndex(legal);
    if (status) this.status = status;
  }

  /** The board to draw: confirmed, then the move in flight and the queue played on it. */
  shown() {
    if (!this.state) return null;
    let state = this.state;
    // A move re-sent after a reconnect may already be in the confirmed state: wait for its answer.
    const pending = this.inflight?.resent ? [] : this.pendingMoves();
    for (const move of pending) {
      const next = applyMove(state, move);
      if (!next) break;
      state = next;
    }
    return state;
  }

  pendingMoves() {
    const texts = this.inflight?.type === "move" ? [this.inflight.move, ...this.queue] : [];
    return texts.map(parseMove).filter(Boolean);
  }

  /** The moves offered to the player now: none are guessed, some are held back. */
  offered() {
    if (!this.inflight) return this.legal;
    const busy = this.inflight.type !== "move" || this.inflight.resent;
    if (busy || this.queue.length >= MAX_QUEUE) return new LegalIndex([]);
    const touched = new Set(["s", "w"]);
    for (const move of this.pendingMoves()) touched.add(move.src).add(move.dst);
    const free = this.legal.moves.filter((m) => !touched.has(m.src) && !touched.has(m.dst));
    return new LegalIndex(free.map((m) => m.text));
  }

  /** Record a player's move: returns "send", "queued" or null when it is not on offer. */
  play(text, id) {
    if (!this.offered().has(text)) return null;
    if (this.inflight) {
      this.queue.push(text);
      return "queued";
    }
    this.inflight = { type: "move", id, move: text };
    return "send";
  }

  /** Start an undo (only with nothing in flight): returns the frame to send. */
  undo(id) {
    if (this.inflight) return null;
    this.inflight = { type: "undo", id };
    return this.inflight;
  }

  /** Declare the foundation step (only with nothing in flight): returns the frame to send. */
  declare(id, step) {
    if (this.inflight) return null;
    this.inflight = { type: "declare", id, step };
    return this.inflight;
  }

  /** The server accepted frame.id: returns true when it answered our move in flight. */
  accepted(frame) {
    if (!this.inflight || frame.id !== this.inflight.id) return false;
    this.inflight = null;
    this.confirm(frame.state, frame.legal, frame.status);
    return true;
  }

  /** The server rejected frame.id: returns the moves dropped (for the spring-back). */
  rejected(frame) {
    if (!this.inflight || frame.id !== this.inflight.id) return null;
    const dropped = [this.inflight, ...this.queue.map((move) => ({ type: "move", move }))];
    this.inflight = null;
    this.queue = [];
    return dropped;
  }

  /** After an answer: the next queued move, if the new legal list still holds it. */
  nextQueued(newId) {
    if (this.inflight || !this.queue.length) return { frame: null, dropped: [] };
    const text = this.queue.shift();
    if (!this.legal.has(text)) {
      const dropped = [text, ...this.queue];
      this.queue = [];
      return { frame: null, dropped };
    }
    this.inflight = { type: "move", id: newId, move: text };
    return { frame: this.inflight, dropped: [] };
  }

  /** The frame to (re)send for the move in flight. */
  inflightFrame() {
    const f = this.inflight;
    if (!f) return null;
    if (f.type === "move") return { type: "move", id: f.id, move: f.move };
    if (f.type === "declare") return { type: "declare_step", id: f.id, step: f.step };
    return { type: "undo", id: f.id };
  }
}
