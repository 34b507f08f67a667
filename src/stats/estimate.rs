//! A value with its 95% interval: the shape of every figure in the summary and its JSON.

use serde::Serialize;

/// A value with its 95% interval.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Estimate {
    /// Point estimate.
    pub value: f64,
    /// 95% interval.
    pub ci95: [f64; 2],
}
