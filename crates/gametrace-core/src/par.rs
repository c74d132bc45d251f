//! Work spread over threads where there are threads (rayon's pool), done in turn in the
//! browser: `wasm32-unknown-unknown` has no threads, and rayon's code would only weigh on the
//! page (half a megabyte of it). Results come in the same order either way.

/// `f` of each item, in the items' order.
///
/// Each item and each result waits in a slot of its own, and the pool runs one non-generic
/// loop over the slots' indices ([`each`]): rayon's job and join machinery is compiled once,
/// not once per searcher × game × sink that forks (about half of the core's code, and of its
/// build's time and memory, when `par_iter().map()` was instantiated at every caller).
#[cfg(not(target_arch = "wasm32"))]
pub fn map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    use std::sync::Mutex;
    // A slot's lock is held only to take or put, never while `f` runs: no panic poisons it.
    fn open<X>(m: Mutex<X>) -> X {
        m.into_inner().unwrap_or_else(|e| e.into_inner())
    }
    let n = items.len();
    let inputs: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let outputs: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    each(n, &|i| {
        let item = inputs[i].lock().unwrap_or_else(|e| e.into_inner()).take();
        let r = f(item.expect("each index is run once"));
        *outputs[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
    });
    outputs
        .into_iter()
        .map(|m| open(m).expect("each index was run"))
        .collect()
}

/// `f(i)` for each `i` below `n`, on the pool.
#[cfg(not(target_arch = "wasm32"))]
fn each(n: usize, f: &(dyn Fn(usize) + Sync)) {
    use rayon::prelude::*;
    (0..n).into_par_iter().for_each(f);
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

#[cfg(test)]
mod tests {
    #[test]
    fn results_come_in_the_items_order() {
        let squares = super::map((0..1000u64).collect(), |i| i * i);
        assert_eq!(squares, (0..1000u64).map(|i| i * i).collect::<Vec<_>>());
        assert!(super::map(Vec::<u8>::new(), |i| i).is_empty());
    }

    #[test]
    fn a_panic_reaches_the_caller_with_its_payload() {
        // The searches stop a run past its budget by unwinding with a payload of their own.
        let caught = std::panic::catch_unwind(|| {
            super::map(vec![1u32, 2, 3], |i| {
                if i == 2 {
                    std::panic::panic_any(42u32)
                }
                i
            })
        });
        assert_eq!(*caught.unwrap_err().downcast::<u32>().unwrap(), 42);
    }
}
