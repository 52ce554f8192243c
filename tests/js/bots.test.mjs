// Declared bots in a room's views (client_web/js/race/bots.js): only accounts' seats are asked
// about, each once, and a racer's line is marked once its profile says it is a bot.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BotBook, hasProfile } from "../../client_web/js/race/bots.js";

/** A book whose profiles come from `profiles` (id -> profile, or an Error to throw). */
function bookOf(profiles) {
  const asked = [];
  const book = new BotBook(async (id) => {
    asked.push(id);
    const found = profiles[id];
    if (found instanceof Error) throw found;
    return found;
  });
  return { book, asked };
}

const failed = (status) => Object.assign(new Error(`http ${status}`), { status });

test("only an account's seat has a profile: not a guest's seat nor a ghost's", () => {
  assert.equal(hasProfile("p.0123456789abcdef"), true);
  assert.equal(hasProfile("0123456789abcdef"), false); // a guest's seat
  assert.equal(hasProfile("g.0123456789abcd"), false); // a ghost's seat
  assert.equal(hasProfile(undefined), false);
});

test("asking finds the bots among the accounts, each asked once", async () => {
  const { book, asked } = bookOf({ "p.bot": { bot: true }, "p.ann": { bot: false } });
  const ids = ["p.bot", "p.ann", "g.ghost", "abcdef0123456789", "p.bot"];
  assert.deepEqual(await book.ask(ids), ["p.bot"]);
  assert.deepEqual(asked, ["p.bot", "p.ann"]);
  assert.deepEqual(await book.ask(ids), []); // known: nothing new to draw
  assert.deepEqual(asked, ["p.bot", "p.ann"]);
  assert.equal(book.isBot("p.bot"), true);
  assert.equal(book.isBot("p.ann"), false);
});

test("a question under way is not asked twice", async () => {
  const { book, asked } = bookOf({ "p.bot": { bot: true } });
  const [first, second] = await Promise.all([book.ask(["p.bot"]), book.ask(["p.bot"])]);
  assert.deepEqual([first, second], [["p.bot"], []]);
  assert.deepEqual(asked, ["p.bot"]);
});

test("a deleted player is no bot; a profile the network lost is asked again", async () => {
  const { book, asked } = bookOf({ "p.gone": failed(404), "p.far": failed(0) });
  assert.deepEqual(await book.ask(["p.gone", "p.far"]), []);
  assert.deepEqual(await book.ask(["p.gone", "p.far"]), []);
  assert.deepEqual(asked, ["p.gone", "p.far", "p.far"]);
});

test("marking copies the bots' lines with bot: true, the others left as they are", async () => {
  const { book } = bookOf({ "p.bot": { bot: true }, "p.ann": {} });
  await book.ask(["p.bot", "p.ann"]);
  const bot = { player_id: "p.bot", name: "Robo" };
  const ann = { player_id: "p.ann", name: "Ann" };
  const [marked, same] = book.mark([bot, ann]);
  assert.deepEqual(marked, { player_id: "p.bot", name: "Robo", bot: true });
  assert.equal(bot.bot, undefined); // the state's own line is not changed
  assert.equal(same, ann);
  assert.deepEqual(book.mark(null), []);
});
