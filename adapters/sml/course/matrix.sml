(* A stand-in for the S12 games support code's Matrix (MATRIX, structure Matrix): a matrix
   indexed by (x, y), (0, 0) the bottom-left corner, with the lines Connect 4 looks along. *)

signature MATRIX =
sig
  type 'a matrix
  (* tabulate (width, height) f: the matrix whose (x, y) is f (x, y) *)
  val tabulate : int * int -> (int * int -> 'a) -> 'a matrix
  val size : 'a matrix -> int * int
  val sub : 'a matrix -> int * int -> 'a
  val update : 'a matrix -> (int * int) * 'a -> 'a matrix
  (* rows bottom first, each left to right; columns left first, each bottom up *)
  val rows : 'a matrix -> 'a Seq.seq Seq.seq
  val cols : 'a matrix -> 'a Seq.seq Seq.seq
  (* diagonals going up and right (diags1) and down and right (diags2) *)
  val diags1 : 'a matrix -> 'a Seq.seq Seq.seq
  val diags2 : 'a matrix -> 'a Seq.seq Seq.seq
end

structure Matrix :> MATRIX =
struct
  type 'a matrix = int * int * 'a Seq.seq   (* width, height, cells by x * height + y *)
  fun tabulate (w, h) f = (w, h, Seq.tabulate (fn i => f (i div h, i mod h)) (w * h))
  fun size (w, h, _) = (w, h)
  fun sub (w, h, cells) (x, y) =
      if x < 0 orelse y < 0 orelse x >= w orelse y >= h then raise Subscript
      else Seq.nth cells (x * h + y)
  fun update (m as (w, h, _)) ((x, y), v) =
      tabulate (w, h) (fn (i, j) => if i = x andalso j = y then v else sub m (i, j))
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
          (* starts: the left column top down, then the bottom row *)
          val starts = List.tabulate (h, fn i => (0, h - 1 - i)) @ List.tabulate (w - 1, fn i => (i + 1, 0))
      in Seq.fromList (List.map (fn s => line m s (1, 1)) starts) end
  fun diags2 m =
      let val (w, h) = size m
          val starts = List.tabulate (h, fn i => (0, i)) @ List.tabulate (w - 1, fn i => (i + 1, h - 1))
      in Seq.fromList (List.map (fn s => line m s (1, ~1)) starts) end
end
