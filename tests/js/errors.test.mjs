// What a player is told of an error (client_web/js/shared/api.js, errorText): the
// catalogue's `error.<code>` for any code it has words for, a bad field's own advice, and
// `error.other` with the status for anything else; and i18n.js's `has`, which it asks.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { ApiError, errorText } from "../../client_web/js/shared/api.js";
import {
  CATALOGUES,
  LANGUAGES,
  has,
  loadLanguage,
  setLanguage,
} from "../../client_web/js/shared/i18n.js";

await Promise.all(LANGUAGES.map(loadLanguage));

afterEach(() => setLanguage("en"));

test("has says whether the current language's catalogue has a key", () => {
  setLanguage("pl");
  assert.equal(has("error.no_daily"), true);
  assert.equal(has("error.no_such_code"), false);
  assert.equal(has("toString"), false); // an object's own keys only
});

test("a code the catalogue has words for is told in them, in the page's language", () => {
  for (const lang of LANGUAGES) {
    setLanguage(lang);
    const error = new ApiError(404, "no_daily", "a daily deal is one of [...]");
    assert.equal(errorText(error), CATALOGUES[lang]["error.no_daily"], lang);
    assert.equal(errorText({ code: "in_quick_race" }), CATALOGUES[lang]["error.in_quick_race"]);
  }
});

test("a bad field is told by the field's own advice", () => {
  const error = new ApiError(422, "bad_message", "seats: too many", "body.seats");
  assert.equal(errorText(error), CATALOGUES.en["error.field.seats"]);
});

test("a code without words, or none, is error.other with the status", () => {
  assert.equal(
    errorText(new ApiError(418, "http_418", "http_418")),
    "Something went wrong (the server answered 418). Try again.",
  );
  assert.equal(
    errorText({ code: "no_such_code" }),
    "Something went wrong (the server answered ?). Try again.",
  );
  assert.equal(errorText(null), "Something went wrong (the server answered ?). Try again.");
});
