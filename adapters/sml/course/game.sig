(* The GAME signature of the 15-150 games homeworks (S12 HW09, S14 HW11), as the handouts
   give it: the player, outcome and status datatypes, an estimate structure, and the state,
   moves, status, player, make_move, estimate, and the printing and parsing a referee needs.
   A stand-in for the course's own game.sig and est.sig. *)

signature EST =
sig
  type est
  val minnie_wins : est
  val maxie_wins : est
  (* a guess: positive is good for Maxie; 0 is the draw *)
  val guess : int -> est
  val compare : est * est -> order
  val toString : est -> string
end

structure Est :> EST =
struct
  datatype est = MinnieWins | Guess of int | MaxieWins
  val minnie_wins = MinnieWins
  val maxie_wins = MaxieWins
  val guess = Guess
  fun rank MinnieWins = 0
    | rank (Guess _) = 1
    | rank MaxieWins = 2
  fun compare (Guess a, Guess b) = Int.compare (a, b)
    | compare (a, b) = Int.compare (rank a, rank b)
  fun toString MinnieWins = "Minnie wins!"
    | toString MaxieWins = "Maxie wins!"
    | toString (Guess 0) = "It's a draw!"
    | toString (Guess n) = "Guess: " ^ Int.toString n
end

signature GAME =
sig
  datatype player = Minnie | Maxie
  datatype outcome = Winner of player | Draw
  datatype status = Over of outcome | In_play

  structure Est : EST

  type state
  type move

  val start : state
  (* REQUIRES: status s = In_play. ENSURES: moves s is not empty *)
  val moves : state -> move Seq.seq
  val status : state -> status
  val player : state -> player
  (* REQUIRES: m is in moves s *)
  val make_move : state * move -> state
  val estimate : state -> Est.est

  val move_to_string : move -> string
  val state_to_string : state -> string
  val parse_move : state -> string -> move option
end

signature CONNECT4_BOARD_SPEC =
sig
  val num_cols : int
  val num_rows : int
end

(* The layout of a Riskless board (S14 HW11, section 4): the territories' names, each one's
   neighbours in order, where Minnie and Maxie start, the armies a territory can hold, and
   the army total that wins. *)
signature MAP =
sig
  val territories : string Seq.seq
  val roads : int Seq.seq Seq.seq
  val min_start : int
  val max_start : int
  val max_terri : int
  val max_units : int
end
