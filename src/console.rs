//! `othello [--rules full|simple]`: the console protocol on standard input and output.

use std::io::{self, BufWriter, IsTerminal, Write};

use othello::RuleSet;
use othello::protocol::{Driver, Progress};

use super::Failure;
use othello_io::input::{LineError, LineReader};

/// Plays the protocol from standard input to standard output.
pub fn run(rules: RuleSet) -> Result<(), Failure> {
    if io::stdin().is_terminal() {
        // Someone typed `othello` at a shell: say what it waits for (standard output stays
        // the protocol's alone).
        othello_io::warn(format_args!(
            "othello: waiting for a protocol game on standard input (Ctrl-D ends it).\n\
             othello: for a game to play at the terminal, run othello play."
        ));
    }
    let stdout = io::stdout();
    let mut output = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut input = LineReader::new(io::stdin().lock());
    let result = play(rules, &mut input, &mut output);
    // Whatever happened, everything printed so far reaches standard output.
    let flushed = output.flush().map_err(Failure::Write);
    result.and(flushed)
}

fn play(
    rules: RuleSet,
    input: &mut LineReader<impl io::Read>,
    output: &mut impl Write,
) -> Result<(), Failure> {
    let mut text = String::with_capacity(4096);
    let mut driver = Driver::new(rules, &mut text);
    loop {
        output.write_all(text.as_bytes()).map_err(Failure::Write)?;
        text.clear();
        if driver.progress() == Progress::Over {
            return Ok(());
        }
        let line = match input.next_line(output) {
            Ok(Some(line)) => line,
            Ok(None) => return driver.finish().map_err(Failure::from),
            Err(LineError::Read(error)) => return Err(Failure::Read(error)),
            Err(LineError::Write(error)) => return Err(Failure::Write(error)),
        };
        driver
            .push_line(line, &mut text)
            .map_err(|error| Failure::Input(error.into()))?;
    }
}
