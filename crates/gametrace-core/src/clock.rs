//! The clock behind time limits (a search's `--timeout`, the diff's budget). Everywhere but
//! the browser it is std's. In the browser (`wasm32-unknown-unknown`) std's clock panics and
//! reading a real one needs JavaScript glue, so the core runs with a clock that never moves:
//! a time limit never fires there, and the page keeps its searches small instead.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

/// Whether the clock moves: time limits are watched only where it does.
pub const TICKS: bool = !cfg!(target_arch = "wasm32");

#[cfg(target_arch = "wasm32")]
pub use frozen::Instant;

/// A deadline `after` from now, as the diff library takes it: none where there is no clock.
pub fn deadline_after(after: std::time::Duration) -> Option<std::time::Instant> {
    #[cfg(not(target_arch = "wasm32"))]
    return Some(std::time::Instant::now() + after);
    #[cfg(target_arch = "wasm32")]
    {
        let _ = after;
        None
    }
}

#[cfg(target_arch = "wasm32")]
mod frozen {
    use std::time::Duration;

    /// A moment of a clock that never moves: `now` is always the same moment, no time passes
    /// after it, and a moment made by adding a duration keeps that duration ahead of it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        pub fn now() -> Instant {
            Instant(Duration::ZERO)
        }
        pub fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }

    impl std::ops::Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
