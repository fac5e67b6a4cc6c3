//! The `halfcheck` command line.

fn main() {
    std::process::exit(0);
}
