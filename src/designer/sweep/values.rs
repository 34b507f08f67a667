//! The swept keys and their values: `--values a,b,c` and `--range START..END[:STEP]` parsed
//! into [`Axis`]es (also what `tune` reads its ranges with).

use crate::designer::thousands;
use crate::error::Error;

use super::MAX_POINTS;

#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The key.
    pub key: String,
    /// The values.
    pub values: Vec<(String, f64)>,
}

/// A number as `--set` should receive it: whole numbers without a decimal point.
fn number_text(x: f64) -> String {
    let r = (x * 1e9).round() / 1e9;
    if r.fract() == 0.0 && r.abs() < 1e15 { format!("{}", r as i64) } else { format!("{r}") }
}

/// Parses `a,b,c` or `START..END[:STEP]` (END included, STEP default 1; an END below START
/// sweeps downward, `10..2:2` is 10, 8, 6, 4, 2).
pub fn parse_values(text: &str) -> Result<Vec<(String, f64)>, String> {
    let text = text.trim();
    if let Some((start, rest)) = text.split_once("..") {
        let (end, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let num =
            |s: &str, what: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| format!("--range {text}: {what} `{s}` is not a number"));
        let (start, end, step) = (num(start, "START")?, num(end, "END")?, num(step, "STEP")?);
        if step <= 0.0 {
            return Err(format!("--range {text}: STEP must be > 0 (an END below START sweeps downward: `10..2:2`)"));
        }
        let count = ((end - start).abs() / step + 1e-9).floor() as usize + 1;
        if count > MAX_POINTS {
            return Err(format!("--range {text}: {count} values; at most {MAX_POINTS}"));
        }
        let step = if end < start { -step } else { step };
        return Ok((0..count).map(|i| start + step * i as f64).map(|x| (number_text(x), x)).collect());
    }
    let values: Vec<(String, f64)> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| (s.to_string(), x)).ok_or_else(|| format!("--values: `{s}` is not a number")))
        .collect::<Result<_, _>>()?;
    if values.is_empty() {
        return Err(format!("--values `{text}`: give at least one number"));
    }
    Ok(values)
}

/// Values of a `--range` written without `:STEP` above which `sweep` warns before playing.
pub const MANY_DEFAULT_STEPS: usize = 12;

/// The warning a `--range START..END` without `:STEP` deserves when its default step of 1
/// gives many values (`0..40`: 41 values, each a full run of `games`).
pub fn default_step_warning(text: &str, games: u64) -> Option<String> {
    let (_, rest) = text.trim().split_once("..")?;
    if rest.contains(':') {
        return None;
    }
    let n = parse_values(text).ok()?.len();
    (n > MANY_DEFAULT_STEPS).then(|| {
        format!(
            "warning: --range {}: no :STEP, so step 1 gives {n} values ({} games in all); add one, e.g. `{}:{}`",
            text.trim(),
            thousands(games * n as u64),
            text.trim(),
            suggested_step(text)
        )
    })
}

/// A step giving about 8 values over `text`'s range (`0..40`: 5).
fn suggested_step(text: &str) -> String {
    let span = parse_values(text).ok().and_then(|v| Some((v.last()?.1 - v.first()?.1).abs())).unwrap_or(8.0);
    number_text((span / 8.0).round().max(1.0))
}

/// The axes of a sweep from `--param` and `--values`/`--range` given in order.
pub fn axes(params: &[String], values: &[String]) -> Result<Vec<Axis>, Error> {
    if params.is_empty() || params.len() > 2 {
        return Err(Error::Usage(format!("sweep takes one or two --param keys, got {}", params.len())));
    }
    if params.len() != values.len() {
        return Err(Error::Usage(format!(
            "every --param needs its own --values or --range after it: {} --param and {} --values/--range given",
            params.len(),
            values.len()
        )));
    }
    let mut out = Vec::new();
    for (key, text) in params.iter().zip(values) {
        let key = key.trim();
        if ["game", "extends", "name", "description", "bots", "seats"].contains(&key) {
            return Err(Error::Usage(format!("--param {key}: not a numeric key; sweep keys such as bank or payout.3.withdrawal")));
        }
        let values = parse_values(text).map_err(Error::Usage)?;
        out.push(Axis { key: key.to_string(), values });
    }
    if out.len() == 2 && out[0].key == out[1].key {
        return Err(Error::Usage(format!("--param {} is given twice", out[0].key)));
    }
    let points: usize = out.iter().map(|a| a.values.len()).product();
    if points > MAX_POINTS {
        return Err(Error::Usage(format!("the sweep has {points} points; at most {MAX_POINTS}")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_include_their_end_and_print_whole_numbers_plainly() {
        let v = parse_values("100..300:50").unwrap();
        assert_eq!(v.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["100", "150", "200", "250", "300"]);
        let v = parse_values("0.1..0.5:0.1").unwrap();
        assert_eq!(v.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["0.1", "0.2", "0.3", "0.4", "0.5"]);
        assert_eq!(parse_values("2..4").unwrap().len(), 3);
        assert_eq!(parse_values("-1,0, 2.5").unwrap(), vec![("-1".into(), -1.0), ("0".into(), 0.0), ("2.5".into(), 2.5)]);
    }

    #[test]
    fn bad_values_are_rejected_with_the_reason() {
        assert!(parse_values("a,b").unwrap_err().contains("`a` is not a number"));
        let down: Vec<f64> = parse_values("10..2:2").unwrap().into_iter().map(|v| v.1).collect();
        assert_eq!(down, [10.0, 8.0, 6.0, 4.0, 2.0]);
        assert_eq!(parse_values("5..1").unwrap().len(), 5);
        let w = default_step_warning("0..40", 1000).expect("41 values at step 1");
        assert!(w.contains("41 values") && w.contains("41,000 games") && w.contains("0..40:5"), "{w}");
        assert!(default_step_warning("0..40:5", 1000).is_none() && default_step_warning("2..6", 1000).is_none());
        assert!(parse_values("1..5:0").unwrap_err().contains("STEP must be > 0"));
        assert!(parse_values("0..100000:1").unwrap_err().contains("at most"));
        assert!(axes(&["bank".into()], &[]).is_err());
        assert!(axes(&["game".into()], &["1".into()]).is_err());
        assert!(axes(&["a".into(), "a".into()], &["1".into(), "2".into()]).is_err());
        let a = axes(&["bank".into(), "hand_size".into()], &["100,200".into(), "4..6".into()]).unwrap();
        assert_eq!(a[1].values.len(), 3);
    }
}
