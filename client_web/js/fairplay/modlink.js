// @ts-check
// The header's link to the moderators' page (#/mod), shown to moderators only. Nothing names
// the role but the queue's own answer: GET /api/mod/cases is asked once for each signed-in
// player with an account (an anonymous player is never a moderator), quietly, so that
// everyone else's 403 logs no error in the console.

import { quietly } from "../shared/api.js";
import { onPlayer } from "../shared/session.js";

/** Show `link` (hidden at first) while the signed-in player is a moderator. */
export function startModLink(link) {
  let asked = null; // the player asked about
  onPlayer((profile) => {
    const id = profile?.registered ? profile.player_id : null;
    if (id === asked) return; // the same player (a new rating, a new name): already known
    asked = id;
    link.hidden = true;
    if (!id) return;
    quietly("GET", "/api/mod/cases").then(
      () => (link.hidden = asked !== id),
      () => {}, // 403: not a moderator (or no answer: no link until the next sign-in)
    );
  });
}
