//! Reading weights files from arbitrary bytes: never panics, and weights it reads are written
//! back to a file that reads as the same weights. The first byte's bits put the right header
//! in front (bit 0) and the right checksum behind (bit 1), so that the fuzzer reaches the
//! tables' decoding instead of stopping at the magic or the checksum.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use othello_engine::patterns::{MAGIC, PHASES, PatternLayout, Weights, checksum};

/// Weights per phase of this program's patterns.
static STRIDE: LazyLock<u32> = LazyLock::new(|| PatternLayout::new().stride as u32);

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = Vec::new();
    if flags & 1 != 0 {
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(PHASES as u32).to_le_bytes());
        bytes.extend_from_slice(&STRIDE.to_le_bytes());
    }
    bytes.extend_from_slice(rest);
    if flags & 2 != 0 {
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
    }
    let Ok(weights) = Weights::from_bytes(&bytes) else {
        return;
    };
    let again = Weights::from_bytes(&weights.to_bytes()).expect("written weights read");
    assert_eq!(again.values(), weights.values());
});
