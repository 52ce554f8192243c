// @ts-check
// Declared bots in a room's views (docs/bots.md): a room's racers carry no bot flag, so each
// account's public profile (GET /api/players/{id}, its `bot`) is asked once a tab, and the
// page draws its racers again when a bot is found. Only accounts' seats ("p." ids) have a
// profile: a guest's seat (hex digits) and a ghost's ("g.") are never asked. A bot stays one,
// so what is learned is kept; a profile that could not be read (the network) is asked again.

import { quietly } from "../shared/api.js";

/** Whether a seat's id is an account's, with a profile to ask. */
export const hasProfile = (playerId) => typeof playerId === "string" && playerId.startsWith("p.");

export class BotBook {
  /** `profileOf(id)`: a promise of the player's public profile. */
  constructor(profileOf) {
    this.profileOf = profileOf;
    this.known = new Map(); // player id -> true, false, or the question under way
  }

  isBot(playerId) {
    return this.known.get(playerId) === true;
  }

  /** The players, each known bot's line with `bot: true` (a copy; the others as they are). */
  mark(players) {
    return (players ?? []).map((p) => (this.isBot(p?.player_id) ? { ...p, bot: true } : p));
  }

  /** Ask for the profiles of these players not asked yet: resolves with the ids of those
   * found to be bots (none: nothing to draw again). */
  async ask(playerIds) {
    const asked = [...new Set(playerIds)].filter((id) => hasProfile(id) && !this.known.has(id));
    const bots = await Promise.all(asked.map((id) => this.askOne(id)));
    return asked.filter((_, i) => bots[i]);
  }

  async askOne(playerId) {
    const question = Promise.resolve().then(() => this.profileOf(playerId));
    this.known.set(playerId, question);
    try {
      const bot = (await question)?.bot === true;
      this.known.set(playerId, bot);
      return bot;
    } catch (error) {
      if (error?.status === 404)
        this.known.set(playerId, false); // no such player (deleted)
      else this.known.delete(playerId);
      return false;
    }
  }
}

/** The tab's book, asking quietly (a deleted player's 404 logs nothing). */
export const bots = new BotBook((id) => quietly("GET", `/api/players/${encodeURIComponent(id)}`));
