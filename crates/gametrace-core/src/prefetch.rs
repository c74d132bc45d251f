//! A hint to the CPU to bring a value into the cache before it is read, for the two places
//! whose reads wait on memory: the diff's line table and a big tree's nodes. A no-op where
//! the hint is not available.

/// Starts loading the cache line holding `value`; never waits for it.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault; the address is a
    // live reference besides. SSE, which it needs, is part of every x86_64 target.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
