//! The `halfcheck` binary: everything is in the library's `cli` module.

fn main() -> std::process::ExitCode {
    halfcheck::cli::main()
}
