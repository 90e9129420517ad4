//! Taking the terminal over (raw mode, the alternate screen, mouse reports) and always giving
//! it back: when the guard is dropped, on a panic (through a panic hook that restores first),
//! and on the termination signals ([`tty::termination_flag`]), which the event loop watches.

use std::io::{self, Stdout, Write};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};

use crate::tty;

/// The terminal, taken over for as long as this lives.
pub struct Guard {
    /// The ratatui terminal drawing on standard output.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Guard {
    /// Enters raw mode and the alternate screen and turns mouse reports on; everything is
    /// undone again if a step fails.
    pub fn enter() -> io::Result<Guard> {
        install_panic_hook();
        enable_raw_mode()?;
        let entered = execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            cursor::Hide
        )
        .and_then(|()| Terminal::new(CrosstermBackend::new(io::stdout())));
        match entered {
            Ok(terminal) => Ok(Guard { terminal }),
            Err(error) => {
                restore();
                Err(error)
            }
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// A panic restores the terminal before its message is printed, so that the message is
/// readable and the shell usable.
pub fn install_panic_hook() {
    tty::restore_on_panic(restore);
}

/// Gives the terminal back: mouse reports off, the main screen, the cursor, cooked mode.
/// Harmless when the terminal was not taken over.
pub fn restore() {
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = stdout.flush();
    let _ = disable_raw_mode();
}

/// Ends the program (status 0, as at the end of the input) once standard input's terminal hangs
/// up: its window closed, its ssh connection dropped. Reading it then gives end of file at once,
/// which the event reader retries for ever inside one call, so a watcher thread looks every
/// quarter of a second.
pub fn exit_on_hang_up() {
    let _ = std::thread::Builder::new()
        .name("hang-up watcher".into())
        .spawn(|| {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(250));
                if hung_up() {
                    std::process::exit(0);
                }
            }
        });
}

/// Whether standard input's terminal has hung up.
fn hung_up() -> bool {
    #[cfg(unix)]
    {
        let mut input = libc::pollfd {
            fd: libc::STDIN_FILENO,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll(2) is given one valid pollfd and its count; a zero timeout never blocks.
        let ready = unsafe { libc::poll(&raw mut input, 1, 0) };
        ready > 0 && input.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
    }
    #[cfg(not(unix))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::PoisonError;

    #[test]
    fn a_panic_gives_the_terminal_back_first() {
        let _alone = tty::tests::HOOKS
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        install_panic_hook();
        assert!(tty::restores_on_panic(restore));
    }
}
