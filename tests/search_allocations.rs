//! An untraced search allocates nothing per node, in every game a course plays for real
//! (issue 17: "Connect 4 ... no allocation per node; Riskless and Kalah similarly"). Counted
//! by a global allocator that counts, so the test is exact, not timed.

use gametrace::game::connect4::Connect4;
use gametrace::game::kalah::{Kalah, Rules};
use gametrace::game::riskless::{Map, Riskless};
use gametrace::game::tree::{Generate, Tree, TreeGame};
use gametrace::game::{Game, Player};
use gametrace::search::{s14, Algorithm, NullSink};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only a count is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations made by an untraced alpha-beta search of `game` to `depth`, and its terminals.
fn allocations<G: Game>(game: &G, depth: u32) -> (usize, u64) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let summary = s14::search(game, depth, Algorithm::AlphaBeta, &mut NullSink);
    (
        ALLOCATIONS.load(Ordering::Relaxed) - before,
        summary.terminals,
    )
}

fn check<G: Game>(name: &str, game: &G, depth: u32) {
    // Once first, so nothing allocated once per process (thread locals, lazy tables) counts.
    allocations(game, depth);
    let (n, terminals) = allocations(game, depth);
    assert!(terminals > 100, "{name}: a search this small says nothing");
    assert_eq!(
        n, 0,
        "{name}: {n} allocations in an untraced search with {terminals} terminals"
    );
}

// One test, so no other test's allocations run on another thread while this one counts.
#[test]
fn untraced_alpha_beta_allocates_nothing_per_node() {
    check("Connect 4 7x6, depth 6", &Connect4::new(7, 6, false), 6);
    check("PopOut 7x6, depth 4", &Connect4::new(7, 6, true), 4);
    check("Riskless M1, depth 6", &Riskless::new(Map::m1()), 6);
    check("Riskless M2, depth 6", &Riskless::new(Map::m2()), 6);
    check(
        "Kalah 6 pits 4 seeds, depth 6",
        &Kalah::new(6, 4, Rules::default()),
        6,
    );
    let tree = Tree::generate(&Generate {
        branching: 4,
        depth: 6,
        seed: 1,
        min: -9,
        max: 9,
    });
    check(
        "a generated b4d6 tree",
        &TreeGame::new(&tree, Player::Maxie),
        6,
    );
}
