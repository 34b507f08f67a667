//! Block writes to the discard pile and its record of who saw each card: a claim's cards and
//! marks written with one fixed-size store each instead of a push (and its capacity check)
//! per card. Each fast write has its plain version beside it; `tests.rs` compares them on
//! random piles and capacities.

/// Cards or marks written at once by [`append_block`] and [`fill_top`]: a hand holds at most
/// [`super::params::HAND_CAP`] cards, so a discard or a claim never passes it.
pub(super) const BLOCK: usize = 16;

const _: () = assert!(super::params::HAND_CAP <= BLOCK, "a discard fits one block");

/// Appends the first `n` entries of `block` to `pile` (`n <= BLOCK`), as
/// `extend_from_slice` does. When the pile has room for a whole block past its end (the
/// deal reserves it), the block is one store and the length grows by `n`; otherwise the
/// plain append.
#[inline(always)]
pub(super) fn append_block<T: Copy>(pile: &mut Vec<T>, block: &[T; BLOCK], n: usize) {
    assert!(n <= BLOCK, "a block holds at most {BLOCK} entries");
    let len = pile.len();
    if pile.capacity() - len >= BLOCK {
        // SAFETY: the capacity check puts slots `len..len + BLOCK` inside the pile's
        // allocation, so the store of `BLOCK` values of `T` (a `Copy` type: nothing to drop,
        // nothing read) stays in bounds; the pointer is aligned for `T` and `[T; BLOCK]` has
        // the same alignment. After it the first `n <= BLOCK` of those slots hold values, and
        // `set_len` exposes exactly them. `append_block_is_the_plain_append` checks the result.
        unsafe {
            pile.as_mut_ptr().add(len).cast::<[T; BLOCK]>().write(*block);
            pile.set_len(len + n);
        }
    } else {
        pile.extend_from_slice(&block[..n]);
    }
}

/// Appends `n` copies of `value` to `pile` (`n <= BLOCK`), as `extend` with repeated values
/// does: [`append_block`] of a block of `value`s, with the block made in registers rather
/// than copied from memory (a claim's marks: one mark per card).
#[inline(always)]
pub(super) fn append_fill<T: Copy>(pile: &mut Vec<T>, value: T, n: usize) {
    assert!(n <= BLOCK, "a block holds at most {BLOCK} entries");
    let len = pile.len();
    if pile.capacity() - len >= BLOCK {
        // SAFETY: as in `append_block`: the capacity check puts slots `len..len + BLOCK`
        // inside the pile's allocation, the store writes `BLOCK` copies of a `Copy` value
        // there (aligned for `T`, as `[T; BLOCK]` is), and `set_len` exposes the first
        // `n <= BLOCK` of them. `append_fill_is_the_plain_append` checks the result.
        unsafe {
            pile.as_mut_ptr().add(len).cast::<[T; BLOCK]>().write([value; BLOCK]);
            pile.set_len(len + n);
        }
    } else {
        pile.extend(std::iter::repeat_n(value, n));
    }
}

/// Sets the last `n` entries of `pile` to `value` (`n <= pile.len()`), as a plain fill
/// does. With room for a whole block from the first of them, one store of `BLOCK` copies of
/// `value`: the copies past the pile's end land in its spare capacity, outside its length.
#[inline(always)]
pub(super) fn fill_top<T: Copy>(pile: &mut Vec<T>, n: usize, value: T) {
    let start = pile.len().checked_sub(n).expect("the entries to fill are on the pile");
    if n <= BLOCK && pile.capacity() - start >= BLOCK {
        // SAFETY: `start <= len <= capacity` and the check puts slots `start..start + BLOCK`
        // inside the pile's allocation, so the store stays in bounds and reads nothing; the
        // pointer is aligned for `T` and `[T; BLOCK]` has the same alignment. The `n` slots
        // from `start` are the last `n` entries (all initialized before, all `value` after);
        // the rest lie past the length, in spare capacity, and the length is unchanged.
        // `fill_top_is_the_plain_fill` checks the result.
        unsafe { pile.as_mut_ptr().add(start).cast::<[T; BLOCK]>().write([value; BLOCK]) };
    } else {
        pile[start..].fill(value);
    }
}
