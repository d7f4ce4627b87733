// The "Mail" section of the account page (docs/accounts.md, "Mail"): the account's address for
// mail about correspondence games, set, changed or removed; whether it is confirmed (the link of
// the mail sent to it) or stopped (a mail's stop link); the confirmation sent again; and, on a
// server started without --smtp, that this server sends no mail. The address is the owner's
// alone: the server shows it to nobody else.

import { api } from "./api.js";
import { _, fmt, ngettext } from "./i18n.js";
import { errorText, fmtNodes, h, toast } from "./ui.js";

function sentence(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// Hours or minutes away before a turn is mailed, in words ("1 hour", "30 minutes").
function awayText(seconds) {
  if (seconds >= 3600 && seconds % 3600 === 0) return ngettext("{n} hour", "{n} hours", seconds / 3600);
  return ngettext("{n} minute", "{n} minutes", Math.max(1, Math.round(seconds / 60)));
}

// The section: a card that fills itself once the server has said the settings.
export function mailSection() {
  const card = h("section", { class: "card account-form mail-settings", id: "mail-settings",
    "aria-labelledby": "mail-title" }, [
    h("h2", { id: "mail-title", text: _("Mail") }),
    h("p", { class: "muted", text: _("Loading…") }),
  ]);
  api.mail().then((s) => draw(card, s), (err) => drawError(card, err));
  return card;
}

function drawError(card, err) {
  card.replaceChildren(
    h("h2", { id: "mail-title", text: _("Mail") }),
    h("p", { class: "field-error", role: "alert", text: sentence(errorText(err)) }),
  );
}

function intro(settings) {
  return h("p", { class: "muted", text: fmt(_("A mail when it is your turn in a correspondence game and you have not been on the site for {away}, and when such a game ends. Other players never see your address."),
    { away: awayText(settings.mail_after) }) });
}

// The address's state: a badge, and a sentence whose {address} reads left to right in any page.
function status(kind, text, address) {
  const badge = { good: _("Confirmed"), wait: _("Not confirmed yet"), stopped: _("Stopped") }[kind];
  return h("p", { class: `mail-status ${kind}`, id: "mail-status", role: "status" }, [
    h("span", { class: "mail-badge", text: badge }),
    " ",
    h("span", {}, fmtNodes(text, { address: h("bdi", { dir: "ltr", class: "mail-address", text: address }) })),
  ]);
}

function draw(card, settings, editing = false) {
  const head = h("h2", { id: "mail-title", text: _("Mail") });
  if (!settings.enabled) {
    card.replaceChildren(head, h("p", { id: "mail-off", text: _("Mail is off on this server: it sends no mail.") }));
    return;
  }
  const error = h("p", { class: "field-error form-error", "data-error-for": "mail", role: "alert" });
  const redraw = (s, edit = false) => draw(card, s, edit);
  // Every change goes through here: the answer redraws the card, a refusal is said in words.
  const act = async (button, f, done) => {
    error.textContent = "";
    button.disabled = true;
    try {
      const s = await f();
      redraw(s);
      const said = typeof done === "function" ? done(s) : done;
      if (said) toast(said, "good");
    } catch (err) {
      button.disabled = false;
      const words = sentence(errorText(err));
      if (err.code === "unavailable") {
        // The address is saved, but its confirmation did not go: show it as it now is.
        try {
          redraw(await api.mail());
        } catch {
          // keep what is shown
        }
      }
      card.querySelector("[data-error-for=mail]").textContent = words;
    }
  };
  const parts = [head, intro(settings)];
  if (!settings.address || editing) {
    parts.push(addressForm(settings, error, act, editing ? () => redraw(settings) : null));
  } else {
    const address = settings.address;
    const remove = h("button", { type: "button", id: "mail-remove", text: _("Remove the address") });
    remove.addEventListener("click", () => act(remove, () => api.removeMail(), _("Your address is removed: no more mail.")));
    const change = h("button", { type: "button", id: "mail-change", text: _("Change the address") });
    change.addEventListener("click", () => redraw(settings, true));
    const buttons = [];
    if (settings.stopped) {
      parts.push(status("stopped", _("A mail's stop link was used, so no mail goes to {address}."), address));
      const again = h("button", { type: "button", class: "primary", id: "mail-again", text: _("Get mail again") });
      again.addEventListener("click", () => act(again, () => api.setMail(address), _("A confirmation mail is on its way.")));
      buttons.push(again);
    } else if (settings.confirmed) {
      parts.push(status("good", _("Mail goes to {address}."), address));
    } else {
      parts.push(status("wait", _("Open the link in the mail we sent to {address}. Until then nothing else goes to it."), address));
      const resend = h("button", { type: "button", class: "primary", id: "mail-resend", text: _("Send the confirmation again") });
      resend.addEventListener("click", () => act(resend, () => api.resendMail(), _("A confirmation mail is on its way.")));
      buttons.push(resend);
    }
    parts.push(h("div", { class: "actions" }, [...buttons, change, remove]));
  }
  parts.push(error);
  card.replaceChildren(...parts);
}

function addressForm(settings, error, act, cancel) {
  const id = "field-mail-address";
  const input = h("input", { id, name: "address", type: "email", autocomplete: "email", maxlength: 254,
    required: true, dir: "ltr", spellcheck: "false", autocapitalize: "none", value: settings.address || "",
    "aria-describedby": `${id}-hint` });
  const save = h("button", { type: "submit", class: "primary", id: "mail-save", text: _("Save and confirm") });
  const form = h("form", { class: "mail-form", id: "mail-form", novalidate: true }, [
    h("div", { class: "field account-field" }, [
      h("label", { for: id, text: _("Mail address") }),
      input,
      h("p", { class: "field-hint muted small", id: `${id}-hint`, text: _("We send a link to this address; nothing else goes to it until you open that link.") }),
    ]),
    h("div", { class: "actions" }, [
      save,
      cancel ? h("button", { type: "button", id: "mail-cancel", text: _("Cancel"), onclick: cancel }) : null,
    ]),
  ]);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const address = input.value.trim();
    if (!address) {
      error.textContent = _("Enter your mail address.");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    input.removeAttribute("aria-invalid");
    // The account's confirmed address given again: nothing is sent.
    act(save, () => api.setMail(address),
      (s) => (s.confirmed && !s.stopped ? _("Your address is saved.") : _("A confirmation mail is on its way.")));
  });
  return form;
}
