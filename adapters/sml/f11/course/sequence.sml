(* A stand-in for the 15-150 Fall 2011 sequence library (gametrace's, on vectors): the
   operations the games homework uses, declared as that term's SEQUENCECORE and SEQUENCE
   declare them. Before the library's Spring 2012 change, `nth`, `split`, `take` and `drop`
   take the sequence first, and `cons` and `append` take a pair; there is no `fromList`. *)

signature SEQUENCE =
sig
  type 'a seq
  exception Range
  val length : 'a seq -> int
  val nth    : 'a seq -> int -> 'a
  val tabulate : (int -> 'a) -> int -> 'a seq
  val filter : ('a -> bool) -> 'a seq -> 'a seq
  val map : ('a -> 'b) -> 'a seq -> 'b seq
  val reduce : (('a * 'a) -> 'a) -> 'a -> 'a seq -> 'a
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  datatype 'a tview = Empty | Leaf of 'a | Node of 'a seq * 'a seq
  val showl : 'a seq -> 'a lview
  val hidel : 'a lview -> 'a seq
  val showt : 'a seq -> 'a tview
  val hidet : 'a tview -> 'a seq
  val mapreduce : ('a -> 'b) -> 'b -> ('b * 'b -> 'b) -> 'a seq -> 'b
  val toString : 'a seq * ('a -> string) -> string
  val repeat  : ('a * int) -> 'a seq
  val zip     : ('a seq * 'b seq) -> ('a * 'b) seq
  val flatten : 'a seq seq -> 'a seq
  val split   : 'a seq -> int -> 'a seq * 'a seq
  val take    : 'a seq -> int -> 'a seq
  val drop    : 'a seq -> int -> 'a seq
  val empty : unit -> 'a seq
  val cons  : ('a * 'a seq) -> 'a seq
  val singleton : 'a -> 'a seq
  val append    : ('a seq * 'a seq) -> 'a seq
end

structure Seq : SEQUENCE =
struct
  type 'a seq = 'a vector
  exception Range
  val length = Vector.length
  fun nth s i = if i < 0 orelse i >= Vector.length s then raise Range else Vector.sub (s, i)
  fun tabulate f n = Vector.tabulate (n, f)
  fun filter p s = Vector.fromList (Vector.foldr (fn (x, acc) => if p x then x :: acc else acc) [] s)
  val map = Vector.map
  fun reduce f b s = Vector.foldl (fn (x, acc) => f (acc, x)) b s
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  datatype 'a tview = Empty | Leaf of 'a | Node of 'a seq * 'a seq
  fun slice s i n = VectorSlice.vector (VectorSlice.slice (s, i, SOME n))
  fun showl s = if length s = 0 then Nil else Cons (nth s 0, slice s 1 (length s - 1))
  fun hidel Nil = Vector.fromList []
    | hidel (Cons (x, s)) = Vector.concat [Vector.fromList [x], s]
  fun showt s =
      case length s of
        0 => Empty
      | 1 => Leaf (nth s 0)
      | n => Node (slice s 0 (n div 2), slice s (n div 2) (n - n div 2))
  fun hidet Empty = Vector.fromList []
    | hidet (Leaf x) = Vector.fromList [x]
    | hidet (Node (a, b)) = Vector.concat [a, b]
  fun mapreduce f b g s = reduce g b (map f s)
  fun toString (s, f) = "<" ^ String.concatWith "," (Vector.foldr (fn (x, acc) => f x :: acc) [] s) ^ ">"
  fun repeat (x, n) = Vector.tabulate (n, fn _ => x)
  fun zip (a, b) = Vector.tabulate (Int.min (length a, length b), fn i => (nth a i, nth b i))
  fun flatten ss = Vector.concat (Vector.foldr op:: [] ss)
  fun take s n = if n < 0 orelse n > length s then raise Range else slice s 0 n
  fun drop s n = if n < 0 orelse n > length s then raise Range else slice s n (length s - n)
  fun split s n = (take s n, drop s n)
  fun empty () = Vector.fromList []
  fun cons (x, s) = hidel (Cons (x, s))
  fun singleton x = Vector.fromList [x]
  fun append (a, b) = Vector.concat [a, b]
end
