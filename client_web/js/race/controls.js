// @ts-check
// Making moves on a drawn board: click-then-click, drag and drop, double click, keys.
// Every candidate move comes from the server's legal list (a LegalIndex); the controls
// never judge a move themselves.

import { h } from "../shared/dom.js";

const DRAG_THRESHOLD = 6;
const DOUBLE_TAP_MS = 400; // a second tap on the same card this soon is a double tap
const MAX_TYPED_AHEAD = 16;
const MOVE_KEYS = new Set([..."1234567890qwexfcd", "enter", " "]);

export class MoveControls {
  /**
   * host: the element the board is drawn in (in place: its cards stay the same elements).
   * hooks: legal() -> LegalIndex, move(text, dropped), changed() (redraw), busy() (a move awaits
   * its answer: keys typed meanwhile wait for it), and key actions: undo(), hint(), ready(),
   * declare(step), help().
   */
  constructor(host, hooks) {
    this.host = host;
    this.hooks = hooks;
    this.selection = null;
    this.hovered = null; // the lit pile a dragged card is over
    this.press = null;
    this.typedAhead = [];
    this.listeners = [
      [host, "pointerdown", (e) => this.pointerDown(e)],
      [host, "dblclick", (e) => this.dblclick(e)],
      [window, "pointermove", (e) => this.pointerMove(e)],
      [window, "pointerup", (e) => this.pointerUp(e)],
      [window, "pointercancel", () => this.cancelDrag(false)],
      [document, "keydown", (e) => this.key(e)],
    ];
    for (const [target, type, fn] of this.listeners) target.addEventListener(type, fn);
  }

  destroy() {
    for (const [target, type, fn] of this.listeners) target.removeEventListener(type, fn);
    this.cancelDrag(false);
  }

  /** What the board drawing needs: the selection, its targets, which runs can move. */
  view() {
    const legal = this.hooks.legal();
    const sel = this.selection;
    return {
      selected: sel && { pile: sel.pile, count: sel.count ?? longestRun(legal, sel.pile) },
      targets: sel ? legal.targets(sel.pile, sel.count ?? undefined) : new Set(),
      movable: (pile, count) => legal.canMove(pile, count),
      hover: this.hovered,
    };
  }

  /** Drop a selection the player can no longer play (the race is not on for them). */
  unselect() {
    this.selection = null;
  }

  select(selection) {
    this.selection = selection;
    this.hooks.changed();
  }

  clear() {
    if (this.selection) this.select(null);
  }

  /** Make a move (or, with none, only redraw); `dropped` when a drag put its cards there. */
  play(move, dropped = false) {
    this.selection = null;
    if (move) this.hooks.move(move.text, dropped);
    else this.hooks.changed();
  }

  // Clicks.

  click(pile, count) {
    const legal = this.hooks.legal();
    const sel = this.selection;
    if (sel && pile !== sel.pile && legal.targets(sel.pile, sel.count ?? undefined).has(pile)) {
      return this.play(legal.find(sel.pile, pile, sel.count ?? undefined));
    }
    if (pile === "s") return this.play(legal.find("s", "w"));
    if (sel && sel.pile === pile && sel.count === count) return this.clear();
    if (count && legal.canMove(pile, count)) return this.select({ pile, count });
    this.clear();
  }

  /**
   * A double click on a card (the browser's dblclick: the board is patched in place, so the
   * card clicked twice is one element): send it to a foundation that takes it, or else to a
   * free cell. Its two clicks have picked the card up and put it down again by then.
   */
  dblclick(event) {
    // A finger's double tap has been handled at its second pointerup (see tapped()).
    if (event.timeStamp - (this.lastTap?.sentAt ?? -Infinity) < DOUBLE_TAP_MS * 2) return;
    this.doubleClick(spotOf(event.target));
  }

  /**
   * A tap of a finger: a second tap on the same card soon after the first sends it where a
   * double click would (touch screens do not all send dblclick, and never for a pen).
   */
  tapped(event, press) {
    const last = this.lastTap;
    const same = last && last.pile === press.pile && last.count === press.count;
    if (same && event.timeStamp - last.at < DOUBLE_TAP_MS) {
      this.lastTap = { sentAt: event.timeStamp };
      this.doubleClick(press);
      return true;
    }
    this.lastTap = { pile: press.pile, count: press.count, at: event.timeStamp };
    return false;
  }

  doubleClick(spot) {
    if (!spot?.count || spot.pile === "s") return;
    const legal = this.hooks.legal();
    const move =
      legal.findKind(spot.pile, "f", spot.count) ?? legal.findKind(spot.pile, "c", spot.count);
    if (move) this.play(move);
  }

  // Drag and drop, with pointer events so it works for mouse, pen and touch.

  pointerDown(event) {
    if (event.button !== 0) return;
    const spot = spotOf(event.target);
    if (!spot) return;
    const canDrag = spot.count && this.hooks.legal().canMove(spot.pile, spot.count);
    this.press = { ...spot, x: event.clientX, y: event.clientY, drag: null, canDrag };
    if (canDrag) event.preventDefault();
  }

  pointerMove(event) {
    const press = this.press;
    if (!press) return;
    if (!press.drag) {
      const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_THRESHOLD;
      if (!far || !press.canDrag) return;
      this.startDrag(press);
    }
    const { ghost, dx, dy } = press.drag;
    ghost.style.transform = `translate(${event.clientX - dx}px, ${event.clientY - dy}px)`;
    this.hover(event.clientX, event.clientY);
  }

  startDrag(press) {
    this.select({ pile: press.pile, count: press.count });
    const cards = this.cardsOf(press.pile, press.count);
    const first = cards[0].getBoundingClientRect();
    const ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" });
    ghost.style.setProperty("--board-cw", getComputedStyle(cards[0]).width);
    for (const card of cards) {
      const copy = card.cloneNode(true);
      copy.classList.add("selected"); // as the board draws it once the selection is rendered
      const rect = card.getBoundingClientRect();
      copy.style.position = "absolute";
      copy.style.left = "0px";
      copy.style.top = `${rect.top - first.top}px`;
      copy.style.width = `${rect.width}px`;
      copy.style.height = `${rect.height}px`;
      ghost.append(copy);
    }
    document.body.append(ghost);
    ghost.style.transform = `translate(${first.left}px, ${first.top}px)`;
    press.drag = { ghost, dx: press.x - first.left, dy: press.y - first.top, origin: first };
    this.host.classList.add("dragging");
  }

  cardsOf(pile, count) {
    const all = [...this.host.querySelectorAll(`.pile[data-pile="${pile}"] .card[data-index]`)];
    return all.slice(-count);
  }

  hover(x, y) {
    const name = pileAt(x, y)?.dataset.pile;
    const lit = name && this.view().targets.has(name) ? name : null;
    if (lit === this.hovered) return;
    this.hovered = lit;
    this.hooks.changed();
  }

  pointerUp(event) {
    const press = this.press;
    this.press = null;
    if (!press) return;
    if (!press.drag) {
      if (spotOf(event.target)?.pile !== press.pile) return;
      if (event.pointerType !== "mouse" && press.count && this.tapped(event, press)) return;
      this.click(press.pile, press.count);
      return;
    }
    const name = pileAt(event.clientX, event.clientY)?.dataset.pile;
    const legal = this.hooks.legal();
    const move = name && name !== press.pile ? legal.find(press.pile, name, press.count) : null;
    this.endDrag(press.drag, !move);
    this.play(move, true);
  }

  cancelDrag(animate) {
    const press = this.press;
    this.press = null;
    if (!press?.drag) return;
    this.endDrag(press.drag, animate);
    this.hooks.changed();
  }

  endDrag(drag, springBack) {
    this.host.classList.remove("dragging");
    this.hovered = null;
    const { ghost, origin } = drag;
    if (!springBack) return ghost.remove();
    ghost.classList.add("returning");
    ghost.style.transform = `translate(${origin.left}px, ${origin.top}px)`;
    setTimeout(() => ghost.remove(), 220);
  }

  // Keys (documented in docs/client.md and on the #/help page).

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target?.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const action = this.keyAction(event.key);
    if (!action) return;
    event.preventDefault();
    if (this.hooks.busy?.() && MOVE_KEYS.has(event.key.toLowerCase())) {
      // A move is waiting for the server's answer: keep the keys, play them after it.
      if (this.typedAhead.length < MAX_TYPED_AHEAD) this.typedAhead.push(event.key);
      return;
    }
    if (event.key === "Escape") this.typedAhead = [];
    action();
  }

  /** Play the keys typed while a move was in flight, until one is in flight again. */
  flushKeys() {
    while (this.typedAhead.length && !this.hooks.busy?.()) {
      this.keyAction(this.typedAhead.shift())?.();
    }
  }

  /** Forget the keys typed ahead (a move was refused: the plan they were part of is off). */
  dropKeys() {
    this.typedAhead = [];
  }

  keyAction(key) {
    const k = key.length === 1 ? key.toLowerCase() : key;
    const column = "1234567890".indexOf(k);
    if (column >= 0) return () => this.keyPile(`t${column + 1}`);
    const cell = "qwe".indexOf(k);
    if (cell >= 0) return () => this.keyPile(`c${cell + 1}`);
    const hooks = this.hooks;
    const table = {
      x: () => this.keyPile("w"),
      f: () => this.keyTo("f"),
      c: () => this.keyTo("c"),
      Enter: () => this.keyAuto(),
      " ": () => this.keyAuto(),
      d: () => this.play(hooks.legal().find("s", "w")),
      Escape: () => this.clear(),
      u: hooks.undo,
      h: hooks.hint,
      Backspace: hooks.undo,
      o: hooks.declare && (() => hooks.declare("ones")),
      t: hooks.declare && (() => hooks.declare("twos")),
      r: hooks.ready,
      "?": hooks.help,
    };
    return table[k] ?? null;
  }

  keyPile(pile) {
    const legal = this.hooks.legal();
    const sel = this.selection;
    if (sel && sel.pile !== pile && legal.targets(sel.pile, sel.count ?? undefined).has(pile)) {
      return this.play(legal.find(sel.pile, pile, sel.count ?? undefined));
    }
    if (sel && sel.pile === pile) return this.clear();
    if (legal.from(pile).length) return this.select({ pile, count: null });
    this.clear();
  }

  keyTo(kind) {
    const sel = this.selection;
    if (!sel) return;
    this.play(this.hooks.legal().findKind(sel.pile, kind, sel.count ?? undefined));
  }

  keyAuto() {
    const sel = this.selection;
    if (!sel) return;
    const legal = this.hooks.legal();
    const count = sel.count ?? undefined;
    const move = legal.findKind(sel.pile, "f", count) ?? legal.findKind(sel.pile, "c", count);
    this.play(move ?? legal.from(sel.pile, count)[0]);
  }
}

/** A key picks a pile, not a run: it shows as the longest run that can leave the pile. */
function longestRun(legal, pile) {
  return Math.max(1, ...legal.from(pile).map((m) => m.count));
}

/** The pile and run length a pointer event landed on (a card, or an empty pile). */
function spotOf(target) {
  const el = target?.closest?.("[data-pile]");
  if (!el) return null;
  const pile = el.dataset.pile;
  if (el.dataset.index === undefined) return { pile, count: pile === "s" ? 0 : null };
  const cards = el.closest(".pile")?.querySelectorAll(".card[data-index]") ?? [];
  const last = cards.length ? Number(cards[cards.length - 1].dataset.index) : 0;
  return { pile, count: last - Number(el.dataset.index) + 1 };
}

/**
 * The pile under a point, if any.
 * @returns {HTMLElement | null}
 */
function pileAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el?.closest?.(".pile[data-pile]") ?? null;
}
