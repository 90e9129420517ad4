//! The terminal's state across every way `othello play` can end: the termination signals, the
//! panic hook that restores before the message, and the keyboard held quiet while the computer
//! thinks in the line dialogue.

use std::io::{self, Write as _};
use std::panic;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A flag raised by SIGTERM, SIGHUP or SIGINT, so that the program can end in order and give
/// the terminal back. The handler (ctrlc, as in every command) is installed once; later calls
/// share its flag.
pub fn termination_flag() -> io::Result<Arc<AtomicBool>> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    if let Some(flag) = FLAG.get() {
        return Ok(Arc::clone(flag));
    }
    let flag = Arc::new(AtomicBool::new(false));
    let raised = Arc::clone(&flag);
    ctrlc::set_handler(move || raised.store(true, Ordering::Relaxed)).map_err(io::Error::other)?;
    Ok(Arc::clone(FLAG.get_or_init(|| flag)))
}

/// The functions a panic calls before its message is printed, in the order given.
static ON_PANIC: Mutex<Vec<fn()>> = Mutex::new(Vec::new());

/// A panic hook, as `std::panic::set_hook` takes it.
type Hook = Box<dyn Fn(&panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Makes every later panic call `restore` first (once per function, however often this is
/// called), then print its message as before: the message is then readable and the shell
/// usable.
pub fn restore_on_panic(restore: fn()) {
    static HOOK: std::sync::Once = std::sync::Once::new();
    register(restore);
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(restoring(previous));
    });
}

fn register(restore: fn()) {
    let mut restorers = ON_PANIC.lock().unwrap_or_else(PoisonError::into_inner);
    if !restorers.contains(&restore) {
        restorers.push(restore);
    }
}

/// Whether a panic calls `restore` before its message.
#[cfg(test)]
pub fn restores_on_panic(restore: fn()) -> bool {
    ON_PANIC
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(&restore)
}

/// The hook that calls the registered functions, then `previous`.
fn restoring(previous: Hook) -> Hook {
    Box::new(move |info| {
        let restorers = ON_PANIC
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for restore in restorers {
            restore();
        }
        previous(info);
    })
}

/// Whether the line dialogue is waiting for the computer (the keyboard is held quiet).
static THINKING: AtomicBool = AtomicBool::new(false);

/// The keyboard of the line dialogue while the computer thinks: keys typed are not echoed
/// (arrows would otherwise show as `^[[A` in the middle of the output) and not taken as lines
/// yet, but kept by the terminal for the prompt that follows. The terminal's settings come back
/// when this is dropped, on a panic, and on a termination signal (see [`watch_signals`]).
pub struct QuietKeys {
    held: bool,
}

impl QuietKeys {
    /// Holds the keyboard quiet if standard input is a terminal (otherwise does nothing).
    pub fn hold() -> QuietKeys {
        restore_on_panic(give_back_keys);
        THINKING.store(true, Ordering::Relaxed);
        QuietKeys { held: hold_keys() }
    }
}

impl Drop for QuietKeys {
    fn drop(&mut self) {
        if self.held {
            give_back_keys();
        }
        THINKING.store(false, Ordering::Relaxed);
    }
}

/// Ends the line dialogue on a termination signal that comes while it waits at the prompt
/// (while the computer thinks, the search watches `flag` itself and the game ends in order):
/// the terminal's settings are given back, a goodbye written on standard error, and the
/// program ends with status 0, as on Ctrl-C at the prompt.
pub fn watch_signals(flag: Arc<AtomicBool>) {
    let _ = std::thread::Builder::new()
        .name("signal watcher".into())
        .spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if flag.load(Ordering::Relaxed) && !THINKING.load(Ordering::Relaxed) {
                    give_back_keys();
                    restore_cooked();
                    // Standard output stays locked by the dialogue: the goodbye goes to
                    // standard error.
                    let mut out = io::stderr().lock();
                    let _ = out
                        .write_all(b"\r\nInterrupted: the game is left unfinished. Goodbye.\r\n");
                    let _ = out.flush();
                    std::process::exit(0);
                }
            }
        });
}

#[cfg(unix)]
mod termios {
    use std::sync::{Mutex, OnceLock, PoisonError};

    /// The settings before the keyboard was held quiet.
    static BEFORE: Mutex<Option<libc::termios>> = Mutex::new(None);
    /// The settings when the line dialogue started (the shell's cooked mode).
    static COOKED: OnceLock<libc::termios> = OnceLock::new();

    fn get() -> Option<libc::termios> {
        // SAFETY: an all-zero termios is a valid value of this plain C struct, and tcgetattr is
        // given a pointer to it and a file descriptor that may or may not be a terminal.
        let mut settings: libc::termios = unsafe { std::mem::zeroed() };
        let got = unsafe { libc::tcgetattr(libc::STDIN_FILENO, &raw mut settings) };
        (got == 0).then_some(settings)
    }

    fn set(settings: &libc::termios) {
        // SAFETY: tcsetattr reads the settings through a valid pointer. TCSANOW keeps what
        // was typed but not yet read.
        unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, settings) };
    }

    pub fn save_cooked() {
        if let Some(settings) = get() {
            let _ = COOKED.set(settings);
        }
    }

    pub fn restore_cooked() {
        if let Some(settings) = COOKED.get() {
            set(settings);
        }
    }

    pub fn hold_keys() -> bool {
        let Some(settings) = get() else {
            return false;
        };
        let mut quiet = settings;
        quiet.c_lflag &= !(libc::ECHO | libc::ICANON);
        quiet.c_cc[libc::VMIN] = 1;
        quiet.c_cc[libc::VTIME] = 0;
        *BEFORE.lock().unwrap_or_else(PoisonError::into_inner) = Some(settings);
        set(&quiet);
        true
    }

    pub fn give_back_keys() {
        let before = BEFORE.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(settings) = before {
            set(&settings);
        }
    }

    /// Whether echo is on for standard input (`None` when it is not a terminal).
    #[cfg(test)]
    pub fn echo_on() -> Option<bool> {
        get().map(|settings| settings.c_lflag & libc::ECHO != 0)
    }
}

#[cfg(not(unix))]
mod termios {
    //! Elsewhere the console does not echo keys typed while nothing reads them.
    pub fn save_cooked() {}
    pub fn restore_cooked() {}
    pub fn hold_keys() -> bool {
        false
    }
    pub fn give_back_keys() {}
}

/// Remembers the terminal's settings as the line dialogue starts, so that a termination signal
/// can put them back whatever the line editor was doing.
pub fn save_cooked() {
    termios::save_cooked();
}

fn restore_cooked() {
    termios::restore_cooked();
}

fn hold_keys() -> bool {
    termios::hold_keys()
}

fn give_back_keys() {
    termios::give_back_keys();
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use std::thread::{self, ThreadId};

    /// What the hook did on this test's thread, in order.
    static EVENTS: Mutex<Vec<(ThreadId, &str)>> = Mutex::new(Vec::new());
    /// The tests that change the panic hook, one at a time.
    pub static HOOKS: Mutex<()> = Mutex::new(());

    fn record_restore() {
        EVENTS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((thread::current().id(), "restore"));
    }

    #[test]
    fn a_panic_restores_first_then_reports() {
        let _alone = HOOKS.lock().unwrap_or_else(PoisonError::into_inner);
        register(record_restore);
        register(record_restore);
        // The message printer the hook chains to records instead of printing.
        let printer = panic::take_hook();
        panic::set_hook(restoring(Box::new(|_| {
            EVENTS
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((thread::current().id(), "report"));
        })));
        let result = panic::catch_unwind(|| panic!("a test panic"));
        panic::set_hook(printer);
        let me = thread::current().id();
        let events: Vec<&str> = EVENTS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(thread, _)| *thread == me)
            .map(|(_, event)| *event)
            .collect();
        assert!(result.is_err());
        assert_eq!(
            events,
            ["restore", "report"],
            "restored once, before the report"
        );
    }

    #[test]
    fn quiet_keys_are_given_back_on_a_panic() {
        let _alone = HOOKS.lock().unwrap_or_else(PoisonError::into_inner);
        let _quiet = QuietKeys::hold();
        assert!(restores_on_panic(give_back_keys));
    }

    #[cfg(unix)]
    #[test]
    fn held_keys_are_given_back() {
        let _alone = HOOKS.lock().unwrap_or_else(PoisonError::into_inner);
        // Only meaningful when the tests run on a terminal; elsewhere holding does nothing.
        let before = termios::echo_on();
        {
            let _quiet = QuietKeys::hold();
            if before.is_some() {
                assert_eq!(termios::echo_on(), Some(false));
            }
            assert!(THINKING.load(Ordering::Relaxed));
        }
        assert_eq!(termios::echo_on(), before);
    }
}
