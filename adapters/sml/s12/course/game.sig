(* A stand-in for the GAME signature of 15-150 CMU-Q Fall 2014's games support code (HW09: Connect 4;
   long called "Spring 2012" here),
   as the course declares it: the estimate is a datatype inside GAME (`Definitely` of an
   outcome, or a `Guess`), every type has a printer (`*_toString`) and an equality (`*_eq`),
   and `moves` requires a game that is not over. With the handout's CONNECT4_BOARD_SPEC. *)

signature GAME =
sig
  datatype player = Minnie | Maxie
  datatype outcome = Winner of player | Draw
  datatype status = Over of outcome | In_play
  datatype est = Definitely of outcome | Guess of int

  type state
  type move

  val player_toString : player -> string
  val outcome_toString : outcome -> string
  val status_toString : status -> string
  val est_toString : est -> string
  val move_toString : move -> string
  val state_toString : state -> string

  val player_eq : player * player -> bool
  val outcome_eq : outcome * outcome -> bool
  val status_eq : status * status -> bool
  val est_eq : est * est -> bool
  val move_eq : move * move -> bool
  val state_eq : state * state -> bool

  (* NONE for an invalid move, or a string holding a newline *)
  val parse_move : state -> string -> move option

  val start : state
  val status : state -> status
  val player : state -> player
  (* REQUIRES: status s <> Over _. ENSURES: at least one move *)
  val moves : state -> move Seq.seq
  (* REQUIRES: m is a valid move in s *)
  val make_move : state * move -> state
  (* assumes the state is in play; a guess's sign is absolute: positive is good for Maxie *)
  val estimate : state -> est
end

signature CONNECT4_BOARD_SPEC =
sig
  val num_cols : int
  val num_rows : int
end
