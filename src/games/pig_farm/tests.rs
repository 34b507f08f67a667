//! Pig Farm tests.
