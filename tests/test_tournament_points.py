"""Round points and standings: the formula in docs/tournaments.md, and the ranks."""

from __future__ import annotations

from stalactites.protocol.room import Standing
from stalactites.rooms.service import ROOM_ID
from stalactites.tournaments.points import (
    Line,
    Total,
    rank,
    round_points,
    round_time,
    score,
    totals,
)
from stalactites.tournaments.rounds import result_lines, round_room_id, tournament_of_room
from stalactites.tournaments.views import standing_rows


def test_a_round_scores_the_cards_on_the_foundations() -> None:
    assert round_points(17, "timeout", 300_000, 300_000) == 17
    assert round_points(30, "resigned", 12_000, 300_000) == 30
    assert round_points(9, "lost", 50_000, 300_000) == 9


def test_a_win_adds_a_point_for_every_full_ten_seconds_left() -> None:
    assert round_points(52, "won", 185_000, 300_000) == 52 + 11  # 115 s left
    assert round_points(52, "won", 190_000, 300_000) == 52 + 11  # exactly 110 s
    assert round_points(52, "won", 190_001, 300_000) == 52 + 10
    assert round_points(104, "won", 59_999, 60_000) == 104  # under 10 s left
    assert round_points(52, "won", 61_000, 60_000) == 52  # never below the cards


def test_a_round_adds_a_wins_time_or_else_the_whole_round() -> None:
    assert round_time("won", 42_000, 60_000) == 42_000
    assert round_time("resigned", 5_000, 60_000) == 60_000
    assert round_time("timeout", 60_000, 60_000) == 60_000


def test_standings_go_by_points_then_rounds_won_then_total_time() -> None:
    entrants = [("a", "Ann"), ("b", "Bob"), ("c", "Cat"), ("d", "Dan")]
    rounds = [
        [Line("a", 60, True, 50_000), Line("b", 60, False, 60_000), Line("c", 60, True, 40_000)],
        [Line("d", 70, False, 60_000)],
    ]
    table = [
        (t.player_id, t.points, t.rounds_won, t.total_time_ms) for t in totals(entrants, rounds)
    ]
    assert table == [
        ("d", 70, 0, 60_000),  # most points
        ("c", 60, 1, 40_000),  # a round won, and the faster win
        ("a", 60, 1, 50_000),
        ("b", 60, 0, 60_000),
    ]


def test_equal_standings_are_kept_in_the_order_a_sorted_set_reads_them_back() -> None:
    """Equal standings go by player id, highest first (as Redis's ZREVRANGE and the memory
    store read them), whatever the order of entry: the standings an event tells are those a
    view reads back."""
    level = [[Line("a", 61, True, 53)], [Line("b", 61, True, 53)], [Line("c", 5, False, 9)]]
    for entrants in ([("a", "Ann"), ("b", "Bob"), ("c", "Cat")], [("b", "Bob"), ("a", "Ann")]):
        rows = standing_rows(totals(entrants, level))
        assert [row.player_id for row in rows][:2] == ["b", "a"]
        assert rows[0].score == rows[1].score


def test_equal_standings_share_a_rank_and_the_next_rank_skips() -> None:
    level = [score(Total("a", "A", 10, 1, 5)), score(Total("b", "B", 10, 1, 5))]
    assert level[0] == level[1]
    assert rank([*level, score(Total("c", "C", 3))]) == [1, 1, 3]
    assert rank([]) == []


def test_the_sort_score_is_exact_for_the_largest_tournament() -> None:
    most = Total("a", "A", points=20 * (104 + 360), rounds_won=20, total_time_ms=0)
    assert score(most) < 2**53
    slower = Total("a", "A", points=5, rounds_won=1, total_time_ms=20 * 3_600_000)
    assert score(slower) < score(Total("a", "A", points=5, rounds_won=1, total_time_ms=0))
    assert score(Total("a", "A", points=6)) > score(Total("a", "A", points=5, rounds_won=20))


def test_a_round_room_is_traced_back_to_its_tournament() -> None:
    for tournament_id in ("abcdefghijkl", "a-r1-b_cd-r2", "Zz9_-r-x-_Zz"):  # 12 characters
        room_id = round_room_id(tournament_id, 20)
        assert ROOM_ID.fullmatch(room_id)  # a room id the rooms accept
        assert tournament_of_room(room_id) == tournament_id
    assert tournament_of_room("Xk2_h8aP0qLm") is None  # an ordinary room
    assert tournament_of_room("abc-r1-12345") is None
    assert tournament_of_room("abc-rx-123456") is None


def standing(name: str, place: int, cards: int, status: str = "resigned") -> Standing:
    return Standing(
        player_id=name,
        name=name,
        place=place,
        status=status,  # type: ignore[arg-type]
        foundation_cards=cards,
        moves=0,
        elapsed_ms=60_000,
    )


def test_a_rounds_places_go_by_points_and_equal_points_share_a_place() -> None:
    # The room placed them 1, 2, 3 (by when they stopped); the round goes by points.
    room = [standing("ann", 1, 4), standing("bob", 2, 9), standing("cy", 3, 4)]
    lines = result_lines(room, round_ms=60_000)
    assert [(line.name, line.place, line.points) for line in lines] == [
        ("bob", 1, 9),
        ("ann", 2, 4),
        ("cy", 2, 4),
    ]
    level = result_lines([standing("ann", 2, 4), standing("bob", 2, 4)], round_ms=60_000)
    assert [line.place for line in level] == [1, 1]
