// The deal commitment (docs/fairness.md): the room publishes SHA-256 of "deal|salt" from its
// creation and reveals the deal and the salt with the results; this page checks the two agree.

import { h } from "./dom.js";

/** SHA-256 of `${deal}|${salt}` (UTF-8) as lowercase hex; null where the browser has no
 * WebCrypto (pages not served from localhost or https). */
export async function commitmentOf(deal, salt) {
  if (!globalThis.crypto?.subtle) return null;
  const bytes = new TextEncoder().encode(`${deal}|${salt}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The reveal of a results frame or a finished room view, checked: { deal, salt, commitment,
 * verified } with verified true, false, or null (not checkable here); null before the reveal. */
export async function checkReveal({ deal, salt, commitment } = {}) {
  if (!deal || !salt || !commitment) return null;
  const actual = await commitmentOf(deal, salt);
  return { deal, salt, commitment, verified: actual === null ? null : actual === commitment };
}

/** The header line: the commitment published before the race (shortened; whole on hover). */
export function commitmentLine(room) {
  const commitment = room?.commitment;
  if (!commitment) return null;
  return h(
    "p",
    { class: "race-commitment", title: `SHA-256 of deal|salt: ${commitment}` },
    `Deal committed: ${commitment.slice(0, 16)}…`,
  );
}

/** The results' line: the revealed deal and salt, and whether they open the commitment. */
export function revealView(reveal) {
  if (!reveal) return null;
  const verdict = {
    true: ["verified ✓", "fair-ok"],
    false: ["does NOT match the commitment", "fair-bad"],
    null: ["not checked (this browser cannot hash here)", "muted"],
  }[String(reveal.verified)];
  return h(
    "p",
    { class: "fairness", title: `commitment ${reveal.commitment}` },
    "Deal revealed: ",
    h("code", {}, reveal.deal),
    ", salt ",
    h("code", {}, reveal.salt),
    ": ",
    h("span", { class: verdict[1] }, verdict[0]),
  );
}
