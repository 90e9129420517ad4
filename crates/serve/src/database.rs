//! The games on disk: one SQLite database, `games.sqlite3` in the data directory, in WAL mode
//! with `synchronous=FULL`, so that a commit is durable when it returns.
//!
//! [`Database`] is the whole interface the server has to its storage: [`Database::create`],
//! [`Database::save`], [`Database::load`], [`Database::count`], [`Database::expire`]. Each
//! game is a row: its id, the address that created it, its GGF record (the export format, so
//! a row is a file's worth), whether it is over, and when it was made and last changed.
//!
//! Writes go to one thread, which takes every write waiting at once as a batch, runs the batch
//! in one transaction and commits it (one sync of the write-ahead log for one write or two
//! hundred), then answers each. A batch that fails (a full disk, an I/O error) is rolled back
//! whole and every write of it answered with the error, so that nothing a caller was told
//! failed is in the database; the caller changes its game in memory only after an answer of
//! success. Reads use a connection of their own, which WAL lets run beside the writer.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};
use tokio::sync::oneshot;

use super::game_id::GameId;

/// The database's file name in the data directory.
pub const FILE_NAME: &str = "games.sqlite3";

/// The most writes committed together.
const MAX_BATCH: usize = 256;

/// The schema's version, kept in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL,
    record BLOB NOT NULL,
    over INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner);
CREATE INDEX IF NOT EXISTS unfinished_by_age ON games (updated) WHERE over = 0;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
";

/// What the database refuses to keep.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Games one address may have saved at once.
    pub games_per_owner: u64,
    /// The database's size past which new games are refused, in bytes.
    pub storage_bytes: u64,
    /// A hard limit on the database's pages (SQLite's `max_page_count`): past it every write
    /// fails as a full disk does. `None`: no limit but the disk's.
    pub max_pages: Option<u64>,
}

/// Why a write or a read failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The disk (or the storage limit) is full: nothing was written.
    Full(String),
    /// The address that asks already has as many games as it may keep.
    TooManyGames(u64),
    /// No such game (never made, or expired).
    Missing,
    /// Any other failure of the database: nothing was written.
    Failed(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        if error.sqlite_error_code() == Some(ErrorCode::DiskFull) {
            StoreError::Full(error.to_string())
        } else {
            StoreError::Failed(error.to_string())
        }
    }
}

/// A game's row as written: its record and whether it is over.
pub struct Row {
    /// The game's GGF record.
    pub record: Vec<u8>,
    /// Whether the game is over (a finished game never expires).
    pub over: bool,
}

/// One write for the writer thread.
enum Write {
    Create {
        id: GameId,
        owner: String,
        row: Row,
    },
    Save {
        id: GameId,
        row: Row,
    },
    Expire {
        before: i64,
    },
    Import {
        games: Vec<(GameId, Row)>,
        done: bool,
    },
}

/// A write and where to answer it (the ids the write removed, for an expiry).
struct Job {
    write: Write,
    done: oneshot::Sender<Result<Vec<GameId>, StoreError>>,
}

/// The games' database: the writer thread's queue and a connection for reads.
pub struct Database {
    path: PathBuf,
    writes: mpsc::Sender<Job>,
    reader: Mutex<Connection>,
}

/// Opens `path` with the settings every connection has.
fn connect(path: &Path, limits: &Limits) -> Result<Connection, StoreError> {
    let connection = Connection::open(path)?;
    connection.busy_timeout(Duration::from_secs(10))?;
    let mode: String = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Failed(format!(
            "the database cannot use a write-ahead log (journal mode {mode})"
        )));
    }
    // A commit syncs the log: a game answered as saved survives a power cut.
    connection.pragma_update(None, "synchronous", "FULL")?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    if let Some(pages) = limits.max_pages {
        connection.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))?;
    }
    Ok(connection)
}

/// Seconds since 1970.
fn now() -> i64 {
    jiff::Timestamp::now().as_second()
}

impl Database {
    /// Opens (or makes) the database at `path` and starts its writer thread.
    ///
    /// # Errors
    /// The file cannot be opened or made, or its schema is newer than this program's.
    pub fn open(path: &Path, limits: Limits) -> Result<Database, StoreError> {
        let writer = connect(path, &limits)?;
        let version: i64 = writer.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::Failed(format!(
                "the database is of a newer version ({version}) than this program reads ({SCHEMA_VERSION})"
            )));
        }
        writer.execute_batch(SCHEMA)?;
        writer.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        let reader = connect(path, &limits)?;
        let (queue, jobs) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("serve-database".to_owned())
            .spawn(move || write_batches(writer, &jobs, limits))
            .map_err(|error| StoreError::Failed(error.to_string()))?;
        Ok(Database {
            path: path.to_owned(),
            writes: queue,
            reader: Mutex::new(reader),
        })
    }

    /// The database's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    async fn write(&self, write: Write) -> Result<Vec<GameId>, StoreError> {
        let gone = || StoreError::Failed("the thread that saves games has ended".to_owned());
        let (done, answer) = oneshot::channel();
        self.writes.send(Job { write, done }).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Saves a new game of `owner` (an address), unless `owner` has as many as it may keep or
    /// the storage is full.
    pub async fn create(&self, id: GameId, owner: String, row: Row) -> Result<(), StoreError> {
        self.write(Write::Create { id, owner, row }).await.map(drop)
    }

    /// Replaces a game's record; durable when this returns `Ok`.
    pub async fn save(&self, id: GameId, row: Row) -> Result<(), StoreError> {
        self.write(Write::Save { id, row }).await.map(drop)
    }

    /// Deletes the unfinished games last changed at or before `before` (seconds since 1970);
    /// returns their ids.
    pub async fn expire(&self, before: i64) -> Result<Vec<GameId>, StoreError> {
        self.write(Write::Expire { before }).await
    }

    /// Adds games from elsewhere (a folder of GGF files), owned by no address, in one
    /// transaction that also marks the import done when `done`; a game already there is kept as
    /// it is.
    pub async fn import(&self, games: Vec<(GameId, Row)>, done: bool) -> Result<(), StoreError> {
        self.write(Write::Import { games, done }).await.map(drop)
    }

    /// Whether [`Database::import`] has been done.
    pub fn imported(&self) -> Result<bool, StoreError> {
        let reader = self.reader.lock().expect("no panic while held");
        let done: Option<String> = reader
            .query_row(
                "SELECT value FROM meta WHERE key = 'ggf_imported'",
                [],
                |row| row.get(0),
            )
            .optional()?;
        Ok(done.is_some())
    }

    /// A game's record (blocking: call off the async threads).
    pub fn load(&self, id: GameId) -> Result<Vec<u8>, StoreError> {
        let reader = self.reader.lock().expect("no panic while held");
        reader
            .query_row(
                "SELECT record FROM games WHERE id = ?1",
                [id.to_string()],
                |row| row.get(0),
            )
            .optional()?
            .ok_or(StoreError::Missing)
    }

    /// How many games are saved.
    pub fn count(&self) -> Result<u64, StoreError> {
        let reader = self.reader.lock().expect("no panic while held");
        Ok(reader.query_row("SELECT count(*) FROM games", [], |row| row.get(0))?)
    }

    /// The database's size in pages.
    #[cfg(test)]
    pub fn pages(&self) -> u64 {
        let reader = self.reader.lock().expect("no panic while held");
        reader
            .query_row("PRAGMA page_count", [], |row| row.get(0))
            .unwrap()
    }

    /// Replaces a game's stored record as it is, bypassing every check (tests: a record that
    /// cannot be read).
    #[cfg(test)]
    pub fn put_raw(&self, id: GameId, record: &[u8]) {
        let reader = self.reader.lock().expect("no panic while held");
        reader
            .execute(
                "INSERT OR REPLACE INTO games VALUES (?1, '', ?2, 0, 0, 0)",
                params![id.to_string(), record],
            )
            .unwrap();
    }
}

/// The writer thread: batches of waiting writes, one transaction each.
fn write_batches(mut connection: Connection, jobs: &mpsc::Receiver<Job>, limits: Limits) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let outcomes = run_batch(&mut connection, &batch, &limits);
        match outcomes {
            Ok(outcomes) => {
                for (job, outcome) in batch.into_iter().zip(outcomes) {
                    let _ = job.done.send(outcome);
                }
            }
            Err(error) => {
                if matches!(error, StoreError::Full(_)) {
                    // Give the log's space back to the disk where the log is what filled it:
                    // its pages go into the database, and the log starts again from nothing.
                    let _ = connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
                }
                for job in batch {
                    let _ = job.done.send(Err(error.clone()));
                }
            }
        }
    }
}

/// Runs `batch` in one transaction and commits it: each write's outcome, or the error that
/// rolled the whole batch back.
fn run_batch(
    connection: &mut Connection,
    batch: &[Job],
    limits: &Limits,
) -> Result<Vec<Result<Vec<GameId>, StoreError>>, StoreError> {
    let transaction = connection.transaction()?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for job in batch {
        outcomes.push(apply(&transaction, &job.write, limits)?);
    }
    transaction.commit()?;
    Ok(outcomes)
}

/// One write inside the batch's transaction: `Err` for an error of the database (the batch is
/// rolled back), `Ok(Err)` for a write refused before it changed anything.
fn apply(
    transaction: &rusqlite::Transaction<'_>,
    write: &Write,
    limits: &Limits,
) -> Result<Result<Vec<GameId>, StoreError>, StoreError> {
    match write {
        Write::Create { id, owner, row } => {
            let size: u64 = transaction.query_row(
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
                [],
                |row| row.get(0),
            )?;
            if size >= limits.storage_bytes {
                return Ok(Err(StoreError::Full(format!(
                    "the server keeps at most {} MiB of games",
                    limits.storage_bytes >> 20
                ))));
            }
            let games: u64 = transaction.query_row(
                "SELECT count(*) FROM games WHERE owner = ?1",
                [owner],
                |row| row.get(0),
            )?;
            if games >= limits.games_per_owner {
                return Ok(Err(StoreError::TooManyGames(limits.games_per_owner)));
            }
            let time = now();
            transaction.execute(
                "INSERT INTO games (id, owner, record, over, created, updated) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
                params![id.to_string(), owner, row.record, row.over, time],
            )?;
            Ok(Ok(Vec::new()))
        }
        Write::Save { id, row } => {
            let changed = transaction.execute(
                "UPDATE games SET record = ?2, over = ?3, updated = ?4 WHERE id = ?1",
                params![id.to_string(), row.record, row.over, now()],
            )?;
            Ok(if changed == 0 {
                Err(StoreError::Missing)
            } else {
                Ok(Vec::new())
            })
        }
        Write::Expire { before } => {
            let mut statement = transaction
                .prepare("DELETE FROM games WHERE over = 0 AND updated <= ?1 RETURNING id")?;
            let ids = statement
                .query_map([before], |row| row.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Ok(ids.iter().filter_map(|id| GameId::parse(id)).collect()))
        }
        Write::Import { games, done } => {
            let time = now();
            for (id, row) in games {
                transaction.execute(
                    "INSERT OR IGNORE INTO games (id, owner, record, over, created, updated) \
                     VALUES (?1, '', ?2, ?3, ?4, ?4)",
                    params![id.to_string(), row.record, row.over, time],
                )?;
            }
            if *done {
                transaction.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('ggf_imported', ?1)",
                    [jiff::Timestamp::now().to_string()],
                )?;
            }
            Ok(Ok(Vec::new()))
        }
    }
}
