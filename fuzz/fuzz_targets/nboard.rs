//! NBoard command handling on sequences of arbitrary lines (as a GUI, or anything on the other
//! end of the pipe, may send them): never panics, the depth stays within 1 to 60, and every
//! line of a reply (and of a search's output) is one line. Searches run with the stop flag
//! raised, so that each answers at once with its best-looking move.
#![no_main]

use std::sync::atomic::AtomicBool;

use libfuzzer_sys::fuzz_target;
use othello_engine::nboard::NBoard;
use othello_engine::{Engine, EngineConfig};

fuzz_target!(|data: &[u8]| {
    let mut nboard = NBoard::new();
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let stop = AtomicBool::new(true);
    for line in data.split(|&byte| byte == b'\n').take(64) {
        let line = String::from_utf8_lossy(line);
        let reply = nboard.handle(&line);
        assert!((1..=60).contains(&nboard.depth()), "{line:?}");
        for text in reply.lines.iter().chain(&reply.notes) {
            assert!(!text.contains('\n'), "{line:?} -> {text:?}");
        }
        if let Some(task) = reply.task {
            task.run(&mut engine, &stop, &mut |text| {
                assert!(!text.contains('\n'), "{line:?} -> {text:?}");
            });
        }
        if reply.quit {
            break;
        }
    }
});
