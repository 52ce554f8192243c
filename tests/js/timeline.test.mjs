// A race by the clock (client_web/js/replay/timeline.js): each board at a race time from the record's
// actions and times (undos and step declarations included), the timeline chart's series, and
// the replay's playhead at 1x to 8x.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionsOf,
  boardsAlong,
  cardsAt,
  Playhead,
  runOf,
  stepAt,
  timelineChart,
} from "../../client_web/js/replay/timeline.js";

const DEAL = {
  game: "stalactites",
  step: null,
  foundations: [["6S"], ["9C"], ["2H"], ["6H"]],
  cells: [null, null],
  tableau: [["JD", "7D"], ["2D", "TS"], ["9H", "3D"], ["JC"], ["5D", "7S"], ["KH"], [], []],
};

const at = (action, at_ms) => ({ action, at_ms });

test("the board at a race time is the one after the last action played by then", () => {
  const steps = runOf(DEAL, [at("t5-f1", 1500), at("t1-c1", 4000), at("t2-c2", 9000)]);
  assert.equal(stepAt(steps, 0).index, 0, "the deal at the start");
  assert.equal(stepAt(steps, 1499).index, 0);
  assert.equal(stepAt(steps, 1500).index, 1, "an action counts from its own time");
  assert.equal(stepAt(steps, 8999).index, 2);
  assert.equal(stepAt(steps, 60_000).index, 3, "the last board holds to the end");
  assert.deepEqual(stepAt(steps, 5000).state.cells, ["7D", null]);
  assert.deepEqual(
    steps.map((s) => s.cards),
    [4, 5, 5, 5],
  );
});

test("an undo takes back the last move still on the board and marks it undone", () => {
  const actions = [at("t2-c1", 1000), at("t5-f1", 2000), at("undo", 3000), at("undo", 3500)];
  const steps = runOf(DEAL, actions);
  assert.deepEqual(stepAt(steps, 2500).state.foundations[0], ["6S", "7S"]);
  assert.deepEqual(stepAt(steps, 3000).state, stepAt(steps, 1000).state);
  assert.deepEqual(stepAt(steps, 3500).state.tableau, DEAL.tableau, "back to the deal");
  assert.deepEqual(
    steps.map((s) => s.undone),
    [undefined, true, true, false, false],
  );
  assert.deepEqual(
    steps.slice(3).map((s) => s.undoes),
    [2, 1],
  );
});

test("the first foundation play fixes an open step, and undoing it opens it again", () => {
  const steps = runOf(DEAL, [at("t5-f1", 1000), at("undo", 2000)]);
  assert.equal(steps[1].state.step, "ones");
  assert.equal(steps[2].state.step, null);
  const twos = runOf({ ...DEAL, tableau: [["8S"], ...DEAL.tableau.slice(1)] }, [at("t1-f1", 1)]);
  assert.equal(twos[1].state.step, "twos");
});

test("a declared step stays declared when a move before the declaration is undone", () => {
  const steps = runOf(DEAL, [at("t2-c1", 1000), at("step:twos", 2000), at("undo", 3000)]);
  assert.equal(steps[2].state.step, "twos");
  assert.equal(steps[3].state.step, "twos");
  assert.equal(steps[3].state.cells[0], null);
});

test("a Squadron stock deal shows the known next card; an unknown one leaves the board unknown", () => {
  const squadron = {
    game: "squadron",
    foundations: [[]],
    cells: [null],
    tableau: [["AH"]],
    waste: [],
    stock: ["3C", "2D"],
    stock_count: 2,
  };
  const steps = runOf(squadron, [at("s-w", 10), at("s-w", 20), at("s-w", 30)]);
  assert.deepEqual(steps[1].state.waste, ["2D"]);
  assert.deepEqual(steps[2].state.waste, ["2D", "3C"]);
  assert.equal(steps[3].state, null);
  assert.equal(steps[3].cards, null);
  const unknown = runOf({ ...squadron, stock: undefined }, [at("s-w", 10)]);
  assert.equal(unknown[1].state, null);
});

test("an untimed record's moves are spaced a second apart and said to be untimed", () => {
  assert.deepEqual(actionsOf({ actions: [at("t1-c1", 7)], record: { moves: ["t1-c1"] } }), {
    actions: [at("t1-c1", 7)],
    timed: true,
  });
  assert.deepEqual(actionsOf({ record: { moves: ["t1-c1", "t2-c2"] } }), {
    actions: [at("t1-c1", 1000), at("t2-c2", 2000)],
    timed: false,
  });
});

test("a line of moves is drawn board by board from the board it starts on", () => {
  const boards = boardsAlong(DEAL, ["t5-f1", "t2-c1"]);
  assert.equal(boards.length, 3);
  assert.deepEqual(boards[2].cells, ["TS", null]);
  assert.deepEqual(boards[0], DEAL, "the starting board is left as it was");
});

test("the timeline is a step line per racer, held to the end, with the lost win on it", () => {
  const racers = [
    {
      player_id: "a",
      foundation: [
        [0, 4],
        [1000, 5],
        [3000, 6],
      ],
      lost_win_at_ms: null,
    },
    {
      player_id: "b",
      foundation: [
        [0, 4],
        [2000, 5],
      ],
      lost_win_at_ms: 2500,
    },
  ];
  const chart = timelineChart(racers, { width: 400, height: 100, pad: 0, endMs: 4000, total: 52 });
  assert.deepEqual(
    chart.lines[0].points.map(([x]) => x),
    [0, 100, 100, 300, 300, 400],
  );
  const ys = chart.lines[0].points.map(([, y]) => y);
  assert.ok(ys[0] > ys[2] && ys[2] > ys[4], "more cards are higher");
  assert.equal(chart.lines[0].lost, null);
  assert.deepEqual(chart.lines[1].lost, [250, chart.y(5)]);
  assert.equal(cardsAt(racers[1], 1999), 4);
  assert.equal(chart.xTicks[0].ms, 0);
  assert.ok(
    chart.xTicks.every((tick) => tick.ms % 1000 === 0),
    "ticks on whole seconds",
  );
  assert.equal(chart.yTicks.at(-1).value <= 52, true);
});

test("the playhead runs at its speed of the wall clock and stops at the end", () => {
  const head = new Playhead(60_000);
  head.play(1000);
  assert.equal(head.tick(2000), 1000, "1x");
  head.setSpeed(8, 2000);
  assert.equal(head.tick(3000), 9000, "8x from the change on");
  head.pause(4000);
  assert.equal(head.tick(9000), 17_000, "paused: the clock waits");
  head.setSpeed(4, 9000);
  head.play(9000);
  assert.equal(head.tick(30_000), 60_000, "never past the end");
  assert.equal(head.playing, false);
  head.play(31_000);
  assert.equal(head.ms, 0, "play at the end starts again");
  head.seek(-5, 31_000);
  assert.equal(head.ms, 0);
  head.setSpeed(3, 31_000);
  assert.equal(head.speed, 4, "only 1x, 2x, 4x and 8x");
});
