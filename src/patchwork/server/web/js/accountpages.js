// The account's own pages: `/signin`, `/signup` (forms whose errors from the server are shown
// in words next to the field they are about; afterwards back where the person came from,
// `?next=`) and `/account` (change the password, delete the account).

import { api } from "./api.js";
import { currentAccount, nextPath, ratingText, setAccount } from "./account.js";
import { _, fmt } from "./i18n.js";
import { confirmDialog, errorText, h, toast } from "./ui.js";
import { mailSection } from "./mailsettings.js";

export function pageTitle(text) {
  document.title = fmt(_("{page} – Patchwork"), { page: text });
}

// A labelled input with a line under it for what is wrong with it (aria-describedby).
function field(name, label, attrs = {}, hint = "") {
  const id = `field-${name}`;
  const input = h("input", { id, name, required: true, ...attrs,
    "aria-describedby": `${id}-error${hint ? ` ${id}-hint` : ""}` });
  const row = h("div", { class: "field account-field" }, [
    h("label", { for: id, text: label }),
    input,
    hint ? h("p", { class: "field-hint muted small", id: `${id}-hint`, text: hint }) : null,
    h("p", { class: "field-error", id: `${id}-error`, "data-error-for": name, role: "alert" }),
  ]);
  return { row, input };
}

function showError(form, name, text) {
  const slot = form.querySelector(`[data-error-for="${name}"]`);
  if (!slot) return;
  slot.textContent = text;
  const input = form.elements[name];
  if (input && input.setAttribute) {
    if (text) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
}

function clearErrors(form) {
  for (const slot of form.querySelectorAll("[data-error-for]")) showError(form, slot.dataset.errorFor, "");
}

// Which field a server error is about; the rest are said under the whole form.
const FIELD_OF = {
  bad_name: "name",
  name_taken: "name",
  weak_password: "password",
  bad_credentials: "password",
};

function explain(err) {
  switch (err.code) {
    case "bad_credentials":
      return _("That name and password do not match an account.");
    case "weak_password":
      return _("The password must be 8 to 200 characters long.");
    case "rate_limited":
      return _("Too many tries. Wait a minute and try again.");
    case "csrf_failed":
      return _("Your session has changed. Reload the page and try again.");
    default: {
      // bad_name and name_taken: the server says what is allowed, or which name is alike.
      const text = errorText(err);
      return text.charAt(0).toUpperCase() + text.slice(1);
    }
  }
}

function credentialsForm({ id, title, intro, submitText, password, nameHint, passwordHint, call, navigate, other }) {
  const name = field("name", _("User name"), { autocomplete: "username", maxlength: 20,
    autocapitalize: "none", spellcheck: "false", dir: "ltr" }, nameHint);
  const pass = field("password", _("Password"), { type: "password", autocomplete: password,
    minlength: password === "new-password" ? 8 : null, maxlength: 200, dir: "ltr" }, passwordHint);
  const submit = h("button", { type: "submit", class: "primary big", id: `${id}-submit`, text: submitText });
  const form = h("form", { class: "card account-form", id, novalidate: true }, [
    h("h1", { text: title }),
    intro ? h("p", { class: "muted", text: intro }) : null,
    name.row, pass.row,
    h("p", { class: "field-error form-error", "data-error-for": "form", role: "alert" }),
    submit,
    other,
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const n = name.input.value.trim();
    const p = pass.input.value;
    if (!n) {
      showError(form, "name", _("Enter your user name."));
      name.input.focus();
      return;
    }
    if (!p) {
      showError(form, "password", _("Enter your password."));
      pass.input.focus();
      return;
    }
    submit.disabled = true;
    try {
      setAccount(await call(n, p));
      navigate(nextPath());
    } catch (err) {
      submit.disabled = false;
      const where = FIELD_OF[err.code] || "form";
      showError(form, where, explain(err));
      (where === "form" ? submit : form.elements[where]).focus();
    }
  });
  return { form, name };
}

function alreadySignedIn(root) {
  const me = currentAccount();
  root.replaceChildren(h("section", { class: "card account-form" }, [
    h("h1", { text: _("You are signed in") }),
    h("p", { text: fmt(_("You are signed in as {name}."), { name: me.name }) }),
    h("div", { class: "actions" }, [
      h("a", { class: "button primary", href: "/lobby", "data-link": "1", text: _("Go to the lobby") }),
      h("a", { class: "button", href: "/", "data-link": "1", text: _("Back to the start") }),
    ]),
  ]));
}

function otherLink(text, linkText, path) {
  const q = location.search;
  return h("p", { class: "account-other" }, [text, " ",
    h("a", { href: path + q, "data-link": "1", text: linkText })]);
}

export function renderSignIn(root, { navigate }) {
  pageTitle(_("Sign in"));
  if (currentAccount()) return alreadySignedIn(root);
  const { form, name } = credentialsForm({
    id: "signin-form",
    title: _("Sign in"),
    intro: _("Sign in to play rated games, meet people in the lobby and go on with your games on any device."),
    submitText: _("Sign in"),
    password: "current-password",
    call: (n, p) => api.signIn(n, p),
    navigate,
    other: otherLink(_("No account yet?"), _("Sign up"), "/signup"),
  });
  root.replaceChildren(h("div", { class: "account-page" }, [form]));
  name.input.focus();
}

export function renderSignUp(root, { navigate }) {
  pageTitle(_("Sign up"));
  if (currentAccount()) return alreadySignedIn(root);
  const { form, name } = credentialsForm({
    id: "signup-form",
    title: _("Create an account"),
    intro: _("An account is free and optional: guests play as before. With one you get a rating, the lobby and your games on every device."),
    submitText: _("Sign up"),
    password: "new-password",
    nameHint: _("3 to 20 letters, digits, _ or -, starting with a letter. Everyone sees it."),
    passwordHint: _("At least 8 characters."),
    call: (n, p) => api.signUp(n, p),
    navigate,
    other: otherLink(_("Already have an account?"), _("Sign in"), "/signin"),
  });
  root.replaceChildren(h("div", { class: "account-page" }, [form]));
  name.input.focus();
}

export function needSignIn(root, what) {
  root.replaceChildren(h("section", { class: "card account-form" }, [
    h("h1", { text: what }),
    h("p", { text: _("Sign in to see this page.") }),
    h("div", { class: "actions" }, [
      h("a", { class: "button primary", href: `/signin?next=${encodeURIComponent(location.pathname)}`,
        "data-link": "1", text: _("Sign in") }),
      h("a", { class: "button", href: `/signup?next=${encodeURIComponent(location.pathname)}`,
        "data-link": "1", text: _("Sign up") }),
    ]),
  ]));
}

export function renderAccount(root, { navigate }) {
  pageTitle(_("Account"));
  const me = currentAccount();
  if (!me) return needSignIn(root, _("Account"));
  const old = field("old", _("Current password"), { type: "password", autocomplete: "current-password", dir: "ltr" });
  const fresh = field("new", _("New password"), { type: "password", autocomplete: "new-password",
    minlength: 8, maxlength: 200, dir: "ltr" }, _("At least 8 characters."));
  const change = h("button", { type: "submit", class: "primary", id: "change-password", text: _("Change the password") });
  const passwordForm = h("form", { class: "card account-form", id: "password-form", novalidate: true }, [
    h("h2", { text: _("Change the password") }),
    h("p", { class: "muted", text: _("Your other devices are signed out when the password changes.") }),
    old.row, fresh.row,
    h("p", { class: "field-error form-error", "data-error-for": "form", role: "alert" }),
    change,
  ]);
  passwordForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearErrors(passwordForm);
    if (!old.input.value) {
      showError(passwordForm, "old", _("Enter your password."));
      return;
    }
    change.disabled = true;
    try {
      setAccount(await api.changePassword(old.input.value, fresh.input.value));
      passwordForm.reset();
      toast(_("Your password is changed."), "good");
    } catch (err) {
      const where = err.code === "bad_credentials" ? "old" : err.code === "weak_password" ? "new" : "form";
      showError(passwordForm, where, err.code === "bad_credentials" ? _("That is not your current password.") : explain(err));
    } finally {
      change.disabled = false;
    }
  });

  const confirm = field("password", _("Your password"), { type: "password", autocomplete: "current-password", dir: "ltr" });
  const remove = h("button", { type: "submit", class: "danger", id: "delete-account", text: _("Delete my account") });
  const deleteForm = h("form", { class: "card account-form danger-zone", id: "delete-form", novalidate: true }, [
    h("h2", { text: _("Delete the account") }),
    h("p", { text: _("Your name, password and rating are deleted and you are signed out everywhere. The games you played stay, shown as played by a deleted player. This cannot be undone.") }),
    confirm.row,
    h("p", { class: "field-error form-error", "data-error-for": "form", role: "alert" }),
    remove,
  ]);
  deleteForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearErrors(deleteForm);
    if (!confirm.input.value) {
      showError(deleteForm, "password", _("Enter your password to confirm."));
      return;
    }
    const ok = await confirmDialog(_("Delete your account?"),
      fmt(_("The account {name} is deleted for good."), { name: me.name }), _("Delete my account"));
    if (!ok) return;
    remove.disabled = true;
    try {
      await api.deleteAccount(confirm.input.value);
      setAccount(null);
      toast(_("Your account is deleted."), "info");
      navigate("/");
    } catch (err) {
      remove.disabled = false;
      showError(deleteForm, err.code === "bad_credentials" ? "password" : "form",
        err.code === "bad_credentials" ? _("That is not your password.") : explain(err));
    }
  });

  root.replaceChildren(h("div", { class: "account-page" }, [
    h("section", { class: "card account-summary" }, [
      h("h1", { text: _("Your account") }),
      h("p", {}, [fmt(_("Signed in as {name}."), { name: me.name }), " ",
        h("a", { href: `/players/${encodeURIComponent(me.name)}`, "data-link": "1", text: _("Your profile") })]),
      h("p", { class: "muted", text: fmt(_("Rating: {rating}"), { rating: ratingText(me.rating, me.provisional) }) }),
    ]),
    mailSection(),
    passwordForm,
    deleteForm,
  ]));
}
