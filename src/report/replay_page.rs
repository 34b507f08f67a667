//! The replay page of one traced game (`playtest trace ... --html FILE`).

use std::path::Path;

use crate::error::Error;

/// Writes the replay page of the JSON Lines trace `trace` into `file`.
pub fn write(_file: &Path, _title: &str, _trace: &str) -> Result<(), Error> {
    Err(Error::Usage("--html: the replay page is not built yet".into()))
}
