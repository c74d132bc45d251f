(* gametrace's driver for one 15-150 term's game: the GAME of CMU-Q Fall 2014's course folder
   (HW09 Connect 4), long called "Spring 2012" here (probe protocol 1; docs/probe-protocol.md).
   adapters/sml/gametrace-game.sml drives every term it knows, choosing by trying.

   GametraceGame (G) speaks the protocol over stdin and stdout for any structure G matching
   that GAME signature (`datatype est = Definitely of outcome | Guess of int`,
   `move_toString`, `state_toString`), using only that signature, `Seq.length`,
   `Seq.nth i s` (index first, as the course's library has it) and the Basis library. Load
   it after the course's support code and the student's file, then apply it and call main,
   as run-connect4.sml does:

     sml <the course's files, or adapters/sml/s12/course/*> connect4.sml \
         adapters/sml/s12/gametrace-game.sml adapters/sml/s12/run-connect4.sml

   The course's contract is kept: `moves` and `estimate` assume the game is in play, so at a
   finished position the driver never calls them (it answers no moves, and the outcome's own
   estimate). Every answer is one line `@gt <JSON>`; whatever else is printed (SML/NJ's
   messages, the student's prints) gametrace ignores. An exception the game raises is
   answered as {"raised": "Match (connect4.sml:40.5-42.30)"} and the conversation goes on. *)

functor GametraceGame (G : GAME) =
struct
  fun json s =
      let
        fun esc #"\"" = "\\\""
          | esc #"\\" = "\\\\"
          | esc #"\n" = "\\n"
          | esc #"\r" = "\\r"
          | esc #"\t" = "\\t"
          | esc c =
              if Char.ord c < 32 then
                "\\u00" ^ StringCvt.padLeft #"0" 2 (Int.fmt StringCvt.HEX (Char.ord c))
              else String.str c
      in "\"" ^ String.translate esc s ^ "\"" end

  fun answer s = (print ("@gt " ^ s ^ "\n"); TextIO.flushOut TextIO.stdOut)

  fun player G.Maxie = "Maxie"
    | player G.Minnie = "Minnie"

  fun status G.In_play = json "in_play"
    | status (G.Over G.Draw) = json "draw"
    | status (G.Over (G.Winner p)) = "{\"winner\":" ^ json (player p) ^ "}"

  (* REQUIRES status s = In_play, as the course's `moves` does *)
  fun movesOf s =
      let val ms = G.moves s
      in List.tabulate (Seq.length ms, fn i => Seq.nth i ms) end

  fun inPlay s = case G.status s of G.In_play => true | G.Over _ => false

  fun list items = "[" ^ String.concatWith "," items ^ "]"

  (* The positions played through, the current one first. *)
  val here : G.state list ref = ref []

  fun find s name =
      if inPlay s then List.find (fn m => G.move_toString m = name) (movesOf s) else NONE

  (* Printed here, not by the student's est_toString, so that any spelling of it compares. *)
  fun estText (G.Definitely (G.Winner G.Maxie)) = "Maxie wins!"
    | estText (G.Definitely (G.Winner G.Minnie)) = "Minnie wins!"
    | estText (G.Definitely G.Draw) = "It's a draw!"
    | estText (G.Guess n) = Int.toString n

  fun estimate s =
      case G.status s of
        G.In_play => estText (G.estimate s)
      | G.Over outcome => estText (G.Definitely outcome)

  fun request line =
      let
        val line = if String.isSuffix "\n" line
                   then String.substring (line, 0, size line - 1) else line
        val (what, arg) =
            case CharVector.findi (fn (_, c) => c = #" ") line of
              SOME (i, _) => (String.substring (line, 0, i), String.extract (line, i + 1, NONE))
            | NONE => (line, "")
        fun current () = case !here of s :: _ => s | [] => raise Fail "no game: start first"
      in
        case what of
          "start" =>
            if arg = "" then (here := [G.start]; json "ok")
            else "{\"error\":\"the GAME signature has no way to set up a position\"}"
        | "moves" =>
            let val s = current ()
            in if inPlay s then list (List.map (json o G.move_toString) (movesOf s)) else "[]" end
        | "play" =>
            (case find (current ()) arg of
               SOME m => (here := G.make_move (current (), m) :: !here; json "ok")
             | NONE => "{\"error\":" ^ json ("no move named " ^ arg) ^ "}")
        | "undo" =>
            (case !here of
               _ :: (rest as _ :: _) => (here := rest; json "ok")
             | _ => "{\"error\":\"nothing to undo\"}")
        | "status" => status (G.status (current ()))
        | "player" => json (player (G.player (current ())))
        | "estimate" => json (estimate (current ()))
        | "show" => json (G.state_toString (current ()))
        | "parse" =>
            (case G.parse_move (current ()) arg of
               SOME m => json (G.move_toString m)
             | NONE => "null")
        | _ => "{\"error\":" ^ json ("unknown request " ^ what) ^ "}"
      end

  fun raised e =
      "{\"raised\":" ^ json (General.exnName e ^ ": " ^ General.exnMessage e) ^ "}"

  fun loop () =
      case TextIO.inputLine TextIO.stdIn of
        NONE => ()
      | SOME "quit\n" => ()
      | SOME line => (answer (request line handle e => raised e); loop ())

  fun main () =
      (answer "{\"protocol\":1,\"driver\":\"sml-game\",\"course\":\"15-150 CMU-Q F14\"}";
       loop ();
       OS.Process.exit OS.Process.success)
end
