(* A stand-in for the signatures of 15-150 Fall 2013's games support code (HW11: Riskless; long
   called "Spring 2014" here),
   as the course declares them: EST (an estimate's type, the two wins, the draw, guesses,
   their order and printing), GAME (the three datatypes, `structure Est : EST`,
   `move_to_string`, `state_to_string`, `parse_move`), MAP (a Riskless board: each
   territory's name and neighbours), and the course's `Estimate`, whose estimates are ints. *)

signature EST =
sig
  type est
  val minnie_wins : est
  val maxie_wins : est
  val draw : est
  val guess : est -> est
  val compare : est * est -> order
  val toString : est -> string
end

(* The course's estimates: an int, the wins the extreme ints, and 0 the draw (so a guess of
   0 prints as the draw, as the handout's traces show). Transparent, as the course has it:
   a student's estimator may build its guesses with int arithmetic. *)
structure Estimate : EST =
struct
  type est = int
  val minnie_wins = valOf Int.minInt
  val maxie_wins = valOf Int.maxInt
  val draw = 0
  fun guess x = x
  val compare = Int.compare
  fun toString n =
      if n = minnie_wins then "Minnie wins!"
      else if n = maxie_wins then "Maxie wins!"
      else if n = draw then "It's a draw!"
      else "Guess: " ^ Int.toString n
end

signature GAME =
sig
  datatype player = Minnie | Maxie
  datatype outcome = Winner of player | Draw
  datatype status = Over of outcome | In_play

  structure Est : EST

  type state
  type move

  (* assuming the game is not over: a non-empty sequence of valid moves *)
  val moves : state -> move Seq.seq
  val status : state -> status
  val player : state -> player

  val start : state
  (* assumes the move is valid in that state *)
  val make_move : state * move -> state

  (* a guess's sign is absolute: positive is good for Maxie *)
  type est = Est.est
  (* assumes the state is in play *)
  val estimate : state -> est

  val move_to_string : move -> string
  val state_to_string : state -> string

  (* a single line, not newline terminated; NONE unless the move is valid in that state *)
  val parse_move : state -> string -> move option
end

signature MAP =
sig
  (* each territory's name and its neighbours' indices *)
  val board : (string * int Seq.seq) Seq.seq
  (* the board's picture, from each territory's printed contents *)
  val board_to_string : string Seq.seq -> string

  (* where Minnie and Maxie start *)
  val min_start : int
  val max_start : int

  (* the units that win, and the most one territory holds *)
  val max_units : int
  val max_terri : int
end
