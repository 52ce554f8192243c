// @ts-check
// The deal commitment (docs/fairness.md): the room publishes SHA-256 of "deal|salt" from its
// creation and reveals the deal and the salt with the results; this page checks the two agree.

import { h } from "../shared/dom.js";
import { t, tParts } from "../shared/i18n.js";

/** SHA-256 of `${deal}|${salt}` (UTF-8) as lowercase hex; null where the browser has no
 * WebCrypto (pages not served from localhost or https). */
export async function commitmentOf(deal, salt) {
  if (!globalThis.crypto?.subtle) return null;
  const bytes = new TextEncoder().encode(`${deal}|${salt}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The reveal of a results frame or a finished room view, checked: { deal, salt, commitment,
 * verified } with verified true, false, or null (not checkable here); null before the reveal.
 * @param {{ deal?: string, salt?: string, commitment?: string }} [reveal] */
export async function checkReveal({ deal, salt, commitment } = {}) {
  if (!deal || !salt || !commitment) return null;
  const actual = await commitmentOf(deal, salt);
  return { deal, salt, commitment, verified: actual === null ? null : actual === commitment };
}

/** The header line: the deal was fixed before the start, in words; the proof one click away. */
export function commitmentLine(room) {
  const commitment = room?.commitment;
  if (!commitment) return null;
  return h(
    "details",
    { class: "race-commitment" },
    h("summary", {}, t("fair.fixed")),
    h("p", { class: "muted" }, tParts("fair.how", { hash: h("code", {}, commitment) })),
  );
}

/** The results' line: the revealed deal and salt, and whether they open the commitment. */
export function revealView(reveal) {
  if (!reveal) return null;
  const verdict = {
    true: ["fair.checked", "fair-ok"],
    false: ["fair.mismatch", "fair-bad"],
    null: ["fair.unchecked", "muted"],
  }[String(reveal.verified)];
  const code = (text) => h("code", {}, text);
  return h(
    "details",
    { class: "fairness" },
    h("summary", {}, t("fair.fixedComma"), " ", h("span", { class: verdict[1] }, t(verdict[0]))),
    h(
      "p",
      { class: "muted" },
      tParts("fair.revealed", {
        deal: code(reveal.deal),
        salt: code(reveal.salt),
        hash: code(reveal.commitment),
      }),
    ),
  );
}
