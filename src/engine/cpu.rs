//! What the processor can do, asked once at run time: the quick play loop and the search have
//! a copy compiled with the bit-manipulation instructions (see `play_quick_bits`), taken only
//! where the processor has them.
//!
//! The binary itself is built for baseline x86-64 (no `target-cpu` flag: it must run on any
//! x86-64 machine), so this is the one place the newer instructions are chosen.

use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not asked yet, 1: no, 2: yes.
static V3: AtomicU8 = AtomicU8::new(0);

/// Whether this processor has the bit instructions the quick loop's second copy is compiled
/// with (POPCNT, BMI1, BMI2, LZCNT: every x86-64 processor since about 2013). One relaxed load
/// after the first call.
#[inline]
pub fn has_bit_instructions() -> bool {
    match V3.load(Ordering::Relaxed) {
        0 => {
            let yes = detect();
            V3.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
        known => known == 2,
    }
}

#[cold]
fn detect() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached answer is the processor's, on the first call and after: a wrong "yes" would
    /// run instructions the processor lacks (the quick loop's outcomes against the baseline
    /// loop's are compared game by game in `games::tests`).
    #[test]
    fn has_bit_instructions_agrees_with_the_processor() {
        let first = has_bit_instructions();
        assert_eq!(first, detect());
        assert_eq!(has_bit_instructions(), first);
        #[cfg(target_arch = "x86_64")]
        if first {
            for feature in
                [std::arch::is_x86_feature_detected!("popcnt"), std::arch::is_x86_feature_detected!("lzcnt"), std::arch::is_x86_feature_detected!("bmi2")]
            {
                assert!(feature);
            }
        }
    }
}
