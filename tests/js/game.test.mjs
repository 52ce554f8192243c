// One player's board as the client holds it (client_web/js/race/game.js), by the rules of
// docs/client.md "How moves reconcile with accepted and rejected": the confirmed board from
// the server, the move in flight drawn on top, moves queued behind it, and what an answer does.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PlayerBoard } from "../../client_web/js/race/game.js";
import { played, stalactitesLegal } from "./rules.mjs";

const START = {
  game: "stalactites",
  step: "ones",
  foundations: [["6S"], ["9C"], ["2H"], ["6H"]],
  cells: [null, null],
  tableau: [["JD", "7D"], ["2D", "TS"], ["9H", "3D"], ["JC"], ["5D", "7S"], ["KH"], [], []],
};

/** A board confirmed at `state`, with the rules' legal list (as the server would send it). */
function confirmed(state = START) {
  const board = new PlayerBoard();
  board.confirm(state, stalactitesLegal(state), "playing");
  return board;
}

/** What the server would answer to `move` from `state`: accepted, with the next board. */
function acceptedFrame(state, id, move) {
  const next = played(state, move);
  return { type: "accepted", id, state: next, legal: stalactitesLegal(next), status: "playing" };
}

test("only a move in the confirmed legal list can be made", () => {
  const board = confirmed();
  assert.equal(board.play("t2-f1", "m1"), null, "TS does not go on 6S");
  assert.equal(board.play("t1-t2", "m1"), null, "no column-to-column move");
  assert.equal(board.inflight, null);
  assert.equal(board.play("t1-f1", "m1"), "send");
  assert.deepEqual(board.inflightFrame(), { type: "move", id: "m1", move: "t1-f1" });
});

test("a move sent is drawn at once, before the server answers", () => {
  const board = confirmed();
  board.play("t1-f1", "m1");
  assert.deepEqual(board.shown(), played(START, "t1-f1"));
  assert.deepEqual(board.state, START, "the confirmed board waits for the answer");
});

test("while a move is in flight only moves touching none of its piles are offered, and they queue", () => {
  const board = confirmed();
  board.play("t1-f1", "m1");
  const offered = board.offered();
  assert.ok(!offered.has("t1-c1"), "t1 is touched by the move in flight");
  assert.ok(!offered.has("t3-f1"), "f1 is touched too");
  assert.ok(offered.has("t3-f3"), "3D on 2H touches neither");
  assert.equal(board.play("t3-f3", "m2"), "queued");
  assert.deepEqual(
    board.shown(),
    played(played(START, "t1-f1"), "t3-f3"),
    "queued moves are drawn",
  );
});

test("accepted (matched by id) replaces the confirmed board with the server's", () => {
  const board = confirmed();
  board.play("t1-f1", "m1");
  assert.equal(board.accepted({ ...acceptedFrame(START, "other", "t1-f1") }), false, "not ours");
  assert.ok(board.inflight, "still waiting");
  const frame = acceptedFrame(START, "m1", "t1-f1");
  assert.equal(board.accepted(frame), true);
  assert.equal(board.inflight, null);
  assert.deepEqual(board.state, frame.state);
  assert.deepEqual(
    board.offered().moves.map((m) => m.text),
    frame.legal,
    "what is offered now is the server's new list",
  );
});

test("rejected drops the move and everything queued after it; the board is the confirmed one", () => {
  const board = confirmed();
  board.play("t1-f1", "m1");
  board.play("t3-f3", "m2");
  assert.equal(board.rejected({ type: "rejected", id: "other" }), null, "not ours");
  const dropped = board.rejected({ type: "rejected", id: "m1", code: "illegal_move" });
  assert.deepEqual(dropped, [
    { type: "move", id: "m1", move: "t1-f1" },
    { type: "move", move: "t3-f3" },
  ]);
  assert.deepEqual(board.shown(), START);
  assert.equal(board.inflight, null);
});

test("the next queued move is sent only if the server's new list still holds it", () => {
  const board = confirmed();
  board.play("t1-f1", "m1");
  board.play("t3-f3", "m2");
  board.accepted(acceptedFrame(START, "m1", "t1-f1"));
  const { frame, dropped } = board.nextQueued("m3");
  assert.deepEqual(frame, { type: "move", id: "m3", move: "t3-f3" });
  assert.deepEqual(dropped, []);
});

test("a queued move the new list no longer holds springs back with everything after it", () => {
  const board = confirmed();
  board.play("t5-c1", "m1");
  assert.equal(board.play("t6-c2", "m2"), "queued", "KH to cell 2 touches neither t5 nor c1");
  // The answer's board has cell 2 taken (another tab of this player moved there): t6-c2 is
  // not in its list any more.
  const after = { ...played(START, "t5-c1"), cells: ["7S", "QD"] };
  board.accepted({ type: "accepted", id: "m1", state: after, legal: stalactitesLegal(after) });
  const { frame, dropped } = board.nextQueued("m3");
  assert.equal(frame, null, "nothing is guessed: it is not sent");
  assert.deepEqual(dropped, ["t6-c2"]);
  assert.deepEqual(board.queue, []);
});

test("at most four moves queue behind the one in flight", () => {
  const wide = structuredClone(START);
  wide.foundations = [["QD"], ["QC"], ["QH"], ["KS"]];
  wide.tableau = [["AS"], ["KD"], ["KC"], ["KH"], ["5D"], ["6D"], [], []];
  const board = confirmed(wide);
  assert.equal(board.play("t1-f4", "m1"), "send", "AS on KS: ranks wrap");
  for (const move of ["t2-f1", "t3-f2", "t4-f3", "t5-c1"]) {
    assert.equal(board.play(move, move), "queued", move);
  }
  assert.equal(board.play("t6-c2", "m6"), null, "a fifth is not taken");
  assert.equal(board.offered().size, 0);
});

test("undo and the step declaration are not drawn in advance, and nothing is offered meanwhile", () => {
  const board = confirmed();
  assert.deepEqual(board.undo("u1"), { type: "undo", id: "u1" });
  assert.deepEqual(board.shown(), START);
  assert.equal(board.offered().size, 0);
  assert.equal(board.declare("d1", "twos"), null, "one thing in flight at a time");
  assert.deepEqual(board.inflightFrame(), { type: "undo", id: "u1" });
  const other = confirmed();
  other.declare("d2", "twos");
  assert.deepEqual(other.inflightFrame(), { type: "declare_step", id: "d2", step: "twos" });
  assert.equal(other.offered().size, 0);
});

test("a move re-sent after a reconnect is not drawn on the welcome's board, which may hold it", () => {
  const board = confirmed();
  board.play("t1-f1", "m1");
  board.inflight.resent = true;
  const welcome = played(START, "t1-f1"); // the server had applied it before the connection fell
  board.confirm(welcome, stalactitesLegal(welcome), null);
  assert.deepEqual(board.shown(), welcome, "not drawn twice");
  assert.equal(board.offered().size, 0, "nothing else until the answer");
  assert.deepEqual(board.inflightFrame(), { type: "move", id: "m1", move: "t1-f1" }, "same id");
});
