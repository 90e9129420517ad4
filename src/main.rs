//! The `othello` command: the console protocol by default, tools as subcommands.
//!
//! Everything here is argument handling and I/O; the game itself is the `othello` library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message() {
                eprintln!("othello: {message}");
            }
            ExitCode::from(failure.exit_status())
        }
    }
}
