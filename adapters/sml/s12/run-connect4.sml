(* Runs the student's Connect4 functor (15-150 HW09 Task 3.1, CMU-Q Fall 2014's GAME) behind gametrace's
   driver, on the board the spec gives (gametrace sets GAMETRACE_COLUMNS and GAMETRACE_ROWS;
   7 x 6 otherwise). The board's size is a plain structure, not ascribed: it fits both the
   handout's `functor Connect4 (Dim : CONNECT4_BOARD_SPEC)` and a course folder's
   `functor Connect4 (val num_cols : int val num_rows : int)` wrapper. *)
structure GametraceDim =
struct
  fun setting name default =
      case OS.Process.getEnv name of
        SOME v => getOpt (Int.fromString v, default)
      | NONE => default
  val num_cols = setting "GAMETRACE_COLUMNS" 7
  val num_rows = setting "GAMETRACE_ROWS" 6
end

structure GametraceDriver = GametraceGame (Connect4 (GametraceDim))
val _ = GametraceDriver.main ()
