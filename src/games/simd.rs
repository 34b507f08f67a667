//! Every `unsafe` line the games' hot code needs, behind safe functions: 128-bit SSE2 vectors
//! ([`V128`], x86-64 only) and block stores into a `Vec`'s spare capacity ([`append_block`],
//! [`append_fill`], [`fill_top`]).
//!
//! Why: a hand of at most 16 one-byte cards, or five colors' counts, fits one SSE2 register,
//! so finding, inserting and removing cards is a few register operations instead of a loop
//! over the hand (Penny Badger's `basic`, Flower Power's hands and `greedy`, Rainbow Rush's
//! covers, the Chroma hand; `benches/instructions.csv` counts what it saves). The games write
//! that logic themselves, in safe code over [`V128`]; only the intrinsics live here.
//!
//! The dispatch is by compilation target, not by run-time detection: SSE2 is part of the
//! x86-64 baseline, so on x86-64 every intrinsic here exists on every CPU the code runs on and
//! [`V128`] is always available; on any other target [`V128`] does not exist and each game
//! compiles its plain version instead (`#[cfg(not(target_arch = "x86_64"))]` beside each use,
//! compared with the vector version by that game's tests). The engine's bit-instruction twins
//! (`#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]`, `engine/play.rs`) inline these
//! functions as they inlined the intrinsics: every function here is `#[inline(always)]`, so a
//! vector stays in a register from one call to the next.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// 128 bits in one SSE2 register, read as 16 bytes, 8 16-bit lanes or 2 64-bit lanes as each
/// operation says (lane 0 is the lowest, the first byte in memory). Every operation is the SSE2
/// instruction its doc names, made safe: SSE2 is part of the x86-64 baseline, and the loads and
/// stores take references to exactly 16 bytes.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct V128(__m128i);

// SAFETY (every `unsafe` block of this impl): the intrinsics are SSE2 instructions, which every
// x86-64 CPU has (the `x86_64` target enables `sse2`); the ones that touch memory read or write
// the 16 bytes of the reference they are given (unaligned access: no alignment required).
#[cfg(target_arch = "x86_64")]
impl V128 {
    /// All zero bits (`pxor`).
    #[inline(always)]
    pub fn zero() -> V128 {
        V128(unsafe { _mm_setzero_si128() })
    }

    /// The 16 bytes of `bytes`, byte i in lane i (`movdqu`; an aligned source is loaded as
    /// aligned once inlined).
    #[inline(always)]
    pub fn load(bytes: &[u8; 16]) -> V128 {
        V128(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
    }

    /// The 8 16-bit lanes of `lanes`, lane i from `lanes[i]` (`movdqu`).
    #[inline(always)]
    pub fn load16(lanes: &[u16; 8]) -> V128 {
        V128(unsafe { _mm_loadu_si128(lanes.as_ptr().cast()) })
    }

    /// The 2 64-bit lanes of `words`, lane i from `words[i]` (`movdqu`).
    #[inline(always)]
    pub fn load64(words: &[u64; 2]) -> V128 {
        V128(unsafe { _mm_loadu_si128(words.as_ptr().cast()) })
    }

    /// Writes the 16 bytes to `bytes`, lane i to byte i (`movdqu`).
    #[inline(always)]
    pub fn store(self, bytes: &mut [u8; 16]) {
        unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), self.0) }
    }

    /// Writes the 8 16-bit lanes to `lanes` (`movdqu`).
    #[inline(always)]
    pub fn store16(self, lanes: &mut [u16; 8]) {
        unsafe { _mm_storeu_si128(lanes.as_mut_ptr().cast(), self.0) }
    }

    /// `byte` in all 16 byte lanes (`_mm_set1_epi8`).
    #[inline(always)]
    pub fn splat8(byte: u8) -> V128 {
        V128(unsafe { _mm_set1_epi8(byte as i8) })
    }

    /// `lane` in all 8 16-bit lanes (`_mm_set1_epi16`).
    #[inline(always)]
    pub fn splat16(lane: u16) -> V128 {
        V128(unsafe { _mm_set1_epi16(lane as i16) })
    }

    /// `word` in both 64-bit lanes (`_mm_set1_epi64x`).
    #[inline(always)]
    pub fn splat64(word: u64) -> V128 {
        V128(unsafe { _mm_set1_epi64x(word as i64) })
    }

    /// `low` in the low 64-bit lane, `high` in the high one (`_mm_set_epi64x`).
    #[inline(always)]
    pub fn from_u64s(high: u64, low: u64) -> V128 {
        V128(unsafe { _mm_set_epi64x(high as i64, low as i64) })
    }

    /// `low` in the low 64-bit lane, the high lane zero (`movq`).
    #[inline(always)]
    pub fn from_u64(low: u64) -> V128 {
        V128(unsafe { _mm_cvtsi64_si128(low as i64) })
    }

    /// The 8 16-bit lanes, lane i from `lanes[i]` (`_mm_set_epi16`, a constant when they are).
    #[inline(always)]
    pub fn from_u16s(lanes: [u16; 8]) -> V128 {
        let [l0, l1, l2, l3, l4, l5, l6, l7] = lanes.map(|l| l as i16);
        V128(unsafe { _mm_set_epi16(l7, l6, l5, l4, l3, l2, l1, l0) })
    }

    /// The low 32 bits (`movd`).
    #[inline(always)]
    pub fn low_u32(self) -> u32 {
        unsafe { _mm_cvtsi128_si32(self.0) as u32 }
    }

    /// Bit i set when the top bit of byte lane i is (`pmovmskb`): a comparison's lanes as a
    /// mask of positions.
    #[inline(always)]
    pub fn mask8(self) -> u32 {
        unsafe { _mm_movemask_epi8(self.0) as u32 }
    }

    /// Bitwise and (`pand`).
    #[inline(always)]
    pub fn and(self, other: V128) -> V128 {
        V128(unsafe { _mm_and_si128(self.0, other.0) })
    }

    /// Bitwise or (`por`).
    #[inline(always)]
    pub fn or(self, other: V128) -> V128 {
        V128(unsafe { _mm_or_si128(self.0, other.0) })
    }

    /// Bitwise exclusive or (`pxor`).
    #[inline(always)]
    pub fn xor(self, other: V128) -> V128 {
        V128(unsafe { _mm_xor_si128(self.0, other.0) })
    }

    /// `other` without the bits of `self`: `!self & other` (`pandn`).
    #[inline(always)]
    pub fn and_not(self, other: V128) -> V128 {
        V128(unsafe { _mm_andnot_si128(self.0, other.0) })
    }

    /// Byte lanes equal: 0xFF where they are, 0 elsewhere (`pcmpeqb`).
    #[inline(always)]
    pub fn eq8(self, other: V128) -> V128 {
        V128(unsafe { _mm_cmpeq_epi8(self.0, other.0) })
    }

    /// Byte lanes greater, as signed bytes: 0xFF where `self`'s is (`pcmpgtb`).
    #[inline(always)]
    pub fn gt8(self, other: V128) -> V128 {
        V128(unsafe { _mm_cmpgt_epi8(self.0, other.0) })
    }

    /// 16-bit lanes equal: 0xFFFF where they are (`pcmpeqw`).
    #[inline(always)]
    pub fn eq16(self, other: V128) -> V128 {
        V128(unsafe { _mm_cmpeq_epi16(self.0, other.0) })
    }

    /// 16-bit lanes greater, as signed numbers: 0xFFFF where `self`'s is (`pcmpgtw`).
    #[inline(always)]
    pub fn gt16(self, other: V128) -> V128 {
        V128(unsafe { _mm_cmpgt_epi16(self.0, other.0) })
    }

    /// Byte lanes added, wrapping (`paddb`).
    #[inline(always)]
    pub fn add8(self, other: V128) -> V128 {
        V128(unsafe { _mm_add_epi8(self.0, other.0) })
    }

    /// Byte lanes subtracted, wrapping (`psubb`).
    #[inline(always)]
    pub fn sub8(self, other: V128) -> V128 {
        V128(unsafe { _mm_sub_epi8(self.0, other.0) })
    }

    /// 16-bit lanes added, wrapping (`paddw`).
    #[inline(always)]
    pub fn add16(self, other: V128) -> V128 {
        V128(unsafe { _mm_add_epi16(self.0, other.0) })
    }

    /// 16-bit lanes subtracted, wrapping (`psubw`).
    #[inline(always)]
    pub fn sub16(self, other: V128) -> V128 {
        V128(unsafe { _mm_sub_epi16(self.0, other.0) })
    }

    /// The smaller of each pair of byte lanes, unsigned (`pminub`).
    #[inline(always)]
    pub fn min_u8(self, other: V128) -> V128 {
        V128(unsafe { _mm_min_epu8(self.0, other.0) })
    }

    /// The larger of each pair of byte lanes, unsigned (`pmaxub`).
    #[inline(always)]
    pub fn max_u8(self, other: V128) -> V128 {
        V128(unsafe { _mm_max_epu8(self.0, other.0) })
    }

    /// The smaller of each pair of 16-bit lanes, signed (`pminsw`).
    #[inline(always)]
    pub fn min_i16(self, other: V128) -> V128 {
        V128(unsafe { _mm_min_epi16(self.0, other.0) })
    }

    /// The larger of each pair of 16-bit lanes, signed (`pmaxsw`).
    #[inline(always)]
    pub fn max_i16(self, other: V128) -> V128 {
        V128(unsafe { _mm_max_epi16(self.0, other.0) })
    }

    /// The whole register moved `N` bytes up (towards lane 15), zeros shifted in at lane 0
    /// (`pslldq`): byte lane i takes lane i - `N`.
    #[inline(always)]
    pub fn bytes_up<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_slli_si128::<N>(self.0) })
    }

    /// The whole register moved `N` bytes down (towards lane 0), zeros shifted in at lane 15
    /// (`psrldq`): byte lane i takes lane i + `N`.
    #[inline(always)]
    pub fn bytes_down<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_srli_si128::<N>(self.0) })
    }

    /// Each 16-bit lane shifted left by `N` bits (`psllw`).
    #[inline(always)]
    pub fn shl16<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_slli_epi16::<N>(self.0) })
    }

    /// Each 16-bit lane shifted right by `N` bits, zeros in (`psrlw`).
    #[inline(always)]
    pub fn shr16<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_srli_epi16::<N>(self.0) })
    }

    /// Each 64-bit lane shifted left by `N` bits (`psllq`).
    #[inline(always)]
    pub fn shl64<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_slli_epi64::<N>(self.0) })
    }

    /// Each 64-bit lane shifted right by `N` bits, zeros in (`psrlq`).
    #[inline(always)]
    pub fn shr64<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_srli_epi64::<N>(self.0) })
    }

    /// The low 8 bytes of `self` and of `other` interleaved: `self`'s byte i to lane 2i,
    /// `other`'s to lane 2i + 1 (`punpcklbw`; with zero `other`, bytes widened to 16 bits).
    #[inline(always)]
    pub fn unpack_low8(self, other: V128) -> V128 {
        V128(unsafe { _mm_unpacklo_epi8(self.0, other.0) })
    }

    /// The high 64-bit lanes of `self` (low lane of the result) and `other` (high lane)
    /// (`punpckhqdq`).
    #[inline(always)]
    pub fn unpack_high64(self, other: V128) -> V128 {
        V128(unsafe { _mm_unpackhi_epi64(self.0, other.0) })
    }

    /// The 16-bit lanes of `self` (bytes 0..8) and `other` (bytes 8..16) narrowed to signed
    /// bytes, saturating (`packsswb`).
    #[inline(always)]
    pub fn pack_i16_to_i8(self, other: V128) -> V128 {
        V128(unsafe { _mm_packs_epi16(self.0, other.0) })
    }

    /// The 16-bit lanes of `self` (bytes 0..8) and `other` (bytes 8..16) narrowed to unsigned
    /// bytes, saturating (`packuswb`).
    #[inline(always)]
    pub fn pack_i16_to_u8(self, other: V128) -> V128 {
        V128(unsafe { _mm_packus_epi16(self.0, other.0) })
    }

    /// The four 32-bit lanes picked by `N` (two bits per result lane, lowest first; `pshufd`).
    #[inline(always)]
    pub fn shuffle32<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_shuffle_epi32::<N>(self.0) })
    }

    /// The low four 16-bit lanes picked by `N` (two bits per result lane, lowest first), the
    /// high four unchanged (`pshuflw`).
    #[inline(always)]
    pub fn shuffle_low16<const N: i32>(self) -> V128 {
        V128(unsafe { _mm_shufflelo_epi16::<N>(self.0) })
    }
}

/// Appends the first `n` entries of `block` to `pile` (`n <= N`), as `extend_from_slice`
/// does. When the pile has room for a whole block past its end (a deal can reserve it), the
/// block is one fixed-size store (a vector store for bytes) and the length grows by `n`, with
/// no capacity check per entry; otherwise the plain append.
///
/// # Panics
/// When `n > N`.
#[inline(always)]
pub fn append_block<T: Copy, const N: usize>(pile: &mut Vec<T>, block: &[T; N], n: usize) {
    assert!(n <= N, "a block holds at most {N} entries");
    let len = pile.len();
    if pile.capacity() - len >= N {
        // SAFETY: the capacity check puts slots `len..len + N` inside the pile's allocation, so
        // the store of `N` values of `T` (a `Copy` type: nothing to drop, nothing read) stays in
        // bounds; the pointer is aligned for `T` and `[T; N]` has the same alignment. After it
        // the first `n <= N` of those slots hold values, and `set_len` exposes exactly them.
        unsafe {
            pile.as_mut_ptr().add(len).cast::<[T; N]>().write(*block);
            pile.set_len(len + n);
        }
    } else {
        pile.extend_from_slice(&block[..n]);
    }
}

/// Appends `n` copies of `value` to `pile` (`n <= N`), as `extend` with repeated values does:
/// [`append_block`] of a block of `value`s, the block made in registers rather than copied
/// from memory.
///
/// # Panics
/// When `n > N`.
#[inline(always)]
pub fn append_fill<T: Copy, const N: usize>(pile: &mut Vec<T>, value: T, n: usize) {
    assert!(n <= N, "a block holds at most {N} entries");
    let len = pile.len();
    if pile.capacity() - len >= N {
        // SAFETY: as in `append_block`: the capacity check puts slots `len..len + N` inside the
        // pile's allocation, the store writes `N` copies of a `Copy` value there (aligned for
        // `T`, as `[T; N]` is), and `set_len` exposes the first `n <= N` of them.
        unsafe {
            pile.as_mut_ptr().add(len).cast::<[T; N]>().write([value; N]);
            pile.set_len(len + n);
        }
    } else {
        pile.extend(std::iter::repeat_n(value, n));
    }
}

/// Sets the last `n` entries of `pile` to `value` (`n <= pile.len()`), as a plain fill does.
/// With room for a whole block of `N` from the first of them, one store of `N` copies of
/// `value`: the copies past the pile's end land in its spare capacity, outside its length.
///
/// # Panics
/// When `n > pile.len()`.
#[inline(always)]
pub fn fill_top<T: Copy, const N: usize>(pile: &mut Vec<T>, n: usize, value: T) {
    let start = pile.len().checked_sub(n).expect("the entries to fill are on the pile");
    if n <= N && pile.capacity() - start >= N {
        // SAFETY: `start <= len <= capacity` and the check puts slots `start..start + N` inside
        // the pile's allocation, so the store stays in bounds and reads nothing; the pointer is
        // aligned for `T` and `[T; N]` has the same alignment. The `n` slots from `start` are the
        // last `n` entries (all initialized before, all `value` after); the rest lie past the
        // length, in spare capacity, and the length is unchanged.
        unsafe { pile.as_mut_ptr().add(start).cast::<[T; N]>().write([value; N]) };
    } else {
        pile[start..].fill(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block stores leave the same pile as the plain appends and fill, with and without
    /// room for a whole block.
    #[test]
    fn block_stores_are_the_plain_ones() {
        for cap in [0, 3, 16, 40] {
            for n in 0..=16 {
                let block: [u8; 16] = std::array::from_fn(|i| i as u8 + 1);
                let mut fast: Vec<u8> = Vec::with_capacity(cap);
                fast.extend_from_slice(&[9, 9, 9]);
                let mut plain = fast.clone();
                append_block(&mut fast, &block, n);
                plain.extend_from_slice(&block[..n]);
                assert_eq!(fast, plain, "append_block cap {cap} n {n}");
                append_fill::<u8, 16>(&mut fast, 7, n);
                plain.extend(std::iter::repeat_n(7, n));
                assert_eq!(fast, plain, "append_fill cap {cap} n {n}");
                let k = n.min(fast.len());
                fill_top::<u8, 16>(&mut fast, k, 5);
                let at = plain.len() - k;
                plain[at..].fill(5);
                assert_eq!(fast, plain, "fill_top cap {cap} n {k}");
            }
        }
    }

    /// Each vector operation against its definition on plain lanes.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_operations_are_their_definitions() {
        let a: [u8; 16] = std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(200));
        let b: [u8; 16] = std::array::from_fn(|i| (i as u8).wrapping_mul(91) ^ 0x5a);
        let bytes = |v: V128| {
            let mut out = [0u8; 16];
            v.store(&mut out);
            out
        };
        let lanes16 = |v: V128| {
            let mut out = [0u16; 8];
            v.store16(&mut out);
            out
        };
        let (va, vb) = (V128::load(&a), V128::load(&b));
        let each = |f: &dyn Fn(u8, u8) -> u8| -> [u8; 16] { std::array::from_fn(|i| f(a[i], b[i])) };
        assert_eq!(bytes(va.eq8(vb)), each(&|x, y| if x == y { 0xff } else { 0 }));
        assert_eq!(bytes(va.gt8(vb)), each(&|x, y| if (x as i8) > (y as i8) { 0xff } else { 0 }));
        assert_eq!(bytes(va.add8(vb)), each(&|x, y| x.wrapping_add(y)));
        assert_eq!(bytes(va.sub8(vb)), each(&|x, y| x.wrapping_sub(y)));
        assert_eq!(bytes(va.min_u8(vb)), each(&|x, y| x.min(y)));
        assert_eq!(bytes(va.max_u8(vb)), each(&|x, y| x.max(y)));
        assert_eq!(bytes(va.and_not(vb)), each(&|x, y| !x & y));
        assert_eq!(bytes(va.xor(vb).or(va.and(vb))), each(&|x, y| x | y));
        assert_eq!(va.mask8(), (0..16).fold(0, |m, i| m | (u32::from(a[i] >> 7) << i)));
        assert_eq!(bytes(va.bytes_up::<1>()), std::array::from_fn(|i| if i == 0 { 0 } else { a[i - 1] }));
        assert_eq!(bytes(va.bytes_down::<1>()), std::array::from_fn(|i| if i == 15 { 0 } else { a[i + 1] }));
        assert_eq!(bytes(V128::splat8(3)), [3; 16]);
        assert_eq!(V128::from_u64s(5, 6).low_u32(), 6);
        assert_eq!(lanes16(V128::from_u16s([0, 1, 2, 3, 4, 5, 6, 7])), [0, 1, 2, 3, 4, 5, 6, 7]);
        let l: [u16; 8] = [1, 0x8000, 7, 300, 65535, 9, 0, 12];
        let m: [u16; 8] = [2, 5, 7, 299, 1, 9, 3, 0x7fff];
        let (vl, vm) = (V128::load16(&l), V128::load16(&m));
        let each16 = |f: &dyn Fn(u16, u16) -> u16| -> [u16; 8] { std::array::from_fn(|i| f(l[i], m[i])) };
        assert_eq!(lanes16(vl.min_i16(vm)), each16(&|x, y| (x as i16).min(y as i16) as u16));
        assert_eq!(lanes16(vl.max_i16(vm)), each16(&|x, y| (x as i16).max(y as i16) as u16));
        assert_eq!(lanes16(vl.gt16(vm)), each16(&|x, y| if (x as i16) > (y as i16) { 0xffff } else { 0 }));
        assert_eq!(lanes16(vl.eq16(vm)), each16(&|x, y| if x == y { 0xffff } else { 0 }));
        assert_eq!(lanes16(vl.add16(vm).sub16(vm)), l);
        assert_eq!(lanes16(vl.shl16::<3>()), l.map(|x| x << 3));
        assert_eq!(lanes16(vl.shr16::<2>()), l.map(|x| x >> 2));
        assert_eq!(lanes16(vl.shuffle_low16::<0>()), [1, 1, 1, 1, 65535, 9, 0, 12]);
        assert_eq!(lanes16(vl.shuffle32::<0b01_00_11_10>()), [65535, 9, 0, 12, 1, 0x8000, 7, 300]);
        assert_eq!(bytes(V128::splat16(0x80).pack_i16_to_u8(V128::splat16(300))), std::array::from_fn(|i| if i < 8 { 0x80 } else { 255 }));
        assert_eq!(bytes(V128::splat16(7).pack_i16_to_i8(V128::splat16(0xff00))), std::array::from_fn(|i| if i < 8 { 7 } else { 0x80 }));
        assert_eq!(bytes(V128::from_u64(0x0807_0605_0403_0201).unpack_low8(V128::zero()))[..4], [1, 0, 2, 0]);
        assert_eq!(bytes(V128::from_u64s(1, 2).unpack_high64(V128::from_u64s(3, 4)))[..9], [1, 0, 0, 0, 0, 0, 0, 0, 3]);
        assert_eq!(bytes(V128::splat64(1 << 60).shr64::<56>().shl64::<1>())[..9], [32, 0, 0, 0, 0, 0, 0, 0, 32]);
    }
}
