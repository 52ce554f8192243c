// @ts-check
// The header's friends (docs/friends.md), for a signed-in player with an account: "Friends
// online (N)", opening the list of the followed players online now (each a link to their
// profile, "racing" with Watch where the race is listed, and Challenge), and the
// notifications' bell with the unread count, opening the inbox (GET /api/me/notifications;
// opened, it is marked read up to its newest). Both follow the notification socket live
// (notify.js); one panel opens at a time, under the header, and closes on Escape, a click
// elsewhere or another page.

import { openChallenge } from "./challenges.js";
import { h, toast } from "../shared/dom.js";
import { noteWords, readUpTo } from "./friends.js";
import { friendsError, inbox, markRead } from "./friends_api.js";
import { dateTime, elapsedText, num, t } from "../shared/i18n.js";
import { friendsState, onFriends, setUnread } from "./notify.js";
import { patch } from "../shared/render.js";

// The icons, drawn in the page (no emoji font needed): two players, and a bell.
const PEOPLE =
  "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm7.5 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20c0-3.6 " +
  "3.1-6 7-6s7 2.4 7 6zm15.6 0c0-2.2-.8-4-2.3-5.2.5-.2 1.1-.3 1.7-.3 3.1 0 5 2.3 5 5.5z";
const BELL =
  "M12 2.5a6 6 0 0 0-6 6v3.8L4.2 15.5V17h15.6v-1.5L18 12.3V8.5a6 6 0 0 0-6-6zM9.5 18.5a2.5 " +
  "2.5 0 0 0 5 0z";
const SVG = "http://www.w3.org/2000/svg";

function icon(d) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "friends-icon");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  svg.append(path);
  return svg;
}

let bar = null;
let opened = null; // "online", "inbox" or null
let notes = null; // the inbox as last read: {list} or {error}
let shownFor = null; // the player whose friends are shown

/** Draw the friends' part of the header into `el` (the header's #friends), live. */
export function startFriendsHeader(el) {
  bar = el;
  onFriends((state, frame) => {
    if (state.you !== shownFor) [shownFor, opened, notes] = [state.you, null, null];
    if (frame?.type === "notification" && opened === "inbox") loadInbox();
    if (frame?.type === "notification" && frame.note?.kind === "arena_soon") {
      toast(noteText(frame.note)); // (the arena's page is a click away, in the bell)
    }
    drawFriendsHeader();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && opened) close(true);
  });
  document.addEventListener("click", (event) => {
    if (opened && !bar.contains(event.target)) close(false);
  });
  window.addEventListener("hashchange", () => close(false));
}

function close(refocus) {
  const was = opened;
  opened = null;
  drawFriendsHeader();
  if (refocus) bar.querySelector(`[data-opens="${was}"]`)?.focus();
}

function toggle(which) {
  opened = opened === which ? null : which;
  if (opened === "inbox") loadInbox();
  drawFriendsHeader();
}

/** The header's part afresh (a new state, another language). */
export function drawFriendsHeader() {
  if (!bar) return;
  const { you, online, unread } = friendsState();
  bar.hidden = !you;
  if (!you) return patch(bar);
  const onlineLabel = t("friends.online", { n: online.length });
  const bell = t("notes.bell", { n: unread });
  patch(
    bar,
    h(
      "button",
      {
        type: "button",
        class: `friends-toggle${online.length ? " some" : ""}`,
        "aria-expanded": String(opened === "online"),
        "aria-controls": "friends-panel",
        dataset: { opens: "online" },
        onclick: () => toggle("online"),
      },
      icon(PEOPLE),
      h("span", { class: "friends-word" }, onlineLabel),
      h("span", { class: "friends-n", "aria-hidden": "true" }, num(online.length)),
    ),
    h(
      "button",
      {
        type: "button",
        class: `notes-bell${unread ? " unread" : ""}`,
        "aria-expanded": String(opened === "inbox"),
        "aria-controls": "friends-panel",
        "aria-label": bell,
        title: bell,
        dataset: { opens: "inbox" },
        onclick: () => toggle("inbox"),
      },
      icon(BELL),
      unread ? h("span", { class: "notes-count", "aria-hidden": "true" }, num(unread)) : null,
    ),
    opened
      ? h(
          "div",
          { id: "friends-panel", class: "friends-panel panel", key: opened },
          opened === "online" ? onlineView(online) : inboxView(),
        )
      : null,
  );
}

function onlineView(online) {
  const title = h("h2", {}, t("friends.onlineTitle"));
  if (!online.length) return [title, h("p", { class: "muted" }, t("friends.noneOnline"))];
  return [
    title,
    h(
      "ul",
      { class: "friends-list" },
      online.map((f) =>
        h(
          "li",
          { key: f.player_id, dataset: { player: f.player_id } },
          h("a", { href: `#/player/${encodeURIComponent(f.player_id)}` }, f.name),
          f.status === "racing" ? h("span", { class: "tag" }, t("friends.racing")) : null,
          f.room_id
            ? h("a", { href: `#/watch/${encodeURIComponent(f.room_id)}` }, t("friends.watch"))
            : null,
          h(
            "button",
            {
              type: "button",
              class: "btn btn-small",
              "aria-label": t("friends.challengeName", { name: f.name }),
              onclick: () => {
                close(false);
                openChallenge({ playerId: f.player_id, name: f.name });
              },
            },
            t("friends.challenge"),
          ),
        ),
      ),
    ),
  ];
}

function inboxView() {
  const title = h("h2", {}, t("notes.title"));
  if (!notes) return [title, h("p", { class: "muted" }, t("common.loading"))];
  if (notes.error) return [title, h("p", { class: "form-error" }, notes.error)];
  if (!notes.list.length) return [title, h("p", { class: "muted" }, t("notes.none"))];
  return [
    title,
    h(
      "ul",
      { class: "notes-list" },
      notes.list.map((note) =>
        h(
          "li",
          { key: note.note_id, class: note.read ? "" : "note-new", dataset: { kind: note.kind } },
          note.kind === "arena_soon" && note.data?.arena_id
            ? h("a", { href: `#/arena/${encodeURIComponent(note.data.arena_id)}` }, noteText(note))
            : h("span", {}, noteText(note)),
          h("small", { class: "muted" }, dateTime(note.ms)),
        ),
      ),
    ),
  ];
}

/** A notification in words (the player it names links to their profile). */
function noteText(note) {
  const [key, params] = noteWords(note);
  const words = { ...params };
  if (key === "notes.dailyBeaten") {
    words.game = t(`game.${params.game === "squadron" ? "squadron" : "stalactites"}`);
    words.time = elapsedText(params.ms);
    delete words.ms;
  }
  return t(key, words);
}

/** Read the inbox, show it, and mark it read up to its newest note. */
async function loadInbox() {
  try {
    const answer = await inbox();
    notes = { list: answer.notifications };
    const upTo = readUpTo(answer.notifications);
    setUnread(upTo > answer.read_ms ? (await markRead(upTo)).unread : answer.unread);
  } catch (error) {
    notes = { error: friendsError(error) };
    drawFriendsHeader();
  }
}
