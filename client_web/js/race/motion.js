// @ts-check
// Cards that move: a card glides from where it was drawn to where it is drawn now (FLIP with
// the Web Animations API), and a win throws the four suits about. A player who asks for
// reduced motion (prefers-reduced-motion) gets none of it: the board simply changes.

import { h } from "../shared/dom.js";

const GLIDE_MS = 240;
const FAR_PX = 8; // a card kept on its pile glides only when it moved further than this

/** Whether the player asked for reduced motion. */
export function reducedMotion() {
  return Boolean(globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}

/** Where every card drawn in `host` is now: [{code, el, rect}]. */
export function cardPlaces(host) {
  return [...host.querySelectorAll(".card[data-card]")].map((el) => ({
    code: el.dataset.card,
    el,
    rect: el.getBoundingClientRect(),
  }));
}

/**
 * After a redraw: every card drawn anew where a card of its code was taken away (it went to
 * another pile) glides from the old place, and a card kept on its pile but shifted glides
 * from its old place too. `before` is cardPlaces() taken before the redraw.
 */
export function glide(host, before) {
  if (reducedMotion() || !before.length) return;
  const old = new Set(before.map((p) => p.el));
  const left = new Map(); // code -> old places of cards no longer drawn
  const kept = new Map(); // element -> old place
  for (const place of before) {
    if (place.el.isConnected && host.contains(place.el)) kept.set(place.el, place.rect);
    else left.set(place.code, [...(left.get(place.code) ?? []), place.rect]);
  }
  for (const el of host.querySelectorAll(".card[data-card]")) {
    const from = old.has(el) ? kept.get(el) : left.get(el.dataset.card)?.shift();
    if (!from) continue;
    const to = el.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (old.has(el) && Math.hypot(dx, dy) <= FAR_PX) continue;
    el.animate(
      [
        { transform: `translate(${dx}px, ${dy}px)`, zIndex: 30 },
        { transform: "translate(0, 0)", zIndex: 30 },
      ],
      { duration: GLIDE_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }
}

const SUITS = ["♠", "♥", "♦", "♣"];

/** A won race: the foundations' cards hop in turn and suits rain over the page. */
export function celebrate(host) {
  if (reducedMotion()) return;
  host.querySelectorAll(".pile-f .card").forEach((card, i) => {
    card.animate(
      [
        { transform: "none" },
        { transform: "translateY(-22px) rotate(-4deg)" },
        { transform: "none" },
      ],
      { duration: 520, delay: i * 90, easing: "ease-out", iterations: 2 },
    );
  });
  const layer = h("div", { class: "confetti", "aria-hidden": "true" });
  for (let i = 0; i < 36; i++) {
    const bit = h("span", { class: `bit bit-${i % 4}` }, SUITS[i % 4]);
    bit.style.left = `${(i * 37) % 100}%`;
    layer.append(bit);
    bit.animate(
      [
        { transform: "translateY(-10vh) rotate(0deg)", opacity: 1 },
        { transform: `translateY(105vh) rotate(${(i % 2 ? 1 : -1) * 540}deg)`, opacity: 0.8 },
      ],
      { duration: 1800 + ((i * 131) % 900), delay: (i * 53) % 700, easing: "ease-in" },
    );
  }
  document.body.append(layer);
  setTimeout(() => layer.remove(), 3600);
}
