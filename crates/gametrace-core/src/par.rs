//! Work spread over threads where there are threads (rayon's pool), done in turn in the
//! browser: `wasm32-unknown-unknown` has no threads, and rayon's code would only weigh on the
//! page (half a megabyte of it). Results come in the same order either way.

/// `f` of each item, in the items' order.
#[cfg(not(target_arch = "wasm32"))]
pub fn map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.into_par_iter().map(f).collect()
}

/// `f` of each item, in the items' order.
#[cfg(target_arch = "wasm32")]
pub fn map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    items.into_iter().map(f).collect()
}

/// The threads work can be spread over.
pub fn threads() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    return rayon::current_num_threads();
    #[cfg(target_arch = "wasm32")]
    1
}
