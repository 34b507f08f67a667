//! Each game's variant keys as one declarative table (key, default, allowed values, meaning),
//! the source of `playtest rules GAME` and of the key table in `docs/games/<game>.md`.
//!
//! A game declares its parameter struct once with `params!`: each field with its doc comment
//! (the key's meaning), type, default and allowed range or words. The macro writes the struct,
//! its `impl Default`, the range check of every `range(..)` key and the key table `KEYS`, so
//! each fact is written once; checks between keys stay hand-written in the game's `check()`.
//!
//! The table is also tied to the variant loader by tests: [`loader_keys`] walks the game's
//! parameter struct through serde (the very `Deserialize` the loader runs) and lists every key
//! it accepts, and each game's tests check that the two lists are the same, that every key set
//! to its documented default loads the same parameters as leaving it out, that each documented
//! `A to B` range is accepted at both ends and refused one step outside, and that an unknown
//! key is refused.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

/// One key of a game's variant file, as `playtest rules` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantKey {
    /// Dotted key as written with `--set` (`deck.base_sets`); a segment in angle brackets
    /// stands for any name or number the designer chooses (`payout.<row>.withdrawal`).
    pub key: &'static str,
    /// The value when the key is left out: a TOML value (`4`, `true`, `"exact"`), or words
    /// when it depends on other keys (`3, or 4 with 8 players`).
    pub default: &'static str,
    /// What the loader accepts: `2 to 8` for a closed range of whole numbers, else words.
    pub allowed: &'static str,
    /// What the key means, in the designer's words.
    pub meaning: &'static str,
}

/// Declares a parameter struct field by field and writes, from that one declaration, the
/// struct, its `impl Default`, `check_ranges` (the range check of every `range(..)` key) and
/// the key table `KEYS`. Each field reads
///
/// ```text
/// /// Meaning, as the key table shows it (the doc comment, lines joined).
/// pub key: Type = default, KIND, option "text", ...;
/// ```
///
/// A `#[serde(..)]` attribute may follow the doc comment. KIND is one of
/// - `range(LO, HI)`: whole numbers, checked here (an `Option` left out is not checked);
/// - `documented(LO, HI)`: shown as a range, checked by hand in the game's `check()`;
/// - `allowed("words")`: shown as written, checked by serde or by hand;
/// - `nested`: a struct declared with this macro under `prefix "name.";`, whose rows and
///   checks are included in place;
/// - `table(Rows)`: a table of free names whose values are `Rows`, a struct declared under
///   `prefix "name.<row>.";`; its rows are shown, its values checked by hand.
///
/// Options, each at most once: `rows` (for a table of free numbers or names, what they are:
/// the key is shown as `key.<rows>`), `shown` (the default as the table shows it when it is
/// not the default expression, e.g. `"3, or 4 with 8 players"`), `note` (words after the
/// range, `"at most the deck"`), `unit` (the word after the value in the range error,
/// `"players"`) and `tail` (words after the range in the range error). A range error reads
/// `{value} {unit} is not allowed; allowed: {LO} to {HI}{tail}`.
///
/// Before the struct, `prefix "name.";` gives the dotted prefix of a nested table's keys, and
/// `required;` declares a struct whose keys serde requires: no `impl Default` is written, and
/// a required key's default reads `= required`.
macro_rules! params {
    (prefix $prefix:literal; required; $($rest:tt)*) => { $crate::games::key_table::params!(@with $prefix, required; $($rest)*); };
    (prefix $prefix:literal; $($rest:tt)*) => { $crate::games::key_table::params!(@with $prefix, default; $($rest)*); };
    (required; $($rest:tt)*) => { $crate::games::key_table::params!(@with "", required; $($rest)*); };
    (@with $prefix:literal, $mode:ident;
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $(#[serde($($serde:tt)*)])*
                $fvis:vis $field:ident : $ty:ty = $default:expr, $kind:ident $(($($arg:tt)*))? $(, $opt:ident $val:literal)*;
            )*
        }
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $(
                $(#[doc = $doc])*
                #[doc = ""]
                #[doc = concat!("Default: `", stringify!($default), "`.")]
                $(#[serde($($serde)*)])*
                $fvis $field: $ty,
            )*
        }

        $crate::games::key_table::params!(@default $mode, $name, [$($field = $default),*]);

        impl $name {
            /// Every key of this table in declaration order, with its default, allowed values
            /// and meaning, as `playtest rules` prints them.
            pub const KEYS: &'static [$crate::games::key_table::VariantKey] = &{
                const PARTS: &[&[$crate::games::key_table::VariantKey]] = &[$(
                    $crate::games::key_table::params!(@rows $prefix, $field, $ty, $default, [$($doc)*], [$($opt $val)*], $kind $(($($arg)*))?)
                ),*];
                $crate::games::key_table::join::<{ $crate::games::key_table::total(PARTS) }>(PARTS)
            };

            /// Checks every key declared with a range, pushing one problem per key out of range.
            #[allow(unused_variables, clippy::ptr_arg, reason = "a table without ranges checks nothing and pushes nothing")]
            pub fn check_ranges(&self, bad: &mut Vec<$crate::variant::Invalid>) {
                $($crate::games::key_table::params!(@check self, bad, $prefix, $field, [$($opt $val)*], $kind $(($($arg)*))?);)*
            }
        }
    };
    (@default default, $name:ident, [$($field:ident = $default:expr),*]) => {
        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default),* }
            }
        }
    };
    (@default required, $name:ident, [$($field:ident = $default:expr),*]) => {};
    (@rows $prefix:literal, $field:ident, $ty:ty, $default:expr, [$($doc:literal)*], [$($opt:ident $val:literal)*], nested) => {
        <$ty>::KEYS
    };
    (@rows $prefix:literal, $field:ident, $ty:ty, $default:expr, [$($doc:literal)*], [$($opt:ident $val:literal)*], table($rows:ty)) => {
        <$rows>::KEYS
    };
    (@rows $prefix:literal, $field:ident, $ty:ty, $default:expr, [$($doc:literal)*], [$($opt:ident $val:literal)*], $kind:ident $($args:tt)?) => {
        &[{
            const O: $crate::games::key_table::Options = $crate::games::key_table::Options { $($opt: $val,)* ..$crate::games::key_table::Options::NONE };
            const ALLOWED: $crate::games::key_table::Text = $crate::games::key_table::params!(@allowed O, $kind $($args)?);
            const KEY: $crate::games::key_table::Text = $crate::games::key_table::Text::key(concat!($prefix, stringify!($field)), O.rows);
            $crate::games::key_table::VariantKey {
                key: $crate::games::key_table::Text::as_str(&KEY),
                default: if O.shown.is_empty() { stringify!($default) } else { O.shown },
                allowed: $crate::games::key_table::Text::as_str(&ALLOWED),
                meaning: concat!($($doc),*).trim_ascii_start(),
            }
        }]
    };
    (@allowed $o:ident, range($lo:expr, $hi:expr)) => { $crate::games::key_table::Text::range(($lo) as i64, ($hi) as i64, $o.note) };
    (@allowed $o:ident, documented($lo:expr, $hi:expr)) => { $crate::games::key_table::Text::range(($lo) as i64, ($hi) as i64, $o.note) };
    (@allowed $o:ident, allowed($words:expr)) => { $crate::games::key_table::Text::new().str($words) };
    (@check $self:ident, $bad:ident, $prefix:literal, $field:ident, [$($opt:ident $val:literal)*], range($lo:expr, $hi:expr)) => {{
        const O: $crate::games::key_table::Options = $crate::games::key_table::Options { $($opt: $val,)* ..$crate::games::key_table::Options::NONE };
        let (lo, hi) = (($lo) as i64, ($hi) as i64);
        if let Some(v) = $crate::games::key_table::Whole::whole(&$self.$field).filter(|v| !(lo..=hi).contains(v)) {
            $bad.push($crate::variant::Invalid::new(concat!($prefix, stringify!($field)), O.out_of_range(v, lo, hi)));
        }
    }};
    (@check $self:ident, $bad:ident, $prefix:literal, $field:ident, [$($opt:ident $val:literal)*], nested) => {
        $self.$field.check_ranges($bad)
    };
    (@check $self:ident, $bad:ident, $prefix:literal, $field:ident, [$($opt:ident $val:literal)*], $kind:ident $($args:tt)?) => {};
    ($($rest:tt)*) => { $crate::games::key_table::params!(@with "", default; $($rest)*); };
}
pub(crate) use params;

/// A key's value as a whole number for its range check; `None` (a key left out) is not checked.
pub trait Whole {
    /// The value, or `None` when there is none to check.
    fn whole(&self) -> Option<i64>;
}

macro_rules! whole_as_i64 {
    ($($t:ty),*) => {$(
        impl Whole for $t {
            fn whole(&self) -> Option<i64> {
                Some(*self as i64)
            }
        }
    )*};
}
whole_as_i64!(u8, u16, u32, i32, i64);

impl<T: Whole> Whole for Option<T> {
    fn whole(&self) -> Option<i64> {
        self.as_ref().and_then(Whole::whole)
    }
}

/// The options of one key in `params!`; empty words are left out.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// For a table of free names, what the names are (`<sets>`); empty: a plain key.
    pub rows: &'static str,
    /// The default as the table shows it; empty: the default expression as written.
    pub shown: &'static str,
    /// Words after the range in the table (`at most the deck`).
    pub note: &'static str,
    /// The word after the value in a range error (`players`).
    pub unit: &'static str,
    /// Words after the range in a range error (` (one bank card each, 4 in the box)`).
    pub tail: &'static str,
}

impl Options {
    /// No options.
    pub const NONE: Options = Options { rows: "", shown: "", note: "", unit: "", tail: "" };

    /// The problem of `value` outside `lo..=hi`.
    pub fn out_of_range(&self, value: i64, lo: i64, hi: i64) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        format!("{value}{unit} is not allowed; allowed: {lo} to {hi}{}", self.tail)
    }
}

/// Text written at compile time (a key's allowed values with numbers from the game's
/// constants), up to 256 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Text {
    bytes: [u8; 256],
    len: usize,
}

impl Text {
    /// Empty text.
    pub const fn new() -> Text {
        Text { bytes: [0; 256], len: 0 }
    }

    /// `key`, then `.rows` unless `rows` is empty.
    pub const fn key(key: &str, rows: &str) -> Text {
        let t = Text::new().str(key);
        if rows.is_empty() { t } else { t.str(".").str(rows) }
    }

    /// `lo to hi`, then `; note` unless the note is empty.
    pub const fn range(lo: i64, hi: i64, note: &str) -> Text {
        let t = Text::new().num(lo).str(" to ").num(hi);
        if note.is_empty() { t } else { t.str("; ").str(note) }
    }

    /// The text followed by `s`.
    pub const fn str(mut self, s: &str) -> Text {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            self.bytes[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// The text followed by `v` in decimal.
    pub const fn num(mut self, v: i64) -> Text {
        if v < 0 {
            self = self.str("-");
        }
        let mut digits = [0u8; 20];
        let (mut n, mut d) = (v.unsigned_abs(), 0);
        loop {
            digits[d] = b'0' + (n % 10) as u8;
            d += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while d > 0 {
            d -= 1;
            self.bytes[self.len] = digits[d];
            self.len += 1;
        }
        self
    }

    /// The text as a string.
    pub const fn as_str(&self) -> &str {
        match std::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => panic!("a key's text is not UTF-8"),
        }
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::new()
    }
}

/// Rows in all of `parts` (the length of [`join`]'s result).
pub const fn total(parts: &[&[VariantKey]]) -> usize {
    let (mut n, mut p) = (0, 0);
    while p < parts.len() {
        n += parts[p].len();
        p += 1;
    }
    n
}

/// The rows of `parts` one after the other; `N` is [`total`]`(parts)`.
pub const fn join<const N: usize>(parts: &[&[VariantKey]]) -> [VariantKey; N] {
    let mut out = [VariantKey { key: "", default: "", allowed: "", meaning: "" }; N];
    let (mut i, mut p) = (0, 0);
    while p < parts.len() {
        let mut j = 0;
        while j < parts[p].len() {
            out[i] = parts[p][j];
            i += 1;
            j += 1;
        }
        p += 1;
    }
    out
}

/// The key table as a Markdown table (the format of `playtest rules` and of the pages in
/// `docs/games/`).
pub fn markdown(keys: &[VariantKey]) -> String {
    let mut out = String::from("| key | default | allowed | meaning |\n| --- | --- | --- | --- |\n");
    for k in keys {
        out.push_str(&format!("| `{}` | {} | {} | {} |\n", k.key, cell(k.default), k.allowed, k.meaning));
    }
    out
}

fn cell(default: &str) -> String {
    if is_toml_value(default) { format!("`{default}`") } else { default.to_string() }
}

/// Whether `text` is one TOML value (`4`, `true`, `"exact"`, `[1, 2]`).
pub fn is_toml_value(text: &str) -> bool {
    format!("v = {text}").parse::<toml::Table>().is_ok()
}

/// A key with every `<...>` segment written as `*`, so `payout.<row>.withdrawal` and the
/// loader's `payout.*.withdrawal` compare equal.
pub fn normalise(key: &str) -> String {
    key.split('.').map(|s| if s.starts_with('<') && s.ends_with('>') { "*" } else { s }).collect::<Vec<_>>().join(".")
}

/// Every key the loader accepts for parameter struct `P`, as dotted paths in declaration
/// order; a table of free names (a map) contributes `name.*` and the keys of its values.
pub fn loader_keys<'de, P: serde::Deserialize<'de>>() -> Vec<String> {
    let keys = RefCell::new(Vec::new());
    let _ = P::deserialize(Recorder { path: String::new(), keys: &keys });
    keys.into_inner()
}

/// A deserializer that answers every request with an empty or zero value and records the
/// path of every leaf it is asked for: a struct gets every one of its fields.
struct Recorder<'a> {
    path: String,
    keys: &'a RefCell<Vec<String>>,
}

/// The error type of [`Recorder`] (never produced by the recorder itself).
#[derive(Debug)]
struct RecordError(String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

impl de::Error for RecordError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        RecordError(msg.to_string())
    }
}

impl Recorder<'_> {
    fn leaf(&self) {
        self.keys.borrow_mut().push(self.path.clone());
    }
    fn child(&self, name: &str) -> Self {
        let path = if self.path.is_empty() { name.to_string() } else { format!("{}.{name}", self.path) };
        Recorder { path, keys: self.keys }
    }
}

macro_rules! leaf_as {
    ($($method:ident => $visit:ident($value:expr)),+ $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.leaf();
            visitor.$visit($value)
        })+
    };
}

impl<'de> Deserializer<'de> for Recorder<'_> {
    type Error = RecordError;

    leaf_as! {
        deserialize_any => visit_u64(0),
        deserialize_bool => visit_bool(false),
        deserialize_i8 => visit_i8(0),
        deserialize_i16 => visit_i16(0),
        deserialize_i32 => visit_i32(0),
        deserialize_i64 => visit_i64(0),
        deserialize_u8 => visit_u8(0),
        deserialize_u16 => visit_u16(0),
        deserialize_u32 => visit_u32(0),
        deserialize_u64 => visit_u64(0),
        deserialize_f32 => visit_f32(0.0),
        deserialize_f64 => visit_f64(0.0),
        deserialize_char => visit_char('a'),
        deserialize_str => visit_str(""),
        deserialize_string => visit_str(""),
        deserialize_bytes => visit_bytes(&[]),
        deserialize_byte_buf => visit_bytes(&[]),
        deserialize_identifier => visit_str(""),
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.leaf();
        visitor.visit_unit()
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.leaf();
        visitor.visit_seq(Empty)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        // One entry named `*` shows what the map's values hold; its value is then dropped.
        let value = self.child("*");
        visitor.visit_map(Fields { names: &["*"], next: 0, parent: &value, prefix_is_self: true })
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _name: &'static str, fields: &'static [&'static str], visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(Fields { names: fields, next: 0, parent: &self, prefix_is_self: false })
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _name: &'static str, variants: &'static [&'static str], visitor: V) -> Result<V::Value, Self::Error> {
        self.leaf();
        let first: de::value::StrDeserializer<'_, RecordError> = variants.first().copied().unwrap_or("").into_deserializer();
        visitor.visit_enum(first)
    }
}

/// An empty list.
struct Empty;

impl<'de> SeqAccess<'de> for Empty {
    type Error = RecordError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, _seed: T) -> Result<Option<T::Value>, Self::Error> {
        Ok(None)
    }
}

/// The fields of a struct (or the one `*` entry of a map), each answered by a recorder one
/// level down.
struct Fields<'a, 'k> {
    names: &'static [&'static str],
    next: usize,
    parent: &'a Recorder<'k>,
    prefix_is_self: bool,
}

impl<'de> MapAccess<'de> for Fields<'_, '_> {
    type Error = RecordError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let Some(name) = self.names.get(self.next) else {
            return Ok(None);
        };
        let key: de::value::StrDeserializer<'_, RecordError> = name.into_deserializer();
        seed.deserialize(key).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        let name = self.names[self.next];
        self.next += 1;
        let value = if self.prefix_is_self { Recorder { path: self.parent.path.clone(), keys: self.parent.keys } } else { self.parent.child(name) };
        seed.deserialize(value)
    }
}

/// Ties a game's key table to its variant loader (run by each game's `params.rs` tests, with the
/// game's parameter struct `P`): the table lists exactly the keys the loader reads; every
/// documented default written out loads the same parameters as leaving it out; each exact
/// `A to B` range is accepted at both ends and refused one step outside (`A to B; ...` only
/// refused outside) on the game's bundled standard variant; an unknown key is refused.
#[cfg(test)]
pub(crate) fn check_against_loader<P>(id: &str, keys: &[VariantKey])
where
    P: serde::de::DeserializeOwned + PartialEq + fmt::Debug,
{
    use std::path::{Path, PathBuf};

    use crate::variant::Variant;

    let table: Vec<String> = keys.iter().map(|k| normalise(k.key)).collect();
    let mut sorted = table.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), table.len(), "{id}: a key is listed twice in its table");
    let mut loader = loader_keys::<P>();
    loader.sort();
    assert_eq!(sorted, loader, "{id}: the key table (left) and the keys the variant loader reads (right) differ");

    let builds = |v: &Variant| -> Result<(), String> { crate::games::handle(v).map(drop).map_err(|e| e.to_string()) };

    // Every default that is a TOML value, written out, changes nothing.
    let bare = format!("game = \"{id}\"\n");
    let mut written = bare.clone();
    for k in keys.iter().filter(|k| !k.key.contains('<') && is_toml_value(k.default)) {
        written.push_str(&format!("{} = {}\n", k.key, k.default));
    }
    if let Ok(plain) = Variant::from_toml_str(Path::new("bare.toml"), &bare).and_then(|v| v.game_params::<P>()) {
        let full =
            Variant::from_toml_str(Path::new("written.toml"), &written).unwrap_or_else(|e| panic!("{id}: the documented defaults do not load: {e}\n{written}"));
        builds(&full).unwrap_or_else(|e| panic!("{id}: the documented defaults are refused: {e}\n{written}"));
        let full = full.game_params::<P>().unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(plain, full, "{id}: a documented default differs from the loader's\n{written}");
    } else {
        for k in keys {
            assert!(!is_toml_value(k.default), "{id}: `{}` has default {} but the game has no defaults (every key is required)", k.key, k.default);
        }
    }

    // Documented ranges, on the bundled standard variant.
    let standard = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants").join(id).join("standard.toml");
    let with = |key: &str, value: i64| Variant::load(&standard, &[format!("{key}={value}")]).map_err(|e| e.to_string()).and_then(|v| builds(&v));
    for k in keys.iter().filter(|k| !k.key.contains('<')) {
        let (range, exact) = match k.allowed.split_once(';') {
            Some((range, _)) => (range, false),
            None => (k.allowed, true),
        };
        let Some((lo, hi)) = range.split_once(" to ") else { continue };
        let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>()) else { continue };
        if exact {
            for v in [lo, hi] {
                with(k.key, v).unwrap_or_else(|e| panic!("{id}: `{}` = {v} is documented as allowed ({}) but refused: {e}", k.key, k.allowed));
            }
        }
        for v in [lo - 1, hi + 1] {
            assert!(with(k.key, v).is_err(), "{id}: `{}` = {v} is outside the documented {} but accepted", k.key, k.allowed);
        }
    }
    assert!(with("no_such_key", 1).is_err(), "{id}: an unknown key is accepted");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        a: u32,
        b: Option<bool>,
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    #[serde(rename_all = "snake_case")]
    enum Choice {
        First,
        Second,
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        players: u32,
        choice: Choice,
        list: Vec<u32>,
        inner: Inner,
        table: std::collections::BTreeMap<String, Inner>,
        scores: std::collections::BTreeMap<String, i64>,
    }

    #[test]
    fn the_recorder_lists_every_key_of_nested_structs_and_maps() {
        let keys = loader_keys::<Outer>();
        assert_eq!(keys, ["players", "choice", "list", "inner.a", "inner.b", "table.*.a", "table.*.b", "scores.*"]);
    }

    #[test]
    fn markdown_quotes_toml_defaults_and_leaves_words() {
        let keys = [
            VariantKey { key: "players", default: "4", allowed: "2 to 8", meaning: "players" },
            VariantKey { key: "decks", default: "3, or 4 with 8 players", allowed: "1 to 8", meaning: "decks" },
        ];
        let md = markdown(&keys);
        assert!(md.contains("| `players` | `4` | 2 to 8 | players |"), "{md}");
        assert!(md.contains("| `decks` | 3, or 4 with 8 players | 1 to 8 | decks |"), "{md}");
        assert_eq!(normalise("payout.<row>.withdrawal"), "payout.*.withdrawal");
    }

    #[test]
    fn every_game_page_shows_exactly_the_key_table_that_rules_prints() {
        for id in crate::games::GAME_IDS {
            let keys = crate::games::variant_keys(id).unwrap_or_default();
            assert!(!keys.is_empty(), "{id} declares no variant keys");
            let path = format!("{}/docs/games/{id}.md", env!("CARGO_MANIFEST_DIR"));
            let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let table = markdown(keys);
            assert!(page.contains(&table), "{path} does not show the key table `playtest rules {id}` prints; paste it:\n{table}");
            let section = page.split("\n## Variant keys\n").nth(1).and_then(|rest| rest.split("\n## ").next()).unwrap_or_default();
            let rows = section.lines().filter(|l| l.starts_with("| `")).count();
            assert_eq!(rows, keys.len(), "{path}: its Variant keys section lists {rows} keys, the game's key table {}", keys.len());
        }
    }
}
