// @ts-check
// A tournament round's race page follows its tournament: it keeps the tournament socket
// open beside the room's, so the page knows the round ("Round 2 of 3 · Cup"), the break's
// countdown and the standings after each round, and when the next round starts it takes the
// entrant to that round's board by itself (their tournament token is their seat there).

import { Connection } from "../shared/connection.js";
import { saveRoomSeat } from "../shared/storage.js";

export class TournamentFollow {
  /** onChange(tournament) is called whenever what is known of the tournament changes. */
  constructor(tournamentId, roomId, seat, onChange) {
    this.id = tournamentId;
    this.roomId = roomId;
    this.seat = seat;
    this.onChange = onChange;
    this.data = null;
    this.conn = new Connection(`/ws/tournaments/${encodeURIComponent(tournamentId)}`, {
      hello: () => ({ type: "hello", token: seat.token }),
      onFrame: (f) => this.frame(f),
      onState: () => {},
    });
    this.conn.connect();
  }

  close() {
    this.conn.close();
  }

  frame(f) {
    if (f?.type === "welcome") this.data = f.tournament ?? this.data;
    if (!this.data) return;
    const tm = this.data;
    if (f.type === "round_started") {
      const current = { round: f.round, room_id: f.room_id, ends_at: f.ends_at };
      Object.assign(tm, { status: "running", round: f.round, current_round: current });
      Object.assign(tm, { break_ends_at: null });
    } else if (f.type === "round_finished") {
      const last = f.round >= tm.rounds;
      Object.assign(tm, { status: last ? "finished" : "break", current_round: null });
      if (f.standings) tm.standings = f.standings;
      tm.break_ends_at = last ? null : f.ended_at + (tm.break_s ?? 0) * 1000;
    } else if (f.type === "standings") {
      tm.standings = f.standings;
    } else if (f.type === "finished") {
      Object.assign(tm, { status: "finished", standings: f.standings });
    }
    this.onChange(tm);
    this.followRound();
  }

  /** A round other than this page's is in play: go to its board. */
  followRound() {
    const current = this.data?.current_round;
    if (this.data?.status !== "running" || !current || current.room_id === this.roomId) return;
    saveRoomSeat(current.room_id, { ...this.seat, tournament: this.id });
    location.hash = `#/room/${current.room_id}`;
  }
}
