//! The players of a match as named on a command line:
//!
//! - `self:LEVEL` (1-6), `self:nodes=N`, `self:share=SECONDS`, `self:weights=FILE`,
//!   `self:classic`, `self:no-probcut`, `self:book`, `self:no-book`, `self:book=FILE`, combined
//!   with commas (`self:nodes=300000,weights=old.bin`): this engine; `self` alone is level 6.
//!   The budget is the computer of `othello play` at a level (without its random moves) or a
//!   number of nodes a move, with the clock of level 6 or a move's share of it given; the
//!   evaluation the weights compiled in, the classic one or a weights file; the
//!   search with or without probabilistic cut-offs; the opening book as `othello play`'s
//!   computer has it (the built-in book from level 3, none with a node budget), the built-in
//!   book at any budget, none, or a book file.
//! - `gtp:COMMAND` and `nboard:COMMAND`: an external engine started from a command line (split
//!   as a shell would, without running one: quotes and backslashes group words), speaking
//!   the Go Text Protocol or the NBoard protocol on its standard input and output.
//!
//! ```
//! use othello_engine::arena::spec::{BookSpec, Budget, Contender, EngineSpec, EvaluationSpec};
//!
//! let spec: Contender = "self:nodes=3000,classic".parse().unwrap();
//! assert_eq!(spec, Contender::Engine(EngineSpec {
//!     budget: Budget::Nodes(3000),
//!     evaluation: EvaluationSpec::Classic,
//!     selective: true,
//!     book: BookSpec::Default,
//!     share: None,
//! }));
//! let rhino: Contender = "gtp:gtp-rhino -l 4".parse().unwrap();
//! assert_eq!(rhino, Contender::Gtp(vec!["gtp-rhino".into(), "-l".into(), "4".into()]));
//! ```

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use crate::computer::Level;

/// How much this engine searches a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// As the computer of `othello play` at this level (its depth, exact solve, node budget and
    /// time cap), without its random moves.
    Level(Level),
    /// About this many nodes a move, whatever the position.
    Nodes(u64),
}

/// Which evaluation this engine uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvaluationSpec {
    /// The trained weights compiled in.
    Trained,
    /// The hand-written classic evaluation.
    Classic,
    /// The weights of a file written by `othello train fit`.
    File(PathBuf),
}

/// Which opening book this engine plays from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookSpec {
    /// As the computer of `othello play`: the built-in book at the levels that use one
    /// ([`Level::uses_book`]), none with a node budget.
    #[default]
    Default,
    /// No book: every move is searched.
    Off,
    /// The built-in book, whatever the budget.
    Builtin,
    /// The book of a file (binary, or text as `othello book export` writes it).
    File(PathBuf),
}

/// This engine as a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How much it searches.
    pub budget: Budget,
    /// Its evaluation.
    pub evaluation: EvaluationSpec,
    /// Whether its midgame search uses probabilistic cut-offs.
    pub selective: bool,
    /// Its opening book.
    pub book: BookSpec,
    /// A move's share of the clock, instead of the budget's own (level 6: 3 s): the search
    /// deepens while its next iteration is expected to end within it, and stops one under way
    /// at [`CAP_PER_SHARE`] times it, as level 6 does.
    pub share: Option<Duration>,
}

/// How long a search with a share of the clock may take, in shares ([`EngineSpec::share`]):
/// level 6 stops an iteration under way at 10 s for its share of 3 s.
pub const CAP_PER_SHARE: f64 = 10.0 / 3.0;

/// The longest share of the clock `self:share=` takes, in seconds: an hour.
const SHARE_MAX: f64 = 3600.0;

impl Default for EngineSpec {
    /// Level 6, the trained weights, probabilistic cut-offs, the built-in book.
    fn default() -> EngineSpec {
        EngineSpec {
            budget: Budget::Level(Level::MAX),
            evaluation: EvaluationSpec::Trained,
            selective: true,
            book: BookSpec::Default,
            share: None,
        }
    }
}

impl EngineSpec {
    /// Whether it plays from the built-in book: by default at the levels that use one, or
    /// when asked. A book file ([`BookSpec::File`]) is read by the front end.
    #[must_use]
    pub fn uses_builtin_book(&self) -> bool {
        match self.book {
            BookSpec::Default => matches!(self.budget, Budget::Level(level) if level.uses_book()),
            BookSpec::Builtin => true,
            BookSpec::Off | BookSpec::File(_) => false,
        }
    }
}

impl fmt::Display for EngineSpec {
    /// The spec as `self:` names it, its options in a fixed order and the defaults left out
    /// (`self:6`, `self:nodes=3000,classic,share=2.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.budget {
            Budget::Level(level) => write!(f, "self:{level}")?,
            Budget::Nodes(nodes) => write!(f, "self:nodes={nodes}")?,
        }
        if self.evaluation != EvaluationSpec::Trained {
            write!(f, ",{}", self.evaluation)?;
        }
        if !self.selective {
            f.write_str(",no-probcut")?;
        }
        if self.book != BookSpec::Default {
            write!(f, ",{}", self.book)?;
        }
        if let Some(share) = self.share {
            write!(f, ",{}", Setting::Share(share))?;
        }
        Ok(())
    }
}

/// A player of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contender {
    /// This engine.
    Engine(EngineSpec),
    /// An external engine speaking GTP: its program and arguments.
    Gtp(Vec<String>),
    /// An external engine speaking NBoard: its program and arguments.
    NBoard(Vec<String>),
}

/// A player named in a way this crate does not read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{found:?}: {problem}")]
pub struct SpecError {
    /// The name as given.
    pub found: String,
    /// What is wrong with it.
    pub problem: String,
}

impl FromStr for Contender {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Contender, SpecError> {
        let error = |problem: String| SpecError {
            found: text.to_owned(),
            problem,
        };
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        match kind.trim() {
            "self" => parse_engine(rest).map(Contender::Engine).map_err(error),
            "gtp" => command(rest).map(Contender::Gtp).map_err(error),
            "nboard" => command(rest).map(Contender::NBoard).map_err(error),
            _ => Err(error(
                "expected self:LEVEL, self:nodes=N, self:weights=FILE, self:no-book (combined \
                 with commas), gtp:COMMAND or nboard:COMMAND"
                    .to_owned(),
            )),
        }
    }
}

/// The words of an external engine's command line; a command quoted whole is split too.
fn command(text: &str) -> Result<Vec<String>, String> {
    let mut words =
        shell_words::split(text).map_err(|error| format!("cannot split the command: {error}"))?;
    if let [word] = words.as_slice()
        && word.contains(char::is_whitespace)
    {
        words = shell_words::split(word)
            .map_err(|error| format!("cannot split the command: {error}"))?;
    }
    if words.is_empty() {
        return Err("no command to start the engine".to_owned());
    }
    Ok(words)
}

/// The options after `self:`.
fn parse_engine(text: &str) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec::default();
    let (mut budget, mut evaluation, mut book, mut share) = (None, None, None, None);
    for option in text.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name.trim(), Some(value.trim())),
            None => (option, None),
        };
        let (slot, new) = match (name, value) {
            ("level", Some(value)) => (&mut budget, Setting::Budget(level(value)?)),
            (number, None) if number.starts_with(|c: char| c.is_ascii_digit()) => {
                (&mut budget, Setting::Budget(level(number)?))
            }
            ("nodes", Some(value)) => {
                let nodes = value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| {
                        format!("nodes: expected a number from 1 up, found {value:?}")
                    })?;
                (&mut budget, Setting::Budget(Budget::Nodes(nodes)))
            }
            ("share", Some(value)) => {
                let seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|&s| s > 0.0 && s <= SHARE_MAX)
                    .ok_or_else(|| {
                        format!("share: expected seconds above 0, at most 3600, found {value:?}")
                    })?;
                (&mut share, Setting::Share(Duration::from_secs_f64(seconds)))
            }
            ("weights", Some(file)) if !file.is_empty() => (
                &mut evaluation,
                Setting::Evaluation(EvaluationSpec::File(PathBuf::from(file))),
            ),
            ("classic", None) => (
                &mut evaluation,
                Setting::Evaluation(EvaluationSpec::Classic),
            ),
            ("trained", None) => (
                &mut evaluation,
                Setting::Evaluation(EvaluationSpec::Trained),
            ),
            ("no-probcut" | "noprobcut", None) => {
                spec.selective = false;
                continue;
            }
            ("book", None) => (&mut book, Setting::Book(BookSpec::Builtin)),
            ("no-book" | "nobook", None) => (&mut book, Setting::Book(BookSpec::Off)),
            ("book", Some(file)) if !file.is_empty() => (
                &mut book,
                Setting::Book(BookSpec::File(PathBuf::from(file))),
            ),
            _ => {
                return Err(format!(
                    "unknown option {option:?}: expected a level (1-6), level=N, nodes=N, \
                     share=SECONDS, weights=FILE, classic, trained, no-probcut, book, no-book or \
                     book=FILE"
                ));
            }
        };
        if let Some(old) = slot.replace(new.clone()) {
            return Err(format!("{old} and {new} both given: choose one"));
        }
    }
    if let Some(Setting::Budget(value)) = budget {
        spec.budget = value;
    }
    if let Some(Setting::Evaluation(value)) = evaluation {
        spec.evaluation = value;
    }
    if let Some(Setting::Book(value)) = book {
        spec.book = value;
    }
    if let Some(Setting::Share(value)) = share {
        spec.share = Some(value);
    }
    Ok(spec)
}

/// One option of `self:`, kept to say which two clash.
#[derive(Clone, Debug)]
enum Setting {
    Budget(Budget),
    Evaluation(EvaluationSpec),
    Book(BookSpec),
    Share(Duration),
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Budget(Budget::Level(level)) => write!(f, "level {level}"),
            Setting::Budget(Budget::Nodes(nodes)) => write!(f, "nodes={nodes}"),
            Setting::Evaluation(evaluation) => evaluation.fmt(f),
            Setting::Book(book) => book.fmt(f),
            Setting::Share(share) => write!(f, "share={}", share.as_secs_f64()),
        }
    }
}

impl fmt::Display for EvaluationSpec {
    /// The option that names it, as `self:` reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvaluationSpec::Trained => f.write_str("trained"),
            EvaluationSpec::Classic => f.write_str("classic"),
            EvaluationSpec::File(path) => write!(f, "weights={}", path.display()),
        }
    }
}

impl fmt::Display for BookSpec {
    /// The option that names it, as `self:` reads it (`default` for [`BookSpec::Default`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookSpec::Default => f.write_str("default"),
            BookSpec::Off => f.write_str("no-book"),
            BookSpec::Builtin => f.write_str("book"),
            BookSpec::File(path) => write!(f, "book={}", path.display()),
        }
    }
}

fn level(text: &str) -> Result<Budget, String> {
    text.parse::<Level>()
        .map(Budget::Level)
        .map_err(|error| error.to_string())
}
