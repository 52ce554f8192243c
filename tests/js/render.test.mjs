// The one scheduled render of a page (client_web/js/shared/render.js): many changes in one frame
// make one render; the player's own input renders at once; a page left renders no more.
// The animation frame is passed in, so the test decides when a frame comes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { drawPart, nextSecond, scheduled } from "../../client_web/js/shared/render.js";

function withFrames() {
  const waiting = [];
  return {
    frame: (fn) => waiting.push(fn),
    next: () => waiting.splice(0).forEach((fn) => fn()),
    waiting,
  };
}

test("many changes before the next frame make one render, in that frame", () => {
  const frames = withFrames();
  let renders = 0;
  const r = scheduled(() => (renders += 1), frames);
  for (let i = 0; i < 50; i += 1) r.schedule();
  assert.equal(renders, 0, "nothing is drawn before the frame");
  assert.equal(frames.waiting.length, 1, "one frame asked for");
  frames.next();
  assert.equal(renders, 1);
  frames.next();
  assert.equal(renders, 1, "no change, no render");
  r.schedule();
  frames.next();
  assert.equal(renders, 2);
});

test("the player's own input renders at once, and the frame already asked for then does nothing", () => {
  const frames = withFrames();
  let renders = 0;
  const r = scheduled(() => (renders += 1), frames);
  r.schedule();
  r.now();
  assert.equal(renders, 1);
  frames.next();
  assert.equal(renders, 1);
});

test("a page that is left stops rendering, even with a render asked for", () => {
  const frames = withFrames();
  let renders = 0;
  const r = scheduled(() => (renders += 1), frames);
  r.schedule();
  r.stop();
  frames.next();
  r.schedule();
  r.now();
  frames.next();
  assert.equal(renders, 0);
});

test("with no animation frames (a hidden page) the render still comes, from a timer", async () => {
  let renders = 0;
  const r = scheduled(() => (renders += 1), { frame: null });
  r.schedule();
  r.schedule();
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(renders, 1);
});

test("a part is drawn only when its key changed", () => {
  const memo = {};
  let draws = 0;
  const draw = () => (draws += 1);
  assert.equal(drawPart(memo, "side", "a", draw), true, "the first time it is drawn");
  assert.equal(drawPart(memo, "side", "a", draw), false, "the same key: left as it is");
  assert.equal(drawPart(memo, "board", "a", draw), true, "another part keeps its own key");
  assert.equal(drawPart(memo, "side", "b", draw), true);
  assert.equal(draws, 3);
});

test("a countdown's next whole second, and none once it has passed", () => {
  assert.equal(nextSecond(10_000, 7_500), 8_000, "2.5 s left: 3 shown until 2 s are left");
  assert.equal(nextSecond(10_000, 8_000), 9_000, "on a whole second: the next one");
  assert.equal(nextSecond(10_000, 9_999), 10_000);
  assert.equal(nextSecond(10_000, 10_000), Infinity);
  assert.equal(nextSecond(10_000, 12_000), Infinity);
});
