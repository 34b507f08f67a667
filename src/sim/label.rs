//! Actions of the trace notation in words, for the page's controls, the narration and the advice.

use serde_json::Value;

/// An action of the trace notation in words: `"pass"` reads `pass`, `{"discard": "blue
/// star"}` reads `discard blue star`, fields as `name value`, lists joined by commas.
pub fn label(action: &Value) -> String {
    match action {
        Value::String(s) => s.replace('_', " "),
        Value::Object(map) if map.len() == 1 => {
            let (k, v) = map.iter().next().expect("one entry");
            match v {
                Value::Null => k.replace('_', " "),
                _ => format!("{} {}", k.replace('_', " "), label(v)),
            }
        }
        Value::Object(map) => map.iter().map(|(k, v)| format!("{} {}", k.replace('_', " "), label(v))).collect::<Vec<_>>().join(", "),
        Value::Array(items) => items.iter().map(label).collect::<Vec<_>>().join(" + "),
        Value::Null => "-".into(),
        other => other.to_string(),
    }
}
