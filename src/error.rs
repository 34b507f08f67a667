//! Typed errors of the library, rendered once in `main`. Messages are lowercase, subject
//! first, and say what is allowed.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Where a bad value was written.
#[derive(Clone, Debug, PartialEq)]
pub enum Location {
    /// A position in a file (1-based line and column).
    File {
        /// The file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
    },
    /// A `--set` flag.
    CommandLine(String),
    /// Not known.
    Unknown,
}

impl Location {
    /// The start of a file (for errors about a missing key).
    pub fn file(path: &Path) -> Location {
        Location::File { path: path.to_path_buf(), line: 1, column: 1 }
    }

    /// The position of byte `offset` of `text`, read from `path`.
    pub fn at(path: &Path, text: &str, offset: usize) -> Location {
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Location::File { path: path.to_path_buf(), line, column }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File { path, line, column } => {
                write!(f, "{}:{line}:{column}", path.display())
            }
            Location::CommandLine(arg) => write!(f, "--set {arg}"),
            Location::Unknown => write!(f, "<variant>"),
        }
    }
}

/// A variant that cannot be played.
#[derive(Debug, Error)]
pub enum VariantError {
    /// The file cannot be read.
    #[error("{}: cannot read the variant: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The file is not valid TOML.
    #[error("{at}: not valid TOML: {message}")]
    Syntax {
        /// Where.
        at: Location,
        /// What the parser says.
        message: String,
    },
    /// A key has a value that is not allowed.
    #[error("{at}: key `{key}`: {message}")]
    Invalid {
        /// Where it was written.
        at: Location,
        /// Dotted key.
        key: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// A key whose value has the wrong type or sign (`players = "four"`, `bank = -5`).
    #[error("{0}")]
    WrongType(Box<WrongType>),
    /// Several problems at once.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
    Many(Vec<VariantError>),
    /// Variants extend each other in a circle.
    #[error("`extends` forms a cycle: {}", chain.join(" -> "))]
    ExtendsCycle {
        /// The files in the circle, the repeated one last.
        chain: Vec<String>,
    },
    /// A `--set` flag that cannot be applied.
    #[error("--set {arg}: {message}")]
    BadSet {
        /// The flag's value.
        arg: String,
        /// Why.
        message: String,
    },
}

/// A key whose value has the wrong type or sign, with what is allowed in words.
#[derive(Debug, Error)]
#[error("{at}: key `{key}`: {problem}; expected {expected}")]
pub struct WrongType {
    /// Where it was written.
    pub at: Location,
    /// Dotted key.
    pub key: String,
    /// What was given, in words (`"four" is text`, `-5 is negative`).
    pub problem: String,
    /// What is allowed, in words (`a whole number from 2 to 8`).
    pub expected: String,
    /// A value of the right type the game's check is asked about to learn the range it
    /// allows (see `Variant::explain`); `None` once asked, or for keys with no range.
    pub probe: Option<toml::Value>,
}

/// Shards that cannot be merged into one run (a usage error: exit code 2).
#[derive(Debug, Error)]
pub enum MergeError {
    /// No shard files were given.
    #[error("merge: no shard files given; pass the shard-K-of-N.json files (or the folder holding them)")]
    NoShards,
    /// A file is not a readable shard state.
    #[error("{}: {message}", path.display())]
    BadShard {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Two shards come from different runs.
    #[error("merge: shards of different runs: {what} is {first_value} in {} but {other_value} in {}; merge only shards of one run", first.display(), other.display())]
    Mismatch {
        /// What differs (variant, seed, game count, ...).
        what: String,
        /// The first shard file.
        first: PathBuf,
        /// Its value.
        first_value: String,
        /// The differing shard file.
        other: PathBuf,
        /// Its value.
        other_value: String,
    },
    /// The same shard was given twice.
    #[error("merge: shard {index} of {count} is given twice ({} and {}); give each shard once", first.display(), second.display())]
    Repeated {
        /// Shard index.
        index: u64,
        /// Shard count.
        count: u64,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// Some shards of the set are missing.
    #[error("merge: shard{} {} of {count} missing; all {count} shards are needed", if missing.len() > 1 { "s" } else { "" }, missing.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "))]
    Missing {
        /// The missing indices.
        missing: Vec<u64>,
        /// Shard count.
        count: u64,
    },
}

/// Everything that can stop a command.
#[derive(Debug, Error)]
pub enum Error {
    /// A bad variant file or override (a usage error: exit code 2).
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A bad flag value that clap cannot check alone (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// An output file could not be written.
    #[error("{}: cannot write: {message}", path.display())]
    Output {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Shards that cannot be merged (exit code 2).
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// A game broke one of its invariants (a bug, with the seed that replays it).
    #[error("{0}")]
    Invariant(String),
    /// `playtest check` found a failed expectation or invariant (exit code 1).
    #[error("{0}")]
    CheckFailed(String),
    /// Ctrl-C or SIGTERM stopped the run (exit code 130); says what was kept.
    #[error("{0}")]
    Interrupted(String),
}

impl Error {
    /// The process exit code: 2 for usage errors, 130 for an interrupted run, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Variant(_) | Error::Usage(_) | Error::Merge(_) => 2,
            Error::Interrupted(_) => crate::interrupt::EXIT_CODE,
            _ => 1,
        }
    }

    /// An output error for `path`. A file of an output being written is named by its place in
    /// the output folder, and the message says that the previous result is left as it was.
    pub fn output(path: &Path, e: impl fmt::Display) -> Error {
        match crate::output::shown::shown_path(path) {
            Some(shown) => Error::Output { path: shown, message: format!("{e} (nothing written: the folder keeps its previous result)") },
            None => Error::Output { path: path.to_path_buf(), message: e.to_string() },
        }
    }
}
