//! What `othello match` reads before its games: a `self` player's evaluation and opening book,
//! and the openings of a file.

use std::path::Path;
use std::sync::Arc;

use othello::RuleSet;
use othello_engine::Evaluation;
use othello_engine::arena::Opening;
use othello_engine::arena::spec::{BookSpec, Contender, EvaluationSpec};
use othello_engine::book::Book;

use super::MatchError;
use crate::weights::weights_file;
use othello_io::book::read_book;
use othello_io::records::RecordsFile;

/// What a `self` player reads before the match: its evaluation and its opening book.
pub(super) struct Loaded {
    pub(super) evaluation: Evaluation,
    pub(super) book: Option<Arc<Book>>,
}

/// The evaluation and book of a `self` player, the files it names read now; `None` for an
/// external engine.
pub(super) fn load_engine(contender: &Contender) -> Result<Option<Loaded>, MatchError> {
    let Contender::Engine(spec) = contender else {
        return Ok(None);
    };
    let evaluation = match &spec.evaluation {
        EvaluationSpec::Trained => Evaluation::Trained,
        EvaluationSpec::Classic => Evaluation::Classic,
        EvaluationSpec::File(path) => weights_file(path).map_err(MatchError::Weights)?,
    };
    let book = match &spec.book {
        BookSpec::File(path) => Some(Arc::new(read_book(path).map_err(MatchError::Book)?)),
        _ => spec.uses_builtin_book().then(Book::builtin),
    };
    Ok(Some(Loaded { evaluation, book }))
}

/// The openings of a file: each game's moves from the standard start.
pub(super) fn read_openings(path: &Path) -> Result<Vec<Opening>, MatchError> {
    let file = RecordsFile::open(path, RuleSet::Full)?;
    let name = file.name().to_owned();
    let mut games = file.games(None)?;
    let records: Vec<_> = games.by_ref().collect();
    games.finish()?;
    if records.is_empty() {
        return Err(MatchError::NoOpenings { name });
    }
    let problem = |number: usize, problem: String| MatchError::Opening {
        name: name.clone(),
        number,
        problem,
    };
    records
        .iter()
        .enumerate()
        .map(|(index, game)| {
            if !game.starts_standard() || game.rules() != RuleSet::Full {
                return Err(problem(
                    index + 1,
                    "does not start from the standard 8x8 position under the FULL rules".to_owned(),
                ));
            }
            Opening::new(game.squares().collect())
                .map_err(|error| problem(index + 1, error.to_string()))
        })
        .collect()
}
