// Arenas' state for the pages (client_web/js/arena/arenas.js): the arena as last heard (HTTP, then
// the socket's frames), its clock, the standings lines shown, the lobby's order, the create
// form's body, and what a tab remembers of the arena it entered.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  EMPTY,
  arenaOfRoom,
  clockOf,
  createBody,
  fromAnswer,
  isNewRace,
  lineState,
  lobbyOrder,
  nextRaceKey,
  pagesOf,
  performanceText,
  recurringName,
  reduce,
  remember,
  shownLines,
  termsOf,
  wentTo,
} from "../../client_web/js/arena/arenas.js";

const MIN = 60_000;

const arena = (extra = {}) => ({
  arena_id: "a-1",
  name: "Friday arena",
  game: "stalactites",
  step: "ones",
  duration_min: 60,
  time_limit_s: 300,
  seats: 2,
  rated: true,
  min_rating: null,
  max_rating: null,
  starts_ms: 1000 * MIN,
  ends_ms: 1060 * MIN,
  status: "running",
  entrants: 2,
  recurring: null,
  ...extra,
});

const line = (rank, player_id, extra = {}) => ({
  rank,
  player_id,
  name: player_id.toUpperCase(),
  score: 0,
  races: 0,
  wins: 0,
  streak: 0,
  fire: false,
  paused: false,
  racing: false,
  performance: null,
  berserk_rate: 0,
  ...extra,
});

const top = (n) => Array.from({ length: n }, (_, i) => line(i + 1, `p${i + 1}`));

test("the HTTP answer gives the arena, the top ten of its page, your line and your race", () => {
  const state = fromAnswer({
    arena: arena(),
    standings: top(50),
    total: 70,
    you: line(60, "p60"),
    room_id: "r1",
    podium: null,
  });
  assert.equal(state.top.length, 10);
  assert.equal(state.you.rank, 60);
  assert.equal(state.roomId, "r1");
  assert.equal(state.status, "running");
  assert.equal(state.entrants, 2);
});

test("a spectator's standings keep the line known from HTTP; an entrant's replace it", () => {
  let state = fromAnswer({ arena: arena(), standings: [], you: line(2, "me"), room_id: null });
  const frame = { type: "standings", status: "running", top: top(3), entrants: 3, top_race: "r9" };
  state = reduce(state, { ...frame, you: null });
  assert.equal(state.you.rank, 2);
  assert.equal(state.topRace, "r9");
  assert.equal(state.arena.entrants, 3);
  state = reduce(state, { ...frame, you: line(3, "me", { score: 4 }) });
  assert.equal(state.you.score, 4);
});

test("the welcome says the entrant's race now; paired moves it on; ended shows the podium", () => {
  let state = reduce(EMPTY, {
    type: "welcome",
    arena: arena(),
    you: line(1, "me"),
    room_id: "r1",
    token: "t1",
  });
  assert.equal(state.roomId, "r1");
  state = reduce(state, { type: "paired", arena_id: "a-1", room_id: "r2", token: "t2" });
  assert.equal(state.roomId, "r2");
  const podium = top(3);
  state = reduce(state, { type: "ended", podium, you: line(5, "me", { score: 7 }) });
  assert.equal(state.status, "finished");
  assert.equal(state.arena.status, "finished");
  assert.deepEqual(state.podium, podium);
  assert.equal(state.you.score, 7);
  assert.equal(state.roomId, null);
  assert.equal(reduce(state, { type: "pong" }), state);
});

test("the clock counts to the start, then to the end, then says the last races finish", () => {
  const a = arena();
  assert.deepEqual(clockOf(a, "scheduled", 990 * MIN), { key: "arenas.startsIn", ms: 10 * MIN });
  assert.deepEqual(clockOf(a, "running", 1050 * MIN), { key: "arenas.endsIn", ms: 10 * MIN });
  assert.deepEqual(clockOf(a, "running", 1061 * MIN), { key: "arenas.lastRaces", ms: 0 });
  assert.deepEqual(clockOf(a, "finished", 1050 * MIN), { key: "arenas.over", ms: 0 });
  assert.equal(clockOf(null, null, 0).key, "arenas.over");
});

test("the live standings show the top ten, then your line apart when you are below", () => {
  const lines = shownLines(top(12), line(40, "me"));
  assert.equal(lines.length, 11);
  assert.deepEqual(
    lines.slice(-1).map((l) => [l.rank, l.mine, l.apart]),
    [[40, true, true]],
  );
  const inTop = shownLines(top(12), line(3, "p3"));
  assert.equal(inTop.length, 10);
  assert.deepEqual(
    inTop.filter((l) => l.mine).map((l) => l.rank),
    [3],
  );
  assert.equal(shownLines([], null).length, 0);
});

test("a line's performance is a dash before any race, and its state paused before racing", () => {
  assert.equal(performanceText(line(1, "a")), "—");
  assert.equal(performanceText(line(1, "a", { performance: 1480 })), "1480");
  assert.deepEqual(lineState(line(1, "a", { paused: true, racing: true })), ["arenas.paused", {}]);
  assert.deepEqual(lineState(line(1, "a", { racing: true })), ["arenas.racing", {}]);
  assert.equal(lineState(line(1, "a")), null);
});

test("the full standings come in pages of fifty", () => {
  assert.deepEqual(pagesOf(0), []);
  assert.deepEqual(pagesOf(120), [
    { offset: 0, first: 1, last: 50 },
    { offset: 50, first: 51, last: 100 },
    { offset: 100, first: 101, last: 120 },
  ]);
});

test("an arena's terms name the step for Stalactites only, the band and rated", () => {
  assert.deepEqual(termsOf(arena()), [
    ["game.stalactites", {}],
    ["step.ones", {}],
    ["arenas.raceMinutes", { n: 5 }],
    ["arenas.lasts", { n: 60 }],
    ["settings.rated", {}],
  ]);
  const squadron = arena({ game: "squadron", step: null, seats: 3, rated: false });
  squadron.max_rating = 1500;
  assert.deepEqual(termsOf(squadron), [
    ["game.squadron", {}],
    ["arenas.raceMinutes", { n: 5 }],
    ["settings.seats", { n: 3 }],
    ["arenas.lasts", { n: 60 }],
    ["arenas.band", { low: 0, high: 1500 }],
  ]);
});

test("the lobby lists running arenas by their end and scheduled ones by their start", () => {
  const a = arena({ arena_id: "a", name: "A", starts_ms: 5, ends_ms: 30 });
  const b = arena({ arena_id: "b", name: "B", starts_ms: 9, ends_ms: 20 });
  assert.deepEqual(
    lobbyOrder([a, b], "running").map((x) => x.arena_id),
    ["b", "a"],
  );
  assert.deepEqual(
    lobbyOrder([b, a], "scheduled").map((x) => x.arena_id),
    ["a", "b"],
  );
});

test("the create form's body: minutes as seconds, 2 to 4 seats, a step for Stalactites", () => {
  const values = { name: " Cup ", game: "stalactites", step: "twos", duration_min: "90" };
  assert.deepEqual(createBody({ ...values, minutes: "3", seats: "3", rated: true }), {
    name: "Cup",
    game: "stalactites",
    step: "twos",
    duration_min: 90,
    time_limit_s: 180,
    seats: 3,
    rated: true,
  });
  const squadron = createBody({ name: "S", game: "squadron", step: "ones", seats: "9" });
  assert.equal(squadron.step, undefined);
  assert.equal(squadron.seats, 4);
  assert.equal(squadron.time_limit_s, 300);
  assert.equal(createBody({ name: "x", game: "stalactites", step: "??" }).step, "choice");
});

test("a tab goes to each race once: the welcome's race under way is not gone to again", () => {
  let memory = remember(null, "a-1");
  assert.deepEqual(memory, { arena_id: "a-1", rooms: [] });
  assert.ok(isNewRace(memory, "r1"));
  memory = wentTo(memory, "r1");
  assert.ok(!isNewRace(memory, "r1"));
  assert.ok(!isNewRace(memory, null));
  assert.equal(remember(memory, "a-1"), memory);
  assert.deepEqual(remember(memory, "a-2").rooms, []);
  for (let i = 0; i < 30; i += 1) memory = wentTo(memory, `r${i}`);
  assert.equal(memory.rooms.length, 20);
  assert.equal(memory.rooms.at(-1), "r29");
});

test("a room is an arena's by its seat, else by the races the tab was sent to", () => {
  const memory = wentTo(remember(null, "a-1"), "r1");
  assert.equal(arenaOfRoom({ arena: "a-9" }, memory, "r1"), "a-9");
  assert.equal(arenaOfRoom({ token: "t" }, memory, "r1"), "a-1");
  assert.equal(arenaOfRoom({ token: "t" }, memory, "r2"), null);
  assert.equal(arenaOfRoom(null, null, "r1"), null);
});

test("an arena race's end says the next starts by itself, but not when paused or over", () => {
  assert.equal(nextRaceKey({ status: "running", you: line(1, "me") }), "arenas.nextByItself");
  const paused = { status: "running", you: line(1, "me", { paused: true }) };
  assert.equal(nextRaceKey(paused), "arenas.pausedNote");
  assert.equal(nextRaceKey({ status: "finished", you: null }), "arenas.overNote");
  assert.equal(nextRaceKey(EMPTY), "arenas.nextByItself");
});

test("a scheduled arena is named in the page's words: hourly, daily or every N minutes", () => {
  const named = (recurring) => recurringName(arena({ recurring }));
  const hourly = ["arenas.hourly", { game: "game.stalactites" }];
  assert.deepEqual(named("stalactites/choice@60/50"), hourly);
  assert.deepEqual(named("squadron@1440/60"), ["arenas.daily", { game: "game.squadron" }]);
  assert.deepEqual(named("squadron@30/20"), ["arenas.every", { game: "game.squadron", n: 30 }]);
  assert.equal(named(null), null);
});
