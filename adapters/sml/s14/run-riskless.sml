(* Runs the student's Riskless functor (15-150 HW11 Task 4.1, Fall 2013's GAME and MAP) behind gametrace's
   driver, on the spec's map, built as the course's MAP: gametrace sets
   GAMETRACE_TERRITORIES (names, by commas), GAMETRACE_ROADS (each territory's neighbours by
   commas, territories by semicolons), GAMETRACE_MIN_START, GAMETRACE_MAX_START,
   GAMETRACE_MAX_TERRI and GAMETRACE_MAX_UNITS. Only `Seq.tabulate` builds sequences: the
   course's library has no `fromList`. *)
structure GametraceMap =
struct
  fun setting name = getOpt (OS.Process.getEnv name, "")
  fun number name = getOpt (Int.fromString (setting name), 0)
  fun split c s = String.fields (fn x => x = c) s
  fun seq l = Seq.tabulate (fn i => List.nth (l, i)) (List.length l)
  val names = split #"," (setting "GAMETRACE_TERRITORIES")
  val roads = List.map (fn r => List.mapPartial Int.fromString (split #"," r))
                       (split #";" (setting "GAMETRACE_ROADS"))
  val board = seq (ListPair.map (fn (n, r) => (n, seq r)) (names, roads))
  fun board_to_string ss =
      String.concatWith "\n" (List.tabulate (Seq.length ss, fn i => Seq.nth i ss))
  val min_start = number "GAMETRACE_MIN_START"
  val max_start = number "GAMETRACE_MAX_START"
  val max_terri = number "GAMETRACE_MAX_TERRI"
  val max_units = number "GAMETRACE_MAX_UNITS"
end

structure GametraceDriver = GametraceGame (Riskless (GametraceMap))
val _ = GametraceDriver.main ()
