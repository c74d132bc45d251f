(* Runs the student's PopOut functor (15-150 HW09 Task 6.1, extra credit, CMU-Q Fall 2014's GAME) behind
   gametrace's driver, on the board the spec gives (gametrace sets GAMETRACE_COLUMNS and
   GAMETRACE_ROWS; 7 x 6 otherwise), as run-connect4.sml does. *)
structure GametraceDim =
struct
  fun setting name default =
      case OS.Process.getEnv name of
        SOME v => getOpt (Int.fromString v, default)
      | NONE => default
  val num_cols = setting "GAMETRACE_COLUMNS" 7
  val num_rows = setting "GAMETRACE_ROWS" 6
end

structure GametraceDriver = GametraceGame (PopOut (GametraceDim))
val _ = GametraceDriver.main ()
