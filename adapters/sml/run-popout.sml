(* Runs the student's PopOut functor (HW09 Task 6.1, extra credit) behind gametrace's driver
   (gametrace-game.sml, loaded before), on the board the spec gives, as run-connect4.sml
   does. *)
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
