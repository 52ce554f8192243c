"""An arena's rules against the written table (docs/tournaments.md, "Arenas"): points by place,
a loss, streaks on fire, quick resignations, berserk, ghosts, held runs; pairing by score,
never back to back with the same opponent while others are free, only those present;
pausing; a race scored once; a pairing whose room never came undone."""

from __future__ import annotations

from stalactites.arenas import state
from stalactites.arenas.schedule import parse
from stalactites.arenas.state import Arena, ArenaOutcome, ArenaSettings
from stalactites.engine import GameName
from stalactites.ghosts.service import ghost_room
from stalactites.rooms.ghost_seat import GhostSeat
from stalactites.rooms.settings import RoomSettings

START = 1_000_000


def _arena(players: int, seats: int = 2) -> Arena:
    settings = ArenaSettings(
        name="t",
        game=GameName.STALACTITES,
        duration_min=60,
        time_limit_s=300,
        seats=seats,
        starts_ms=START,
    )
    arena = Arena(arena_id="a-t", settings=settings)
    for number in range(players):
        joined = state.join(arena, f"p{number}", f"P{number}", 1500 + number, START + number)
        assert joined is not None
        arena = joined
    return arena


def _outcome(player_id: str, place: int, **more: object) -> ArenaOutcome:
    fields: dict[str, object] = {
        "won": place == 1,
        "cleared": place == 1,
        "resigned_early": False,
        "held": False,
        "opponents_rating": 1500,
        "opponents": 1,
    }
    return ArenaOutcome(player_id=player_id, place=place, **(fields | more))  # type: ignore[arg-type]


def _race(arena: Arena, room: str, outcomes: list[ArenaOutcome]) -> Arena:
    present = {outcome.player_id for outcome in outcomes}
    scored = state.score(arena, room, outcomes, START + 5_000, present)
    assert scored is not None
    return scored


def test_points_follow_the_table_and_a_loss_scores_nothing() -> None:
    arena = _arena(4, seats=4)
    arena = _race(
        arena,
        "r1",
        [
            _outcome("p0", 1),
            _outcome("p1", 2, cleared=True),
            _outcome("p2", 3),  # not cleared: a loss
            _outcome("p3", 4, cleared=True),
        ],
    )
    assert [arena.entrants[f"p{n}"].score for n in range(4)] == [4, 3, 0, 1]
    assert state.PLACE_POINTS == {2: (2, 1), 3: (3, 2, 1), 4: (4, 3, 2, 1)}


def test_a_streak_of_two_wins_doubles_each_win_until_a_race_is_not_won() -> None:
    arena = _arena(2)
    scores = []
    for number, winner in enumerate(["p0", "p0", "p0", "p0", "p1", "p0"]):
        loser = "p1" if winner == "p0" else "p0"
        arena = _race(arena, f"r{number}", [_outcome(winner, 1), _outcome(loser, 2)])
        scores.append(arena.entrants["p0"].score)
    assert scores == [2, 4, 8, 12, 12, 14]  # 2, 2, then doubled (fire) until p1's win
    assert arena.entrants["p0"].streak == 1 and not arena.entrants["p0"].fire


def test_a_quick_resignation_scores_nothing_and_breaks_the_streak() -> None:
    arena = _arena(2)
    for number in range(2):
        arena = _race(arena, f"r{number}", [_outcome("p0", 1), _outcome("p1", 2)])
    assert arena.entrants["p0"].fire
    arena = _race(
        arena,
        "r2",
        [_outcome("p0", 1, won=False, resigned_early=True), _outcome("p1", 2, cleared=True)],
    )
    entrant = arena.entrants["p0"]
    assert (entrant.score, entrant.streak, entrant.fire) == (4, 0, False)
    assert arena.entrants["p1"].score == 1


def _seated(arena: Arena, room: str) -> Arena:
    """p0 and p1 paired and seated in ``room``."""
    paired = state.pair(arena, START + 1, [room], {"p0", "p1"})
    assert paired is not None
    seated = state.seat(paired[0], room, room, {"p0": "t0", "p1": "t1"})
    assert seated is not None
    return seated


def test_a_won_berserk_race_earns_a_point_more_after_the_doubling() -> None:
    arena = _arena(2)
    scores = []
    for room in ("r1", "r2", "r3"):
        arena = _seated(arena, room)
        for player in ("p0", "p1") if room == "r1" else ("p0",):
            went = state.go_berserk(arena, player, room)
            assert went is not None
            arena = went
        assert state.go_berserk(arena, "p0", room) is None  # berserk already
        assert state.go_berserk(arena, "p0", "elsewhere") is None  # not their race
        arena = _race(arena, room, [_outcome("p0", 1), _outcome("p1", 2)])
        scores.append((arena.entrants["p0"].score, arena.entrants["p1"].score))
    # 2 + 1; 2 + 1 (the streak is not on fire yet); 2 × 2 + 1.  A berserk loss scores 0.
    assert scores == [(3, 0), (6, 0), (11, 0)]
    assert (arena.entrants["p0"].berserks, arena.entrants["p1"].berserks) == (3, 1)
    assert arena.entrants["p0"].berserk == []  # (scored: no race kept)


def test_a_lone_entrant_races_a_ghost_after_20_s_for_half_points() -> None:
    arena = _arena(3)
    present = {"p0", "p1", "p2"}
    paired = state.pair(arena, START + 10, ["m1"], present)
    assert paired is not None
    arena = paired[0]  # (p2 and p1 paired, by rating: p0 is left alone)
    assert state.lone(arena, START + state.GHOST_AFTER_MS - 1, present) == []
    assert state.lone(arena, START + state.GHOST_AFTER_MS, present) == ["p0"]
    assert state.lone(arena, START + state.GHOST_AFTER_MS, {"p1", "p2"}) == []  # (gone)
    pended = state.pend(arena, "p0", "g1", START + state.GHOST_AFTER_MS)
    assert pended is not None and state.pend(pended, "p0", "g2", START) is None  # not free
    seated = state.seat(pended, "g1", "ghost-room", {"p0": "t0"})
    assert seated is not None and seated.entrants["p0"].room_id == "ghost-room"
    won = _race(seated, "ghost-room", [_outcome("p0", 1, ghost=True)])
    assert (won.entrants["p0"].score, won.entrants["p0"].wins) == (1, 1)  # 2, halved
    second = _race(won, "ghost-2", [_outcome("p0", 2, cleared=True, ghost=True)])
    assert second.entrants["p0"].score == 1  # 1, halved: 0
    assert second.entrants["p0"].runs == ["ghost-room", "ghost-2"]


def test_a_race_over_frees_its_racers_at_once_and_the_end_waits_for_its_points() -> None:
    paired = state.pair(_arena(2), START + 10, ["m1"], {"p0", "p1"})
    assert paired is not None
    arena = state.seat(paired[0], "m1", "r1", {"p0": "t0", "p1": "t1"}) or paired[0]
    over = state.race_over(arena, "r1", ["p0", "p1"], START + 5_000, {"p1"})
    assert over is not None
    gone, here = over.entrants["p0"], over.entrants["p1"]
    assert gone.paused and gone.free_since is None  # no socket left: paused
    assert not here.paused and here.free_since == START + 5_000 and here.last == ["p0"]
    assert state.race_over(over, "r1", ["p0", "p1"], START + 6_000, {"p1"}) is None  # once
    end = START + 3_600_000
    assert not state.ending(over, end)  # its points are still to come
    scored = _race(over, "r1", [_outcome("p0", 1), _outcome("p1", 2)])
    assert scored.entrants["p0"].score == 2 and state.ending(scored, end)
    assert scored.entrants["p1"].free_since == START + 5_000  # (freed at the end, not again)


def test_a_held_run_scores_nothing_until_cleared_and_a_race_is_scored_once() -> None:
    arena = _arena(2)
    outcomes = [_outcome("p0", 1, held=True), _outcome("p1", 2)]
    arena = _race(arena, "r1", outcomes)
    assert (arena.entrants["p0"].score, arena.entrants["p0"].held) == (0, 1)
    assert state.score(arena, "r1", outcomes, START + 9_000, {"p0", "p1"}) is None
    assert state.release(arena, "p1", "r1") is None  # (not held)
    released = state.release(arena, "p0", "r1")
    assert released is not None
    assert (released.entrants["p0"].score, released.entrants["p0"].held) == (2, 0)
    assert state.release(released, "p0", "r1") is None  # counted once


def test_pairing_is_by_score_and_avoids_the_last_opponent_while_others_are_free() -> None:
    arena = _arena(4)
    everyone = set(arena.entrants)
    paired = state.pair(arena, START + 10, ["m1", "m2"], everyone)
    assert paired is not None
    arena, rooms = paired
    assert rooms == [["p3", "p2"], ["p1", "p0"]]  # by rating at 0 points, the highest first
    arena = state.seat(arena, "m1", "r2", {"p2": "t2", "p3": "t3"}) or arena
    arena = state.seat(arena, "m2", "r1", {"p0": "t0", "p1": "t1"}) or arena
    assert arena.entrants["p0"].room_id == "r1" and not arena.pending
    arena = _race(arena, "r1", [_outcome("p1", 1), _outcome("p0", 2)])
    arena = _race(arena, "r2", [_outcome("p3", 1), _outcome("p2", 2)])
    paired = state.pair(arena, START + 20, ["m3", "m4"], everyone)
    assert paired is not None
    rooms = sorted(map(sorted, paired[1]))
    assert rooms == [["p0", "p2"], ["p1", "p3"]]  # the winners together, never back to back
    two = _arena(2)
    two = _race(two, "r1", [_outcome("p0", 1), _outcome("p1", 2)])
    paired = state.pair(two, START + 20, ["m5"], {"p0", "p1"})
    assert paired is not None and sorted(paired[1][0]) == ["p0", "p1"]  # nobody else: again
    arena = _arena(4)  # two of four free, each other's last opponents, the others racing
    arena = state.pair(arena, START + 10, ["m1", "m2"], everyone)[0]  # type: ignore[index]
    arena = state.seat(arena, "m1", "r1", {"p2": "t2", "p3": "t3"}) or arena
    arena = state.seat(arena, "m2", "r2", {"p0": "t0", "p1": "t1"}) or arena
    arena = _race(arena, "r2", [_outcome("p0", 1), _outcome("p1", 2)])
    assert state.pair(arena, START + 6_000, ["m3"], everyone) is None  # a moment: p2, p3 race
    later = state.pair(arena, START + 5_000 + state.REMATCH_WAIT_MS, ["m3"], everyone)
    assert later is not None and sorted(later[1][0]) == ["p0", "p1"]


def test_only_entrants_present_and_not_paused_are_paired() -> None:
    arena = _arena(3)
    arena = state.set_paused(arena, "p2", True, START + 1) or arena
    assert state.pair(arena, START + 10, ["m1"], {"p0"}) is None
    paired = state.pair(arena, START + 10, ["m1"], {"p0", "p1", "p2"})
    assert paired is not None and sorted(paired[1][0]) == ["p0", "p1"]
    assert state.pair(_arena(2), START - 1, ["m"], {"p0", "p1"}) is None  # not started
    assert state.pair(_arena(2), START + 3_600_000, ["m"], {"p0", "p1"}) is None  # over


def test_a_pairing_whose_room_never_came_is_undone_and_the_end_waits_for_races() -> None:
    arena = _arena(2)
    paired = state.pair(arena, START + 10, ["m1"], {"p0", "p1"})
    assert paired is not None
    arena = paired[0]
    assert not state.ending(arena, START + 3_600_000)  # a pairing under way
    arena = state.unseat(arena, "m1", START + 20) or arena
    assert arena.entrants["p0"].free_since == START + 20 and not arena.pending
    assert state.ending(arena, START + 3_600_000)


def test_the_schedule_reads_its_lines_and_names_each_slot_once() -> None:
    [hourly, daily] = parse("stalactites/choice@60/50, squadron@1440/60")
    assert (hourly.game, hourly.step, hourly.every_min, hourly.duration_min) == (
        "stalactites",
        "choice",
        60,
        50,
    )
    assert daily.name() == "Daily Squadron"
    assert hourly.arena_id(1_796_385_600_000) == "s-stalactites-choice-60-202612041200"
    for bad in ("chess@60/50", "squadron/ones@60/50", "stalactites@60/90"):
        try:
            parse(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_a_ghost_race_of_an_arena_run_is_that_arenas_race_only_when_the_arena_makes_it() -> None:
    source = RoomSettings(
        game=GameName.STALACTITES,
        step="choice",
        deal="ms:7",
        seats=2,
        time_limit_s=300,
        undo=True,
        countdown_s=3,
        certified=True,
        solution=None,
        arena="a-t",
    )
    ghost = GhostSeat(
        seat_id="g.1",
        name="Bob",
        source_room_id="r1",
        source_player_id="p.1",
        status="won",
        elapsed_ms=30_000,
        foundation_cards=52,
        actions=(),
    )
    assert ghost_room(source, ghost).arena is None  # (the quick races' fallback, a run's page)
    assert ghost_room(source, ghost, "a-t").arena == "a-t"
