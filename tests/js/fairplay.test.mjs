// Fair play's arithmetic for the pages (client_web/js/fairplay/fairplay.js): a case's reasons, the
// move-time strip on its log scale, the accuracy at each position, and the runs drawn first.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  gapBars,
  holdKey,
  kindCounts,
  median,
  positionCells,
  positionKinds,
  reasonOf,
  splitRuns,
} from "../../client_web/js/fairplay/fairplay.js";

test("a case's reasons are known codes, a held run with its room, or their own code", () => {
  assert.deepEqual(reasonOf("held:abc:1"), { key: "held", room: "abc:1", code: "held:abc:1" });
  assert.deepEqual(reasonOf("even_timing"), {
    key: "even_timing",
    room: null,
    code: "even_timing",
  });
  assert.equal(reasonOf("reported").key, "reported");
  assert.equal(reasonOf("appeal").key, "appeal");
  assert.equal(reasonOf("perfect_at_hard_positions").key, "perfect_at_hard_positions");
  assert.equal(reasonOf("something_new").key, "other");
  assert.equal(holdKey("inhuman_speed"), "inhuman_speed");
  assert.equal(holdKey("new_bound"), "other");
});

test("the move-time strip is logarithmic from 10 ms to a power of ten of a second or more", () => {
  const { bars, ticks, y, high } = gapBars([50, 1000, 20_000], { width: 300, height: 100 });
  assert.equal(high, 100_000);
  assert.equal(y(10), 100); // the floor at the bottom
  assert.equal(y(5), 100); // below it: on the floor
  assert.equal(y(100_000), 0);
  assert.deepEqual(
    ticks.map((tick) => tick.ms),
    [100, 1000, 10_000, 100_000],
  );
  assert.equal(bars.length, 3);
  assert.ok(bars[0].h < bars[1].h && bars[1].h < bars[2].h);
  assert.ok(bars.every((bar) => bar.y + bar.h === 100));
  assert.ok(bars[2].x + bars[2].w <= 300);
  assert.equal(gapBars([], { width: 300, height: 100 }).high, 1000); // at least a second
});

test("each action's effect on the win comes from the verdicts before and after it", () => {
  const verdicts = ["won", "won", "lost", "lost", "unknown"];
  assert.deepEqual(positionKinds(verdicts), ["kept", "lost", "already", "already"]);
  assert.deepEqual(positionKinds(["won", "unknown", "won"]), ["unknown", "unknown"]);
  assert.deepEqual(kindCounts(positionKinds(verdicts)), {
    kept: 1,
    lost: 1,
    already: 2,
    unknown: 0,
  });
  const cells = positionCells(verdicts, { width: 400 });
  assert.deepEqual(
    cells.map((cell) => [cell.x, cell.w, cell.kind]),
    [
      [0, 100, "kept"],
      [100, 100, "lost"],
      [200, 100, "already"],
      [300, 100, "already"],
    ],
  );
  assert.deepEqual(positionKinds([]), []);
});

test("the median of a list", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([]), null);
});

test("a case's held and reported runs come first", () => {
  const kase = {
    reasons: ["held:r2", "reported"],
    reports: [{ room_id: "r3" }, { room_id: null }],
    runs: [
      { room_id: "r1", held: [] },
      { room_id: "r2", held: ["inhuman_speed"] },
      { room_id: "r3", held: [] },
      { room_id: "r4", held: ["perfect_and_fast"] },
    ],
  };
  const { evidence, others } = splitRuns(kase);
  assert.deepEqual(
    evidence.map((run) => run.room_id),
    ["r2", "r3", "r4"],
  );
  assert.deepEqual(
    others.map((run) => run.room_id),
    ["r1"],
  );
});
