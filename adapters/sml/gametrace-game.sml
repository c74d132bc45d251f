(* gametrace's driver for a student's game (probe protocol 1; docs/probe-protocol.md).

   GametraceGame (G) speaks the protocol over stdin and stdout for any structure G : GAME,
   using only the GAME signature and the Basis library (moves' elements are reached with
   Seq.length and Seq.nth s i). Load it after the course's support code and the student's
   file, then apply it and call main, as run-connect4.sml does:

     sml sequence.sml game.sig ... connect4.sml gametrace-game.sml run-connect4.sml

   Every answer is one line `@gt <JSON>`; whatever else is printed (SML/NJ's messages, the
   student's prints) gametrace ignores. An exception the game raises is answered as
   {"raised": "Match (connect4.sml:40.5-42.30)"} and the conversation goes on. *)

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

  fun status (G.In_play) = json "in_play"
    | status (G.Over G.Draw) = json "draw"
    | status (G.Over (G.Winner p)) = "{\"winner\":" ^ json (player p) ^ "}"

  fun movesOf s =
      let val ms = G.moves s
      in List.tabulate (Seq.length ms, fn i => Seq.nth ms i) end

  fun list items = "[" ^ String.concatWith "," items ^ "]"

  (* The positions played through, the current one first. *)
  val here : G.state list ref = ref []

  fun find s name = List.find (fn m => G.move_to_string m = name) (movesOf s)

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
        | "moves" => list (List.map (json o G.move_to_string) (movesOf (current ())))
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
        | "estimate" => json (G.Est.toString (G.estimate (current ())))
        | "show" => json (G.state_to_string (current ()))
        | "parse" =>
            (case G.parse_move (current ()) arg of
               SOME m => json (G.move_to_string m)
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
      (answer "{\"protocol\":1,\"driver\":\"sml-game\"}";
       loop ();
       OS.Process.exit OS.Process.success)
end
