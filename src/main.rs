//! The `playtest` binary: runs the CLI and turns its result into an exit code, printing
//! an error once (2 for usage errors such as a bad variant or flag).

fn main() {
    if let Err(e) = playtest::cli::main() {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
