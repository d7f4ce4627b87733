"""Mail's routes (docs/accounts.md, "Mail"): the signed-in account's mail settings under
``/api/account/mail`` (its address is shown to its owner only), and the pages the links in
mails open, ``/mail/confirm`` and ``/mail/stop``, which work without signing in."""

from __future__ import annotations

import html

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...i18n import N_, Translator, translator
from ..common.errors import request_language
from ..mail.schemas import MailAddressIn, MailSettings
from ..mail.service import Mailer
from .accounts import ERRORS
from .auth import SignedIn

router = APIRouter(tags=["mail"])
MAX_TOKEN = 200


def _mailer(request: Request) -> Mailer:
    found: Mailer = request.app.state.mailer
    return found


@router.get("/api/account/mail", response_model=MailSettings, responses=ERRORS)
async def mail_settings(request: Request, session: SignedIn) -> MailSettings:
    """Your mail address, whether it is confirmed or stopped, and whether this server sends
    mail at all."""
    return await _mailer(request).view(session.user.id)


@router.put("/api/account/mail", response_model=MailSettings, responses=ERRORS)
async def set_mail(body: MailAddressIn, request: Request, session: SignedIn) -> MailSettings:
    """Set or replace your address: a confirmation mail goes to it at once (in the request's
    language, which its mails keep), and nothing else until its link is opened."""
    mailer = _mailer(request)
    return await mailer.set_address(session.user, body.address, request_language(request))


@router.post("/api/account/mail/confirmation", response_model=MailSettings, responses=ERRORS)
async def resend(request: Request, session: SignedIn) -> MailSettings:
    """Send the confirmation again (the previous link stops working)."""
    return await _mailer(request).resend(session.user, request_language(request))


@router.delete("/api/account/mail", response_model=MailSettings, responses=ERRORS)
async def remove_mail(request: Request, session: SignedIn) -> MailSettings:
    """Forget your address: no more mail."""
    return await _mailer(request).remove(session.user.id)


# -- the pages the links open --------------------------------------------------------------------


def _page(t: Translator, title: str, text: str, status: int = 200) -> HTMLResponse:
    """A small page that says what happened, in plain words."""
    e = html.escape
    body = f"""<!doctype html>
<html lang="{e(t.language)}" dir="{e(t.direction)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} – Patchwork</title>
<style>
body {{ font-family: system-ui, sans-serif; background: #f4efe4; color: #2b2520; margin: 0; }}
main {{ max-width: 34rem; margin: 12vh auto; padding: 1.5rem 1.75rem; background: #fffdf8;
  border-radius: 12px; box-shadow: 0 2px 12px rgb(0 0 0 / 12%); line-height: 1.5; }}
h1 {{ font-size: 1.4rem; margin-top: 0; }}
a {{ color: #7a4b14; }}
@media (max-width: 40rem) {{ main {{ margin: 1rem; }} }}
</style>
</head>
<body>
<main id="mail-page">
<h1>{e(title)}</h1>
<p id="mail-result">{e(text)}</p>
<p><a href="/account">{e(t.gettext(N_("Your mail settings")))}</a> ·
<a href="/">{e(t.gettext(N_("Go to Patchwork")))}</a></p>
</main>
</body>
</html>
"""
    return HTMLResponse(body, status, headers={"cache-control": "no-store"})


@router.get("/mail/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm(request: Request, token: str = "") -> HTMLResponse:
    t = translator(request_language(request))
    found = "unknown"
    if token and len(token) <= MAX_TOKEN:
        found = await _mailer(request).confirm(token)
    if found == "confirmed":
        return _page(
            t,
            t.gettext(N_("Address confirmed")),
            t.gettext(
                N_(
                    "Your address is confirmed. You will get a mail when it is your turn in a "
                    "correspondence game and you have not been on the site for a while, and "
                    "when such a game ends. Every mail has a link to stop them."
                )
            ),
        )
    if found == "expired":
        text = N_(
            "This confirmation link is more than a week old. Set your address again in your "
            "account's settings to get a new one."
        )
    else:
        text = N_(
            "This confirmation link does not work: it was used already, a newer one replaced "
            "it, or it was copied incompletely. Your account's settings say whether your "
            "address is confirmed."
        )
    return _page(t, t.gettext(N_("Not confirmed")), t.gettext(text), 400)


async def _stop(request: Request, token: str) -> HTMLResponse:
    t = translator(request_language(request))
    if token and len(token) <= MAX_TOKEN and await _mailer(request).stop(token):
        return _page(
            t,
            t.gettext(N_("Mail stopped")),
            t.gettext(
                N_(
                    "No more mail will go to this address from Patchwork. To get mail again, "
                    "set your address again in your account's settings."
                )
            ),
        )
    return _page(
        t,
        t.gettext(N_("Not stopped")),
        t.gettext(
            N_(
                "This stop link does not work: it was copied incompletely, or the mail is "
                "too old. Sign in and remove your address in your account's settings."
            )
        ),
        400,
    )


@router.get("/mail/stop", response_class=HTMLResponse, include_in_schema=False)
async def stop_page(request: Request, token: str = "") -> HTMLResponse:
    """The stop link of every mail: no more mail to that address, at once."""
    return await _stop(request, token)


@router.post("/mail/stop", response_class=HTMLResponse, include_in_schema=False)
async def stop_one_click(request: Request, token: str = "") -> HTMLResponse:
    """RFC 8058's one-click stop (``List-Unsubscribe-Post``): the body is a form saying
    ``List-Unsubscribe=One-Click``, which changes nothing here."""
    return await _stop(request, token)
