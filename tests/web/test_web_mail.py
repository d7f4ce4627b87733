"""Mail in the browser (issue 39; docs/accounts.md "Mail"): a person signs up, gives an address
in the "Mail" section of the account page, opens the link of the confirmation mail (read from
a real SMTP server in the test process, aiosmtpd) and finds the address confirmed; then sees
what a stop link does, and on a phone in Persian the section right to left. A server started
without --smtp says that it sends no mail."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from conftest import (
    SERVER_ARGS,
    TIMEOUT_MS,
    assert_fits_a_phone,
    phone,
    shot,
    signed_up,
    watch_errors,
)
from mail_fixtures import Mailbox, smtp_server
from server_fixtures import ServerProcess


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def server(
    mailbox: tuple[Mailbox, int], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("mail-web")
    args = ("--smtp", f"smtp://127.0.0.1:{mailbox[1]}", "--mail-scan", "0.5")
    proc = ServerProcess(f"sqlite:///{folder / 'games.db'}", folder, *SERVER_ARGS, *args)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


def test_an_address_set_on_the_account_page_is_confirmed_from_its_mail(
    browser: Browser, server: ServerProcess, mailbox: tuple[Mailbox, int]
) -> None:
    box = mailbox[0]
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        name = signed_up(page, server, "Mia")
        address = f"{name.lower()}@example.org"
        page.goto(f"{server.url}/account")
        section = page.locator("#mail-settings")
        expect(section).to_contain_text("Other players never see your address")
        expect(section).to_contain_text("1 hour")
        page.click("#mail-save")  # nothing typed: said next to the field
        expect(section.locator(".form-error")).to_have_text("Enter your mail address.")
        page.fill("#field-mail-address", "not-an-address")
        page.click("#mail-save")
        expect(section.locator(".form-error")).to_contain_text("is not a mail address")
        page.fill("#field-mail-address", address)
        page.click("#mail-save")
        expect(page.locator("#mail-status")).to_contain_text("Not confirmed yet")
        expect(page.locator("#mail-status")).to_contain_text(address)
        shot(page, "mail-settings-waiting")

        confirm = box.link(address, "/mail/confirm")
        page.goto(confirm)
        expect(page.locator("h1")).to_have_text("Address confirmed")
        shot(page, "mail-confirmed-page")
        page.click("text=Your mail settings")
        expect(page.locator("#mail-status")).to_contain_text("Confirmed")
        expect(page.locator("#mail-status")).to_contain_text(f"Mail goes to {address}.")
        expect(page.locator("#mail-resend")).to_have_count(0)
        shot(page, "mail-settings-confirmed")

        # The stop link of the mail: the page says so, and the section shows it stopped.
        page.goto(box.link(address, "/mail/stop"))
        expect(page.locator("h1")).to_have_text("Mail stopped")
        page.goto(f"{server.url}/account")
        expect(page.locator("#mail-status")).to_contain_text("Stopped")
        shot(page, "mail-settings-stopped")
        page.click("#mail-change")
        expect(page.locator("#field-mail-address")).to_have_value(address)
        page.click("#mail-cancel")
        page.click("#mail-remove")
        expect(page.locator("#field-mail-address")).to_have_value("")
        expect(page.locator("#toasts")).to_contain_text("Your address is removed")
    finally:
        ctx.close()
    assert not errors, errors


def test_the_mail_section_on_a_phone_in_persian(
    browser: Browser, server: ServerProcess, mailbox: tuple[Mailbox, int]
) -> None:
    with phone(browser, "fa-IR") as page:
        page.add_init_script("localStorage.setItem('patchwork.lang', 'fa')")
        name = signed_up(page, server, "Mia")
        page.goto(f"{server.url}/account")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        page.fill("#field-mail-address", f"{name.lower()}@example.org")
        page.click("#mail-save")
        expect(page.locator("#mail-status")).to_be_visible()
        expect(page.locator("#mail-resend")).to_be_visible()
        assert_fits_a_phone(page)
        page.locator("#mail-settings").scroll_into_view_if_needed()
        shot(page, "mail-settings-phone-fa", full_page=True)
        # The confirmation mail speaks the page's language, and its page does too.
        confirm = mailbox[0].link(f"{name.lower()}@example.org", "/mail/confirm")
        assert "lang=fa" in confirm
        page.goto(confirm)
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        assert_fits_a_phone(page)
        shot(page, "mail-confirmed-page-phone-fa")


def test_a_server_without_smtp_says_it_sends_no_mail(
    browser: Browser, web_server: ServerProcess
) -> None:
    with phone(browser) as page:
        signed_up(page, web_server, "Mia")
        page.goto(f"{web_server.url}/account")
        expect(page.locator("#mail-off")).to_have_text(
            "Mail is off on this server: it sends no mail."
        )
        expect(page.locator("#field-mail-address")).to_have_count(0)
        shot(page, "mail-settings-off-phone")
