(* A stand-in for the Matrix of 15-150 CMU-Q Fall 2014's games support code (MATRIX, structure
   Matrix), declared as the course declares it: coordinates are (column, row), (0, 0) the
   bottom-left corner; `repeat x (w, h)` and `tabulate f (w, h)` take the contents first;
   rows bottom first, columns left first; diags1 runs bottom left to top right, diags2 top
   left to bottom right. *)

signature MATRIX =
sig
  type 'a matrix
  val size : 'a matrix -> int * int
  val sub : 'a matrix -> int * int -> 'a
  val repeat : 'a -> int * int -> 'a matrix
  val tabulate : (int * int -> 'a) -> int * int -> 'a matrix
  val map : ('a -> 'b) -> 'a matrix -> 'b matrix
  val update : 'a matrix -> (int * int) * 'a -> 'a matrix
  val matching_subs : ('a -> bool) -> 'a matrix -> (int * int) Seq.seq
  val rows : 'a matrix -> 'a Seq.seq Seq.seq
  val cols : 'a matrix -> 'a Seq.seq Seq.seq
  val diags1 : 'a matrix -> 'a Seq.seq Seq.seq
  val diags2 : 'a matrix -> 'a Seq.seq Seq.seq
end

structure Matrix :> MATRIX =
struct
  (* width, height, and the cells column by column, each bottom up *)
  type 'a matrix = int * int * 'a vector
  fun size (w, h, _) = (w, h)
  fun sub (w, h, cells) (x, y) =
      if x < 0 orelse y < 0 orelse x >= w orelse y >= h then raise Subscript
      else Vector.sub (cells, x * h + y)
  fun tabulate f (w, h) = (w, h, Vector.tabulate (w * h, fn i => f (i div h, i mod h)))
  fun repeat x dims = tabulate (fn _ => x) dims
  fun map f (w, h, cells) = (w, h, Vector.map f cells)
  fun update (m as (w, h, _)) ((x, y), v) =
      tabulate (fn (i, j) => if i = x andalso j = y then v else sub m (i, j)) (w, h)
  fun matching_subs p (m as (w, h, _)) =
      Seq.fromList (List.filter (fn xy => p (sub m xy))
                                (List.tabulate (w * h, fn i => (i div h, i mod h))))
  (* the cells from (x, y) on, a step (dx, dy) at a time, while on the board *)
  fun line m (x, y) (dx, dy) =
      let val (w, h) = size m
          fun len k = if x + k * dx >= 0 andalso x + k * dx < w
                         andalso y + k * dy >= 0 andalso y + k * dy < h
                      then len (k + 1) else k
      in Seq.tabulate (fn k => sub m (x + k * dx, y + k * dy)) (len 0) end
  fun rows m = let val (_, h) = size m in Seq.tabulate (fn y => line m (0, y) (1, 0)) h end
  fun cols m = let val (w, _) = size m in Seq.tabulate (fn x => line m (x, 0) (0, 1)) w end
  fun diags1 m =
      let val (w, h) = size m
          val starts = List.tabulate (h, fn i => (0, h - 1 - i)) @ List.tabulate (w - 1, fn i => (i + 1, 0))
      in Seq.fromList (List.map (fn s => line m s (1, 1)) starts) end
  fun diags2 m =
      let val (w, h) = size m
          val starts = List.tabulate (h, fn i => (0, i)) @ List.tabulate (w - 1, fn i => (i + 1, h - 1))
      in Seq.fromList (List.map (fn s => line m s (1, ~1)) starts) end
end
