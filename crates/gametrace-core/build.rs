//! Rebuilds the core when a spec or an expected trace changes: they are compiled into it
//! (`src/builtin.rs`), and the macro that includes them cannot tell cargo so itself.

fn main() {
    println!("cargo:rerun-if-changed=../../specs");
    println!("cargo:rerun-if-changed=../../expected");
    println!("cargo:rerun-if-changed=build.rs");
}
