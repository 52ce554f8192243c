// @ts-check
// One render per page, scheduled, and the DOM updated in place.
//
// A page keeps its data in one state object; any change calls `schedule()`, and the page's
// render runs once in the next animation frame however many changes came before it. The
// render builds the elements it wants with `h()` (detached, cheap) and `patch()` brings the
// live elements to that shape: children are matched by key (the `key` prop of `h()`) or, when
// unkeyed, by tag in order; matched elements keep their identity (so a card clicked twice is
// still the same element for the second click, an input keeps what was typed in it, and a
// section the player opened stays open), and only attributes, text and listeners that differ
// are touched.

/**
 * A render that runs at most once per animation frame: schedule() asks for it (what the
 * server sends, the clock), now() runs it at once (the player's own input, so the page answers
 * in the same event; a render already asked for is then done), stop() cancels it. A hidden
 * page gets no animation frames, so there it runs from a timer instead (the DOM stays current
 * for a tab looked at later).
 */
export function scheduled(render, { frame = globalThis.requestAnimationFrame } = {}) {
  let wanted = false;
  let stopped = false;
  const run = () => {
    if (!wanted || stopped) return;
    wanted = false;
    render();
  };
  const hidden = () => globalThis.document?.visibilityState === "hidden";
  return {
    schedule() {
      if (wanted || stopped) return;
      wanted = true;
      if (frame && !hidden()) frame(run);
      else setTimeout(run, 0);
    },
    now() {
      wanted = true;
      run();
    },
    stop() {
      stopped = true;
    },
  };
}

/** Make `el`'s children those given (nodes, text, arrays; null skipped), in place. */
export function patch(el, ...children) {
  patchChildren(el, toNodes(children));
  return el;
}

function toNodes(children) {
  const nodes = [];
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    nodes.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return nodes;
}

function patchChildren(live, wanted) {
  const old = [...live.childNodes];
  const keyed = new Map();
  const unkeyed = [];
  for (const node of old) {
    if (node._key === undefined) unkeyed.push(node);
    else keyed.set(node._key, [...(keyed.get(node._key) ?? []), node]);
  }
  let next = 0; // the first unkeyed old node not yet considered
  const result = wanted.map((node) => {
    let match = null;
    if (node._key !== undefined) {
      const same = keyed.get(node._key) ?? [];
      const i = same.findIndex((o) => sameKind(o, node));
      if (i >= 0) match = same.splice(i, 1)[0];
    } else {
      const i = unkeyed.findIndex((o, j) => j >= next && sameKind(o, node));
      if (i >= 0) [match, next] = [unkeyed[i], i + 1];
    }
    if (!match || match === node) return node;
    morph(match, node);
    return match;
  });
  const kept = new Set(result);
  for (const node of old) if (!kept.has(node)) node.remove();
  result.forEach((node, i) => {
    if (live.childNodes[i] !== node) live.insertBefore(node, live.childNodes[i] ?? null);
  });
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

/** Bring one live node to the shape of another of the same kind. */
function morph(live, next) {
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== next.nodeValue) live.nodeValue = next.nodeValue;
    return;
  }
  if (next._sig !== undefined && live._sig === next._sig) return; // unchanged, said its builder
  live._sig = next._sig;
  morphAttributes(live, next);
  morphListeners(live, next);
  patchChildren(live, [...next.childNodes]);
}

function morphAttributes(live, next) {
  for (const { name } of [...live.attributes]) {
    if (!next.hasAttribute(name) && !heldOpen(live, name)) live.removeAttribute(name);
  }
  for (const { name, value } of next.attributes) {
    if (live.getAttribute(name) === value || heldOpen(live, name)) continue;
    // Styles go through the CSSOM: a style attribute set as markup breaks the page's CSP.
    if (name === "style") live.style.cssText = next.style.cssText;
    else live.setAttribute(name, value);
  }
}

/** A section's or a dialog's `open` is the player's (or showModal's) once it is on the page:
 * the builder's value only opens a new one, and a redraw never shuts what was opened. */
function heldOpen(live, name) {
  return name === "open" && (live.nodeName === "DETAILS" || live.nodeName === "DIALOG");
}

/** Listeners made by h() go through one dispatcher per event type: swap what it calls. */
function morphListeners(live, next) {
  const wanted = next._on ?? {};
  for (const type of Object.keys(live._on ?? {})) if (!(type in wanted)) live._on[type] = null;
  for (const [type, fn] of Object.entries(wanted)) listen(live, type, fn);
}

/** Set the listener h() keeps for `type` on `el` (one dispatcher per type, added once). */
export function listen(el, type, fn) {
  el._on ??= {};
  if (!(type in el._on)) {
    el.addEventListener(type, (event) => el._on[type]?.(event));
  }
  el._on[type] = fn;
}

/** Set an element's text, only when it differs (no churn for a render that changes nothing). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Set a data-* attribute, only when it differs. */
export function setData(el, name, value) {
  if (el.dataset[name] !== value) el.dataset[name] = value;
}

/**
 * Draw one part of a page only when what it shows has changed: `key` (a string) says what
 * that is, and `draw()` runs only when it differs from the key last drawn for `part` in
 * `memo` (an object the page keeps with its elements). A page's render can then run for
 * any change and rebuild only the parts that change touched. Returns whether it drew.
 */
export function drawPart(memo, part, key, draw) {
  if (memo[part] === key) return false;
  memo[part] = key;
  draw();
  return true;
}

/**
 * When a countdown to `target` (ms) next shows another whole second, seen at `now`: the
 * next time `target - now` is a whole number of seconds; Infinity once `target` has passed.
 */
export function nextSecond(target, now) {
  const left = target - now;
  if (!(left > 0)) return Infinity;
  return now + (left % 1000 || 1000);
}
