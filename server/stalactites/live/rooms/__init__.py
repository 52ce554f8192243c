"""What a room's stream does in this process: its hooks (:mod:`.room_stream`: the deadline
timer, spectators' boards, racers' boards), spectators' delayed boards and their verdicts
(:mod:`.spectator_boards`, :mod:`.board_verdicts`), their leases and count
(:mod:`.spectator_count`), batched progress in large rooms (:mod:`.progress_batch`) and a
seat's other sockets kept in step (:mod:`.own_sync`)."""
