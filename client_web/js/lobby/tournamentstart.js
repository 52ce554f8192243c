// @ts-check
// The organiser's start time in the lobby's tournament form: a local date and time, optional
// (left empty, the organiser starts the tournament from its page).

import { field } from "../shared/forms.js";
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

/** The form's "starts at" field (named starts_at), no earlier than this minute. */
export function startsAtField() {
  const now = new Date(Date.now() - new Date().getTimezoneOffset() * 60000);
  const input = h("input", {
    name: "starts_at",
    type: "datetime-local",
    min: now.toISOString().slice(0, 16),
  });
  return field(t("lobby.startsAt"), input, t("lobby.startsAtHint"));
}

/** The field's value as unix ms, or null when it was left empty. */
export function startsAt(value) {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}
