// The one scheduled render of a page (client_web/js/render.js): many changes in one frame
// make one render; the player's own input renders at once; a page left renders no more.
// The animation frame is passed in, so the test decides when a frame comes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { scheduled } from "../../client_web/js/render.js";

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
