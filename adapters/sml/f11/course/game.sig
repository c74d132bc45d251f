(* A stand-in for the 15-150 Fall 2011 games support code's GAME signature (HW10: Connect 4),
   in that term's order: the estimate is a datatype inside GAME, moves and states print with
   `move_to_string` and `state_to_string`, there are no `*_eq` functions; with the handout's
   CONNECT4_BOARD_SPEC. *)

signature GAME =
sig
  datatype player = Minnie | Maxie
  datatype outcome = Winner of player | Draw
  datatype status = Over of outcome | In_play

  type state
  type move

  (* assumes the game is not Over; at least one move *)
  val moves : state -> move Seq.seq
  val status : state -> status
  val player : state -> player
  val start : state
  val make_move : (state * move) -> state

  datatype est = Definitely of outcome | Guess of int
  val estimate : state -> est

  val move_to_string : move -> string
  val state_to_string : state -> string
  (* a single line, not newline terminated *)
  val parse_move : state -> string -> move option
end

signature CONNECT4_BOARD_SPEC =
sig
  val num_cols : int
  val num_rows : int
end
