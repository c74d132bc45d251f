(* Runs the student's Riskless functor behind gametrace's driver, on the spec's map:
   gametrace sets GAMETRACE_TERRITORIES (names, by commas), GAMETRACE_ROADS (each
   territory's neighbours by commas, territories by semicolons), GAMETRACE_MIN_START,
   GAMETRACE_MAX_START, GAMETRACE_MAX_TERRI and GAMETRACE_MAX_UNITS. *)
structure GametraceMap : MAP =
struct
  fun setting name = getOpt (OS.Process.getEnv name, "")
  fun number name = getOpt (Int.fromString (setting name), 0)
  fun split c s = String.fields (fn x => x = c) s
  val territories = Seq.fromList (split #"," (setting "GAMETRACE_TERRITORIES"))
  val roads =
      Seq.fromList (List.map (fn r => Seq.fromList (List.mapPartial Int.fromString (split #"," r)))
                             (split #";" (setting "GAMETRACE_ROADS")))
  val min_start = number "GAMETRACE_MIN_START"
  val max_start = number "GAMETRACE_MAX_START"
  val max_terri = number "GAMETRACE_MAX_TERRI"
  val max_units = number "GAMETRACE_MAX_UNITS"
end

structure GametraceDriver = GametraceGame (Riskless (GametraceMap))
val _ = GametraceDriver.main ()
