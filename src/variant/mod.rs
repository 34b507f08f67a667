//! Variant files: TOML with `extends`, `--set KEY=VALUE` overrides, seat bot specs, and
//! errors that name the file, line and column, the key and what is allowed.
//!
//! Loading is staged (as ripgrep stages its flags): read every file of the `extends` chain,
//! merge them and the `--set` overrides into one table while remembering where each key was
//! written, then hand the game its own keys to deserialise and check.

pub mod explain;
mod provenance;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::engine::BotSpec;
use crate::error::{Location, VariantError};
pub use explain::nearest;
pub use provenance::Provenance;

/// Keys every variant may have whatever its game; all other keys belong to the game.
pub const COMMON_KEYS: &[&str] = &["game", "name", "description", "extends", "bots", "seats", "expect", "rotate", "tune"];

/// One problem with a key's value, found by a game's checks.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// Dotted key path (`deck.base_sets`, `payout.3`).
    pub key: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl Invalid {
    /// A problem with `key`.
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        Invalid { key: key.into(), message: message.into() }
    }
}

/// Which bots sit at the table, as the variant declares them.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatBots {
    /// Nothing declared: every seat plays the game's default bot.
    Default,
    /// One bot for every seat.
    All(BotSpec),
    /// One bot per seat, in seat order.
    PerSeat(Vec<BotSpec>),
}

/// A variant as loaded: merged table, where each key came from, and the common keys.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The file given on the command line.
    pub path: PathBuf,
    /// Game id (`penny-badger`); empty when the file names none (the registry reports it).
    pub game: String,
    /// Variant name (the `name` key, else the file stem).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// The whole merged table as played (after `extends` and `--set`).
    pub table: toml::Table,
    /// Seat bots declared in the file.
    pub seats: SeatBots,
    /// Where every key was written.
    pub provenance: Provenance,
    /// `rotate = true`: play with seat rotation (as `--rotate`) wherever rotation is offered,
    /// for a mixed line-up whose seat effect and bot strength must be told apart.
    pub rotate: bool,
}

impl Variant {
    /// Loads `path`, following `extends`, then applies `--set` overrides in order.
    pub fn load(path: &Path, sets: &[String]) -> Result<Variant, VariantError> {
        let mut provenance = Provenance::default();
        let mut chain = Vec::new();
        let mut table = load_chain(path, &mut chain, &mut provenance)?;
        for set in sets {
            apply_set(&mut table, set, &mut provenance)?;
        }
        Variant::from_table(path, table, provenance)
    }

    /// Loads a variant from TOML text, as if read from `path` (tests feed literals here).
    pub fn from_toml_str(path: &Path, text: &str) -> Result<Variant, VariantError> {
        let mut provenance = Provenance::default();
        let table = parse_file(path, text, &mut provenance)?;
        if table.contains_key("extends") {
            return Err(provenance.invalid("extends", "`extends` needs a file on disk; use Variant::load"));
        }
        Variant::from_table(path, table, provenance)
    }

    fn from_table(path: &Path, table: toml::Table, provenance: Provenance) -> Result<Variant, VariantError> {
        let game = match table.get("game") {
            Some(toml::Value::String(g)) => g.clone(),
            Some(other) => {
                return Err(provenance.invalid("game", format!("expected a game name (a string), got {}", type_name(other))));
            }
            // Left empty: the registry ([`crate::games::dispatch`]), which knows the game ids,
            // reports the missing key with the ids allowed.
            None => String::new(),
        };
        let name = match table.get("name") {
            Some(toml::Value::String(n)) => n.clone(),
            Some(other) => {
                return Err(provenance.invalid("name", format!("expected a string, got {}", type_name(other))));
            }
            None => path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "variant".into()),
        };
        let description = match table.get("description") {
            Some(toml::Value::String(d)) => d.clone(),
            Some(other) => {
                return Err(provenance.invalid("description", format!("expected a string, got {}", type_name(other))));
            }
            None => String::new(),
        };
        let rotate = match table.get("rotate") {
            Some(toml::Value::Boolean(b)) => *b,
            Some(other) => return Err(provenance.invalid("rotate", format!("expected true or false, got {}", type_name(other)))),
            None => false,
        };
        let seats = seat_bots(&table, &provenance)?;
        Ok(Variant { path: path.to_path_buf(), game, name, description, table, seats, provenance, rotate })
    }

    /// The game's own keys deserialised into its parameter struct; errors name the key.
    pub fn game_params<P: DeserializeOwned>(&self) -> Result<P, VariantError> {
        let mut own = self.table.clone();
        for k in COMMON_KEYS {
            own.remove(*k);
        }
        serde_path_to_error::deserialize::<_, P>(toml::Value::Table(own)).map_err(|e| {
            let key = path_text(e.path());
            let key = if key == "." { String::new() } else { key };
            explain::rejection(&self.provenance, &key, &e.inner().to_string())
        })
    }

    /// Completes an error of building the game from this variant: a key of the wrong type is
    /// told the range the game allows for it ("a whole number from 2 to 8"), learnt by
    /// building the game again (`rebuild`) with a value of the right type far out of range
    /// and reading the game's own check of that key. Other errors are returned as they are.
    pub fn explain(&self, error: VariantError, rebuild: impl Fn(&Variant) -> Result<(), VariantError>) -> VariantError {
        let VariantError::WrongType(mut wrong) = error else {
            return error;
        };
        let Some(probe) = wrong.probe.take() else {
            return VariantError::WrongType(wrong);
        };
        let mut probed = self.clone();
        if set_path(&mut probed.table, &wrong.key, probe)
            && let Err(e) = rebuild(&probed)
            && let Some((lo, hi)) = explain::allowed_range(&e, &wrong.key)
        {
            let kind = if wrong.expected.starts_with("a whole number") { "a whole number" } else { "a number" };
            wrong.expected = format!("{kind} from {lo} to {hi}");
        }
        VariantError::WrongType(wrong)
    }

    /// Turns a game's list of problems into one error naming each key's location.
    pub fn invalid(&self, problems: Vec<Invalid>) -> VariantError {
        let mut errors: Vec<VariantError> = problems.into_iter().map(|p| self.provenance.invalid(&p.key, p.message)).collect();
        if errors.len() == 1 { errors.remove(0) } else { VariantError::Many(errors) }
    }

    /// The merged variant as TOML text (what was played).
    pub fn as_played(&self) -> String {
        toml::to_string(&self.table).unwrap_or_default()
    }
}

fn type_name(v: &toml::Value) -> &'static str {
    v.type_str()
}

fn path_text(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut parts = Vec::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => parts.push(index.to_string()),
            Segment::Map { key } => parts.push(key.clone()),
            Segment::Enum { variant } => parts.push(variant.clone()),
            Segment::Unknown => {}
        }
    }
    parts.join(".")
}

fn seat_bots(table: &toml::Table, prov: &Provenance) -> Result<SeatBots, VariantError> {
    let bots = table.get("bots");
    let seats = table.get("seats");
    if bots.is_some() && seats.is_some() {
        return Err(prov.invalid("seats", "give either `bots` (one bot for every seat) or `[[seats]]` (one per seat), not both"));
    }
    match bots {
        Some(toml::Value::String(s)) => return parse_spec(s, "bots", prov).map(SeatBots::All),
        Some(toml::Value::Array(items)) => {
            let specs = items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    toml::Value::String(s) => parse_spec(s, &format!("bots.{i}"), prov),
                    other => {
                        Err(prov.invalid(&format!("bots.{i}"), format!("expected a bot spec string such as \"basic:bluff=0.3\", got {}", type_name(other))))
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(SeatBots::PerSeat(specs));
        }
        Some(other) => {
            return Err(prov.invalid("bots", format!("expected a bot spec string (\"basic\") or a list of them, got {}", type_name(other))));
        }
        None => {}
    }
    let Some(seats) = seats else {
        return Ok(SeatBots::Default);
    };
    let toml::Value::Array(items) = seats else {
        return Err(prov.invalid("seats", "expected an array of tables: [[seats]] with bot = \"...\""));
    };
    let mut specs = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let key = format!("seats.{i}");
        let toml::Value::Table(t) = item else {
            return Err(prov.invalid(&key, "expected a table with bot = \"...\""));
        };
        let mut spec = match t.get("bot") {
            Some(toml::Value::String(s)) => parse_spec(s, &format!("{key}.bot"), prov)?,
            Some(other) => {
                return Err(prov.invalid(&format!("{key}.bot"), format!("expected a bot name, got {}", type_name(other))));
            }
            None => return Err(prov.invalid(&key, "missing key `bot`")),
        };
        for (k, v) in t.iter().filter(|(k, _)| k.as_str() != "bot") {
            let value = match v {
                toml::Value::Integer(n) => *n as f64,
                toml::Value::Float(x) => *x,
                other => {
                    return Err(prov.invalid(&format!("{key}.{k}"), format!("bot parameters are numbers, got {}", type_name(other))));
                }
            };
            spec.params.insert(k.clone(), value);
        }
        specs.push(spec);
    }
    Ok(SeatBots::PerSeat(specs))
}

fn parse_spec(text: &str, key: &str, prov: &Provenance) -> Result<BotSpec, VariantError> {
    BotSpec::parse(text).map_err(|e| prov.invalid(key, e.to_string()))
}

fn read(path: &Path) -> Result<String, VariantError> {
    std::fs::read_to_string(path).map_err(|e| VariantError::Io { path: path.to_path_buf(), message: e.to_string() })
}

fn parse_file(path: &Path, text: &str, provenance: &mut Provenance) -> Result<toml::Table, VariantError> {
    let spanned = toml::de::DeTable::parse(text).map_err(|e| {
        let at = e.span().map(|s| Location::at(path, text, s.start)).unwrap_or_else(|| Location::file(path));
        VariantError::Syntax { at, message: e.message().trim().to_string() }
    })?;
    provenance.record_file(path, text, &spanned);
    toml::from_str::<toml::Table>(text).map_err(|e| {
        let at = e.span().map(|s| Location::at(path, text, s.start)).unwrap_or_else(|| Location::file(path));
        VariantError::Syntax { at, message: e.message().trim().to_string() }
    })
}

fn load_chain(path: &Path, chain: &mut Vec<PathBuf>, provenance: &mut Provenance) -> Result<toml::Table, VariantError> {
    let canonical = path.canonicalize().map_err(|e| VariantError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    if chain.contains(&canonical) {
        let mut names: Vec<String> = chain.iter().map(|p| p.display().to_string()).collect();
        names.push(canonical.display().to_string());
        return Err(VariantError::ExtendsCycle { chain: names });
    }
    chain.push(canonical);
    let text = read(path)?;
    // Parse this file first (to know `extends`), record its keys after the base's.
    let mut own_prov = Provenance::default();
    let mut table = parse_file(path, &text, &mut own_prov)?;
    let merged = match table.remove("extends") {
        None => table,
        Some(toml::Value::String(base)) => {
            let base_path = path.parent().unwrap_or(Path::new(".")).join(&base);
            if !base_path.exists() {
                return Err(own_prov.invalid("extends", format!("no such file `{}` (paths are relative to this file)", base_path.display())));
            }
            let mut merged = load_chain(&base_path, chain, provenance)?;
            merge(&mut merged, table);
            merged
        }
        Some(other) => {
            return Err(own_prov.invalid("extends", format!("expected a file name (a string), got {}", type_name(&other))));
        }
    };
    provenance.overlay(own_prov);
    chain.pop();
    Ok(merged)
}

/// Deep merge: tables merge key by key, everything else (arrays included) is replaced.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// Applies one `--set KEY=VALUE` (dotted keys; numeric segments index arrays).
fn apply_set(table: &mut toml::Table, set: &str, provenance: &mut Provenance) -> Result<(), VariantError> {
    let bad = |message: String| VariantError::BadSet { arg: set.to_string(), message };
    let (key, raw) = set.split_once('=').ok_or_else(|| bad("expected KEY=VALUE, e.g. --set deck.action_sets=0".into()))?;
    let key = key.trim();
    if key.is_empty() || key.split('.').any(|s| s.is_empty()) {
        return Err(bad("the key is empty or has an empty segment".into()));
    }
    let raw = raw.trim();
    let value =
        toml::from_str::<toml::Table>(&format!("v = {raw}")).ok().and_then(|mut t| t.remove("v")).unwrap_or_else(|| toml::Value::String(raw.to_string()));
    let segments: Vec<&str> = key.split('.').collect();
    let mut current = table;
    for (i, seg) in segments[..segments.len() - 1].iter().enumerate() {
        let entry = current.entry(seg.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        current = match entry {
            toml::Value::Table(t) => t,
            toml::Value::Array(items) => {
                let next = segments[i + 1];
                let idx: usize = next.parse().map_err(|_| bad(format!("`{seg}` is a list; index it with a number, e.g. {seg}.0")))?;
                let len = items.len();
                let item = items.get_mut(idx).ok_or_else(|| bad(format!("`{seg}` has {len} entries; index {idx} is out of range")))?;
                match item {
                    toml::Value::Table(t) if i + 2 < segments.len() => {
                        // Skip the index segment: continue inside the table.
                        return set_in(t, &segments[i + 2..], value, key, set, provenance);
                    }
                    other => {
                        *other = value;
                        provenance.record_command_line(key, set);
                        return Ok(());
                    }
                }
            }
            _ => {
                return Err(bad(format!("`{}` is not a table, so `{key}` cannot be set", segments[..=i].join("."))));
            }
        };
    }
    current.insert(segments[segments.len() - 1].to_string(), value);
    provenance.record_command_line(key, set);
    Ok(())
}

fn set_in(table: &mut toml::Table, rest: &[&str], value: toml::Value, key: &str, set: &str, provenance: &mut Provenance) -> Result<(), VariantError> {
    let mut current = table;
    for seg in &rest[..rest.len() - 1] {
        let entry = current.entry(seg.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        current = match entry {
            toml::Value::Table(t) => t,
            _ => {
                return Err(VariantError::BadSet { arg: set.into(), message: format!("`{seg}` is not a table") });
            }
        };
    }
    current.insert(rest[rest.len() - 1].to_string(), value);
    provenance.record_command_line(key, set);
    Ok(())
}

/// Sets the value at a dotted key that is already in `table` (numeric segments index
/// lists); false when the key is not there.
fn set_path(table: &mut toml::Table, key: &str, value: toml::Value) -> bool {
    let mut segments = key.split('.');
    let Some(first) = segments.next() else { return false };
    let Some(mut at) = table.get_mut(first) else { return false };
    for seg in segments {
        let next = match at {
            toml::Value::Table(t) => t.get_mut(seg),
            toml::Value::Array(items) => seg.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
            _ => None,
        };
        let Some(next) = next else { return false };
        at = next;
    }
    *at = value;
    true
}

#[cfg(test)]
mod tests;
