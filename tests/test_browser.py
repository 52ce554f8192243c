"""The web client in a real browser (Debian's chromium, driven by Playwright) against a real
server started as a subprocess (``stalactites serve``).

Players race the same deal to the end by clicking through a winning line while a spectator
watches, a card is dragged and dropped, a refused move springs back, a reload in mid-race
resumes the same board, the lobby lists a room and a link joins it.  Every page is checked for
console errors; screenshots go to ``test-output/``.  Nothing waits by sleeping: every wait is
Playwright's, for what the page should come to show.
"""

from __future__ import annotations

import re
import signal
import urllib.request
from collections.abc import Callable

from playwright.sync_api import Page, WebSocketRoute, expect

from browser_kit import (
    DEAL,
    SOLVER_MS,
    STEP,
    Console,
    ServerProcess,
    board_of,
    click_move,
    engine_board,
    expect_board,
    join_room,
    new_room,
    post,
    ready,
    settled,
    shot,
    start_solo,
    top_card,
    wait_racing,
    winning_line_from,
)
from browser_kit import browser as browser  # the fixtures
from browser_kit import console as console
from browser_kit import line as line
from browser_kit import new_page as new_page
from browser_kit import redis_server as redis_server
from browser_kit import server_url as server_url
from stalactites.engine.squadron import Squadron
from stalactites.engine.stalactites import Stalactites

# The scenarios.


def test_two_players_race_the_same_deal_to_the_end_by_clicking(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    room = new_room(server_url, seats=2)
    ada = new_page(f"/#/room/{room}")
    join_room(ada, "Ada")
    # The second racer's name is markup: it must show as text, never as HTML.
    bo_name = "<b>Bo</b>"
    bo = new_page(f"/#/room/{room}")
    join_room(bo, bo_name)
    expect(ada.locator(".waiting-list")).to_contain_text(bo_name)
    ready(ada)
    ready(bo)
    wait_racing(ada)
    wait_racing(bo)
    assert board_of(ada) == board_of(bo), "both racers get the identical deal"
    commitment = ada.locator(".race-commitment")
    expect(commitment).to_contain_text("Fair deal: fixed before the start")

    games = {"ada": Stalactites(DEAL, step=STEP), "bo": Stalactites(DEAL, step=STEP)}
    pages = {"ada": ada, "bo": bo}
    for index, move in enumerate(line):
        for who in ("ada", "bo") if index % 2 == 0 else ("bo", "ada"):
            click_move(pages[who], move)
            games[who].push(move)
            if index % 10 == 0 or index == len(line) - 1:
                assert board_of(pages[who]) == engine_board(games[who]), f"after {move}"
        if index == len(line) // 2:
            bar = ada.locator(f'.racer:has-text("{bo_name}") [role=progressbar]')
            expect(bar).to_have_attribute("aria-valuenow", str(games["bo"].foundation_cards))
            shot(ada, "race-midway")

    for page in (ada, bo):
        end = page.locator(".overlay-card")
        expect(end).to_contain_text("You finished")
        expect(end.locator("table.results tbody tr")).to_have_count(2)
        expect(end.locator(".replay-link")).to_have_attribute("href", f"#/replay/{room}")
        expect(end.locator(".fairness")).to_contain_text(f"Deal: {DEAL}, secret: ")
        expect(end.locator(".fairness .fair-ok")).to_have_text("checked ✓")
    expect(ada.locator(".overlay-card")).to_contain_text(bo_name)
    assert ada.locator(".overlay-card b").count() == 0, "a name was inserted as HTML"
    places = ada.locator("table.results tbody td.place").all_inner_texts()
    assert places == ["1st", "2nd"]
    shot(ada, "race-results")
    watch_the_replay(ada, line)


def watch_the_replay(page: Page, line: list[str]) -> None:
    """From the end screen to the replay: step through Ada's board, forward and back."""
    page.locator(".replay-link").click()
    page.wait_for_url(re.compile(r"#/replay/"))
    board = page.locator(".replay-board", has=page.locator("strong", has_text=re.compile("^Ada$")))
    expect(board).to_be_visible()
    player = board.get_attribute("data-player")
    ada = f'.replay-board[data-player="{player}"]'
    game = Stalactites(DEAL, step=STEP)
    assert board_of(page, ada) == engine_board(game), "0:00 is the deal"
    page.locator(".replay-whose").select_option(player)
    for move in line[:3]:
        page.keyboard.press("ArrowRight")
        game.push(move)
    expect(page.locator(f"{ada} .action-list li.current")).to_have_attribute("data-index", "3")
    assert board_of(page, ada) == engine_board(game)
    page.keyboard.press("End")
    for move in line[3:]:
        game.push(move)
    expect(page.locator(f"{ada} .replay-cards")).to_have_attribute("data-cards", "52")
    assert board_of(page, ada) == engine_board(game), "the last move wins"
    page.keyboard.press("ArrowLeft")
    game.pop()
    expect(page.locator(f"{ada} .replay-cards")).to_have_attribute("data-cards", "51")
    assert board_of(page, ada) == engine_board(game)
    shot(page, "replay")


def test_drag_and_drop_and_double_click_move_cards(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page, _ = start_solo(new_page, server_url)
    card = top_card(page, "t4")
    code = card.get_attribute("data-card")
    card.drag_to(page.locator('.board-host .pile[data-pile="c2"]'))
    settled(page)
    assert board_of(page)["c2"] == [code]
    game = Stalactites(DEAL, step=STEP)
    game.push("t4-c2")
    assert board_of(page) == engine_board(game)
    # A double click sends a card to the foundation that takes it.
    src, dst = line[0].split("-")
    assert dst.startswith("f")
    top_card(page, src).dblclick()
    settled(page)
    game.push(line[0])
    assert board_of(page) == engine_board(game)


def test_dropping_a_card_where_it_cannot_go_springs_it_back(
    new_page: Callable[..., Page],
    server_url: str,
) -> None:
    page, _ = start_solo(new_page, server_url)
    before = board_of(page)
    # Column 5 to column 6 is never a Stalactites move: the card goes back, nothing is sent.
    top_card(page, "t5").drag_to(page.locator('.board-host .pile[data-pile="t6"]'))
    settled(page)
    assert board_of(page) == before


def without_synced(ws: WebSocketRoute) -> None:
    """Pass a page's websocket through, except the server's ``synced`` frames."""
    server = ws.connect_to_server()
    server.on_message(lambda m: None if '"type":"synced"' in str(m) else ws.send(m))


def test_a_move_the_server_refuses_springs_back_with_the_reason(
    new_page: Callable[..., Page],
    server_url: str,
) -> None:
    first, room = start_solo(new_page, server_url)
    # A second tab of the same player (same storage, so the same seat) that does not hear of
    # the first tab's moves: the server's `synced` frames to its sockets are held back.
    first.context.route_web_socket(re.compile(r"/ws/rooms/"), without_synced)
    second = new_page(f"/#/room/{room}", context=first.context)
    wait_racing(second)
    click_move(first, "t1-c1")
    # The second tab has not seen that move: to it, cell 1 is still empty.
    code = top_card(second, "t2").get_attribute("data-card")
    assert code is not None
    top_card(second, "t2").click()
    second.locator('.board-host .pile[data-pile="c1"]').click()
    note = second.locator(".move-note")
    label = {"T": "10"}.get(code[0], code[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[1]]
    expect(note).to_contain_text(f"Refused: the {label} to cell 1")
    shot(second, "race-refused")
    # The refused card is back on its column, and the tab has caught up with the real board.
    expect(top_card(second, "t2")).to_have_attribute("data-card", code or "")
    settled(second)
    expect(second.locator('.board-host .pile[data-pile="c1"] .card')).to_have_attribute(
        "data-card", board_of(first)["c1"][0]
    )
    assert board_of(second) == board_of(first)


def test_a_reload_in_mid_race_resumes_the_same_board(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page, room = start_solo(new_page, server_url)
    game = Stalactites(DEAL, step=STEP)
    for move in line[:6]:
        click_move(page, move)
        game.push(move)
    page.reload()
    wait_racing(page)
    assert page.url.endswith(f"#/room/{room}")
    assert board_of(page) == engine_board(game)
    expect(page.locator(".racer.you .racer-moves")).to_have_text("6 moves")
    # And the race goes on from there.
    click_move(page, line[6])
    game.push(line[6])
    assert board_of(page) == engine_board(game)


def test_a_server_killed_mid_race_loses_no_move_and_repeats_none(
    new_page: Callable[..., Page], redis_server: ServerProcess, console: Console, line: list[str]
) -> None:
    # While the server is down the browser logs each failed attempt to reconnect.
    console.allow(r"WebSocket connection to .* failed")
    room = new_room(redis_server.url, seats=1)
    page = new_page(f"{redis_server.url}/#/room/{room}")
    join_room(page, "Steady")
    ready(page)
    wait_racing(page)
    game = Stalactites(DEAL, step=STEP)
    for move in line[:4]:
        click_move(page, move)
        game.push(move)
    redis_server.stop(signal.SIGKILL)
    conn = page.locator("#conn")
    expect(conn).to_have_attribute("data-state", re.compile("waiting|connecting"))
    # A move made while the server is down is drawn at once and kept until it is answered.
    src, dst = line[4].split("-")
    code = top_card(page, src).get_attribute("data-card")
    top_card(page, src).click()
    page.locator(f'.board-host .pile[data-pile="{dst}"]').click()
    expect(top_card(page, dst)).to_have_attribute("data-card", code or "")
    shot(page, "race-reconnecting")
    redis_server.start()
    expect(conn).to_have_attribute("data-state", "open", timeout=15000)
    settled(page)
    game.push(line[4])
    assert board_of(page) == engine_board(game)
    expect(page.locator(".racer.you .racer-moves")).to_have_text("5 moves")
    click_move(page, line[5])
    game.push(line[5])
    assert board_of(page) == engine_board(game)
    expect(page.locator(".racer.you .racer-moves")).to_have_text("6 moves")


def test_keys_play_a_column_to_a_foundation_and_to_a_cell(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page, _ = start_solo(new_page, server_url)
    game = Stalactites(DEAL, step=STEP)
    for move in line[:8]:
        src, dst = move.split("-")
        page.keyboard.press(src[1:] if src[0] == "t" else "qwe"[int(src[1:]) - 1])
        page.keyboard.press(dst[0])  # f or c: the first foundation or cell that takes it
        settled(page)
        game.push(_first_of_kind(game, src, dst[0]))
        assert board_of(page) == engine_board(game), f"after {move}"


def test_keys_typed_ahead_of_the_server_play_in_order_after_it(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    page, _ = start_solo(new_page, server_url)
    game = Stalactites(DEAL, step=STEP)
    columns = [move.split("-")[0][1:] for move in line[:4]]
    assert all(move.split("-")[1][0] == "f" for move in line[:4])
    # All at once, with no wait: most keys arrive while a move is in flight.
    page.keyboard.type("".join(f"{column}f" for column in columns))
    expect(page.locator(".racer.you .racer-moves")).to_have_text("4 moves")
    settled(page)
    for column in columns:
        game.push(_first_of_kind(game, f"t{column}", "f"))
    assert board_of(page) == engine_board(game)


def _first_of_kind(game: Stalactites, src: str, kind: str) -> str:
    """The move the keys pick: the first legal one from ``src`` to a pile of this kind."""
    moves = [str(m) for m in game.generate_legal_moves()]
    return sorted(
        (m for m in moves if m.startswith(f"{src}-{kind}")), key=lambda m: int(m.split("-")[1][1:])
    )[0]


def test_the_board_fits_a_phone_screen(new_page: Callable[..., Page], server_url: str) -> None:
    page, _ = start_solo(new_page, server_url, width=375)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways at phone width ({width} px)"
    size = page.evaluate(
        "document.querySelector('.board .card .rank').getBoundingClientRect().height"
    )
    assert size >= 13, f"card index too small on a phone ({size} px)"
    shot(page, "race-phone")


def test_every_card_shows_its_suit_symbol_and_each_suit_has_its_own_colour(
    new_page: Callable[..., Page], server_url: str
) -> None:
    page, _ = start_solo(new_page, server_url)
    cards: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('.board .card[data-card]')].map((c) => ({
            code: c.dataset.card,
            rank: c.querySelector('.rank').textContent,
            suit: c.querySelector('.face .pip').dataset.suit,
            colour: getComputedStyle(c).color,
        }))"""
    )
    assert len(cards) == 52
    colours: dict[str, set[str]] = {}
    for card in cards:
        assert card["suit"] == card["code"][1].lower(), card
        assert card["rank"] == {"T": "10"}.get(card["code"][0], card["code"][0]), card
        colours.setdefault(card["code"][1], set()).add(card["colour"])
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({found.pop() for found in colours.values()}) == 4, "four suits, four colours"


def test_declaring_the_step_then_undoing_a_move(
    new_page: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, seats=1, step="choice")
    page = new_page(f"/#/room/{room}")
    join_room(page, "Chooser")
    ready(page)
    wait_racing(page)
    game = Stalactites(DEAL, step="choice")
    page.get_by_role("button", name="by twos (t)").click()
    expect(page.locator(".step-fixed")).to_have_text("Building by twos")
    game.declare_step("twos")
    move = next(str(m) for m in game.generate_legal_moves() if m.dst.kind.value == "f")
    click_move(page, move)
    game.push(move)
    assert board_of(page) == engine_board(game)
    expect(page.locator(".racer.you .racer-moves")).to_have_text("1 move")
    page.get_by_role("button", name="Undo (u)").click()
    game.pop()
    expect_board(page, engine_board(game))
    expect(page.locator(".racer.you .racer-moves")).to_have_text("0 moves")
    expect(page.locator(".step-fixed")).to_have_text("Building by twos")


def test_a_stuck_board_in_an_undo_room_says_so_and_undo_gets_it_going(
    new_page: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, seats=1, deal="ms:2")  # by ones, two cells filled: stuck
    page = new_page(f"/#/room/{room}")
    join_room(page, "Stuck")
    ready(page)
    wait_racing(page)
    game = Stalactites("ms:2", step=STEP)
    for move in ("t1-c1", "t1-c2"):
        click_move(page, move)
        game.push(move)
    assert not game.legal_moves
    expect(page.locator(".move-note")).to_have_text("No move is left: undo a move, or resign.")
    expect(page.locator(".racer.you .racer-status")).to_have_text("racing")
    page.keyboard.press("u")
    game.pop()
    # Undo is not drawn in advance: wait for the server's board, then for the page to settle.
    expect_board(page, engine_board(game))
    expect(page.locator(".racer.you .racer-moves")).to_have_text("1 move")
    settled(page)
    expect(page.locator(".move-note")).to_have_text("")


def squadron_board(game: Squadron) -> dict[str, list[str]]:
    """What a Squadron page shows: foundation tops, the waste's last three, the stock face down."""
    state = game.state()
    piles = {f"t{i + 1}": column for i, column in enumerate(state["tableau"])}
    piles |= {f"c{i + 1}": [card] if card else [] for i, card in enumerate(state["cells"])}
    piles |= {f"f{i + 1}": pile[-1:] for i, pile in enumerate(state["foundations"])}
    return piles | {"s": [], "w": state["waste"][-3:]}


def test_squadron_deals_from_the_stock_and_moves_by_click_and_drag(
    new_page: Callable[..., Page], server_url: str
) -> None:
    room = new_room(server_url, seats=1, game="squadron", step=None)
    page = new_page(f"/#/room/{room}")
    join_room(page, "Squad")
    ready(page)
    wait_racing(page)
    game = Squadron(DEAL)
    assert board_of(page) == squadron_board(game)
    expect(page.locator('.pile[data-pile="s"] .badge')).to_have_text("61")
    page.locator('.board-host .pile[data-pile="s"]').click()  # deal one card
    settled(page)
    game.push("s-w")
    assert board_of(page) == squadron_board(game)
    expect(page.locator('.pile[data-pile="s"] .badge')).to_have_text("60")
    click_move(page, "c1-t2")
    game.push("c1-t2")
    top_card(page, "t5").drag_to(page.locator('.board-host .pile[data-pile="t1"]'))
    settled(page)
    game.push("t5-t1")
    assert board_of(page) == squadron_board(game)
    shot(page, "race-squadron")


# Tournaments.


def start_tournament(server_url: str, tournament_id: str, admin_token: str) -> None:
    request = urllib.request.Request(
        f"{server_url}/api/tournaments/{tournament_id}/start",
        data=b"{}",
        method="POST",
        headers={"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"},
    )
    urllib.request.urlopen(request, timeout=30).close()


def foundation_cards(page: Page) -> int:
    bar = page.locator(".racer.you [role=progressbar]")
    return int(bar.get_attribute("aria-valuenow") or 0)


def resign(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


def test_a_tournament_page_shows_the_round_and_standings_updating(
    new_page: Callable[..., Page], server_url: str
) -> None:
    settings = {
        "name": "Friday <cup>",
        "game": "stalactites",
        "step": "ones",
        "rounds": 1,
        "round_time_s": 60,
        "break_s": 0,
        "starts_at": None,
        "max_players": 4,
    }
    made = post(f"{server_url}/api/tournaments", settings)
    tid = made["tournament_id"]
    entrants: dict[str, Page] = {}
    for name in ("Ada", "Bo"):
        page = new_page(f"/#/tournament/{tid}")
        page.locator("input[name=name]").fill(name)
        page.get_by_role("button", name="Enter the tournament").click()
        expect(page.locator(".tournament-actions")).to_contain_text("You are entered")
        entrants[name] = page
    watcher = new_page(f"/#/tournament/{tid}")
    expect(watcher.locator("h1")).to_have_text("Friday <cup>")  # a name is text, never markup
    expect(watcher.locator(".race-settings")).to_contain_text("2/4 entrants")
    expect(watcher.locator("section.tournament")).to_have_attribute("data-status", "scheduled")

    start_tournament(server_url, tid, made["admin_token"])
    for page in entrants.values():  # each entrant is taken to the round's board
        page.wait_for_url(re.compile(r"#/room/"), timeout=SOLVER_MS)
        wait_racing(page)
    expect(watcher.locator(".round-line")).to_contain_text("round 1 of 1")
    expect(watcher.locator(".current-room")).to_have_text("Watch round 1")

    ada = entrants["Ada"]
    # The round's deal is the server's (certified winnable): Ada plays the start of a winning
    # line found from the board she is shown, until ten cards are on her foundations.
    line = winning_line_from(board_of(ada), step="ones")
    for move in line:
        if foundation_cards(ada) >= 10:
            break
        click_move(ada, move)
    ada_cards = foundation_cards(ada)
    bo_cards = foundation_cards(entrants["Bo"])
    assert ada_cards > bo_cards, "this test needs Ada ahead; the round's deal gave her no move"
    # The standings update live during the round.
    expect(watcher.locator(".tag.live")).to_be_visible()
    live = watcher.locator("table.standings tbody tr").first
    expect(live).to_contain_text("Ada")
    expect(live.locator("td.points")).to_have_text(str(ada_cards))
    shot(watcher, "tournament-round")
    resign(ada)
    resign(entrants["Bo"])

    expect(watcher.locator("section.tournament")).to_have_attribute("data-status", "finished")
    rows = watcher.locator("table.standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Ada")
    expect(rows.first.locator("td.points")).to_have_text(str(ada_cards))
    expect(rows.nth(1).locator("td.points")).to_have_text(str(bo_cards))
    expect(watcher.locator('.round-item[data-round="1"]')).to_contain_text("1st Ada")
    shot(watcher, "tournament")
    # The entrants' end screens lead back to the tournament.
    back = ada.get_by_role("link", name="Back to the tournament")
    expect(back).to_have_attribute("href", f"#/tournament/{tid}")


# The lobby and spectators.


def create_room(page: Page, name: str, seats: int) -> str:
    """Fill in the lobby's form and create a room on the fixed deal; the new room's id."""
    form = page.locator("form.create").first
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=seats]").fill(str(seats))
    form.locator("input[name=countdown_s]").fill("0")
    form.locator("input[name=deal]").fill(DEAL)
    form.locator("select[name=step]").select_option(STEP)
    form.get_by_role("button", name="Create room and join").click()
    page.wait_for_url(re.compile(r"#/room/"))
    return page.url.rsplit("/", 1)[1]


def test_the_lobby_creates_a_room_lists_it_and_a_link_joins_it(
    new_page: Callable[..., Page],
) -> None:
    host = new_page("/")
    room = create_room(host, "Host", seats=3)
    expect(host.locator(".waiting-list")).to_contain_text("Host")
    guest = new_page("/")
    listed = guest.locator(f'.room-item[data-room="{room}"]')
    expect(listed).to_contain_text("Host")
    expect(listed).to_contain_text("1/3 racers")
    shot(guest, "lobby")
    listed.get_by_role("link", name="Join").click()
    join_room(guest, "Guest")
    expect(host.locator(".waiting-list")).to_contain_text("Guest")


def test_a_racing_room_is_listed_with_a_link_to_watch_it(
    new_page: Callable[..., Page], server_url: str
) -> None:
    solo, room = start_solo(new_page, server_url)
    lobby = new_page("/")
    listed = lobby.locator(f'.room-item[data-room="{room}"]')
    expect(listed).to_contain_text("Solo")
    listed.get_by_role("link", name="Watch").click()
    lobby.wait_for_url(re.compile(rf"#/watch/{room}$"))
    expect(lobby.locator(".spectated")).to_have_count(1)
    expect(lobby.locator(".delay-note")).to_have_text("Boards are shown live.")  # solo: no delay
    expect(solo.locator(".watchers")).to_have_text("1 watching")


def test_a_spectator_sees_both_boards_live_progress_and_the_results(
    new_page: Callable[..., Page], server_url: str, line: list[str]
) -> None:
    room = new_room(server_url, seats=2, spectator_delay_s=1)
    ada = new_page(f"/#/room/{room}")
    join_room(ada, "Ada")
    bo = new_page(f"/#/room/{room}")
    join_room(bo, "Bo")
    watcher = new_page(f"/#/watch/{room}")
    expect(watcher.locator(".spectated")).to_have_count(2)
    expect(watcher.locator(".delay-note")).to_contain_text("1 s behind")
    expect(ada.locator(".watchers")).to_have_text("1 watching")
    ready(ada)
    ready(bo)
    wait_racing(ada)
    ada_id = watcher.locator(".spectated", has_text="Ada").first.get_attribute("data-player")
    bo_id = watcher.locator(".spectated", has_text="Bo").first.get_attribute("data-player")
    ada_board = f'.spectated[data-player="{ada_id}"]'
    game = Stalactites(DEAL, step=STEP)
    expect_board(watcher, engine_board(game), f'.spectated[data-player="{bo_id}"]')
    half = len(line) // 2
    for move in line[:half]:
        click_move(ada, move)
        game.push(move)
    # Progress is live; the board follows a second behind.
    bar = watcher.locator(f"{ada_board} [role=progressbar]")
    expect(bar).to_have_attribute("aria-valuenow", str(game.foundation_cards))
    expect_board(watcher, engine_board(game), ada_board)
    shot(watcher, "spectator")
    for move in line[half:]:
        click_move(ada, move)
        game.push(move)
    resign(bo)
    expect(watcher.locator(".spectator-results tbody tr").first).to_contain_text("Ada")
    expect(watcher.locator(".delay-note")).to_contain_text("The race is over")
    expect_board(watcher, engine_board(game), ada_board)
    expect_board(
        watcher, engine_board(Stalactites(DEAL, step=STEP)), f'.spectated[data-player="{bo_id}"]'
    )
    shot(watcher, "spectator-results")
