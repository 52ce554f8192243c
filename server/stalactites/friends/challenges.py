"""Challenges: one player asks another to race; accepted, both are seated in a new private
room (a quick race's: ready once connected, the usual countdown).

A challenge is one document in the store whose status moves once, from ``open``, by compare
and set: to ``accepted`` (by the one challenged, from any tab on any process: one acceptance
wins and makes the room, the others are answered ``not_open``), ``declined``, ``cancelled``
(by the challenger).  An open challenge not answered within :data:`CHALLENGE_S` has expired
(read so, never written).  Each change is sent to both players' tabs; the seat's token goes
to its own player only.  At most one open challenge from a player to a player, and
:data:`OPEN_MAX` open from a player.  A challenge to a player who blocks the challenger is
taken and never shown to them (blocking is silent): it expires.  A rated challenge needs both
players in the same pool (bots race bots, see docs/fair-play.md).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable

from ..clock import Clock
from ..engine import GameName
from ..matchmaking import Matchmaker
from ..protocol.friends import ChallengeBody, ChallengeFrame, ChallengeStatus, ChallengeView
from ..store.friends.base import FriendsStore
from ..store.players.base import PlayerRecord
from .follows import Follows, FriendsError
from .notes import Notes

__all__ = ["CHALLENGE_S", "OPEN_MAX", "Challenges"]

log = logging.getLogger(__name__)

CHALLENGE_S = 60  # an open challenge expires after this long
OPEN_MAX = 5  # open challenges one player may have sent

PoolOf = Callable[[str], Awaitable[str]]


class Challenges:
    def __init__(
        self,
        store: FriendsStore,
        follows: Follows,
        notes: Notes,
        matchmaker: Matchmaker,
        pool_of: PoolOf,
        clock: Clock,
    ) -> None:
        self.store, self.follows, self.notes = store, follows, notes
        self.matchmaker, self.pool_of, self.clock = matchmaker, pool_of, clock

    def _read(self, document: str) -> ChallengeView:
        view = ChallengeView.model_validate_json(document)
        if view.status == "open" and view.expires_ms <= self.clock.now_ms():
            return view.model_copy(update={"status": "expired"})
        return view

    async def load(self, challenge_id: str) -> ChallengeView:
        document = await self.store.challenge(challenge_id)
        if document is None:
            raise FriendsError("not_found", f"no challenge {challenge_id!r}")
        return self._read(document)

    async def of(self, player_id: str) -> list[ChallengeView]:
        """The player's challenges, sent and received, still open, newest first (a challenge
        hidden by a block is not shown to the one who blocks)."""
        found = [
            self._read(one)
            for one in await self.store.challenges_of(player_id, self.clock.now_ms())
        ]
        shown = [
            view
            for view in found
            if view.status == "open"
            and (
                view.from_id == player_id or not await self.follows.blocks(player_id, view.from_id)
            )
        ]
        return sorted(shown, key=lambda view: view.created_ms, reverse=True)

    async def send(self, sender: PlayerRecord, body: ChallengeBody) -> ChallengeView:
        """A new open challenge.  ``own_challenge``, ``player_not_found``, ``already_open``
        (one from you to them is open: the message names it), ``too_many``, ``rated_pools``."""
        if body.player_id == sender.player_id:
            raise FriendsError("own_challenge", "you cannot challenge yourself")
        receiver = await self.follows.registered(body.player_id)
        if body.game == GameName.SQUADRON and body.step is not None:
            raise FriendsError("bad_message", "step: Squadron has no step")
        if not sender.registered:
            raise FriendsError("not_registered", "create an account to challenge players")
        pools = {await self.pool_of(sender.player_id), await self.pool_of(receiver.player_id)}
        if body.rated and len(pools) > 1:
            raise FriendsError(
                "rated_pools", "a rated race needs both players in one pool: bots race bots"
            )
        now = self.clock.now_ms()
        if await self.store.sent_count(sender.player_id, now) >= OPEN_MAX:
            raise FriendsError("too_many", f"you have {OPEN_MAX} open challenges already")
        step = body.step if body.game == GameName.STALACTITES else None
        view = ChallengeView(
            challenge_id="c." + secrets.token_hex(8),
            from_id=sender.player_id,
            from_name=sender.name,
            to_id=receiver.player_id,
            to_name=receiver.name,
            game=body.game,
            step=step,
            time_limit_s=body.time_limit_s,
            rated=body.rated,
            status="open",
            created_ms=now,
            expires_ms=now + CHALLENGE_S * 1000,
        )
        held = await self.store.open_challenge(
            view.challenge_id,
            sender.player_id,
            receiver.player_id,
            view.model_dump_json(),
            now,
            view.expires_ms,
        )
        if held is not None:
            raise FriendsError("already_open", f"your challenge {held} to them is open still")
        await self._tell(
            view, receiver_too=not await self.follows.blocks(receiver.player_id, sender.player_id)
        )
        return view

    async def accept(self, player: PlayerRecord, challenge_id: str) -> tuple[ChallengeView, str]:
        """Accept a challenge sent to you: the race's room is made, both seated; the view and
        your seat's token."""
        view = await self.load(challenge_id)
        if view.to_id != player.player_id or await self.follows.blocks(
            player.player_id, view.from_id
        ):
            raise FriendsError("not_found", f"no challenge {challenge_id!r} to you")
        self._open(view)
        accepted = view.model_copy(update={"status": "accepted"})
        if not await self.store.settle(challenge_id, "open", accepted.model_dump_json()):
            self._open(await self.load(challenge_id))  # (changed meanwhile: refused)
        await self.store.closed(view.from_id, view.to_id, challenge_id)
        try:
            room_id, tokens, _ = await self.matchmaker.open_race(
                view.game,
                view.step,
                [(view.from_id, view.from_name), (view.to_id, view.to_name)],
                view.rated,
                await self.pool_of(view.from_id) if view.rated else "",
                view.time_limit_s,
            )
        except Exception:  # (no room: the challenge is over, both told; it may be sent again)
            log.exception("challenge %s: its room was not made", challenge_id)
            dropped = view.model_copy(update={"status": "cancelled"})
            await self.store.settle(challenge_id, "accepted", dropped.model_dump_json())
            await self._tell(dropped, receiver_too=True)
            raise FriendsError("no_room", "the race could not be made; challenge again") from None
        raced = accepted.model_copy(update={"room_id": room_id})
        await self.store.settle(challenge_id, "accepted", raced.model_dump_json())
        for player_id, token in tokens.items():
            await self.notes.send(
                player_id, ChallengeFrame(type="challenge", challenge=raced, token=token)
            )
        return raced, tokens[player.player_id]

    async def answer(
        self, player: PlayerRecord, challenge_id: str, status: ChallengeStatus
    ) -> ChallengeView:
        """Decline (the one challenged) or cancel (the challenger) an open challenge."""
        view = await self.load(challenge_id)
        own = view.to_id if status == "declined" else view.from_id
        if own != player.player_id:
            raise FriendsError("not_found", f"no challenge {challenge_id!r} of yours")
        self._open(view)
        changed = view.model_copy(update={"status": status})
        if not await self.store.settle(challenge_id, "open", changed.model_dump_json()):
            self._open(await self.load(challenge_id))
        await self.store.closed(view.from_id, view.to_id, challenge_id)
        await self._tell(
            changed, receiver_too=not await self.follows.blocks(view.to_id, view.from_id)
        )
        return changed

    def _open(self, view: ChallengeView) -> None:
        if view.status != "open":
            raise FriendsError("not_open", f"the challenge is {view.status}")

    async def _tell(self, view: ChallengeView, receiver_too: bool) -> None:
        frame = ChallengeFrame(type="challenge", challenge=view)
        await self.notes.send(view.from_id, frame)
        if receiver_too:
            await self.notes.send(view.to_id, frame)
