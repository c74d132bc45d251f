(* gametrace's driver for a 15-150 student's game, any term (probe protocol 1;
   docs/probe-protocol.md). Load it after the course's support code and the student's file,
   then the game's run file, which applies the student's functor:

     sml sources.cm adapters/sml/gametrace-game.sml adapters/sml/run-connect4.sml
     sml sources.cm adapters/sml/gametrace-game.sml adapters/sml/run-riskless.sml

   The course's GAME and Seq changed from term to term (docs/src/15150.md#the-course-libraries-term-by-term).
   So the driver first finds, by trying, which term's library it was loaded after: each
   term's profile below (how that term's GAME prints a move and a state, what an estimate
   is, in which order Seq.nth takes its arguments) is compiled against what is loaded, with
   the compiler's messages silenced, and the first that compiles is used. Its greeting
   says which ("course folder matches Fall 2011's GAME"). When none compiles, the greeting
   says so, with the nearest term and the names that differ, and the driver stops: nothing
   it cannot check is blamed on the student, and no compiler message of gametrace's own
   reads as theirs.

   The course's contract is kept: `moves` and `estimate` assume the game is in play, so at
   a finished position the driver never calls them (it answers no moves, and the outcome's
   own estimate). Every answer is one line `@gt <JSON>`; whatever else is printed (SML/NJ's
   messages, the student's prints) gametrace ignores. An exception the game raises is
   answered as {"raised": "Match ..."} and the conversation goes on.

   GAMETRACE_TERM=f11 (or s12, f13, f14q) skips the trying and uses that profile. *)

structure GametraceTerm =
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

  (* Compiles `lines` at the top level with the compiler's messages silenced: whether it
     compiled. What it binds stays bound. *)
  fun compiles lines =
      let
        val saved = !Control.Print.out
        val _ = Control.Print.out := {say = fn _ => (), flush = fn () => ()}
        val ok = (Backend.Interact.useStream (TextIO.openString (String.concatWith "\n" lines ^ ";\n"));
                  true)
                 handle _ => false
      in
        Control.Print.out := saved; ok
      end

  (* How Seq.nth takes its arguments. *)
  val indexFirst =
      ["structure GtSeq = struct",
       "  fun nth (i : int) (s : 'a Seq.seq) : 'a = Seq.nth i s",
       "  val length : 'a Seq.seq -> int = Seq.length",
       "end"]
  val seqFirst =
      ["structure GtSeq = struct",
       "  fun nth (i : int) (s : 'a Seq.seq) : 'a = Seq.nth s i",
       "  val length : 'a Seq.seq -> int = Seq.length",
       "end"]

  (* A GAME whose estimate is `datatype est = Definitely of outcome | Guess of int`; moves
     and states printed by the functions named. *)
  fun estDatatype (moveText, stateText) =
      ["functor GtView (G : GAME) = struct",
       "  val move_text : G.move -> string = G." ^ moveText,
       "  val state_text : G.state -> string = G." ^ stateText,
       "  fun outcome_text (G.Winner G.Maxie) = \"Maxie wins!\"",
       "    | outcome_text (G.Winner G.Minnie) = \"Minnie wins!\"",
       "    | outcome_text G.Draw = \"It's a draw!\"",
       "  fun est_text (G.Definitely oc) = outcome_text oc",
       "    | est_text (G.Guess n) = Int.toString n",
       "  fun estimate s = case G.status s of G.In_play => est_text (G.estimate s)",
       "                                    | G.Over oc => outcome_text oc",
       "  fun outcome s = case G.status s of G.In_play => NONE",
       "                                   | G.Over (G.Winner p) => SOME (SOME p)",
       "                                   | G.Over G.Draw => SOME NONE",
       "end"]

  (* A GAME with `structure Est : EST` (minnie_wins, maxie_wins, draw, toString). *)
  val estStructure =
      ["functor GtView (G : GAME) = struct",
       "  val move_text : G.move -> string = G.move_to_string",
       "  val state_text : G.state -> string = G.state_to_string",
       "  fun outcome_est (G.Winner G.Maxie) = G.Est.maxie_wins",
       "    | outcome_est (G.Winner G.Minnie) = G.Est.minnie_wins",
       "    | outcome_est G.Draw = G.Est.draw",
       "  fun estimate s = case G.status s of G.In_play => G.Est.toString (G.estimate s)",
       "                                    | G.Over oc => G.Est.toString (outcome_est oc)",
       "  fun outcome s = case G.status s of G.In_play => NONE",
       "                                   | G.Over (G.Winner p) => SOME (SOME p)",
       "                                   | G.Over G.Draw => SOME NONE",
       "end"]

  (* The terms whose support code is known (docs/src/15150.md): a key, the name a report
     gives, the profile, and the features that tell it from the others. *)
  val terms =
      [("f14q", "CMU-Q Fall 2014", "HW09 Connect 4; the project's s12 driver was written for it",
        indexFirst @ estDatatype ("move_toString", "state_toString"),
        ["move_toString", "state_toString", "est", "Draw", "nth i s"]),
       ("f13", "Fall 2013", "HW11 Riskless; the project's s14 driver was written for it",
        indexFirst @ estStructure,
        ["move_to_string", "state_to_string", "Est", "Draw", "nth i s"]),
       ("s12", "Spring or Fall 2012",
        "Fall 2011's GAME over the library as changed in Spring 2012; seen in student files only",
        indexFirst @ estDatatype ("move_to_string", "state_to_string"),
        ["move_to_string", "state_to_string", "est", "Draw", "nth i s"]),
       ("f11", "Fall 2011", "HW10 Connect 4",
        seqFirst @ estDatatype ("move_to_string", "state_to_string"),
        ["move_to_string", "state_to_string", "est", "Draw", "nth s i"])]

  (* Each feature, and the one line that compiles only where the loaded library has it. *)
  val features =
      [("move_toString", "functor GtProbe (G : GAME) = struct val _ = G.move_toString end"),
       ("move_to_string", "functor GtProbe (G : GAME) = struct val _ = G.move_to_string end"),
       ("state_toString", "functor GtProbe (G : GAME) = struct val _ = G.state_toString end"),
       ("state_to_string", "functor GtProbe (G : GAME) = struct val _ = G.state_to_string end"),
       ("est", "functor GtProbe (G : GAME) = struct val _ = (G.Guess 0, G.Definitely) end"),
       ("Est", "functor GtProbe (G : GAME) = struct val _ = G.Est.toString end"),
       ("Draw", "functor GtProbe (G : GAME) = struct val _ = G.Draw end"),
       ("nth i s", "val _ = fn (s : int Seq.seq) => (Seq.nth 0 s : int)"),
       ("nth s i", "val _ = fn (s : int Seq.seq) => (Seq.nth s 0 : int)"),
       ("MAP with max_turns", "functor GtProbe (M : MAP) = struct val _ = M.max_turns end"),
       ("MAP with mapID", "functor GtProbe (M : MAP) = struct val _ = M.mapID end")]

  fun describe "est" = "`datatype est = Definitely of outcome | Guess of int` in GAME"
    | describe "Est" = "`structure Est : EST` in GAME"
    | describe "Draw" = "`Draw` among the outcomes"
    | describe "nth i s" = "`Seq.nth i s` (the index first)"
    | describe "nth s i" = "`Seq.nth s i` (the sequence first)"
    | describe "MAP with max_turns" = "max_turns"
    | describe "MAP with mapID" = "mapID"
    | describe f = "`" ^ f ^ "`"

  (* The term chosen: (key, name), or the greeting that says why none fits. *)
  val chosen : (string * string) option ref = ref NONE
  val verdict : string ref = ref ""

  fun choose () =
      let
        val forced = OS.Process.getEnv "GAMETRACE_TERM"
        val candidates =
            case forced of
              SOME k => List.filter (fn (key, _, _, _, _) => key = k) terms
            | NONE => terms
      in
        case List.find (fn (_, _, _, profile, _) => compiles profile) candidates of
          SOME (key, term, detail, _, _) =>
            chosen := SOME (key, "the course folder matches " ^ term ^ "'s GAME and Seq ("
                                 ^ detail ^ ")"
                                 ^ (if isSome forced then "; GAMETRACE_TERM chose it" else ""))
        | NONE =>
            let
              val has = List.map (fn (f, probe) => (f, compiles [probe])) features
              fun holds f = List.exists (fn (g, ok) => g = f andalso ok) has
              val gameLoaded = compiles ["functor GtProbe (G : GAME) = struct end"]
              fun score (_, _, _, _, fs) = List.length (List.filter holds fs)
              val best =
                  List.foldl (fn (t, b) => case b of NONE => SOME t
                                                   | SOME u => if score t > score u then SOME t else b)
                             NONE terms
              (* What the folder has where the nearest term has something else. *)
              fun differences (_, term, _, _, fs) =
                  let
                    val missing = List.filter (not o holds) fs
                    val extra = List.filter (fn f => holds f andalso not (List.exists (fn g => g = f) fs)
                                                    andalso not (String.isPrefix "MAP" f))
                                            (List.map #1 features)
                    val maps = List.filter (fn f => String.isPrefix "MAP" f andalso holds f)
                                           (List.map #1 features)
                    fun all l = String.concatWith " and " (List.map describe l)
                  in
                    String.concatWith "; "
                      ((if null extra then [] else
                          ["it has " ^ all extra
                           ^ (if null missing then "" else " where " ^ term ^ " has " ^ all missing)])
                       @ (if null extra andalso not (null missing) then
                            ["it has no " ^ all missing ^ ", which " ^ term ^ " has"]
                          else [])
                       @ (if null maps then [] else
                            ["its MAP has " ^ all maps ^ ", which no known term's MAP has"]))
                  end
            in
              verdict :=
                (if not gameLoaded then
                   "no signature GAME is loaded: the command must load the course's support code (its sources.cm, or its game.sig) before gametrace's driver"
                 else
                   case best of
                     SOME (t as (_, term, _, _, _)) =>
                       "this course folder's GAME and Seq match no 15-150 term gametrace knows (Fall 2011, Spring or Fall 2012, Fall 2013, CMU-Q Fall 2014); nearest " ^ term ^ ": " ^ differences t ^ "; its game cannot be driven, and nothing of it was judged"
                   | NONE => "no term")
            end
      end

  val () = choose ()

  (* No term fits: say so in the greeting and stop, before any of gametrace's own code fails
     to compile against the folder's library. *)
  val () =
      case !chosen of
        SOME _ => ()
      | NONE =>
          (print ("@gt {\"protocol\":1,\"driver\":\"sml-game\",\"unusable\":{\"status\":\"error\",\"why\":"
                  ^ json (!verdict) ^ "}}\n");
           TextIO.flushOut TextIO.stdOut;
           OS.Process.exit OS.Process.success)

  fun note () = case !chosen of SOME (_, n) => n | NONE => ""
end;

functor GametraceGame (G : GAME) =
struct
  structure V = GtView (G)
  val json = GametraceTerm.json

  fun answer s = (print ("@gt " ^ s ^ "\n"); TextIO.flushOut TextIO.stdOut)

  fun player G.Maxie = "Maxie"
    | player G.Minnie = "Minnie"

  fun status s =
      case V.outcome s of
        NONE => json "in_play"
      | SOME NONE => json "draw"
      | SOME (SOME p) => "{\"winner\":" ^ json (player p) ^ "}"

  fun inPlay s = not (isSome (V.outcome s))

  (* REQUIRES the game is in play, as the course's `moves` does *)
  fun movesOf s =
      let val ms = G.moves s
      in List.tabulate (GtSeq.length ms, fn i => GtSeq.nth i ms) end

  fun list items = "[" ^ String.concatWith "," items ^ "]"

  (* The positions played through, the current one first. *)
  val here : G.state list ref = ref []

  fun find s name =
      if inPlay s then List.find (fn m => V.move_text m = name) (movesOf s) else NONE

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
            in if inPlay s then list (List.map (json o V.move_text) (movesOf s)) else "[]" end
        | "play" =>
            (case find (current ()) arg of
               SOME m => (here := G.make_move (current (), m) :: !here; json "ok")
             | NONE => "{\"error\":" ^ json ("no move named " ^ arg) ^ "}")
        | "undo" =>
            (case !here of
               _ :: (rest as _ :: _) => (here := rest; json "ok")
             | _ => "{\"error\":\"nothing to undo\"}")
        | "status" => status (current ())
        | "player" => json (player (G.player (current ())))
        | "estimate" => json (V.estimate (current ()))
        | "show" => json (V.state_text (current ()))
        | "parse" =>
            (case G.parse_move (current ()) arg of
               SOME m => json (V.move_text m)
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
      (answer ("{\"protocol\":1,\"driver\":\"sml-game\",\"notes\":["
               ^ json (GametraceTerm.note ()) ^ "]}");
       loop ();
       OS.Process.exit OS.Process.success)
end;
