"""Recovery codes and your data in the web client, in a real browser against a real server:
registering shows the ten codes once (a Download of them as a text file, then "I saved
them"), a code signs the player back in with a new password after signing out, "Export my
data" saves the JSON document, and a new set replaces the old; the codes' dialog and the
recovery form in English, Polish and Kazakh on a phone, with screenshots in
``test-output/``.

The browser, the server and the pages come from ``tests/browser_kit.py``.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, expect

from browser_kit import LOCALES, Console, check_page, shot
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import server_url as server_url

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"
CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$")


@pytest.fixture
def visitor(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """A visitor on your own profile, in a browser context of its own."""
    contexts: list[BrowserContext] = []

    def make(lang: str = "en", viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(
            viewport=viewport, locale=LOCALES[lang], accept_downloads=True
        )
        contexts.append(context)
        page = console.watch(context.new_page())
        page.goto(f"{server_url}/#/me")
        expect(page.locator("form.account-register")).to_be_visible()
        return page

    yield make
    for context in contexts:
        context.close()


def register(page: Page, username: str) -> list[str]:
    """Register from the account panel; the codes its dialog shows (left open)."""
    form = page.locator("form.account-register")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.get_by_role("button").click()
    return shown_codes(page)


def shown_codes(page: Page) -> list[str]:
    dialog = page.locator("dialog.recovery-codes")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".codes-list li")).to_have_count(10)
    codes = dialog.locator(".codes-list code").all_inner_texts()
    assert all(CODE.match(code) for code in codes), codes
    return codes


def saved(page: Page) -> None:
    page.locator("dialog.recovery-codes .codes-saved").click()
    expect(page.locator("dialog.recovery-codes")).to_have_count(0)


def downloaded(page: Page, click: Callable[[], None]) -> tuple[str, str]:
    """The name and text of the file a click saves."""
    with page.expect_download() as waiting:
        click()
    download = waiting.value
    return download.suggested_filename, Path(download.path()).read_text("utf-8")


def test_register_save_the_codes_recover_with_one_and_export(
    visitor: Callable[..., Page],
) -> None:
    page = visitor()
    username = f"rc_{uuid.uuid4().hex[:8]}"
    codes = register(page, username)
    page.keyboard.press("Escape")  # not before they are saved
    expect(page.locator("dialog.recovery-codes")).to_be_visible()
    shot(page, "recovery-codes-en-1366")
    name, text = downloaded(page, page.locator(".codes-download").click)
    assert name == f"stalactites-recovery-codes-{username}.txt"
    assert username in text and all(f". {code}" in text for code in codes)
    saved(page)
    expect(page.locator(".profile-head")).to_contain_text(f"account {username}")

    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.locator(".signed-out-note")).to_be_visible()
    part = page.locator("details.recover")
    part.locator("summary").click()
    part.locator("input[name=username]").fill(username)
    part.locator("input[name=code]").fill(codes[2])
    part.locator("input[name=password]").fill("a brand new password")
    shot(page, "recovery-form-en-1366")
    part.get_by_role("button", name="Set the password and sign in").click()
    expect(page.locator(".profile-head")).to_contain_text(f"account {username}")
    expect(page.locator(".toast-good").last).to_contain_text("Every other device is signed out")

    name, text = downloaded(page, page.locator(".account-export").click)
    assert re.fullmatch(r"stalactites-p\.[0-9a-f]{16}-\d{4}-\d{2}-\d{2}\.json", name), name
    document = json.loads(text)
    assert document["schema"] == "stalactites-export/1"
    assert document["account"] == {
        "registered": True,
        "username": username,
        "recovery_codes_left": 9,
    }

    codes_part = page.locator("details.recovery-part")
    codes_part.locator("summary").click()
    expect(codes_part.locator(".codes-left")).to_have_text("9 unused codes left.")
    codes_part.locator("input[name=password]").fill("a brand new password")
    codes_part.get_by_role("button", name="New recovery codes").click()
    new = shown_codes(page)
    assert not set(new) & set(codes)
    saved(page)
    expect(codes_part.locator(".codes-left")).to_have_text("10 unused codes left.")
    shot(page, "recovery-account-en-1366")


def test_a_wrong_code_is_told_in_the_form(visitor: Callable[..., Page]) -> None:
    page = visitor()
    part = page.locator("details.recover")
    part.locator("summary").click()
    part.locator("input[name=username]").fill(f"nobody_{uuid.uuid4().hex[:6]}")
    part.locator("input[name=code]").fill("ABCD-EFGH-JKMN-PQRS")
    part.locator("input[name=password]").fill("a brand new password")
    part.get_by_role("button").click()
    expect(part.locator(".form-error")).to_have_text(
        "Wrong username or recovery code, or a code used already."
    )


def test_the_recovery_form_opened_stays_open_when_the_profile_redraws(
    browser: Browser, server_url: str, console: Console
) -> None:
    """The list of races comes after the account panel and redraws the page: the form the
    player opened meanwhile, and what they typed in it, stay as they were."""
    context = browser.new_context(viewport=DESKTOP)
    held: list[Route] = []
    context.route(re.compile(r"/races\?limit=10$"), lambda route: held.append(route))
    try:
        page = console.watch(context.new_page())
        with page.expect_request(re.compile(r"/races\?limit=10$")):
            page.goto(f"{server_url}/#/me")
        part = page.locator("details.recover")
        part.locator("summary").click()
        part.locator("input[name=code]").fill("ABCD")
        assert len(held) == 1, "the list of races is held until the form is open"
        held[0].continue_()
        races = page.locator(
            "section.panel", has=page.get_by_role("heading", name="Races", exact=True)
        )
        expect(races).to_contain_text("No races yet.")
        expect(part).to_have_attribute("open", "")
        expect(part.locator("input[name=code]")).to_have_value("ABCD")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "pl", "kk"])
def test_the_codes_and_the_recovery_form_on_a_phone_in_each_language(
    visitor: Callable[..., Page], lang: str
) -> None:
    page = visitor(lang, PHONE)
    page.locator("details.recover summary").click()
    check_page(page, lang)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"recovery-form-{lang}-390")
    register(page, f"ph_{uuid.uuid4().hex[:8]}")
    check_page(page, lang)
    box = page.locator("dialog.recovery-codes").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    for code in page.locator("dialog.recovery-codes .codes-list code").all():
        line = code.bounding_box()
        assert line is not None and line["x"] + line["width"] <= box["x"] + box["width"]
    expect(page.locator("dialog.recovery-codes .codes-saved")).to_be_in_viewport()
    shot(page, f"recovery-codes-{lang}-390")
    saved(page)
    page.locator("details.recovery-part summary").click()
    expect(page.locator(".codes-left")).not_to_be_empty()
    check_page(page, lang)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"recovery-account-{lang}-390")
