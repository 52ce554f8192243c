// @ts-check
// The server's time, for the race clock. Deadlines (`starts_at`, `ends_at`) are the server's
// unix milliseconds; a player whose own clock is off would see the wrong time left. The
// server's HTTP Date header (whole seconds) gives the offset; it is used only when it is
// clearly more than that rounding (over 2 s), so a well-set clock is trusted as it is.

let offsetMs = 0;
let synced = null;

/** Unix milliseconds by the server's clock, as well as this page can tell. */
export function serverNow() {
  return Date.now() + offsetMs;
}

/** Measure the offset once per page load (later calls share the first). */
export function syncClock() {
  synced ??= measure();
  return synced;
}

async function measure() {
  try {
    const sent = Date.now();
    const answer = await fetch("/healthz", { cache: "no-store" });
    const received = Date.now();
    const date = Date.parse(answer.headers.get("Date") ?? "");
    if (Number.isNaN(date)) return;
    // The header is truncated to the second: its middle is half a second later.
    const offset = date + 500 - (sent + received) / 2;
    if (Math.abs(offset) > 2000) offsetMs = Math.round(offset);
  } catch {
    // No answer: keep this machine's clock.
  }
}
