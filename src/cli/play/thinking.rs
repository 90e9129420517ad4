//! Runs a search while a spinner on standard error shows that the computer is thinking.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long a search may take before the spinner appears.
const QUIET: Duration = Duration::from_millis(300);
/// Time between two frames of the spinner.
const FRAME: Duration = Duration::from_millis(100);
const FRAMES: [char; 4] = ['|', '/', '-', '\\'];

/// Runs `search` (which is handed a stop flag it may watch); when `spinner` is set and the
/// search takes longer than a moment, shows `label` and a spinner on standard error until it
/// returns, then erases them.
pub fn think<T>(spinner: bool, label: &str, search: impl FnOnce(&AtomicBool) -> T) -> T {
    let stop = AtomicBool::new(false);
    if !spinner {
        return search(&stop);
    }
    let (done, finished) = mpsc::channel::<()>();
    thread::scope(|scope| {
        scope.spawn(move || spin(label, &finished));
        let result = search(&stop);
        // The spinner stops when the sender is dropped or sends.
        let _ = done.send(());
        result
    })
}

fn spin(label: &str, finished: &mpsc::Receiver<()>) {
    if finished.recv_timeout(QUIET) != Err(mpsc::RecvTimeoutError::Timeout) {
        return;
    }
    let stderr = io::stderr();
    for frame in FRAMES.iter().cycle() {
        let _ = write!(stderr.lock(), "\r{label} {frame} ");
        let _ = stderr.lock().flush();
        if finished.recv_timeout(FRAME) != Err(mpsc::RecvTimeoutError::Timeout) {
            break;
        }
    }
    // Erase the spinner line.
    let _ = write!(stderr.lock(), "\r\x1b[2K");
    let _ = stderr.lock().flush();
}
