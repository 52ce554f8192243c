"""Learning the games, in the players' languages (issue 17), in a real browser against a real
server: the rules pages with their little boards, the guided first game of Stalactites played
to its end, the language switch, and the catalogue check: every page, rendered in English,
Polish and Kazakh, shows no missing key and, in Polish and Kazakh, no English left.

The browser, the server and the page helpers are ``tests/browser_kit.py``'s, as for
``tests/test_browser.py``; each page here
opens in a browser context with the language under test as the browser's own, at 1366x768 or
390x844, and screenshots go to ``test-output/`` as there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from browser_kit import (
    LANGUAGES,
    LOCALES,
    SOLVER_MS,
    Console,
    _solved,
    board_of,
    check_page,
    click_move,
    new_room,
    post,
    shot,
    wait_racing,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import server_url as server_url
from stalactites.engine.stalactites import Stalactites

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
GUIDED_DEAL = "ms:6"  # client_web/js/learn/guide.js
GUIDED_MOVES = ["t2-f2", "t5-c1", "t5-f2"]
GUIDE_STEPS = ["guide.first", "guide.cell", "guide.freed"]
NAME = "Zoë"  # a racer's name is data, in no catalogue


@pytest.fixture
def lang_page(browser: Browser, server_url: str, console: Console) -> Iterator[Callable[..., Page]]:
    """Open a page in a context whose browser language is ``lang`` (its own storage)."""
    contexts: list[BrowserContext] = []

    def make(path: str, lang: str, viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        contexts.append(context)
        page = console.watch(context.new_page())
        page.goto(f"{server_url}{path}")
        return page

    yield make
    for context in contexts:
        context.close()


def text(page: Page, key: str, params: dict[str, Any] | None = None) -> str:
    """The catalogue's text for ``key`` in the page's language, as the page makes it."""
    result: str = page.evaluate(
        "async ([key, params]) => { const i18n = await import('./js/shared/i18n.js');"
        " await i18n.languageSet(); return i18n.t(key, params); }",
        [key, params or {}],
    )
    return result


def resign_solo(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".race-actions .btn-quiet").first.click()
    expect(page.locator("section.race")).to_have_attribute("data-status", "finished")


def new_tournament(server_url: str) -> str:
    body = {"name": "Zima 2026", "game": "stalactites", "rounds": 1, "round_time_s": 60}
    made = post(f"{server_url}/api/tournaments", body)
    tournament_id: str = made["tournament_id"]
    return tournament_id


def join_by_api(server_url: str, room: str, name: str) -> dict[str, Any]:
    return post(f"{server_url}/api/rooms/{room}/players", {"name": name})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_each_language_has_every_key_and_no_english_left(
    lang_page: Callable[..., Page], server_url: str, lang: str
) -> None:
    # A missing key is a console error ("missing text: ..."), which the console fixture fails.
    lobby = lang_page("/#/", lang)
    expect(lobby.locator(".panel-offer")).to_be_visible()  # the first visit offers the guide
    expect(lobby.locator(".room-list").first).not_to_be_empty()
    check_page(lobby, lang)
    for path in ("/#/rules/stalactites", "/#/rules/squadron", "/#/help", "/#/no-such-page"):
        lobby.goto(f"{server_url}{path}")
        expect(lobby.locator("main h1")).to_be_visible()
        check_page(lobby, lang)

    # A room opened without a seat, the race page with its key panel, the spectator view.
    room = new_room(server_url, seats=2)
    join_by_api(server_url, room, "Ola")
    lobby.goto(f"{server_url}/#/room/{room}")
    expect(lobby.locator("form input[name=name]")).to_be_visible()
    check_page(lobby, lang)
    lobby.locator("form input[name=name]").fill(NAME)
    lobby.locator("form .btn-primary").click()
    expect(lobby.locator(".waiting-list")).to_contain_text(NAME)
    check_page(lobby, lang)
    lobby.goto(f"{server_url}/#/watch/{room}")
    expect(lobby.locator(".delay-note")).not_to_be_empty()
    check_page(lobby, lang)

    # A solo race, resigned: the race page, its end screen, and the replay.
    solo = new_room(server_url, seats=1)
    race = lang_page(f"/#/room/{solo}", lang)
    race.locator("form input[name=name]").fill(NAME)
    race.locator("form .btn-primary").click()
    race.locator(".overlay-card .btn-big").click()
    wait_racing(race)
    race.keyboard.press("?")
    expect(race.locator(".key-panel")).to_be_visible()
    check_page(race, lang)
    resign_solo(race)
    expect(race.locator(".overlay-card .results")).to_be_visible()
    expect(race.locator(".overlay-card .fairness")).to_be_visible()
    check_page(race, lang)
    race.goto(f"{server_url}/#/replay/{solo}")
    expect(race.locator(".replay-readout")).to_be_visible()
    # The solver makes the analysis on the first ask: on a busy machine that takes a while.
    expect(race.locator(".analysis")).to_have_attribute("data-state", "ready", timeout=SOLVER_MS)
    check_page(race, lang)

    # A tournament's page.
    race.goto(f"{server_url}/#/tournament/{new_tournament(server_url)}")
    expect(race.locator(".round-line")).not_to_be_empty()
    check_page(race, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_pages_say_each_rule_beside_a_board_showing_it(
    lang_page: Callable[..., Page], lang: str
) -> None:
    rules = {
        "stalactites": ["deal", "ones", "twos", "first", "wrap", "cells", "never", "end"],
        "squadron": ["deal", "foundations", "tableau", "cells", "supermove", "stock", "end"],
    }
    for game, keys in rules.items():
        for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page = lang_page(f"/#/rules/{game}", lang, viewport)
            sections = page.locator("section.rule")
            expect(sections).to_have_count(len(keys))
            for index, key in enumerate(keys):
                section = sections.nth(index)
                expect(section).to_have_attribute("data-rule", key)
                title = text(page, f"rules.{game}.{key}.title")
                expect(section.locator("h2")).to_have_text(title)
                expect(section.locator("p")).to_have_text(text(page, f"rules.{game}.{key}.text"))
                # The picture is the client's own board, with cards on it.
                expect(section.locator(f".board.board-{game} .card").first).to_be_visible()
            # The rules of play that show a move light its destination, as the race page does.
            shown = page.locator("section.rule[data-rule=ones] .pile.target")
            if game == "stalactites":
                expect(shown).to_have_attribute("data-pile", "f1")
                expect(page.locator("section.rule[data-rule=never] .pile.target")).to_have_count(1)
            else:
                lit = page.locator("section.rule[data-rule=supermove] .card.selected")
                expect(lit).to_have_count(3)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            shot(page, f"rules-{game}-{lang}-{size}")
            check_page(page, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guided_first_game_points_out_the_first_moves_and_is_played_to_its_end(
    lang_page: Callable[..., Page], lang: str
) -> None:
    page = lang_page("/#/", lang)
    offer = page.locator(".panel-offer")
    expect(offer.locator("h2")).to_have_text(text(page, "learn.offer"))
    offer.get_by_role("link", name=text(page, "lobby.learn")).click()
    # The guide's room is made, joined and readied by itself: the race is on.
    wait_racing(page)
    expect(page.locator(".race-title")).to_have_text(
        text(page, "race.title", {"game": text(page, "game.stalactites")})
    )
    # The fair deal is said in words, its proof one click away.
    fair = page.locator(".race-commitment")
    expect(fair.locator("summary")).to_have_text(text(page, "fair.fixed"))
    expect(fair.locator("code")).not_to_be_visible()
    game = Stalactites(GUIDED_DEAL, step="ones")
    for index, (move, step) in enumerate(zip(GUIDED_MOVES, GUIDE_STEPS, strict=True)):
        expect(page.locator(".guide .guide-text")).to_have_attribute("data-step", step)
        src, dst = move.split("-")
        for pile in (src, dst):
            hinted = page.locator(f'.board-host .pile[data-pile="{pile}"]')
            expect(hinted).to_have_class(re.compile(r"\bhint\b"))
        if index == 0:
            # "The 7♥ … is one higher than the 6♣ …": the guide names the cards it points at.
            expect(page.locator(".guide-text")).to_contain_text("7♥")
            expect(page.locator(".guide-text")).to_contain_text("6♣")
            shot(page, f"guide-first-{lang}-desktop")
        if index == 1:
            page.set_viewport_size(PHONE)
            page.reload()
            wait_racing(page)
            expect(page.locator(".guide-text")).to_contain_text("7♦")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            shot(page, f"guide-cell-{lang}-phone")
            page.set_viewport_size(DESKTOP)
        click_move(page, move)
        game.push(move)
        if index == 0:
            # The first play fixed the step, as the guide said it would.
            expect(page.locator(".step-fixed")).to_have_text(text(page, "race.building.ones"))
    expect(page.locator(".guide .guide-text")).to_have_attribute("data-step", "guide.free")
    check_page(page, lang)
    for move in _solved(game):
        click_move(page, move)
    expect(page.locator(".guide .guide-text")).to_have_attribute("data-step", "guide.won")
    end = page.locator(".overlay-card")
    first = page.evaluate("async () => (await import('./js/shared/i18n.js')).ordinal(1)")
    expect(end.locator("h2")).to_have_text(text(page, "race.youFinished", {"place": first}))
    expect(end.locator(".fairness .fair-ok")).to_have_text(text(page, "fair.checked"))
    check_page(page, lang)
    shot(page, f"guide-won-{lang}-desktop")
    page.locator(".overlay-card .btn-quiet").click()  # look at the board: the guide's last word
    expect(page.locator(".guide-text")).to_have_text(text(page, "guide.won"))
    assert board_of(page)["t1"] == [] and sum(len(board_of(page)[f"f{i}"]) for i in range(1, 5)) > 0


def test_the_language_is_the_browsers_until_chosen_in_the_header_and_then_remembered(
    lang_page: Callable[..., Page], server_url: str
) -> None:
    page = lang_page("/#/", "pl")
    expect(page.locator("main h1")).to_have_text("Zacznij wyścig")
    expect(page.locator("#lang")).to_have_value("pl")
    page.select_option("#lang", "kk")
    expect(page.locator("main h1")).to_have_text("Жарыс бастау")
    expect(page.locator(".topnav a").first).to_have_text("Басты бет")
    expect(page.locator("html")).to_have_attribute("lang", "kk")
    page.reload()
    expect(page.locator("main h1")).to_have_text("Жарыс бастау")
    page.select_option("#lang", "en")
    expect(page.locator("main h1")).to_have_text("Start a race")
    shot(page, "lobby-en-desktop")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bad_deal_number_is_explained_in_words_not_in_notation(
    lang_page: Callable[..., Page], console: Console, lang: str
) -> None:
    console.allow(r"status of 422")  # the server refuses the deal id, as it should
    page = lang_page("/#/", lang, PHONE)
    form = page.locator("form.create").first
    form.locator("input[name=name]").fill(NAME)
    form.locator("input[name=deal]").fill("ms:0")
    form.locator("button[type=submit]").click()
    error = form.locator(".form-error")
    expect(error).to_have_text(text(page, "error.field.deal", {"max": 2**31 - 1}))
    assert "2**31" not in (error.text_content() or "")
    shot(page, f"lobby-{lang}-phone")
    check_page(page, lang)


def test_the_guided_deal_is_won_by_the_moves_the_guide_points_out_first() -> None:
    """The guide's deal and first moves are a good start: a win still follows them."""
    game = Stalactites(GUIDED_DEAL, step="ones")
    for move in GUIDED_MOVES:
        game.push(move)
    assert _solved(game)
