//! The `playtest` binary: runs the CLI and turns its result into an exit code, printing
//! an error once (2 for usage errors such as a bad variant or flag).

fn main() {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`playtest trace ... | head`)
    // would panic; a command-line tool should just stop, as the default action does.
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    if let Err(e) = playtest::cli::main() {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
