//! `gametrace`, as the wheel ships it: the root package's command line, unchanged.
fn main() {
    std::process::exit(gametrace::cli::main());
}
