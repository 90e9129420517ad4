//! The one progress display of every command: indicatif on standard error, drawn only when
//! standard error is a terminal (indicatif hides it otherwise), and kept clear of the output.

use std::borrow::Cow;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// How often a spinner redraws by itself, so that it moves while the work gives no news.
const TICK: Duration = Duration::from_millis(100);

/// A spinner with a message and the time elapsed, moving on its own until finished.
pub fn spinner(message: impl Into<Cow<'static, str>>) -> ProgressBar {
    let spinner = ProgressBar::new_spinner().with_message(message);
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}  {elapsed}") {
        spinner.set_style(style);
    }
    spinner.enable_steady_tick(TICK);
    spinner
}

/// A bar for `len` steps of work, named `unit` ("cases", "moves").
#[must_use]
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed}} elapsed, ETA {{eta}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
