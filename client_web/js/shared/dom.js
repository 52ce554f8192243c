// @ts-check
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
  placeToasts(box);
  const item = h("div", { class: `toast toast-${kind}` }, message);
  box.append(item);
  setTimeout(() => item.classList.add("toast-out"), ms);
  setTimeout(() => item.remove(), ms + 400);
}

/** Under the header where it shows (a phone's is three rows high), else at the screen's
 * top; and the toasts' height, by which an open dialog moves down (style.css). */
function placeToasts(box) {
  const header = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
  box.style.setProperty("--toast-top", `${Math.max(8, Math.round(header) + 8)}px`);
  if (box._sized) return;
  box._sized = true;
  const measure = () => {
    const height = box.childElementCount ? box.offsetHeight : 0;
    document.documentElement.style.setProperty("--toasts-h", `${height}px`);
  };
  new ResizeObserver(measure).observe(box);
  measure();
}

/** Take every toast away at once (a page left: its messages are about it). */
export function clearToasts() {
  document.getElementById("toasts")?.replaceChildren();
}

/** A wide table in a box a phone scrolls sideways (not the page): a named region that takes
 * the keyboard's focus, so it can be scrolled without a pointer too. */
export function tableScroll(table, label) {
  const props = { class: "table-scroll", tabindex: "0", role: "region", "aria-label": label };
  return h("div", props, table);
}

/** Show a modal dialog: closed by leaving the page, taken out of the document once closed.
 * The dialog, for its caller to close. */
export function showModal(dialog) {
  const leave = () => dialog.close();
  window.addEventListener("hashchange", leave, { once: true });
  dialog.addEventListener("close", () => {
    window.removeEventListener("hashchange", leave);
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
