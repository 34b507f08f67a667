//! Take a Penny tests.
