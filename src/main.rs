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
    // A file-size limit (`ulimit -f`) would kill the process with SIGXFSZ half-way through a
    // file; ignored, the write fails with "File too large" and the run ends with a clear error.
    #[cfg(unix)]
    // SAFETY: as above, before any thread exists; SIG_IGN is a valid action.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    if let Err(e) = playtest::cli::main() {
        match e {
            playtest::Error::Interrupted(_) => eprintln!("{e}"),
            _ => eprintln!("error: {e}"),
        }
        std::process::exit(e.exit_code());
    }
}
