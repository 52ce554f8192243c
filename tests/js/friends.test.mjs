// Friends' state for the pages (client_web/js/friends/friends.js): the online list, the open
// challenges and the unread count, from the notification socket's frames; a challenge's
// terms and bodies; a notification's words.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  EMPTY,
  againBody,
  challengeBody,
  followable,
  live,
  noteWords,
  otherOf,
  readUpTo,
  reduce,
  secondsLeft,
  termsOf,
} from "../../client_web/js/friends/friends.js";

const friend = (player_id, name, status = "online", room_id = null) => ({
  player_id,
  name,
  status,
  room_id,
});

const challenge = (challenge_id, extra = {}) => ({
  challenge_id,
  from_id: "p.ann",
  from_name: "Ann",
  to_id: "p.bob",
  to_name: "Bob",
  game: "stalactites",
  step: "ones",
  time_limit_s: 300,
  rated: false,
  status: "open",
  created_ms: 1000,
  expires_ms: 61_000,
  room_id: null,
  ...extra,
});

const welcome = (extra = {}) => ({
  type: "welcome",
  player_id: "p.bob",
  name: "Bob",
  online: [friend("p.zed", "Zed"), friend("p.ann", "Ann", "racing", "r1")],
  unread: 2,
  challenges: [challenge("c.1")],
  ...extra,
});

test("a welcome sets the whole state: friends by name, open challenges, unread", () => {
  const state = reduce(EMPTY, welcome());
  assert.equal(state.you, "p.bob");
  assert.deepEqual(
    state.online.map((f) => f.name),
    ["Ann", "Zed"],
  );
  assert.deepEqual(
    state.challenges.map((c) => c.challenge_id),
    ["c.1"],
  );
  assert.equal(state.unread, 2);
});

test("a welcome after a reconnect replaces what was known before", () => {
  let state = reduce(EMPTY, welcome());
  state = reduce(state, { type: "notification", note: { kind: "followed", ms: 5, data: {} } });
  state = reduce(state, welcome({ online: [], unread: 0, challenges: [] }));
  assert.deepEqual(state, { you: "p.bob", online: [], challenges: [], unread: 0 });
});

test("presence adds a friend in name order, changes their status and drops them offline", () => {
  let state = reduce(EMPTY, welcome());
  state = reduce(state, { type: "presence", friend: friend("p.max", "Max") });
  assert.deepEqual(
    state.online.map((f) => f.name),
    ["Ann", "Max", "Zed"],
  );
  state = reduce(state, { type: "presence", friend: friend("p.max", "Max", "racing", "r9") });
  assert.equal(state.online.length, 3);
  assert.equal(state.online[1].room_id, "r9");
  state = reduce(state, { type: "presence", friend: friend("p.ann", "Ann", "offline") });
  assert.deepEqual(
    state.online.map((f) => f.name),
    ["Max", "Zed"],
  );
});

test("a challenge is listed while open, newest first, and leaves once answered", () => {
  let state = reduce(EMPTY, welcome());
  state = reduce(state, { type: "challenge", challenge: challenge("c.2", { created_ms: 2000 }) });
  assert.deepEqual(
    state.challenges.map((c) => c.challenge_id),
    ["c.2", "c.1"],
  );
  for (const status of ["accepted", "declined", "cancelled"]) {
    const after = reduce(state, { type: "challenge", challenge: challenge("c.2", { status }) });
    assert.deepEqual(
      after.challenges.map((c) => c.challenge_id),
      ["c.1"],
      status,
    );
  }
});

test("the same challenge heard twice (the HTTP answer, then the frame) is listed once", () => {
  let state = reduce(EMPTY, welcome({ challenges: [] }));
  state = reduce(state, { type: "challenge", challenge: challenge("c.3") });
  state = reduce(state, { type: "challenge", challenge: challenge("c.3") });
  assert.equal(state.challenges.length, 1);
});

test("an open challenge expires by the clock: not live, no seconds left", () => {
  const c = challenge("c.1");
  assert.deepEqual(live([c], 60_999), [c]);
  assert.deepEqual(live([c], 61_000), []);
  assert.equal(secondsLeft(c, 1000), 60);
  assert.equal(secondsLeft(c, 59_500), 2);
  assert.equal(secondsLeft(c, 70_000), 0);
});

test("a notification counts as unread; one already read does not", () => {
  let state = reduce(EMPTY, welcome({ unread: 0 }));
  state = reduce(state, { type: "notification", note: { kind: "followed", ms: 1, data: {} } });
  assert.equal(state.unread, 1);
  state = reduce(state, {
    type: "notification",
    note: { kind: "followed", ms: 2, data: {}, read: true },
  });
  assert.equal(state.unread, 1);
});

test("frames the state does not hold (pong, error) change nothing", () => {
  const state = reduce(EMPTY, welcome());
  assert.equal(reduce(state, { type: "pong" }), state);
  assert.equal(reduce(state, { type: "error", code: "bad_message" }), state);
});

test("the other player of a challenge is the one you did not send it as", () => {
  const c = challenge("c.1");
  assert.deepEqual(otherOf(c, "p.bob"), { player_id: "p.ann", name: "Ann" });
  assert.deepEqual(otherOf(c, "p.ann"), { player_id: "p.bob", name: "Bob" });
});

test("a challenge's terms: game, the step for Stalactites only, minutes, rated or not", () => {
  assert.deepEqual(termsOf(challenge("c.1")), [
    ["game.stalactites", {}],
    ["step.ones", {}],
    ["unit.minutes", { n: 5 }],
    ["friends.unrated", {}],
  ]);
  const squadron = challenge("c.2", { game: "squadron", step: null, rated: true });
  assert.deepEqual(termsOf(squadron), [
    ["game.squadron", {}],
    ["unit.minutes", { n: 5 }],
    ["friends.rated", {}],
  ]);
});

test("the dialog's body has a step for Stalactites only, and the time in seconds", () => {
  const choice = {
    playerId: "p.ann",
    game: "stalactites",
    step: "twos",
    minutes: "10",
    rated: true,
  };
  assert.deepEqual(challengeBody(choice), {
    player_id: "p.ann",
    game: "stalactites",
    step: "twos",
    time_limit_s: 600,
    rated: true,
  });
  assert.deepEqual(challengeBody({ ...choice, game: "squadron" }), {
    player_id: "p.ann",
    game: "squadron",
    time_limit_s: 600,
    rated: true,
  });
});

test("challenge again: the finished room's game, step, time limit and rating", () => {
  const room = { game: "stalactites", step: "ones", time_limit_s: 180, rated: false };
  assert.deepEqual(againBody(room, "p.zed"), {
    player_id: "p.zed",
    game: "stalactites",
    step: "ones",
    time_limit_s: 180,
    rated: false,
  });
  const squadron = { game: "squadron", step: null, time_limit_s: 900, rated: true };
  assert.deepEqual(againBody(squadron, "p.zed"), {
    player_id: "p.zed",
    game: "squadron",
    time_limit_s: 900,
    rated: true,
  });
});

test("each kind of notification has its words and fills in its details", () => {
  const note = (kind, data) => ({ kind, ms: 1, data });
  assert.deepEqual(noteWords(note("followed", { name: "Ann" })), [
    "notes.followed",
    { name: "Ann" },
  ]);
  assert.deepEqual(
    noteWords(note("daily_beaten", { name: "Ann", game: "squadron", elapsed_ms: 61_000 })),
    ["notes.dailyBeaten", { name: "Ann", game: "squadron", ms: 61_000 }],
  );
  assert.deepEqual(noteWords(note("report_acted", { name: "Cheat" })), [
    "notes.reportActed",
    { name: "Cheat" },
  ]);
  assert.deepEqual(noteWords(note("refund", { name: "Cheat", points: 12 })), [
    "notes.refund",
    { name: "Cheat", n: 12 },
  ]);
  const soon = { arena_id: "a-1", name: "Friday arena", starts_ms: 240_000 };
  assert.deepEqual(noteWords({ ...note("arena_soon", soon), ms: 1_000 }), [
    "notes.arenaSoon",
    { name: "Friday arena", n: 4 },
  ]);
  assert.deepEqual(noteWords(note("later_kind", {})), ["notes.other", {}]);
});

test("the inbox is read up to its newest note", () => {
  assert.equal(readUpTo([{ ms: 5 }, { ms: 9 }, { ms: 7 }]), 9);
  assert.equal(readUpTo([]), 0);
});

test("Follow and Challenge again are offered beside other players, never a ghost or you", () => {
  assert.ok(followable({ player_id: "p.ann" }, "p.bob"));
  assert.ok(!followable({ player_id: "p.bob" }, "p.bob"));
  assert.ok(!followable({ player_id: "p.ann", ghost_of: "Ann" }, "p.bob"));
  assert.ok(!followable({ player_id: "g.guest" }, "p.bob"));
});
