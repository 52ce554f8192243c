// @ts-check
// Recovery codes and your data on your own profile (docs/players.md): the codes shown once
// in a dialog that waits for "I saved them" (with a Download of them as a text file), the
// "Forgot your password?" form that signs in with a code and a new password, a new set of
// codes (your password first), and "Export my data" as a JSON file. account.js places them.

import { errorText } from "../shared/api.js";
import { h, toast } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { field, formError, formValues } from "../shared/forms.js";
import { codesFile, codesFileName, exportFileName } from "./recoverycodes.js";
import { exportData, newRecoveryCodes, recover, recoveryCodesLeft } from "../shared/session.js";

/** Have the browser save `text` as a file called `name`. */
export function saveFile(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The codes in a modal dialog, this once: Escape does not close it, "I saved them" does.
 * Resolves when it is closed.
 */
export function showCodes(codes, username) {
  document.querySelector("dialog.recovery-codes")?.remove();
  const download = () => {
    const words = {
      title: t("recovery.fileTitle"),
      username: t("recovery.fileAccount", { username }),
      note: t("recovery.fileNote"),
    };
    saveFile(codesFileName(username), codesFile(codes, words), "text/plain");
  };
  const dialog = h(
    "dialog",
    { class: "recovery-codes panel", "aria-labelledby": "codes-title" },
    h("h2", { id: "codes-title" }, t("recovery.title")),
    h("p", {}, t("recovery.text")),
    h(
      "ol",
      { class: "codes-list", "aria-label": t("recovery.title") },
      codes.map((code) => h("li", {}, h("code", { translate: "no" }, code))),
    ),
    h(
      "div",
      { class: "dialog-actions" },
      h(
        "button",
        { type: "button", class: "btn codes-download", onclick: download },
        t("recovery.download"),
      ),
      h(
        "button",
        { type: "button", class: "btn btn-primary codes-saved", onclick: () => dialog.close() },
        t("recovery.saved"),
      ),
    ),
  );
  dialog.addEventListener("cancel", (event) => event.preventDefault());
  const closed = new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve();
    });
  });
  document.body.append(dialog);
  dialog.showModal();
  return closed;
}

/** What to say of a refused recovery or new set. */
function refusal(error) {
  if (error?.code === "wrong_recovery_code") return t("recovery.wrong");
  if (error?.code === "bad_recovery_code") return t("recovery.badCode");
  if (error?.code === "bad_credentials") return t("recovery.wrongPassword");
  return errorText(error);
}

/** "Forgot your password?": username, a recovery code and a new password sign you in. */
export function recoverPart(signedIn) {
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { username, code } = formValues(form);
    try {
      await recover(username, code, form.elements.password.value);
      toast(t("recovery.recovered"), "good", 8000);
      signedIn();
    } catch (error) {
      formError(form, refusal(error));
    }
  };
  return h(
    "details",
    { class: "recover" },
    h("summary", {}, t("recovery.forgot")),
    h("p", {}, t("recovery.forgotText")),
    h(
      "form",
      { class: "create account-recover", onsubmit: submit },
      h(
        "div",
        { class: "field-row" },
        field(
          t("account.username"),
          h("input", {
            name: "username",
            type: "text",
            autocomplete: "username",
            required: true,
            maxlength: "20",
          }),
        ),
        field(
          t("recovery.code"),
          h("input", {
            name: "code",
            type: "text",
            autocomplete: "off",
            autocapitalize: "characters",
            spellcheck: "false",
            required: true,
            maxlength: "40",
          }),
          t("recovery.codeHint"),
        ),
        field(
          t("recovery.newPassword"),
          h("input", {
            name: "password",
            type: "password",
            autocomplete: "new-password",
            required: true,
            minlength: "8",
            maxlength: "128",
          }),
          t("account.passwordHint"),
        ),
      ),
      h("button", { class: "btn btn-primary", type: "submit" }, t("recovery.recover")),
    ),
  );
}

/** An account's codes: how many are left (read when opened) and a new set. */
export function codesPart(profile) {
  const opened = async (event) => {
    const part = event.currentTarget;
    if (!part.open) return;
    const line = part.querySelector(".codes-left");
    try {
      const left = await recoveryCodesLeft();
      line.textContent = t("recovery.left", { n: left });
    } catch (error) {
      line.textContent = errorText(error);
    }
  };
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      const codes = await newRecoveryCodes(form.elements.password.value);
      form.reset();
      formError(form, "");
      const line = form.closest("details").querySelector(".codes-left");
      line.textContent = t("recovery.left", { n: codes.length });
      await showCodes(codes, profile.username ?? profile.name);
    } catch (error) {
      formError(form, refusal(error));
    }
  };
  return h(
    "details",
    { class: "recovery-part", ontoggle: opened },
    h("summary", {}, t("recovery.manage")),
    h("p", { class: "codes-left muted", role: "status" }),
    h("p", {}, t("recovery.newText")),
    h(
      "form",
      { class: "inline-form account-new-codes", onsubmit: submit },
      field(
        t("recovery.currentPassword"),
        h("input", {
          name: "password",
          type: "password",
          autocomplete: "current-password",
          required: true,
          maxlength: "128",
        }),
      ),
      h("button", { class: "btn", type: "submit" }, t("recovery.newCodes")),
    ),
  );
}

/** "Export my data": everything the server keeps of you, saved as a JSON file. */
export function dataPart(profile) {
  const save = async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const data = await exportData();
      const name = exportFileName(profile.player_id, data.exported_at);
      saveFile(name, `${JSON.stringify(data, null, 2)}\n`, "application/json");
    } catch (error) {
      toast(errorText(error), "error");
    }
    button.disabled = false;
  };
  return h(
    "div",
    { class: "your-data" },
    h("h3", {}, t("account.data")),
    h("p", {}, t("account.dataText")),
    h(
      "button",
      { type: "button", class: "btn account-export", onclick: save },
      t("account.export"),
    ),
  );
}
