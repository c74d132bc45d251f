(* A stand-in for the sequence library of 15-150 Fall 2013 (SEQUENCECORE, SEQUENCE, structure
   Seq), with its signatures as the course declares them, argument order included:
   `nth i s` (index first), `cons x s` and `append s t` curried, `Range of string`, and no
   `fromList`. Backed by vectors. gametrace's tests load it before a student's game; a TA
   uses the course's own folder instead (docs/src/check-game.md). *)

signature SEQUENCECORE =
sig
  type 'a seq
  exception Range of string
  val length : 'a seq -> int
  val nth : int -> 'a seq -> 'a
  val tabulate : (int -> 'a) -> int -> 'a seq
  val filter : ('a -> bool) -> 'a seq -> 'a seq
  val map : ('a -> 'b) -> 'a seq -> 'b seq
  val reduce : ('a * 'a -> 'a) -> 'a -> 'a seq -> 'a
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  datatype 'a tview = Empty | Leaf of 'a | Node of 'a seq * 'a seq
  val showl : 'a seq -> 'a lview
  val hidel : 'a lview -> 'a seq
  val showt : 'a seq -> 'a tview
  val hidet : 'a tview -> 'a seq
end

signature SEQUENCE =
sig
  include SEQUENCECORE
  val mapreduce : ('a -> 'b) -> 'b -> ('b * 'b -> 'b) -> 'a seq -> 'b
  val toString : ('a -> string) -> 'a seq -> string
  val repeat : int -> 'a -> 'a seq
  val zip : 'a seq * 'b seq -> ('a * 'b) seq
  val flatten : 'a seq seq -> 'a seq
  val split : int -> 'a seq -> 'a seq * 'a seq
  val take : int -> 'a seq -> 'a seq
  val drop : int -> 'a seq -> 'a seq
  val empty : unit -> 'a seq
  val cons : 'a -> 'a seq -> 'a seq
  val singleton : 'a -> 'a seq
  val append : 'a seq -> 'a seq -> 'a seq
end

structure Seq :> SEQUENCE =
struct
  type 'a seq = 'a vector
  exception Range of string
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  datatype 'a tview = Empty | Leaf of 'a | Node of 'a seq * 'a seq

  val length = Vector.length
  fun nth i s =
      if i < 0 orelse i >= Vector.length s then raise Range ("nth " ^ Int.toString i)
      else Vector.sub (s, i)
  fun tabulate f n = Vector.tabulate (n, f)
  fun slice s i n = VectorSlice.vector (VectorSlice.slice (s, i, SOME n))
  fun filter p s = Vector.fromList (Vector.foldr (fn (x, acc) => if p x then x :: acc else acc) [] s)
  val map = Vector.map
  fun reduce f b s = Vector.foldl (fn (x, acc) => f (acc, x)) b s
  fun showl s = if length s = 0 then Nil else Cons (nth 0 s, slice s 1 (length s - 1))
  fun hidel Nil = Vector.fromList []
    | hidel (Cons (x, s)) = Vector.concat [Vector.fromList [x], s]
  fun showt s =
      case length s of
        0 => Empty
      | 1 => Leaf (nth 0 s)
      | n => Node (slice s 0 (n div 2), slice s (n div 2) (n - n div 2))
  fun hidet Empty = Vector.fromList []
    | hidet (Leaf x) = Vector.fromList [x]
    | hidet (Node (a, b)) = Vector.concat [a, b]

  fun mapreduce g b f s = reduce f b (map g s)
  fun toString f s = "<" ^ String.concatWith "," (Vector.foldr (fn (x, acc) => f x :: acc) [] s) ^ ">"
  fun repeat n x = tabulate (fn _ => x) n
  fun zip (a, b) = tabulate (fn i => (nth i a, nth i b)) (Int.min (length a, length b))
  fun flatten s = Vector.concat (Vector.foldr (op ::) [] s)
  fun take n s = if n < 0 orelse n > length s then raise Range "take" else slice s 0 n
  fun drop n s = if n < 0 orelse n > length s then raise Range "drop" else slice s n (length s - n)
  fun split n s = (take n s, drop n s)
  fun empty () = Vector.fromList []
  fun cons x s = Vector.concat [Vector.fromList [x], s]
  fun singleton x = Vector.fromList [x]
  fun append a b = Vector.concat [a, b]
end
