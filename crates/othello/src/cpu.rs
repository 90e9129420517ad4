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
//!   proof that the processor has them, and a portable one otherwise. The pair and the call of
//!   one of them are written once, by [`cpu_entry_point!`](crate::cpu_entry_point).
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

/// An entry point of hot code in its two compiled copies (see the [module](crate::cpu) doc):
/// defines `portable` and, on x86-64, `x86_64_v3` (compiled with the features of
/// x86-64-v3), each a function of the parameters given whose body is the block given (a call
/// of the `#[inline(always)]` body, which is so compiled into each copy), and calls the copy
/// this processor may run with the arguments given, one by one; the value is the call's.
///
/// Each parameter is written `name: Type = argument`. Attributes before `fn` are the portable
/// copy's (`#[inline(never)]` keeps a kernel out of its callers). The copies' generic
/// parameters are those of the enclosing function, by name: the calls name them, for those
/// that no argument determines. Two forms, by how the processor is known:
///
/// - `cpu_entry_point!(marker => fn ...)`: a [`Cpu`] value already picked proves it (through
///   [`Cpu::x86_64_v3`]); both copies take the same parameters.
/// - `cpu_entry_point!(detect cpu => fn ...)`: [`X86_64V3::detect`] checks it at the call; the
///   copies take one more parameter first, `cpu`, an [`X86_64V3`] in one and [`Portable`] in the
///   other, for the body to pass on.
///
/// ```
/// use othello::cpu::Cpu;
///
/// #[inline(always)]
/// fn count_body<C: Cpu>(_cpu: C, set: u64) -> u32 {
///     set.count_ones()
/// }
///
/// fn count<C: Cpu>(cpu: C, set: u64) -> u32 {
///     othello::cpu_entry_point!(cpu => fn<C: Cpu>(cpu: C = cpu, set: u64 = set) -> u32 {
///         count_body(cpu, set)
///     })
/// }
///
/// fn count_here(set: u64) -> u32 {
///     othello::cpu_entry_point!(detect cpu => fn(set: u64 = set) -> u32 {
///         count_body(cpu, set)
///     })
/// }
///
/// assert_eq!(count(othello::cpu::Portable, 0b1011), 3);
/// assert_eq!(count_here(0b1011), 3);
/// ```
#[macro_export]
macro_rules! cpu_entry_point {
    (
        detect $cpu:ident =>
        $(#[$attr:meta])*
        fn $(<$($generic:ident: $bound:path),+ $(,)?>)?
        ($($param:ident: $ty:ty = $arg:expr),* $(,)?) -> $ret:ty $body:block
    ) => {{
        $(#[$attr])*
        fn portable$(<$($generic: $bound),+>)?(
            $cpu: $crate::cpu::Portable,
            $($param: $ty),*
        ) -> $ret $body
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
            unsafe fn x86_64_v3$(<$($generic: $bound),+>)?(
                $cpu: $crate::cpu::X86_64V3,
                $($param: $ty),*
            ) -> $ret $body
            // (The arguments are evaluated outside the `unsafe` block.)
            let ($($param,)*) = ($($arg,)*);
            if let Some(v3) = $crate::cpu::X86_64V3::detect() {
                // SAFETY: `detect` made the marker, so the processor has every feature the
                // function is compiled for.
                unsafe { x86_64_v3$(::<$($generic),+>)?(v3, $($param),*) }
            } else {
                portable$(::<$($generic),+>)?($crate::cpu::Portable, $($param),*)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            portable$(::<$($generic),+>)?($crate::cpu::Portable, $($arg),*)
        }
    }};
    (
        $marker:expr =>
        $(#[$attr:meta])*
        fn $(<$($generic:ident: $bound:path),+ $(,)?>)?
        ($($param:ident: $ty:ty = $arg:expr),* $(,)?) -> $ret:ty $body:block
    ) => {{
        $(#[$attr])*
        fn portable$(<$($generic: $bound),+>)?($($param: $ty),*) -> $ret $body
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
            unsafe fn x86_64_v3$(<$($generic: $bound),+>)?($($param: $ty),*) -> $ret $body
            let v3 = $crate::cpu::Cpu::x86_64_v3($marker).is_some();
            // (The arguments are evaluated outside the `unsafe` block.)
            let ($($param,)*) = ($($arg,)*);
            if v3 {
                // SAFETY: the marker is an `X86_64V3`, made only on a processor with every
                // feature the function is compiled for.
                unsafe { x86_64_v3$(::<$($generic),+>)?($($param),*) }
            } else {
                portable$(::<$($generic),+>)?($($param),*)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = $marker;
            portable$(::<$($generic),+>)?($($arg),*)
        }
    }};
}
