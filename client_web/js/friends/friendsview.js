// @ts-check
// Friends on the profile and the results (docs/friends.md). Another registered player's
// profile: Follow or Unfollow, Challenge, Block or Unblock (GET /api/me/following/ID says
// which). Your own: hide your online status, your recent opponents (each with Follow and
// Challenge), and who you follow and who follows you. A race's results: Follow and
// "Challenge again" (the same game, step and time) beside each other racer.
// Each part loads and redraws itself; it carries a `sig`, so the page's patch() leaves it as
// it is (render.js) until what it is about changes, and a render while it shows builds only a
// stand-in (no request again).

import { challenge, openChallenge, refusal } from "./challenges.js";
import { h, replace, toast } from "../shared/dom.js";
import { againBody, followable } from "./friends.js";
import * as friends from "./friends_api.js";
import { num, t } from "../shared/i18n.js";
import { unfollowed } from "./notify.js";
import { me } from "../shared/session.js";

const registered = () => Boolean(me()?.registered);

/** Follow (the server then tells this player's tabs whether they are online now). */
async function follow(playerId) {
  return friends.follow(playerId);
}

async function unfollow(playerId) {
  const answer = await friends.unfollow(playerId);
  unfollowed(playerId);
  return answer;
}
const shown = new Map(); // sig → the part built for it

/** The part for `sig`: built by make() once, then while it shows an empty stand-in that
 * patch() matches to it and leaves alone. */
function once(sig, tag, make) {
  const live = shown.get(sig);
  if (live?.isConnected) return h(tag, { sig, key: sig, class: live.className });
  for (const [key, el] of shown) if (!el.isConnected) shown.delete(key);
  const el = make();
  el._sig = el._key = sig;
  shown.set(sig, el);
  return el;
}

/** A button that runs `act`, disabled meanwhile; a refusal is told in a toast. */
function action(text, act, { cls = "btn btn-small", label = null, data = null } = {}) {
  const run = async (event) => {
    const el = event.currentTarget;
    el.disabled = true;
    try {
      await act();
    } catch (error) {
      toast(refusal(error), "error", 6000);
    } finally {
      el.disabled = false;
    }
  };
  const props = { type: "button", class: cls, onclick: run, "aria-label": label };
  return h("button", { ...props, dataset: data ?? {} }, text);
}

const challengeButton = (player) =>
  h(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      dataset: { friend: "challenge" },
      "aria-haspopup": "dialog",
      "aria-label": t("friends.challengeName", { name: player.name }),
      onclick: () => openChallenge({ playerId: player.player_id, name: player.name }),
    },
    t("friends.challenge"),
  );

/** Follow, Challenge and Block on another registered player's profile (nothing for a guest
 * looking, nor for a player without an account). */
export function profileButtons(profile) {
  if (!registered() || !profile.registered || profile.player_id === me()?.player_id) return null;
  const sig = `relation:${me().player_id}:${profile.player_id}`;
  return once(sig, "div", () => relationButtons(profile));
}

function relationButtons(profile) {
  const box = h("div", { class: "friend-actions" });
  const player = { player_id: profile.player_id, name: profile.name };
  const draw = (rel) => {
    const set = (change) => async () => draw({ ...rel, ...(await change(player.player_id)) });
    replace(
      box,
      rel.following
        ? action(t("friends.unfollow"), set(unfollow), { data: { friend: "unfollow" } })
        : action(t("friends.follow"), set(follow), {
            cls: "btn btn-small btn-primary",
            data: { friend: "follow" },
          }),
      rel.blocked ? null : challengeButton(player),
      rel.blocked
        ? action(t("friends.unblock"), set(friends.unblock), { data: { friend: "unblock" } })
        : action(t("friends.block"), set(blockOf), {
            cls: "btn btn-small btn-quiet",
            data: { friend: "block" },
          }),
    );
  };
  friends.relationTo(profile.player_id).then(draw, (error) => replace(box, refusal(error)));
  return box;
}

/** Blocking ends your follow too (the server's rule): said as the answer's change. */
async function blockOf(playerId) {
  await friends.block(playerId);
  unfollowed(playerId);
  return { blocked: true, following: false };
}

/** Your own profile's friends: hide your status, recent opponents, following, followers. */
export function ownFriendsView(profile) {
  if (!profile.registered) return null;
  return once(`friends:${profile.player_id}`, "section", ownFriends);
}

function ownFriends() {
  const hidden = h("input", { type: "checkbox", name: "hidden", disabled: true });
  const hideLine = h("label", { class: "check" }, hidden, t("friends.hide"));
  friends.presenceHidden().then(
    (value) => {
      hidden.checked = value;
      hidden.disabled = false;
    },
    () => {},
  );
  hidden.addEventListener("change", async () => {
    hidden.disabled = true;
    try {
      hidden.checked = (await friends.hidePresence(hidden.checked)).hidden;
    } catch (error) {
      hidden.checked = !hidden.checked;
      toast(refusal(error), "error");
    }
    hidden.disabled = false;
  });
  return h(
    "section",
    { class: "panel own-friends" },
    h("h2", {}, t("friends.title")),
    hideLine,
    h("p", { class: "muted" }, t("friends.hideHint")),
    h("h3", {}, t("friends.opponents")),
    opponentsList(),
    listPart("following"),
    listPart("followers"),
  );
}

function opponentsList() {
  const list = h("ul", { class: "friends-list opponents" }, h("li", { class: "muted" }, "…"));
  const line = (p) => {
    const li = h("li", { dataset: { player: p.player_id } });
    const draw = (following) =>
      replace(
        li,
        h("a", { href: `#/player/${encodeURIComponent(p.player_id)}` }, p.name),
        following
          ? h("span", { class: "tag" }, t("friends.following"))
          : action(t("friends.follow"), async () => draw((await follow(p.player_id)).following), {
              label: t("friends.followName", { name: p.name }),
              data: { friend: "follow" },
            }),
        challengeButton(p),
      );
    draw(p.following);
    return li;
  };
  friends.opponents().then(
    ({ players }) =>
      replace(
        list,
        players.length ? players.map(line) : h("li", { class: "muted" }, t("friends.noOpponents")),
      ),
    (error) => replace(list, h("li", { class: "form-error" }, refusal(error))),
  );
  return list;
}

/** "Following (N)" or "Followers (N)": a closed list, read when first opened. */
function listPart(name) {
  const summary = h("summary", {}, t(`friends.${name}Title`, { n: "…" }));
  const list = h("ul", { class: "friends-list" });
  const part = h("details", { class: `friends-${name}` }, summary, list);
  friends.listOf(name).then(
    ({ players, total }) => {
      replace(summary, t(`friends.${name}Title`, { n: num(total) }));
      replace(
        list,
        players.length
          ? players.map((p) =>
              h(
                "li",
                {},
                h("a", { href: `#/player/${encodeURIComponent(p.player_id)}` }, p.name),
                name === "following" ? challengeButton(p) : null,
              ),
            )
          : h("li", { class: "muted" }, t("friends.nobody")),
      );
    },
    (error) => replace(list, h("li", { class: "form-error" }, refusal(error))),
  );
  return part;
}

/** A results table's action with Follow and "Challenge again" added on each other racer's
 * row, for a player with an account (`room`: the race's settings). */
export function withFriends(before, room, you) {
  if (!registered()) return before;
  return (row) => {
    const had = before ? before(row) : null;
    if (!followable(row, you)) return had;
    const box = once(`row:${you}:${row.player_id}`, "span", () => rowButtons(row, room));
    return had ? [had, " ", box] : box;
  };
}

/** Follow (or "Following", once the server says so) and "Challenge again" for one racer. */
function rowButtons(row, room) {
  const box = h("span", { class: "friend-row" });
  const name = row.name ?? "?";
  const again = () => challenge(againBody(room, row.player_id));
  const draw = (followed) =>
    replace(
      box,
      followed
        ? h("span", { class: "tag" }, t("friends.following"))
        : action(t("friends.follow"), async () => draw((await follow(row.player_id)).following), {
            label: t("friends.followName", { name }),
            data: { friend: "follow" },
          }),
      " ",
      action(t("friends.again"), again, {
        label: t("friends.againName", { name }),
        data: { friend: "again" },
      }),
    );
  draw(false);
  friends.relationTo(row.player_id).then(
    (rel) => rel.following && draw(true),
    () => {},
  );
  return box;
}
