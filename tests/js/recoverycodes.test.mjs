// The files a player keeps (client_web/js/profile/recoverycodes.js): the recovery codes' text file,
// numbered and saying whose they are, and the names of both files.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  codesFile,
  codesFileName,
  exportFileName,
} from "../../client_web/js/profile/recoverycodes.js";

test("the codes' file names the account, numbers each code and says what they are", () => {
  const codes = Array.from(
    { length: 10 },
    (_, i) => `AAAA-BBBB-CCCC-DD${String(i).padStart(2, "0")}`,
  );
  const text = codesFile(codes, { title: "Recovery codes", username: "ann_1", note: "Once each." });
  const lines = text.split("\n");
  assert.deepEqual(lines.slice(0, 3), ["Recovery codes", "ann_1", ""]);
  assert.equal(lines[3], " 1. AAAA-BBBB-CCCC-DD00");
  assert.equal(lines[12], "10. AAAA-BBBB-CCCC-DD09");
  assert.deepEqual(lines.slice(13), ["", "Once each.", ""]);
});

test("the files are named by the account, and by the player and the day", () => {
  assert.equal(codesFileName("ann_1"), "stalactites-recovery-codes-ann_1.txt");
  const day = Date.UTC(2026, 2, 5, 23, 59);
  assert.equal(
    exportFileName("p.0123456789abcdef", day),
    "stalactites-p.0123456789abcdef-2026-03-05.json",
  );
});
