// Takebacks in an online game between people (docs/server.md, "Takebacks"): a player asks to
// take back their last move, the opponent accepts or declines, the asker may cancel. The game
// view says all of it (`takeback`: allowed, offered_by, declined, can_ask per seat), so this
// module only draws it and sends the player's choice over the game's socket (game.js).
import { _, fmt, sentence } from "./i18n.js";
import { announce, errorText, h, toast } from "./ui.js";

// The one seat this page plays in an online game, or null (watching, or not such a game).
function mySeat(screen, g) {
  if (g.mode !== "online" || screen.seats.length !== 1) return null;
  return screen.seats[0];
}

// The bar's "Ask to take back", where the view says this player may ask now.
export function takebackButton(screen) {
  const g = screen.store.game;
  const seat = mySeat(screen, g);
  if (seat === null || g.status !== "active" || !g.takeback || !g.takeback.can_ask[seat]) return null;
  return h("button", { type: "button", id: "takeback-ask", class: "quiet",
    title: _("Ask your opponent to let you take back your last move"),
    onclick: () => send(screen, "ask") }, [_("Ask to take back")]);
}

// The open request under the bar: the opponent's, with Accept and Decline; one's own,
// waiting, with Cancel; a spectator's plain words. Empty while none is open.
export function renderTakeback(screen, slot) {
  const g = screen.store.game;
  const asker = g.takeback ? g.takeback.offered_by : null;
  if (asker === null || asker === undefined || g.status !== "active") {
    slot.replaceChildren();
    return;
  }
  const seat = mySeat(screen, g);
  const name = screen.plainName(asker);
  let text;
  let buttons = [];
  if (seat === asker) {
    text = fmt(_("Waiting for {name} to answer your takeback request…"),
      { name: screen.plainName(1 - asker) });
    buttons = [h("button", { type: "button", id: "takeback-cancel",
      onclick: () => send(screen, "cancel") }, [_("Cancel the request")])];
  } else if (seat !== null) {
    text = fmt(_("{name} asks to take back their last move."), { name });
    buttons = [
      h("button", { type: "button", class: "primary", id: "takeback-accept",
        onclick: () => send(screen, "accept") }, [_("Accept")]),
      h("button", { type: "button", id: "takeback-decline",
        onclick: () => send(screen, "decline") }, [_("Decline")]),
    ];
  } else {
    text = fmt(_("{name} asks to take back their last move."), { name });
  }
  const key = `${g.version}:${asker}:${seat}`;
  if (slot.dataset.key === key) return; // kept as it is: focus stays on its buttons
  slot.dataset.key = key;
  slot.replaceChildren(h("div", { class: "takeback-request card", role: "group", id: "takeback-request",
    "aria-label": _("Takeback request"), "data-asker": String(asker) }, [
    h("p", { class: "takeback-text", text: sentence(text) }),
    buttons.length ? h("div", { class: "actions" }, buttons) : null,
  ].filter(Boolean)));
}

// What the changes since `previous` were, in words, once each: a request, its answer, its
// cancelling (from the events that came with the new view; a sync brings several).
export function tellTakeback(screen, game, previous, events) {
  const seen = Math.max(screen.takebackSeen || 0, previous.version);
  screen.takebackSeen = Math.max(seen, game.version);
  const seat = mySeat(screen, game);
  for (const e of events || []) {
    if (e.version <= seen) continue;
    const mine = seat !== null && e.seat === seat;
    let text = null;
    let kind = "info";
    if (e.kind === "takeback_offer" && !mine) {
      text = fmt(_("{name} asks to take back their last move."), { name: screen.plainName(e.seat) });
    } else if (e.kind === "takeback_decline") {
      text = mine ? _("You declined the takeback.")
        : seat !== null ? _("Your opponent declined your takeback request.")
          : fmt(_("{name} declined the takeback."), { name: screen.plainName(e.seat) });
      kind = mine ? "info" : "error";
    } else if (e.kind === "takeback_cancel" && !mine) {
      text = fmt(_("{name} cancelled their takeback request."), { name: screen.plainName(e.seat) });
    } else if (e.kind === "undo" && e.asked_by !== null && e.asked_by !== undefined) {
      text = seat === e.asked_by ? _("Your opponent accepted: your last move was taken back.")
        : fmt(_("Takeback accepted: {name}'s last move was taken back."),
          { name: screen.plainName(e.asked_by) });
      kind = "good";
    }
    if (text) {
      toast(sentence(text), kind, 6000);
      announce(sentence(text));
    }
  }
}

async function send(screen, action) {
  const reply = await screen.send({ type: "takeback", action });
  if (reply.type === "error") toast(errorText(reply), "error");
}
