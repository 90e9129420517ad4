//! The processors the hot code is compiled for, as marker types.
//!
//! Binaries are built for baseline x86-64 (no `-C target-cpu`), which has no `popcnt`, `lzcnt`
//! or AVX2. Hot code (the move generator's generic kernels, perft, the searches) is therefore
//! compiled twice from one source, in one idiom:
//!
//! - its bodies are `#[inline(always)]` functions, generic over a [`Cpu`] marker where they
//!   call each other;
//! - each entry point (a recursive function, or a kernel called out of line) is a pair of small
//!   functions over the body: one compiled with
//!   `#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]`, so that everything inlined
//!   into it uses those instructions, called when the marker's [`Cpu::x86_64_v3`] gives the
//!   proof that the processor has them, and a portable one otherwise.
//!
//! The entry points take their arguments one by one, so that they stay in registers: a closure
//! entry point would pass its captures through memory on every call (measured: 3% more
//! instructions and about 8% more time in the exact solver).
//!
//! An [`X86_64V3`] value can only be made by [`X86_64V3::detect`], so holding one proves the
//! processor check that the `unsafe` call of each x86-64-v3 entry point relies on. Public
//! entry points pick the marker once: the [`crate::Rules`] functions per call, perft and the
//! engine per run through [`crate::position::dispatch`].

/// A processor to compile hot code for.
pub trait Cpu: Copy + Send + Sync + 'static {
    /// The x86-64-v3 marker, when this is one: the proof that code compiled for those features
    /// may run. Known at compile time for each marker type.
    #[cfg(target_arch = "x86_64")]
    fn x86_64_v3(self) -> Option<X86_64V3>;
}

/// Any processor of the target: code compiled for the baseline.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Cpu for Portable {
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn x86_64_v3(self) -> Option<X86_64V3> {
        None
    }
}

/// An x86-64 processor with the features of x86-64-v3 used here (popcnt, lzcnt, BMI1, BMI2,
/// AVX2). A value exists only on such a processor: [`X86_64V3::detect`] is the only way to make
/// one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct X86_64V3 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl X86_64V3 {
    /// The marker, if this processor has the features (checked once, then one cached load).
    #[inline(always)]
    pub fn detect() -> Option<X86_64V3> {
        use std::sync::atomic::{AtomicU8, Ordering};

        /// The answer once known: [`YES`], [`NO`], or 0 before the first look.
        static DETECTED: AtomicU8 = AtomicU8::new(0);
        const YES: u8 = 1;
        const NO: u8 = 2;

        #[cold]
        fn look() -> bool {
            let yes = is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("lzcnt")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("avx2");
            DETECTED.store(if yes { YES } else { NO }, Ordering::Relaxed);
            yes
        }

        let detected = match DETECTED.load(Ordering::Relaxed) {
            YES => true,
            NO => false,
            _ => look(),
        };
        detected.then_some(X86_64V3 { _detected: () })
    }
}

#[cfg(target_arch = "x86_64")]
impl Cpu for X86_64V3 {
    #[inline(always)]
    fn x86_64_v3(self) -> Option<X86_64V3> {
        Some(self)
    }
}
