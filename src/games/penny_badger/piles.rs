//! The discard pile and its record of who saw each card are written in blocks: a claim's
//! cards and marks with one fixed-size store each instead of a push (and its capacity check)
//! per card, by the shared block stores of [`crate::games::simd`] (`append_block`,
//! `append_fill`, `fill_top`; `tests.rs` compares them with the plain writes on random piles
//! and capacities). This is the size of those blocks.

/// Cards or marks written at once by the block stores: a hand holds at most
/// [`super::params::HAND_CAP`] cards, so a discard or a claim never passes it.
pub(super) const BLOCK: usize = 16;

const _: () = assert!(super::params::HAND_CAP <= BLOCK, "a discard fits one block");
