//! A small, fast random number generator for random playouts (`Game.play_random`): one
//! `SplitMix64` stream per thread, seeded from the clock and the thread.

use std::cell::Cell;
use std::time::{SystemTime, UNIX_EPOCH};

thread_local! {
    static STATE: Cell<u64> = Cell::new(seed());
}

fn seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64);
    let local = 0u8;
    nanos ^ (std::ptr::from_ref(&local) as u64).rotate_left(32)
}

/// A number in `0..n` (`n > 0`), nearly uniform (the bias is below `n / 2^64`).
pub(crate) fn below(n: usize) -> usize {
    STATE.with(|state| {
        let next = state.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
        state.set(next);
        let mut z = next;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((u128::from(z) * n as u128) >> 64) as usize
    })
}
