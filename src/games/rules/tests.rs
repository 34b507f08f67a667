//! Tests of the rules language: the seed games written in it against the built-in games,
//! errors with their places, the machine's invariants.
