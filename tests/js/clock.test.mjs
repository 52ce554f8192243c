// The server's time for the clocks (client_web/js/shared/clock.js): the offset comes from the Date
// header of GET /healthz (whole seconds), and is used only when it is more than 2 s.
// Each test loads its own copy of the module (the measurement is made once per page load).

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

const realFetch = globalThis.fetch;
let loads = 0;

/** A fresh clock module whose /healthz answers with a Date header `ahead` ms from now. */
async function clockAnswering(ahead, { fails = false } = {}) {
  const asked = [];
  globalThis.fetch = async (url, options) => {
    asked.push([url, options]);
    if (fails) throw new TypeError("network down");
    const date = new Date(Date.now() + ahead).toUTCString();
    return /** @type {any} a Response as far as clock.js reads one */ ({
      headers: new Map([["Date", date]]),
    });
  };
  loads += 1;
  const clock = await import(`../../client_web/js/shared/clock.js?load=${loads}`);
  return { clock, asked };
}

afterEach(() => {
  globalThis.fetch = realFetch;
});

test("a server clock 30 s ahead moves this page's clock 30 s on (to within the header's second)", async () => {
  const { clock, asked } = await clockAnswering(30_000);
  await clock.syncClock();
  const off = clock.serverNow() - Date.now();
  assert.ok(off > 28_500 && off < 31_500, `offset ${off}`);
  assert.deepEqual(asked, [["/healthz", { cache: "no-store" }]]);
});

test("a server clock 20 s behind moves it back", async () => {
  const { clock } = await clockAnswering(-20_000);
  await clock.syncClock();
  const off = clock.serverNow() - Date.now();
  assert.ok(off < -18_500 && off > -21_500, `offset ${off}`);
});

test("within 2 s the page's own clock is trusted as it is (the header is whole seconds)", async () => {
  const { clock } = await clockAnswering(1_000);
  await clock.syncClock();
  assert.ok(Math.abs(clock.serverNow() - Date.now()) < 50);
});

test("no answer from the server keeps this machine's clock", async () => {
  const { clock } = await clockAnswering(60_000, { fails: true });
  await clock.syncClock();
  assert.ok(Math.abs(clock.serverNow() - Date.now()) < 50);
});

test("the clock is measured once per page load: later calls share the first", async () => {
  const { clock, asked } = await clockAnswering(10_000);
  const first = clock.syncClock();
  assert.equal(clock.syncClock(), first);
  await first;
  await clock.syncClock();
  assert.equal(asked.length, 1);
});
