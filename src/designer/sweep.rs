//! sweep (placeholder)
