(* A stand-in for the sequence library of 15-150 CMU-Q Fall 2014 (index first since Spring 2012) (SEQUENCE, structure Seq), with
   the operations the games homework uses, declared as the course declares them: `nth i s`
   (index first), `tabulate f n`, `fromList`, list and tree views, `Range` on a bad index.
   Backed by vectors. gametrace's tests load it before a student's game; a TA uses the
   course's own folder instead (docs/src/check-game.md). *)

signature SEQUENCE =
sig
  type 'a seq
  exception Range
  val length : 'a seq -> int
  val nth : int -> 'a seq -> 'a
  val tabulate : (int -> 'a) -> int -> 'a seq
  val fromList : 'a list -> 'a seq
  val filter : ('a -> bool) -> 'a seq -> 'a seq
  val map : ('a -> 'b) -> 'a seq -> 'b seq
  val reduce : ('a * 'a -> 'a) -> 'a -> 'a seq -> 'a
  val mapreduce : ('a -> 'b) -> 'b -> ('b * 'b -> 'b) -> 'a seq -> 'b
  val empty : unit -> 'a seq
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  datatype 'a tview = Empty | Leaf of 'a | Node of 'a seq * 'a seq
  val showl : 'a seq -> 'a lview
  val hidel : 'a lview -> 'a seq
  val showt : 'a seq -> 'a tview
  val hidet : 'a tview -> 'a seq
end

structure Seq :> SEQUENCE =
struct
  type 'a seq = 'a vector
  exception Range
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  datatype 'a tview = Empty | Leaf of 'a | Node of 'a seq * 'a seq

  val length = Vector.length
  fun nth i s = if i < 0 orelse i >= Vector.length s then raise Range else Vector.sub (s, i)
  fun tabulate f n = Vector.tabulate (n, f)
  val fromList = Vector.fromList
  fun slice s i n = VectorSlice.vector (VectorSlice.slice (s, i, SOME n))
  fun filter p s = Vector.fromList (Vector.foldr (fn (x, acc) => if p x then x :: acc else acc) [] s)
  val map = Vector.map
  fun reduce f b s = Vector.foldl (fn (x, acc) => f (acc, x)) b s
  fun mapreduce g b f s = reduce f b (map g s)
  fun empty () = Vector.fromList []
  fun showl s = if length s = 0 then Nil else Cons (nth 0 s, slice s 1 (length s - 1))
  fun hidel Nil = empty ()
    | hidel (Cons (x, s)) = Vector.concat [Vector.fromList [x], s]
  fun showt s =
      case length s of
        0 => Empty
      | 1 => Leaf (nth 0 s)
      | n => Node (slice s 0 (n div 2), slice s (n div 2) (n - n div 2))
  fun hidet Empty = empty ()
    | hidet (Leaf x) = Vector.fromList [x]
    | hidet (Node (a, b)) = Vector.concat [a, b]
end
