//! The games: in memory while in play, and each saved after every change in the
//! [`Database`] (durable before the answer), from where a restarted server, or one that
//! evicted an idle game, reads it again.
//!
//! A change is saved before it is kept: the handlers change a copy of the game, save the copy,
//! and put it in place of the game only once the save succeeded, so that the game in memory is
//! always the game on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use othello_records::{self as record, Format};

use super::database::{self, Database, Limits, Row, StoreError};
use super::game::Hosted;
use super::game_id::GameId;
use super::import;

/// Games of a folder imported in one transaction.
const IMPORT_BATCH: usize = 500;

/// A game in memory: the game (its lock also orders its saves) and when it was last used.
pub struct Entry {
    /// The game; held across its save, so that saves of one game land in order.
    pub game: tokio::sync::Mutex<Hosted>,
    /// The computer's search in progress, if any: a number that changes with each search,
    /// and the flag that stops it.
    pub search: Mutex<Option<(u64, Arc<AtomicBool>)>>,
    last_used: Mutex<Instant>,
}

impl Entry {
    fn new(game: Hosted) -> Entry {
        Entry {
            game: tokio::sync::Mutex::new(game),
            search: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
        }
    }

    fn touch(&self) {
        *self.last_used.lock().expect("no panic while held") = Instant::now();
    }

    fn idle_since(&self) -> Instant {
        *self.last_used.lock().expect("no panic while held")
    }

    /// Whether the computer is thinking for this game.
    pub fn thinking(&self) -> bool {
        self.search.lock().expect("no panic while held").is_some()
    }
}

/// Every game: those in memory, and the database they are saved in.
pub struct Store {
    database: Database,
    games: Mutex<HashMap<GameId, Arc<Entry>>>,
    capacity: usize,
}

/// A saved game that could not be read back.
#[derive(Debug)]
pub enum LoadError {
    /// No such game.
    Missing,
    /// The record cannot be read, or holds no game.
    Unreadable(String),
}

/// Why the store could not open.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The data directory could not be made, or a folder of games to import read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The database could not be opened, or the import written.
    #[error("the database {path}: {message}", path = .path.display())]
    Database {
        /// The database's file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl Store {
    /// A store saving into the database in `dir` (created if missing), keeping at most
    /// `capacity` games in memory. On the first start over a folder of `ID.ggf` files (the
    /// layout before the database), their games are imported (a game already in the database
    /// is kept as it is, so an import cut short is done again whole).
    pub async fn open(dir: &Path, capacity: usize, limits: Limits) -> Result<Store, OpenError> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(database::FILE_NAME);
        let failed = |error: StoreError| OpenError::Database {
            path: path.clone(),
            message: match error {
                StoreError::Full(message) | StoreError::Failed(message) => message,
                other => format!("{other:?}"),
            },
        };
        let database = Database::open(&path, limits).map_err(failed)?;
        if !database.imported().map_err(failed)? {
            // Read and written a few hundred games at a time, so that a large folder never
            // sits in memory whole; the import is marked done after the last.
            let folder = import::Folder::read(dir)?;
            for ids in folder.ids().chunks(IMPORT_BATCH) {
                let mut rows = Vec::with_capacity(ids.len());
                for &id in ids {
                    let record = folder.record(id)?;
                    let over = import::read_game(&record)
                        .is_some_and(|game| Hosted::from_record(&game).game().is_over());
                    rows.push((id, Row { record, over }));
                }
                database.import(rows, false).await.map_err(failed)?;
            }
            database.import(Vec::new(), true).await.map_err(failed)?;
        }
        Ok(Store {
            database,
            games: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        })
    }

    /// The database's file.
    pub fn database_path(&self) -> &Path {
        self.database.path()
    }

    /// How many games are saved.
    pub fn saved_games(&self) -> Result<u64, StoreError> {
        self.database.count()
    }

    /// Saves a new game of `owner` (the address that asks) under a fresh id, then keeps it in
    /// memory.
    pub async fn create(
        &self,
        game: Hosted,
        owner: String,
    ) -> Result<(GameId, Arc<Entry>), StoreError> {
        let id = {
            let games = self.games.lock().expect("no panic while held");
            let mut id = GameId::random();
            while games.contains_key(&id) {
                id = GameId::random();
            }
            id
        };
        self.database.create(id, owner, row(&game)?).await?;
        let entry = Arc::new(Entry::new(game));
        let mut games = self.games.lock().expect("no panic while held");
        self.evict(&mut games);
        games.insert(id, Arc::clone(&entry));
        Ok((id, entry))
    }

    /// The game `id`, from memory or else from the database.
    pub async fn get(self: &Arc<Self>, id: GameId) -> Result<Arc<Entry>, LoadError> {
        if let Some(entry) = self.games.lock().expect("no panic while held").get(&id) {
            entry.touch();
            return Ok(Arc::clone(entry));
        }
        let store = Arc::clone(self);
        let bytes = tokio::task::spawn_blocking(move || store.database.load(id))
            .await
            .map_err(|error| LoadError::Unreadable(error.to_string()))?
            .map_err(|error| match error {
                StoreError::Missing => LoadError::Missing,
                other => LoadError::Unreadable(format!("{other:?}")),
            })?;
        let record = import::read_game(&bytes)
            .ok_or_else(|| LoadError::Unreadable("the record holds no game".to_owned()))?;
        let game = Hosted::from_record(&record);
        let mut games = self.games.lock().expect("no panic while held");
        if let Some(entry) = games.get(&id) {
            // Read meanwhile by another request.
            return Ok(Arc::clone(entry));
        }
        self.evict(&mut games);
        let entry = Arc::new(Entry::new(game));
        games.insert(id, Arc::clone(&entry));
        Ok(entry)
    }

    /// Saves `game` as the game `id`; durable when this returns `Ok`. A game no longer in the
    /// database (expired) leaves memory too.
    pub async fn save(&self, id: GameId, game: &Hosted) -> Result<(), StoreError> {
        let saved = self.database.save(id, row(game)?).await;
        if saved == Err(StoreError::Missing) {
            self.games.lock().expect("no panic while held").remove(&id);
        }
        saved
    }

    /// Deletes the unfinished games untouched for `days` days, from the database and from
    /// memory; returns how many.
    pub async fn expire(&self, days: u64) -> Result<usize, StoreError> {
        let age = i64::try_from(days.saturating_mul(86_400)).unwrap_or(i64::MAX);
        let before = jiff::Timestamp::now().as_second().saturating_sub(age);
        let expired = self.database.expire(before).await?;
        let mut games = self.games.lock().expect("no panic while held");
        for id in &expired {
            games.remove(id);
        }
        Ok(expired.len())
    }

    /// Drops the games idle longest (they are saved) until there is room for one more; a game
    /// the computer is thinking about stays.
    fn evict(&self, games: &mut HashMap<GameId, Arc<Entry>>) {
        while games.len() >= self.capacity {
            let oldest = games
                .iter()
                .filter(|(_, entry)| !entry.thinking() && Arc::strong_count(entry) == 1)
                .min_by_key(|(_, entry)| entry.idle_since())
                .map(|(id, _)| *id);
            match oldest {
                Some(id) => {
                    games.remove(&id);
                }
                None => break,
            }
        }
    }

    /// How many games are in memory.
    #[cfg(test)]
    pub fn in_memory(&self) -> usize {
        self.games.lock().expect("no panic while held").len()
    }

    /// The database (tests: to put a record in it as it is).
    #[cfg(test)]
    pub fn database(&self) -> &Database {
        &self.database
    }
}

/// A game's row: its GGF record, dated today, and whether it is over.
fn row(game: &Hosted) -> Result<Row, StoreError> {
    let record = record::write(&[game.record(Some(today()))], Format::Ggf)
        .map_err(|error| StoreError::Failed(error.to_string()))?;
    Ok(Row {
        record,
        over: game.game().is_over(),
    })
}

/// Today's date, for the record.
pub fn today() -> String {
    jiff::Zoned::now().strftime("%Y-%m-%d").to_string()
}
