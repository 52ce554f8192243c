// Building DOM nodes. Every string becomes a text node: user data never reaches innerHTML.

import { listen } from "./render.js";

/**
 * Create an element: h("button", {class: "x", onclick: fn}, "label", child).
 * Props: class, text, dataset, style (object of custom properties or styles),
 * on<event> listeners, key (matches the element to a live one in patch()), sig (a builder's
 * signature of the content: patch() leaves a live element with the same sig as it is), and
 * plain attributes (true gives an empty attribute).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    setProp(el, key, value);
  }
  append(el, children);
  return el;
}

function setProp(el, key, value) {
  if (value === null || value === undefined || value === false) return;
  if (key === "class") el.className = value;
  else if (key === "text") el.textContent = String(value);
  else if (key === "dataset") Object.assign(el.dataset, value);
  else if (key === "key") el._key = value;
  else if (key === "sig") el._sig = value;
  else if (key === "style") setStyle(el, value);
  else if (key.startsWith("on") && typeof value === "function") {
    listen(el, key.slice(2), value);
  } else el.setAttribute(key, value === true ? "" : String(value));
}

function setStyle(el, styles) {
  for (const [name, value] of Object.entries(styles)) {
    if (name.startsWith("--")) el.style.setProperty(name, String(value));
    else el.style[name] = value;
  }
}

/** Append children: nodes as they are, anything else as text; null and false are skipped. */
export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace all of an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Show a short message that fades by itself; kind is "info", "error" or "good". */
export function toast(message, kind = "info", ms = 3500) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}` }, message);
  box.append(item);
  setTimeout(() => item.classList.add("toast-out"), ms);
  setTimeout(() => item.remove(), ms + 400);
}

/** Format milliseconds as m:ss (or h:mm:ss), never negative. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/** Format an elapsed time in milliseconds as m:ss.t. */
export function elapsedText(ms) {
  if (ms === null || ms === undefined) return "—";
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = String(Math.floor((tenths % 600) / 10)).padStart(2, "0");
  return `${minutes}:${seconds}.${tenths % 10}`;
}

/** English ordinal: 1st, 2nd, 3rd, 4th ... */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}
