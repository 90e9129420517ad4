//! The processors the hot code is compiled for, as marker types.
//!
//! Binaries are built for baseline x86-64 (no `-C target-cpu`), which has no `popcnt`, `lzcnt`
//! or AVX2. Hot code (the move generator's generic kernels, perft, the searches) is therefore
//! compiled twice from one source: its bodies are `#[inline(always)]` functions generic over a
//! [`Cpu`] marker, and each recursive or out-of-line piece enters through [`Cpu::run`], which
//! for [`X86_64V3`] is a function compiled with
//! `#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]`, so that everything inlined into
//! it uses those instructions. An `X86_64V3` value can only be made by [`X86_64V3::detect`],
//! so holding one proves the processor check that the entry point's `unsafe` call relies on.
//! Public entry points (the [`crate::Rules`] functions, and through
//! [`crate::position::dispatch`] perft and the engine) pick the marker once per call.

/// A processor to compile hot code for.
pub(crate) trait Cpu: Copy + Send + Sync + 'static {
    /// Calls `body` in a function compiled for this processor, not inlined into the caller
    /// (except into one compiled for the same processor).
    ///
    /// `body` must be an `#[inline(always)]` closure that calls `#[inline(always)]` functions,
    /// so that all of it is compiled into that function: code that is not inlined keeps the
    /// baseline instructions, and AVX2 intrinsics that are not inlined are calls. It is an
    /// `FnMut` so that the closure itself is called, not a shim around it that the compiler
    /// may decline to inline.
    fn run<T>(self, body: impl FnMut() -> T) -> T;

    /// The AVX2 marker, on processors that have AVX2.
    #[cfg(target_arch = "x86_64")]
    fn avx2(self) -> Option<X86_64V3>;
}

/// Any processor of the target: code compiled for the baseline.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Cpu for Portable {
    #[inline(never)]
    fn run<T>(self, mut body: impl FnMut() -> T) -> T {
        body()
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn avx2(self) -> Option<X86_64V3> {
        None
    }
}

/// An x86-64 processor with the features of x86-64-v3 used here (popcnt, lzcnt, BMI1, BMI2,
/// AVX2). A value exists only on such a processor: [`X86_64V3::detect`] is the only way to make
/// one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct X86_64V3 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl X86_64V3 {
    /// The marker, if this processor has the features (checked once, then one cached load).
    #[inline(always)]
    pub(crate) fn detect() -> Option<X86_64V3> {
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
    fn run<T>(self, body: impl FnMut() -> T) -> T {
        #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
        unsafe fn compiled_for_x86_64_v3<T>(mut body: impl FnMut() -> T) -> T {
            body()
        }
        // SAFETY: `self` exists, so `detect` found every feature the function is compiled for.
        unsafe { compiled_for_x86_64_v3(body) }
    }

    #[inline(always)]
    fn avx2(self) -> Option<X86_64V3> {
        Some(self)
    }
}
