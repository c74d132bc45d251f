(* A stand-in for the 15-150 Fall 2011 matrix library (gametrace's): MATRIX as that term
   declares it, coordinates (column, row) with (0, 0) bottom-left, over the Fall 2011 Seq. *)

signature MATRIX =
sig
  structure Seq : SEQUENCE
  type 'a matrix
  val size : 'a matrix -> (int * int)
  val sub  : 'a matrix -> (int * int) -> 'a
  val repeat : 'a -> (int * int) -> 'a matrix
  val tabulate : (int * int -> 'a) -> (int * int) -> 'a matrix
  val map : ('a -> 'b) -> 'a matrix -> 'b matrix
  val update : 'a matrix -> ((int * int) * 'a) -> 'a matrix
  val matching_subs : ('a -> bool) -> 'a matrix -> (int * int) Seq.seq
  val rows : 'a matrix -> ('a Seq.seq) Seq.seq
  val cols : 'a matrix -> ('a Seq.seq) Seq.seq
  val from_rows : ('a Seq.seq) Seq.seq -> 'a matrix
  val from_cols : ('a Seq.seq) Seq.seq -> 'a matrix
  val diags1 : 'a matrix -> ('a Seq.seq) Seq.seq
  val diags2 : 'a matrix -> ('a Seq.seq) Seq.seq
end

structure Matrix : MATRIX =
struct
  structure Seq = Seq
  type 'a matrix = int * int * 'a vector   (* width, height, cells column by column *)
  fun size (w, h, _) = (w, h)
  fun sub (w, h, cells) (x, y) =
      if x < 0 orelse y < 0 orelse x >= w orelse y >= h then raise Subscript
      else Vector.sub (cells, x * h + y)
  fun tabulate f (w, h) = (w, h, Vector.tabulate (w * h, fn i => f (i div h, i mod h)))
  fun repeat v (w, h) = tabulate (fn _ => v) (w, h)
  fun map f (w, h, cells) = (w, h, Vector.map f cells)
  fun update (m as (w, h, _)) ((x, y), v) =
      tabulate (fn (i, j) => if i = x andalso j = y then v else sub m (i, j)) (w, h)
  fun matching_subs p (m as (w, h, _)) =
      Seq.filter (fn xy => p (sub m xy)) (Seq.tabulate (fn i => (i div h, i mod h)) (w * h))
  fun line m (x, y) (dx, dy) =
      let val (w, h) = size m
          fun len k = if x + k * dx >= 0 andalso x + k * dx < w
                         andalso y + k * dy >= 0 andalso y + k * dy < h
                      then len (k + 1) else k
      in Seq.tabulate (fn k => sub m (x + k * dx, y + k * dy)) (len 0) end
  fun rows m = let val (_, h) = size m in Seq.tabulate (fn y => line m (0, y) (1, 0)) h end
  fun cols m = let val (w, _) = size m in Seq.tabulate (fn x => line m (x, 0) (0, 1)) w end
  fun from_cols cs =
      let val w = Seq.length cs
          val h = if w = 0 then 0 else Seq.length (Seq.nth cs 0)
      in tabulate (fn (x, y) => Seq.nth (Seq.nth cs x) y) (w, h) end
  fun from_rows rs =
      let val h = Seq.length rs
          val w = if h = 0 then 0 else Seq.length (Seq.nth rs 0)
      in tabulate (fn (x, y) => Seq.nth (Seq.nth rs y) x) (w, h) end
  fun starts1 (w, h) = List.tabulate (h, fn i => (0, h - 1 - i)) @ List.tabulate (w - 1, fn i => (i + 1, 0))
  fun starts2 (w, h) = List.tabulate (h, fn i => (0, i)) @ List.tabulate (w - 1, fn i => (i + 1, h - 1))
  fun seqOf l = Seq.tabulate (fn i => List.nth (l, i)) (List.length l)
  fun diags1 m = seqOf (List.map (fn s => line m s (1, 1)) (starts1 (size m)))
  fun diags2 m = seqOf (List.map (fn s => line m s (1, ~1)) (starts2 (size m)))
end
