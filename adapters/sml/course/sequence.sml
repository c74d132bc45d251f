(* A stand-in for the 15-150 Sequence library (SEQUENCE, structure Seq), backed by vectors,
   with the operations the games homeworks use. gametrace's tests load it before a student's
   game; a course runs its own support code instead. `nth` takes the sequence first
   (Seq.nth s i), as in the course library. *)

signature SEQUENCE =
sig
  type 'a seq
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  exception Range
  val empty : unit -> 'a seq
  val singleton : 'a -> 'a seq
  val cons : 'a * 'a seq -> 'a seq
  val append : 'a seq * 'a seq -> 'a seq
  val tabulate : (int -> 'a) -> int -> 'a seq
  val fromList : 'a list -> 'a seq
  val toList : 'a seq -> 'a list
  val length : 'a seq -> int
  val nth : 'a seq -> int -> 'a
  val map : ('a -> 'b) -> 'a seq -> 'b seq
  val filter : ('a -> bool) -> 'a seq -> 'a seq
  val reduce : ('a * 'a -> 'a) -> 'a -> 'a seq -> 'a
  val mapreduce : ('a -> 'b) -> 'b -> ('b * 'b -> 'b) -> 'a seq -> 'b
  val exists : ('a -> bool) -> 'a seq -> bool
  val all : ('a -> bool) -> 'a seq -> bool
  val zip : 'a seq * 'b seq -> ('a * 'b) seq
  val flatten : 'a seq seq -> 'a seq
  val showl : 'a seq -> 'a lview
  val hidel : 'a lview -> 'a seq
end

structure Seq :> SEQUENCE =
struct
  type 'a seq = 'a vector
  datatype 'a lview = Nil | Cons of 'a * 'a seq
  exception Range
  fun empty () = Vector.fromList []
  fun singleton x = Vector.fromList [x]
  fun cons (x, s) = Vector.concat [Vector.fromList [x], s]
  fun append (a, b) = Vector.concat [a, b]
  fun tabulate f n = Vector.tabulate (n, f)
  val fromList = Vector.fromList
  fun toList s = Vector.foldr (op ::) [] s
  val length = Vector.length
  fun nth s i = Vector.sub (s, i) handle Subscript => raise Range
  val map = Vector.map
  fun filter p s = Vector.fromList (List.filter p (toList s))
  fun reduce f b s = Vector.foldl (fn (x, acc) => f (acc, x)) b s
  fun mapreduce g b f s = reduce f b (map g s)
  val exists = Vector.exists
  val all = Vector.all
  fun zip (a, b) = tabulate (fn i => (nth a i, nth b i)) (Int.min (length a, length b))
  fun flatten s = Vector.concat (toList s)
  fun showl s =
      if length s = 0 then Nil
      else Cons (nth s 0, VectorSlice.vector (VectorSlice.slice (s, 1, NONE)))
  fun hidel Nil = empty ()
    | hidel (Cons (x, s)) = cons (x, s)
end
