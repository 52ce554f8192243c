// @ts-check
// Fair play where players look (docs/fair-play.md): "Report" on another racer's results row,
// a profile and a daily board entry, with its small dialog (POST /api/reports); a race of
// yours under review in your history; the notices on a profile (under review, marked) and a
// marked player's one appeal (POST /api/me/appeal). Refusals are told in the catalogue's
// words for their code.

import { ApiError, errorText, quietly } from "../shared/api.js";
import { h, replace, showModal, toast } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { ensurePlayer, me } from "../shared/session.js";

const REASONS = ["cheating", "abuse", "other"];
export const REPORT_MAX = 500;
export const APPEAL_MAX = 1000;

/** Your own standing (GET /api/me/fairplay), or null where the server says nothing. */
export async function myFairPlay() {
  try {
    return await quietly("GET", "/api/me/fairplay");
  } catch {
    return null;
  }
}

/** What to say of a refused report or appeal. */
function refusalText(error) {
  if (error instanceof ApiError && error.status === 401) return t("report.signIn");
  return errorText(error);
}

/** The "Report" button for a player (not for yourself: null), with the room it is about. */
export function reportButton({ playerId, name = "", roomId = null, you = undefined }) {
  const mine = you === undefined ? me()?.player_id : you;
  if (!playerId || playerId === mine) return null;
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small btn-quiet report-player",
      dataset: { report: playerId },
      "aria-haspopup": "dialog",
      "aria-label": name ? t("report.buttonFor", { name }) : null,
      onclick: () => openReport({ playerId, name, roomId }),
    },
    t("report.button"),
  );
}

/** A results table's action for each row: the action it had (such as "Race this run") and
 * "Report" on another racer's row (never a ghost's seat nor your own). */
export function withReport(action, roomId, you = undefined) {
  return (row) => {
    const before = action ? action(row) : null;
    const report = row.ghost_of
      ? null
      : reportButton({ playerId: row.player_id, name: row.name, roomId, you: you ?? undefined });
    return before && report ? [before, " ", report] : (before ?? report);
  };
}

/** The report dialog (a modal <dialog>): the reason, what happened (optional), Send. */
export function openReport({ playerId, name, roomId }) {
  document.querySelector("dialog.report-dialog")?.remove();
  const status = h("p", { class: "report-status", role: "status" });
  const text = h("textarea", {
    name: "text",
    rows: "4",
    maxlength: String(REPORT_MAX),
    "aria-describedby": "report-text-hint",
  });
  const send = h("button", { type: "submit", class: "btn btn-primary" }, t("report.send"));
  const close = () => dialog.close();
  const form = h(
    "form",
    { class: "report-form", onsubmit: (event) => submit(event) },
    h(
      "fieldset",
      { class: "report-reasons" },
      h("legend", {}, t("report.reason")),
      REASONS.map((reason, i) =>
        h(
          "label",
          { class: "check" },
          h("input", { type: "radio", name: "reason", value: reason, required: i === 0 }),
          t(`report.reason.${reason}`),
        ),
      ),
    ),
    h(
      "label",
      { class: "field" },
      h("span", { class: "field-label" }, t("report.text")),
      text,
      h("small", { id: "report-text-hint" }, t("report.textHint", { n: REPORT_MAX })),
    ),
    status,
    h(
      "div",
      { class: "dialog-actions" },
      send,
      h("button", { type: "button", class: "btn", onclick: close }, t("report.cancel")),
    ),
  );
  const body = h("div", { class: "report-body" }, form);
  const dialog = h(
    "dialog",
    { class: "report-dialog panel", "aria-labelledby": "report-title" },
    h("h2", { id: "report-title" }, t("report.title", { name: name || "?" })),
    body,
  );

  async function submit(event) {
    event.preventDefault();
    const reason = new FormData(form).get("reason");
    if (!reason) return;
    send.disabled = true;
    replace(status);
    status.classList.remove("form-error");
    try {
      if (!(await ensurePlayer())) throw new ApiError(401, "unauthorized", "no session");
      const words = text.value.trim();
      await quietly("POST", "/api/reports", {
        player_id: playerId,
        ...(roomId ? { room_id: roomId } : {}),
        reason,
        ...(words ? { text: words } : {}),
      });
      const done = h("button", { type: "button", class: "btn", onclick: close }, t("report.close"));
      replace(body, h("p", { class: "report-thanks", role: "status" }, t("report.thanks")), done);
      done.focus();
    } catch (error) {
      status.classList.add("form-error");
      replace(status, refusalText(error));
      send.disabled = false;
    }
  }

  return showModal(dialog);
}

/** A history entry of your own under review: its tag (nobody else's view says so). */
export function underReviewTag(entry) {
  if (!entry?.under_review) return null;
  const hint = t("fairplay.reviewHint");
  return [" ", h("span", { class: "tag tag-review", title: hint }, t("fairplay.review"))];
}

/**
 * The notices at the top of a profile: marked (anyone's), and on your own, a run under
 * review and the appeal (the form while you may appeal, else the appeal you sent).
 * `fair`: your GET /api/me/fairplay answer (null on someone else's profile); `onChange`:
 * called after an appeal is sent.
 */
export function fairNotices(profile, fair, onChange) {
  const notices = [];
  if (fair?.under_review?.length) {
    notices.push(
      h(
        "p",
        { class: "fair-notice fair-review", role: "note" },
        t("fairplay.underReview", { n: fair.under_review.length }),
      ),
    );
  }
  if (profile?.marked || fair?.marked) {
    notices.push(h("p", { class: "fair-notice fair-marked", role: "note" }, t("fairplay.marked")));
    if (fair?.may_appeal) notices.push(appealForm(onChange));
    else if (fair?.appeal) {
      notices.push(
        h(
          "div",
          { class: "fair-appeal-sent" },
          h("p", {}, t("fairplay.appealSent")),
          h("blockquote", { class: "appeal-text" }, fair.appeal),
        ),
      );
    }
  }
  return notices.length ? h("section", { class: "panel fair-notices" }, notices) : null;
}

// The profile is patched in place (render.js): the form's handler reads the live form it
// is given, never the elements built with it.
function appealForm(onChange) {
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const words = String(new FormData(form).get("appeal") ?? "").trim();
    const status = form.querySelector(".appeal-status");
    const send = form.querySelector("button[type=submit]");
    if (!words) return;
    send.disabled = true;
    replace(status);
    try {
      await quietly("POST", "/api/me/appeal", { text: words });
      toast(t("fairplay.appealDone"), "good");
      onChange?.();
    } catch (error) {
      replace(status, refusalText(error));
      send.disabled = false;
    }
  };
  return h(
    "form",
    { class: "appeal-form", onsubmit: submit },
    h("h2", {}, t("fairplay.appealTitle")),
    h(
      "label",
      { class: "field" },
      h("span", { class: "field-label" }, t("fairplay.appealText")),
      h("textarea", {
        name: "appeal",
        rows: "4",
        maxlength: String(APPEAL_MAX),
        required: true,
        "aria-describedby": "appeal-hint",
      }),
      h("small", { id: "appeal-hint" }, t("fairplay.appealHint", { n: APPEAL_MAX })),
    ),
    h("p", { class: "form-error appeal-status", role: "status" }),
    h("button", { type: "submit", class: "btn btn-primary" }, t("fairplay.appealSend")),
  );
}
