fn main() {
    std::process::exit(gametrace::cli::main());
}
