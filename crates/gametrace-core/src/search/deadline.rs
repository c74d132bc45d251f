//! A time limit for one search. Valid specs can ask for searches that would run for ages
//! (Connect 4 alpha-beta at depth 42), and `test` must go on to the next case.
//!
//! The limit is kept by a [`Game`] adapter ([`Watched`]; an expansion [`Budget`] is kept the
//! same way), so no searcher changes and untimed searches pay
//! nothing: every 1024 expansions it reads the clock, and past the deadline it unwinds the
//! search (a panic with a [`TimedOut`] payload, caught by [`within`], never printed). Rayon
//! carries the unwinding out of Jamboree's parallel branches.

use crate::clock::Instant;
use crate::game::{Estimate, Game, Status};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

/// A search stopped by its time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedOut {
    pub limit: Duration,
}

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped after its time limit of {}", seconds(self.limit))
    }
}

/// `2 s`, `0.5 s`.
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// Something that may stop a search: called at every expansion and estimate, it unwinds
/// once the search must stop.
pub trait Tick: Sync {
    fn tick(&self);
    /// Past the limit: where nothing unwinds (the browser), the search is wound down instead.
    fn stopped(&self) -> bool;
}

/// `game`, with `watch` ticked at every expansion and estimate. Everything else is the game's.
pub struct Watched<'g, G, W> {
    game: &'g G,
    watch: W,
}

impl<G, W> Watched<'_, G, W> {
    /// What watches the search.
    pub fn watch(&self) -> &W {
        &self.watch
    }
}

/// Whether a search past its limit can be unwound (a panic caught): everywhere but the
/// browser, whose `wasm32-unknown-unknown` target aborts on a panic.
pub const UNWINDS: bool = !cfg!(target_arch = "wasm32");

/// Stops a search that went past its limit: unwinds it with `payload` where that is possible;
/// in the browser the flag already set winds it down (see [`Watched`]'s `status`).
fn stop<P: std::any::Any + Send>(payload: P) {
    if UNWINDS {
        panic::resume_unwind(Box::new(payload));
    }
}

/// Runs `search`, telling a stop (`P`) from a result: by the unwinding it caused, or, in the
/// browser, by `stopped` once the search has wound down.
fn watched_run<T, P: std::any::Any + Send>(
    search: impl FnOnce() -> T,
    stopped: impl FnOnce() -> Option<P>,
) -> Result<T, P> {
    if !UNWINDS {
        let t = search();
        return match stopped() {
            Some(p) => Err(p),
            None => Ok(t),
        };
    }
    match panic::catch_unwind(AssertUnwindSafe(search)) {
        Ok(t) => Ok(t),
        Err(payload) => match payload.downcast::<P>() {
            Ok(p) => Err(*p),
            Err(other) => panic::resume_unwind(other),
        },
    }
}

/// Ticks the watch at every expansion and estimate; the rest is the game's.
impl<G: Game, W: Tick> crate::game::Delegate for Watched<'_, G, W> {
    type Inner = G;
    type State = G::State;
    type Moves<'a>
        = G::Moves<'a>
    where
        Self: 'a;

    fn inner(&self) -> &G {
        self.game
    }
    fn status(&self, state: &G::State) -> Status {
        // In the browser a panic aborts, so a search past its limit is not unwound: every
        // state it reaches from then on is over, it ends within a few calls, and what it
        // found is thrown away.
        if UNWINDS || !self.watch.stopped() {
            self.game.status(state)
        } else {
            Status::Over(crate::game::Outcome::Draw)
        }
    }
    fn moves<'a>(&'a self, state: &G::State) -> G::Moves<'a> {
        self.watch.tick();
        self.game.moves(state)
    }
    fn estimate(&self, state: &G::State) -> Estimate {
        self.watch.tick();
        self.game.estimate(state)
    }
}

/// Unwinds once `deadline` has passed.
pub struct Deadline {
    deadline: Instant,
    limit: Duration,
    calls: AtomicU32,
    expired: AtomicBool,
}

impl Tick for Deadline {
    #[inline]
    fn tick(&self) {
        // The clock is read every 1024 expansions: microseconds apart, even on big boards.
        // Once past, every expansion on every thread unwinds, so that parallel branches (which
        // rayon waits for before passing a panic on) stop at once too.
        let expired = self.expired.load(Ordering::Relaxed)
            || (self.calls.fetch_add(1, Ordering::Relaxed) % 1024 == 0
                && Instant::now() > self.deadline);
        if expired {
            self.expired.store(true, Ordering::Relaxed);
            stop(TimedOut { limit: self.limit });
        }
    }
    fn stopped(&self) -> bool {
        self.expired.load(Ordering::Relaxed)
    }
}

/// Runs `search` on `game` limited to `limit`.
pub fn within<G: Game, T>(
    game: &G,
    limit: Duration,
    search: impl FnOnce(&Watched<'_, G, Deadline>) -> T,
) -> Result<T, TimedOut> {
    let timed = Watched {
        game,
        watch: Deadline {
            deadline: Instant::now() + limit,
            limit,
            calls: AtomicU32::new(0),
            expired: AtomicBool::new(false),
        },
    };
    // `resume_unwind` does not call the panic hook, so nothing is printed; a real panic in
    // the search is not ours to catch and goes on unwinding.
    watched_run(
        || search(&timed),
        || timed.watch.stopped().then_some(TimedOut { limit }),
    )
}

/// A search stopped after its budget of expansions (a variant of the catalogue that searches
/// far more than the output it is compared with, such as one that never decreases the depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget;

/// Unwinds after a number of expansions and estimates.
pub struct Budget {
    left: AtomicU64,
    spent: AtomicBool,
}

impl Budget {
    /// Spends what is left: in the browser, the way a search that has served its purpose
    /// (its output already parted from the one compared) is wound down.
    pub fn spend(&self) {
        self.spent.store(true, Ordering::Relaxed);
    }
}

impl Tick for Budget {
    #[inline]
    fn tick(&self) {
        // Once spent, every expansion on every thread unwinds (see `Deadline::tick`). The flag
        // is what says so: two threads taking the last unit at once would wrap the counter
        // below 0, and a count that wrapped to 2^64 - 1 would let a parallel branch search on
        // for ever (rayon waits for it before passing the unwinding on).
        // A variant that never stops descending (depth-kept on a game whose end is hundreds
        // of plies away) would overflow the stack long before its budget ran out: the stack
        // is part of the budget.
        if self.spent.load(Ordering::Relaxed)
            || self.left.fetch_sub(1, Ordering::Relaxed) <= 1
            || stack::nearly_full()
        {
            self.spent.store(true, Ordering::Relaxed);
            stop(OverBudget);
        }
    }
    fn stopped(&self) -> bool {
        self.spent.load(Ordering::Relaxed)
    }
}

/// How much of the thread's stack a search has left.
mod stack {
    /// Free stack below which a budgeted search stops: far more than a few plies of the
    /// deepest search take between two expansions, in a debug build too.
    #[cfg(target_os = "linux")]
    const RED_ZONE: usize = 256 * 1024;

    /// Whether this thread's stack has less than [`RED_ZONE`] left (on Linux; elsewhere the
    /// platform is not asked, and this is never true).
    #[inline]
    pub fn nearly_full() -> bool {
        #[cfg(target_os = "linux")]
        {
            let here = 0u8;
            let sp = std::ptr::addr_of!(here) as usize;
            lowest().is_some_and(|low| sp.saturating_sub(low) < RED_ZONE)
        }
        #[cfg(not(target_os = "linux"))]
        false
    }

    /// The lowest address of this thread's stack, asked of the C library once a thread.
    #[cfg(target_os = "linux")]
    fn lowest() -> Option<usize> {
        use std::cell::Cell;
        thread_local! {
            static LOWEST: Cell<Option<Option<usize>>> = const { Cell::new(None) };
        }
        LOWEST.with(|c| {
            if c.get().is_none() {
                c.set(Some(ask()));
            }
            c.get().flatten()
        })
    }

    #[cfg(target_os = "linux")]
    fn ask() -> Option<usize> {
        // SAFETY: `attr` is initialised by pthread_getattr_np before it is read and destroyed
        // once; the calls have no other preconditions.
        unsafe {
            let mut attr: libc::pthread_attr_t = std::mem::zeroed();
            if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
                return None;
            }
            let mut addr: *mut libc::c_void = std::ptr::null_mut();
            let mut size: libc::size_t = 0;
            let got = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
            libc::pthread_attr_destroy(&mut attr);
            (got == 0 && !addr.is_null()).then_some(addr as usize)
        }
    }
}

/// Runs `search` on `game`, stopping it after `budget` expansions and estimates.
pub fn within_budget<G: Game, T>(
    game: &G,
    budget: u64,
    search: impl FnOnce(&Watched<'_, G, Budget>) -> T,
) -> Result<T, OverBudget> {
    let limited = Watched {
        game,
        watch: Budget {
            left: AtomicU64::new(budget.max(1)),
            spent: AtomicBool::new(false),
        },
    };
    watched_run(
        || search(&limited),
        || limited.watch.stopped().then_some(OverBudget),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nim::Nim;
    use crate::game::Player;
    use crate::search::{s14, Algorithm, NullSink};

    #[test]
    fn a_search_past_its_limit_stops_and_one_within_it_does_not() {
        // Nim from 60 sticks at depth 40: about 3^40 positions, never done in 50 ms.
        let nim = Nim::new(60, Player::Maxie);
        let limit = Duration::from_millis(50);
        let started = Instant::now();
        let r = within(&nim, limit, |g| {
            s14::search(g, 40, Algorithm::Minimax, &mut NullSink)
        });
        assert_eq!(r.unwrap_err().limit, Duration::from_millis(50));
        assert!(started.elapsed() < Duration::from_secs(5));
        // Jamboree's parallel branches unwind too.
        let r = within(&nim, limit, |g| {
            let jamboree = Algorithm::Jamboree {
                prune_percentage: 0.0,
            };
            s14::search(g, 40, jamboree, &mut NullSink)
        });
        assert!(r.is_err());
        // A small search finishes with the same result as untimed.
        let timed = within(&nim, Duration::from_secs(60), |g| {
            s14::search(g, 4, Algorithm::AlphaBeta, &mut NullSink)
        })
        .unwrap();
        let plain = s14::search(&nim, 4, Algorithm::AlphaBeta, &mut NullSink);
        assert_eq!(timed, plain);
    }

    #[test]
    fn a_budget_stops_a_search_and_a_big_enough_one_does_not() {
        let nim = Nim::new(60, Player::Maxie);
        let r = within_budget(&nim, 1000, |g| {
            s14::search(g, 40, Algorithm::Minimax, &mut NullSink)
        });
        assert_eq!(r, Err(OverBudget));
        let within = within_budget(&nim, 1 << 20, |g| {
            s14::search(g, 4, Algorithm::AlphaBeta, &mut NullSink)
        });
        assert_eq!(
            within,
            Ok(s14::search(&nim, 4, Algorithm::AlphaBeta, &mut NullSink))
        );
    }
}
