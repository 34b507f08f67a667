//! check (placeholder)
