// @ts-check
// Your account, on your own profile: register (username and password) so the player you are
// can sign in on another device, sign in to an account (or, the password forgotten, with a
// recovery code), sign out (here or everywhere), new recovery codes, export your data, and
// delete the account. A guest sees the sign-in form open, first: a returning player must not
// look for it under the register form. Registering shows the account's recovery codes once
// (recovery.js). Signing out leaves this browser a new guest, and says so. The forms are
// built by the profile's render; each action then asks the profile to draw itself afresh
// (`changed`).

import { errorText } from "../shared/api.js";
import { h, toast } from "../shared/dom.js";
import { dateTime, t } from "../shared/i18n.js";
import { field, formError, formValues, textInput } from "../shared/forms.js";
import { codesPart, dataPart, recoverPart, showCodes } from "./recovery.js";
import { deleteAccount, register, rename, signIn, signOut } from "../shared/session.js";

let signedOut = false; // this tab signed out: the guest it became is told so until it signs in

/** The account panel for your own profile. */
export function accountView(profile, changed) {
  const parts = [h("h2", {}, t("account.title")), renameForm(profile, changed)];
  if (profile.registered) {
    parts.push(
      h("p", {}, t("account.signedInAs", { username: profile.username ?? profile.name })),
      h(
        "div",
        { class: "end-actions" },
        h("button", { class: "btn", onclick: () => leave(false, changed) }, t("account.signOut")),
        h("button", { class: "btn", onclick: () => leave(true, changed) }, t("account.signOutAll")),
      ),
    );
  }
  const signInPart = h(
    "details",
    { class: "sign-in", open: !profile.registered },
    h("summary", {}, t(profile.registered ? "account.otherAccount" : "account.haveAccount")),
    credentialsForm("sign-in", t("account.signIn"), signIn, changed),
  );
  const recovered = () => {
    signedOut = false;
    changed();
  };
  if (!profile.registered) {
    parts.push(
      signedOut
        ? h("p", { class: "signed-out-note", role: "status" }, t("account.nowGuest"))
        : null,
      signInPart,
      recoverPart(recovered),
      h("h3", { class: "register-title" }, t("account.newAccount")),
      h("p", {}, t("account.anonymousText")),
      credentialsForm("register", t("account.register"), register, changed),
    );
  } else parts.push(signInPart, codesPart(profile));
  parts.push(
    dataPart(profile),
    h(
      "details",
      { class: "danger" },
      h("summary", {}, t("account.delete")),
      h("p", {}, t("account.deleteText")),
      h(
        "button",
        { class: "btn btn-danger", onclick: () => remove(changed) },
        t("account.deleteNow"),
      ),
    ),
  );
  return h("section", { class: "panel account", key: "account" }, parts);
}

/** A new display name, once a day. */
function renameForm(profile, changed) {
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await rename(formValues(form).name);
      toast(t("account.renamed"), "good");
      changed();
    } catch (error) {
      const soon = error.code === "rename_too_soon" && error.retryAt;
      formError(
        form,
        soon ? t("account.renameAt", { date: dateTime(error.retryAt) }) : errorText(error),
      );
    }
  };
  return h(
    "form",
    { class: "inline-form account-rename", onsubmit: submit },
    field(
      t("account.name"),
      textInput("name", profile.name, { maxlength: "20", required: true }),
      t("account.nameHint"),
    ),
    h("button", { class: "btn", type: "submit" }, t("account.rename")),
  );
}

function credentialsForm(kind, label, act, changed) {
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { username } = formValues(form);
    try {
      const codes = await act(username, form.elements.password.value);
      signedOut = false;
      toast(t(kind === "register" ? "account.registered" : "account.signedIn"), "good");
      changed();
      if (kind === "register") await showCodes(codes, username);
    } catch (error) {
      formError(form, errorText(error));
    }
  };
  const newPassword = kind === "register";
  return h(
    "form",
    { class: `create account-${kind}`, onsubmit: submit },
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
          minlength: "3",
          maxlength: "20",
          pattern: "[A-Za-z0-9_\\-]{3,20}",
        }),
        newPassword ? t("account.usernameHint") : null,
      ),
      field(
        t("account.password"),
        h("input", {
          name: "password",
          type: "password",
          autocomplete: newPassword ? "new-password" : "current-password",
          required: true,
          minlength: newPassword ? "8" : null,
          maxlength: "128",
        }),
        newPassword ? t("account.passwordHint") : null,
      ),
    ),
    h("button", { class: "btn btn-primary", type: "submit" }, label),
  );
}

async function leave(everywhere, changed) {
  try {
    await signOut(everywhere);
    signedOut = true;
    // The browser is a new guest now: say so, and the redrawn panel offers the sign-in.
    toast(t(everywhere ? "account.signedOutAll" : "account.signedOut"), "good", 8000);
  } catch (error) {
    toast(errorText(error), "error");
  }
  changed();
}

async function remove(changed) {
  if (!window.confirm(t("account.deleteConfirm"))) return;
  try {
    await deleteAccount();
    toast(t("account.deleted"), "good");
  } catch (error) {
    toast(errorText(error), "error");
  }
  changed();
}
