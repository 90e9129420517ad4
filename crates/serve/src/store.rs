//! The games: in memory while in play, and each saved after every change as a GGF record
//! `ID.ggf` in the games directory (written atomically, and durable before the answer through
//! the [`journal`]), from where a restarted server, or one that evicted an idle game, reads it
//! again.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use tokio::sync::oneshot;

use othello_records::{self as record, Format, ReadOptions};

use super::game::Hosted;
use super::game_id::{GameId, id_of_file};
use super::journal::{self, Save};

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

/// Every game: those in memory, and the directory they are saved in.
pub struct Store {
    dir: PathBuf,
    games: Mutex<HashMap<GameId, Arc<Entry>>>,
    capacity: usize,
    saver: mpsc::Sender<Save>,
}

/// A saved game that could not be read back.
#[derive(Debug)]
pub enum LoadError {
    /// No such game.
    Missing,
    /// The file could not be read or holds no game.
    Unreadable(String),
}

impl Store {
    /// A store saving into `dir` (created if missing), keeping at most `capacity` games in
    /// memory.
    pub fn open(dir: &Path, capacity: usize) -> io::Result<Store> {
        std::fs::create_dir_all(dir)?;
        let journal = journal::recover(dir)?;
        Ok(Store {
            dir: dir.to_owned(),
            games: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
            saver: journal::start(dir, journal)?,
        })
    }

    /// The directory games are saved in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many games are saved in the directory.
    pub fn saved_games(&self) -> usize {
        std::fs::read_dir(&self.dir).map_or(0, |entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| id_of_file(&entry.file_name().to_string_lossy()).is_some())
                .count()
        })
    }

    fn path(&self, id: GameId) -> PathBuf {
        self.dir.join(format!("{id}.ggf"))
    }

    /// Adds a new game under a fresh id (not yet saved).
    pub fn insert(&self, game: Hosted) -> (GameId, Arc<Entry>) {
        let entry = Arc::new(Entry::new(game));
        let mut games = self.games.lock().expect("no panic while held");
        let mut id = GameId::random();
        while games.contains_key(&id) || self.path(id).exists() {
            id = GameId::random();
        }
        self.evict(&mut games);
        games.insert(id, Arc::clone(&entry));
        (id, entry)
    }

    /// The game `id`, from memory or else from its file.
    pub async fn get(self: &Arc<Self>, id: GameId) -> Result<Arc<Entry>, LoadError> {
        if let Some(entry) = self.games.lock().expect("no panic while held").get(&id) {
            entry.touch();
            return Ok(Arc::clone(entry));
        }
        let path = self.path(id);
        let game = tokio::task::spawn_blocking(move || read_game(&path))
            .await
            .map_err(|error| LoadError::Unreadable(error.to_string()))??;
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

    /// Writes the game's record to its file (atomically, and durable through the journal with
    /// the saves of other games made at the same time), off the async threads.
    pub async fn save(&self, id: GameId, game: &Hosted) -> io::Result<()> {
        let bytes = record::write(&[game.record(Some(today()))], Format::Ggf)
            .map_err(|error| io::Error::other(error.to_string()))?;
        let (done, written) = oneshot::channel();
        let save = Save {
            path: self.path(id),
            bytes,
            done,
        };
        let gone = || io::Error::other("the thread that saves games has ended");
        self.saver.send(save).map_err(|_| gone())?;
        written.await.map_err(|_| gone())?
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
}

/// Reads the game saved at `path`.
fn read_game(path: &Path) -> Result<Hosted, LoadError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(LoadError::Missing),
        Err(error) => return Err(LoadError::Unreadable(error.to_string())),
    };
    let records = record::read_as(Format::Ggf, &bytes, &ReadOptions::default())
        .map_err(|error| LoadError::Unreadable(error.to_string()))?;
    let record = records
        .first()
        .ok_or_else(|| LoadError::Unreadable("no game in the file".to_owned()))?;
    Ok(Hosted::from_record(record))
}

/// Today's date, for the record.
pub fn today() -> String {
    jiff::Zoned::now().strftime("%Y-%m-%d").to_string()
}
