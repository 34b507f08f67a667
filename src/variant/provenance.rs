//! Where each key of a merged variant was written: a file position, or a `--set` flag.

use std::collections::HashMap;
use std::path::Path;

use toml::de::{DeTable, DeValue};

use crate::error::{Location, VariantError};

/// Key path (`deck.base_sets`, `seats.1.bluff`) to the place it was last written.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    places: HashMap<String, Location>,
    /// Key path of a string value to the place of its first character inside the quotes (for
    /// errors inside an expression of a rules file, which point at the character).
    strings: HashMap<String, Location>,
    /// The first file read, for errors that belong to no key.
    root: Option<Location>,
}

impl Provenance {
    /// Records every key of one parsed file.
    pub fn record_file(&mut self, path: &Path, text: &str, table: &toml::Spanned<DeTable<'_>>) {
        if self.root.is_none() {
            self.root = Some(Location::file(path));
        }
        walk_table(self, path, text, "", table.get_ref());
    }

    /// Records a key set on the command line.
    pub fn record_command_line(&mut self, key: &str, arg: &str) {
        self.places.insert(key.to_string(), Location::CommandLine(arg.to_string()));
    }

    /// Replaces earlier places with the places of `later` (a file that extends an earlier one).
    pub fn overlay(&mut self, later: Provenance) {
        self.places.extend(later.places);
        self.strings.extend(later.strings);
        if later.root.is_some() {
            self.root = later.root;
        }
    }

    /// Where `key` was written; for a table written only through its keys (`--set
    /// scoring.selller.3=10` writes `scoring.selller`), where the first of them was written
    /// (a `--set` flag first); else where its nearest written parent was.
    pub fn locate(&self, key: &str) -> Location {
        if !self.places.contains_key(key) {
            let prefix = format!("{key}.");
            let below = self.places.iter().filter(|(k, _)| k.starts_with(&prefix)).map(|(_, at)| at);
            let first = below.min_by_key(|at| match at {
                Location::CommandLine(arg) => (0, 0, 0, arg.clone()),
                Location::File { line, column, path } => (1, *line, *column, path.display().to_string()),
                Location::Unknown => (2, 0, 0, String::new()),
            });
            if let Some(at) = first {
                return at.clone();
            }
        }
        let mut k = key;
        loop {
            if let Some(at) = self.places.get(k) {
                return at.clone();
            }
            match k.rfind('.') {
                Some(i) => k = &k[..i],
                None => return self.root.clone().unwrap_or(Location::Unknown),
            }
        }
    }

    /// Where character `offset` (0-based) of the string value of `key` was written: the
    /// string's own line and column plus the offset (a string on one line, as expressions
    /// are); where the key's place is known only as a whole, that place.
    pub fn locate_in_string(&self, key: &str, offset: usize) -> Location {
        match self.strings.get(key) {
            Some(Location::File { path, line, column }) => Location::File { path: path.clone(), line: *line, column: column + offset },
            _ => self.locate(key),
        }
    }

    /// An error about `key` located where it was written.
    pub fn invalid(&self, key: &str, message: impl Into<String>) -> VariantError {
        VariantError::Invalid { at: self.locate(key), key: key.to_string(), message: message.into() }
    }
}

fn walk_table(prov: &mut Provenance, path: &Path, text: &str, prefix: &str, table: &DeTable<'_>) {
    for (key, value) in table.iter() {
        let full = if prefix.is_empty() { key.get_ref().to_string() } else { format!("{prefix}.{}", key.get_ref()) };
        prov.places.insert(full.clone(), Location::at(path, text, key.span().start));
        walk_value(prov, path, text, &full, value);
    }
}

fn walk_value(prov: &mut Provenance, path: &Path, text: &str, key: &str, value: &toml::Spanned<DeValue<'_>>) {
    match value.get_ref() {
        DeValue::Table(t) => walk_table(prov, path, text, key, t),
        DeValue::String(_) => {
            // The first character after the opening quote (or quotes of a multi-line string).
            let start = value.span().start;
            let quotes = if text[start..].starts_with("\"\"\"") || text[start..].starts_with("\'\'\'") { 3 } else { 1 };
            prov.strings.insert(key.to_string(), Location::at(path, text, start + quotes));
        }
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let k = format!("{key}.{i}");
                prov.places.insert(k.clone(), Location::at(path, text, item.span().start));
                walk_value(prov, path, text, &k, item);
            }
        }
        _ => {}
    }
}
