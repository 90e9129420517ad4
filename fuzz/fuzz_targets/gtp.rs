//! GTP command handling on sequences of arbitrary lines: never panics, and every response is
//! one block (`=` or `?`, ended by the one blank line). `genmove` runs with the stop flag
//! raised, so that it answers at once with its best-looking move.
#![no_main]

use std::sync::atomic::Ordering;

use libfuzzer_sys::fuzz_target;
use othello_engine::gtp::Gtp;
use othello_engine::{Engine, EngineConfig};

fuzz_target!(|data: &[u8]| {
    let engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let mut gtp = Gtp::new(engine, 4);
    gtp.stop_flag().store(true, Ordering::SeqCst);
    for line in data.split(|&byte| byte == b'\n').take(64) {
        let line = String::from_utf8_lossy(line);
        let Some(reply) = gtp.handle(&line) else {
            continue;
        };
        let text = &reply.text;
        assert!(
            text.starts_with('=') || text.starts_with('?'),
            "{line:?} -> {text:?}"
        );
        let body = text
            .strip_suffix("\n\n")
            .unwrap_or_else(|| panic!("{line:?} -> {text:?}"));
        assert!(!body.contains("\n\n"), "{line:?} -> {text:?}");
        if reply.quit {
            break;
        }
    }
});
