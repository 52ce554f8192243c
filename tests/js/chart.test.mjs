// The rating chart's arithmetic (client_web/js/shared/chart.js): the series and its scaling.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  niceStep,
  ratingRows,
  ratingSeries,
  scaleSeries,
} from "../../client_web/js/shared/chart.js";

const race = (finished_at, before, after, extra = {}) => ({
  game: "stalactites",
  rated: true,
  finished_at,
  rating_before: before,
  rating_after: after,
  ...extra,
});

test("the series runs oldest first from the first rating before, rated races of the game only", () => {
  const races = [
    race(3, 1010, 1004),
    race(1, 1000, 1012),
    race(2, 1012, 1010),
    race(4, null, null, { rated: false }),
    race(5, 1000, 990, { game: "squadron" }),
  ];
  assert.deepEqual(ratingSeries(races, "stalactites"), [1000, 1012, 1010, 1004]);
  assert.deepEqual(ratingSeries(races, "squadron"), [1000, 990]);
  assert.deepEqual(ratingSeries([], "stalactites"), []);
});

test("ticks step by 1, 2 or 5 times a power of ten", () => {
  assert.equal(niceStep(20), 5);
  assert.equal(niceStep(100), 50);
  assert.equal(niceStep(7), 2);
  assert.equal(niceStep(0), 1);
  assert.equal(niceStep(3000), 1000);
});

test("points fill the box inside its padding, the highest value at the top", () => {
  const { points, ticks, low, high } = scaleSeries([1000, 1050, 1100], {
    width: 220,
    height: 120,
    pad: 10,
  });
  assert.equal(low, 1000);
  assert.equal(high, 1100);
  assert.deepEqual(points, [
    [10, 110],
    [110, 60],
    [210, 10],
  ]);
  assert.deepEqual(
    ticks.map((t) => t.value),
    [1000, 1050, 1100],
  );
  assert.equal(ticks[0].y, 110);
});

test("one value, or values all alike, sit in the middle of a range of at least minSpan", () => {
  const one = scaleSeries([1000], { width: 100, height: 100, pad: 0, minSpan: 20 });
  assert.deepEqual(one.points, [[50, 50]]);
  assert.equal(one.high - one.low, 20);
  const flat = scaleSeries([1000, 1000], { width: 100, height: 100 });
  assert.deepEqual(
    flat.points.map(([, y]) => y),
    [50, 50],
  );
  assert.deepEqual(scaleSeries([], { width: 1, height: 1 }).points, []);
});

test("the rows to read are the series' races, oldest first, with each change", () => {
  const races = [
    race(3, 1010, 1004, { room_id: "c" }),
    race(1, 1000, 1012, { room_id: "a" }),
    race(4, null, null, { rated: false, room_id: "d" }),
  ];
  assert.deepEqual(ratingRows(races, "stalactites"), [
    { at: 1, before: 1000, after: 1012, room: "a" },
    { at: 3, before: 1010, after: 1004, room: "c" },
  ]);
});
