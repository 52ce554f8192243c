"""Whether each board spectators see can still be won, over real websockets on both stores:
judged on the delayed board alone (a losing move shows as lost only once its board is shown,
the room's delay behind), by the solver's worker processes, and never sent to a racer.  Also
the judging itself on positions whose answer is known."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from server_kit import (
    Client,
    InProcessServer,
    ManualClock,
    last_verdict,
    new_room,
    player,
    spectator,
    start_race,
    verdict_becomes,
)
from stalactites.analysis import board_verdict as board_verdict_module
from stalactites.analysis.board_verdict import board_verdict

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LOSING = ["t3-c1", "t3-c2"]  # by ones on ms:4: the first keeps a win, the second loses it


def test_a_board_is_won_while_a_win_remains_lost_once_none_does_and_an_undo_mends_it() -> None:
    def judged(*actions: str, step: str = "ones") -> str:
        return board_verdict("stalactites", DEAL, step, actions)

    assert judged() == "won"
    assert judged(LOSING[0]) == "won"
    assert judged(*LOSING) == "lost"
    assert judged(*LOSING, "undo") == "won"
    assert judged(step="choice") == "won"  # the step still open: winnable by either step
    assert judged("step:ones", *LOSING, step="choice") == "lost"


def test_a_worker_keeps_the_judges_of_recent_deals_within_its_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The least recently used judge goes past ``KEPT_DEALS`` judges, and past
    ``KEPT_POSITIONS`` decided positions in all (the judge in use always stays)."""
    monkeypatch.setattr(board_verdict_module, "_judges", OrderedDict())
    monkeypatch.setattr(board_verdict_module, "KEPT_DEALS", 2)
    judges = board_verdict_module._judges
    deals = [("stalactites", f"ms:{number}", "ones") for number in (4, 5, 6)]
    for deal in deals:
        assert board_verdict(*deal, ()) in ("won", "lost")
    assert list(judges) == deals[1:]  # ms:4's judge, the least recently used, went
    assert board_verdict(*deals[1], ()) in ("won", "lost")  # ms:5 used again: ms:6 goes next
    board_verdict(*deals[0], ())
    assert list(judges) == [deals[1], deals[0]]
    kept = judges[deals[0]].size()
    assert kept > 0
    monkeypatch.setattr(board_verdict_module, "KEPT_POSITIONS", kept - 1)
    board_verdict(*deals[2], ())  # a new judge: ms:5's goes (two deals), then the positions
    assert list(judges) == [deals[2]]  # are counted, before its verdict: ms:4's are too many


async def pong(client: Client) -> None:
    """Everything the server queued for this client before now has been read."""
    await client.send(type="ping")
    await client.expect("pong")


def verdicts_in(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        frame
        for frame in frames
        if frame["type"] in ("board", "board_verdict") or frame.get("board_verdicts") is not None
    ]


async def test_a_losing_move_shows_lost_to_spectators_only_once_its_board_is_shown(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    options = {"deal": DEAL, "step": "ones", "seats": 2, "countdown_s": 0, "undo": True}
    room_id = await new_room(any_server.url, time_limit_s=600, **options)  # 30 s behind
    ann, bob = [await player(any_server, room_id, name) for name in ("Ann", "Bob")]
    watcher = await spectator(any_server, room_id)  # before the start: no boards, no verdicts
    assert watcher.frames[0]["boards"] == {} and watcher.frames[0]["board_verdicts"] == {}
    await start_race(ann, bob)
    await verdict_becomes(watcher, ann.you, "won")  # the deal, judged once the race is on
    await verdict_becomes(watcher, bob.you, "won")
    for index, move in enumerate(LOSING):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    # Ann can no longer win, but spectators see her board as dealt: still winnable.
    late = await spectator(any_server, room_id)
    assert late.frames[0]["board_verdicts"] == {ann.you: "won", bob.you: "won"}
    await pong(watcher)
    assert last_verdict(watcher, ann.you) == "won"
    assert not any(frame["type"] == "board" for frame in watcher.frames)
    clock.advance(31)
    moves = [(await watcher.expect("board", player_id=ann.you))["move"] for _ in LOSING]
    assert moves == LOSING
    await verdict_becomes(watcher, ann.you, "lost")
    await verdict_becomes(late, ann.you, "lost")
    assert last_verdict(watcher, bob.you) == "won"
    fresh = await spectator(any_server, room_id)
    assert fresh.frames[0]["board_verdicts"] == {ann.you: "lost", bob.you: "won"}
    # An undo back to a winnable board mends it, again the delay behind.
    await ann.send(type="undo", id="a-undo")
    assert (await ann.answer("a-undo"))["type"] == "accepted"
    await pong(watcher)
    assert last_verdict(watcher, ann.you) == "lost"
    clock.advance(31)
    await watcher.expect("board", player_id=ann.you, move="undo")
    await verdict_becomes(watcher, ann.you, "won")
    for racer in (ann, bob):  # racers never get a verdict
        await pong(racer)
        assert verdicts_in(racer.frames) == [], racer.you


async def test_every_position_is_judged_once_however_many_watch_it(
    server: InProcessServer, clock: ManualClock
) -> None:
    options = {"deal": DEAL, "step": "ones", "seats": 2, "countdown_s": 0}
    room_id = await new_room(server.url, time_limit_s=600, **options)
    ann, bob = [await player(server, room_id, name) for name in ("Ann", "Bob")]
    await start_race(ann, bob)
    watchers = [await spectator(server, room_id) for _ in range(3)]
    for watcher in watchers:
        await verdict_becomes(watcher, ann.you, "won")
    for index, move in enumerate(LOSING):
        await ann.move(f"a{index}", move)
        await bob.move(f"b{index}", move)  # the same boards: the same positions
    clock.advance(31)
    for watcher in watchers:
        await verdict_becomes(watcher, ann.you, "lost")
        await verdict_becomes(watcher, bob.you, "lost")
    fanout = server.app.state.process.room_fanout
    (hooks,) = [stream.hooks for stream in fanout.streams() if stream.stream_id == room_id]
    assert hooks.boards is not None
    assert hooks.boards.verdicts.judged == 2  # the deal, and the lost board (once for both)
