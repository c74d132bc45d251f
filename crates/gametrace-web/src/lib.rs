//! The browser page's engine: the core behind one JSON-in, JSON-out call, so that the page's
//! JavaScript needs no generated glue (no wasm-bindgen): it writes a request into the module's
//! memory, calls [`gt_request`], and reads the answer back.
//!
//! Every answer is what the command line says for the same input: `check` gives the report
//! `gametrace check --actual FILE --for-students` prints, `write` the problems `validate`
//! prints and the traces `run` prints, `step` the lines of `run` with the tree as `show` draws
//! it. Nothing here reads a file, starts a process or looks at a clock.

mod api;

pub use api::request;

/// Memory for a request of `len` bytes, for the page to write into.
#[no_mangle]
pub extern "C" fn gt_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Gives back memory from [`gt_alloc`] or an answer of [`gt_request`] (`len` bytes).
///
/// # Safety
/// `ptr` and `len` must be what `gt_alloc` returned and was given, or an answer's pointer and
/// its whole length (4 + the length it holds).
#[no_mangle]
pub unsafe extern "C" fn gt_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Answers the JSON request in `len` bytes at `ptr` (which it frees): the answer is a 4-byte
/// little-endian length followed by that many bytes of JSON.
///
/// # Safety
/// `ptr` must come from [`gt_alloc`]`(len)` with `len` bytes written.
#[no_mangle]
pub unsafe extern "C" fn gt_request(ptr: *mut u8, len: usize) -> *mut u8 {
    let bytes = Vec::from_raw_parts(ptr, len, len.max(1));
    let answer = request(&String::from_utf8_lossy(&bytes));
    let mut out = Vec::with_capacity(4 + answer.len());
    out.extend_from_slice(&(answer.len() as u32).to_le_bytes());
    out.extend_from_slice(answer.as_bytes());
    let mut out = std::mem::ManuallyDrop::new(out.into_boxed_slice());
    out.as_mut_ptr()
}
