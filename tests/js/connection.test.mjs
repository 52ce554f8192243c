// The connection's bookkeeping of the stream (client_web/js/shared/connection.js): every hello after
// the first carries `last_seq`, the last event seen, and an event seen already is not handed
// to the page again; a welcome sets the place. Run on a fake WebSocket (a stand-in for the
// network, the only thing not under test).

import assert from "node:assert/strict";
import { test } from "node:test";

import { Connection, SeqTracker } from "../../client_web/js/shared/connection.js";

/** A WebSocket as far as Connection uses one; the test opens, feeds and drops it. */
class FakeSocket {
  static OPEN = 1;
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    /** @type {(event?: any) => void} the handlers Connection sets */
    this.onopen = null;
    /** @type {(event: any) => void} */
    this.onmessage = null;
    /** @type {(event: any) => void} */
    this.onclose = null;
    FakeSocket.made.push(this);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close(code = 1000, reason = "") {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }

  // What the server does.
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen();
  }

  say(frame) {
    this.onmessage({ data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }

  drop(code = 1006, reason = "") {
    this.readyState = 3;
    this.onclose({ code, reason });
  }
}

/** A connection on a fake socket, and what it handed the page. */
function connected(hello = { type: "hello", token: "tok" }) {
  FakeSocket.made = [];
  const frames = [];
  const states = [];
  const conn = new Connection("/ws/rooms/r1", {
    url: "ws://test/ws/rooms/r1",
    WebSocket: FakeSocket,
    hello: () => hello,
    onFrame: (f) => frames.push(f),
    onState: (state, detail) => states.push([state, detail]),
  });
  conn.connect();
  const socket = () => FakeSocket.made[FakeSocket.made.length - 1];
  socket().open();
  return { conn, frames, states, socket };
}

const types = (frames) => frames.map((f) => `${f.type}${f.seq ?? ""}`);

test("the first hello is the page's own, with no last_seq", () => {
  const { conn, socket } = connected();
  assert.equal(socket().url, "ws://test/ws/rooms/r1");
  assert.deepEqual(socket().sent, [{ type: "hello", token: "tok" }]);
  conn.close();
});

test("each event is handed on once: one seen already (resent after a reconnect) is dropped", () => {
  const { conn, frames, socket } = connected();
  const s = socket();
  s.say({ type: "welcome", seq: 4 });
  s.say({ type: "progress", seq: 5 });
  s.say({ type: "progress", seq: 5 });
  s.say({ type: "progress", seq: 3 });
  s.say({ type: "player", seq: 6 });
  assert.deepEqual(types(frames), ["welcome4", "progress5", "player6"]);
  conn.close();
});

test("every hello after the first says where the stream had got to", () => {
  const { conn, socket } = connected();
  socket().say({ type: "welcome", seq: 10 });
  socket().say({ type: "progress", seq: 12 });
  conn.reconnectNow();
  socket().open();
  assert.deepEqual(socket().sent, [{ type: "hello", token: "tok", last_seq: 12 }]);
  conn.close();
});

test("after a reconnect the events resent from last_seq on are handed on only when new", () => {
  const { conn, frames, socket } = connected();
  socket().say({ type: "welcome", seq: 1 });
  socket().say({ type: "progress", seq: 2 });
  conn.reconnectNow();
  socket().open();
  socket().say({ type: "progress", seq: 2 });
  socket().say({ type: "progress", seq: 3 });
  assert.deepEqual(types(frames), ["welcome1", "progress2", "progress3"]);
  conn.close();
});

test("a welcome sets the place, even behind it: the events after the welcome are new", () => {
  const { conn, frames, socket } = connected();
  socket().say({ type: "welcome", seq: 9 });
  socket().say({ type: "welcome", seq: 5 });
  socket().say({ type: "progress", seq: 6 });
  assert.deepEqual(types(frames), ["welcome9", "welcome5", "progress6"]);
  conn.close();
});

test("frames without a seq (answers to this player's moves, errors) always pass; pongs never", () => {
  const { conn, frames, socket } = connected();
  socket().say({ type: "welcome", seq: 3 });
  socket().say({ type: "accepted", id: "m1" });
  socket().say({ type: "accepted", id: "m1" });
  socket().say({ type: "pong" });
  socket().say("not json");
  assert.deepEqual(types(frames), ["welcome3", "accepted", "accepted"]);
  conn.close();
});

test("close code 1008 (refused) stops reconnecting and says why", () => {
  const { conn, states, socket } = connected();
  socket().drop(1008, "bad token");
  assert.deepEqual(states.at(-1), ["failed", "bad token"]);
  assert.equal(FakeSocket.made.length, 1);
  conn.reconnectNow();
  assert.equal(FakeSocket.made.length, 1, "stopped for good");
});

test("close code 1012 (the server restarts) reconnects at once, and the hello keeps the place", async () => {
  const { conn, states, socket } = connected();
  socket().say({ type: "welcome", seq: 7 });
  socket().drop(1012);
  assert.deepEqual(states.at(-1), ["waiting", 0]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(FakeSocket.made.length, 2);
  socket().open();
  assert.deepEqual(socket().sent, [{ type: "hello", token: "tok", last_seq: 7 }]);
  conn.close();
});

test("send is refused while not connected, so the caller keeps the frame for later", () => {
  const { conn, socket } = connected();
  assert.equal(conn.send({ type: "ready" }), true);
  assert.deepEqual(socket().sent.at(-1), { type: "ready" });
  socket().drop(1006);
  assert.equal(conn.send({ type: "ready" }), false);
  conn.close();
});

test("SeqTracker on its own: no place until a numbered frame, then hello carries it", () => {
  const seq = new SeqTracker();
  assert.deepEqual(seq.hello({ type: "hello", spectator: true }), {
    type: "hello",
    spectator: true,
  });
  assert.equal(seq.admit({ type: "standings", seq: 2 }), true);
  assert.equal(seq.admit({ type: "standings", seq: 2 }), false);
  assert.deepEqual(seq.hello({ type: "hello" }), { type: "hello", last_seq: 2 });
});
