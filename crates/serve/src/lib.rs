//! `othello serve`: the board in a browser. An HTTP server (axum on tokio) hosts games for
//! pages that draw what it returns; the library decides every move.
//!
//! Inside: `api` has the routes, `store` the games in memory and `database` on disk (SQLite,
//! saves made durable in batches), `import` the folder of GGF files that came before it, `pool`
//! the computer's searches, `game` one hosted game (its settings and seats through
//! `othello_session`), `assets` the page's files.
//! [`run`] serves with the options of [`ServeArgs`]; a failure is a [`ServeError`] with its exit
//! status.

/// Prints one status line on standard output. A closed output (a script read the address and
/// went away) is no failure of the server: the line is dropped.
macro_rules! status {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod api;
mod assets;
mod connections;
mod cross_site;
mod database;
mod game;
mod game_id;
mod import;
mod pool;
mod store;
#[cfg(test)]
mod tests;

use othello::text::counted;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use api::Server;
use connections::ConnectionLimits;
use database::Limits;
use pool::Pool;
use store::{OpenError, Store};

/// Games kept in memory at most; idle ones beyond are read again from their files.
const GAMES_IN_MEMORY: usize = 2000;

/// Searches that may wait for a free core.
const SEARCHES_WAITING: usize = 256;

/// Searches that one client address may have waiting.
const SEARCHES_WAITING_PER_ADDRESS: usize = 8;

/// Serve the board to a browser: play on a phone, a tablet or a desktop.
///
/// Prints the address to open. Every game is saved after each move in the data directory's
/// database (games.sqlite3) and continues after a restart; a page keeps its game's id in its
/// address.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 after Ctrl-C or SIGTERM (games saved), 1 if the server cannot run (the address is taken, the data directory or its database cannot be opened), 2 for bad usage."
)]
pub struct ServeArgs {
    /// The address and port to listen on; 0.0.0.0:PORT lets other machines of the network
    /// (a phone) connect.
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,

    /// The directory of the games' database, games.sqlite3 (created if missing); a folder of
    /// ID.ggf files there (the layout before the database) is imported on the first start.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "othello-games",
        alias = "games-dir"
    )]
    data_dir: PathBuf,

    /// Games one client address may keep saved at once (then 429).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    max_games_per_address: u64,

    /// The database's size, in MiB, past which new games are refused (507).
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=(1 << 24)))]
    max_storage_mib: u64,

    /// Unfinished games untouched this many days are deleted (checked every hour); 0 keeps
    /// them all.
    #[arg(long, value_name = "DAYS", default_value_t = 30)]
    expire_days: u64,

    /// Connections open at once, in all; more are closed as they come.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,

    /// Connections open at once from one client address.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections_per_address: u64,

    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,

    /// The WebAssembly build for offline play (`othello_wasm.js` and `othello_wasm_bg.wasm`,
    /// made as docs/serve.md says); without it the page plays online only.
    #[arg(long, value_name = "DIR")]
    wasm: Option<PathBuf>,

    /// Write the page as static files into DIR (new or empty) for an HTTPS host, and exit: it
    /// plays on the device, with the WebAssembly build of `--wasm`.
    #[arg(long, value_name = "DIR")]
    export: Option<PathBuf>,
}

/// Why `othello serve` could not run.
#[derive(Debug, Error)]
pub enum ServeError {
    /// The data directory could not be made, or its database opened.
    #[error("cannot use data directory {path}: {source}", path = .path.display())]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: OpenError,
    },
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// What went wrong.
        source: io::Error,
    },
    /// The WebAssembly build of `--wasm` could not be read.
    #[error(transparent)]
    Wasm(#[from] assets::WasmError),
    /// The export could not be written.
    #[error("cannot export the page to {path}: {source}", path = .path.display())]
    Export {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The async runtime could not start, or serving failed.
    #[error("cannot run the server: {0}")]
    Runtime(io::Error),
}

impl ServeError {
    /// The exit status: 1, a run-time failure (the directory, the address or the runtime).
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        1
    }
}

/// Serves until Ctrl-C or SIGTERM.
///
/// # Errors
/// [`ServeError`] when the data directory, the address or the runtime cannot be had.
pub fn run(args: &ServeArgs) -> Result<(), ServeError> {
    let wasm = args
        .wasm
        .as_deref()
        .map(assets::WasmBuild::read)
        .transpose()?;
    if let Some(dir) = &args.export {
        let written = assets::export(dir, wasm.as_ref())
            .map_err(|(path, source)| ServeError::Export { path, source })?;
        status!(
            "Wrote {} in {}{}",
            counted(written, "file", "files"),
            dir.display(),
            if wasm.is_some() {
                ""
            } else {
                " (without --wasm: the page cannot play there)"
            }
        );
        return Ok(());
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let limits = Limits {
        games_per_owner: args.max_games_per_address,
        storage_bytes: args.max_storage_mib << 20,
        max_pages: None,
    };
    let store = runtime
        .block_on(Store::open(&args.data_dir, GAMES_IN_MEMORY, limits))
        .map_err(|source| ServeError::DataDir {
            path: args.data_dir.clone(),
            source,
        })?;
    let server = Arc::new(Server {
        store: Arc::new(store),
        pool: Pool::new(cores, SEARCHES_WAITING, SEARCHES_WAITING_PER_ADDRESS),
    });
    runtime.block_on(serve(args, server, wasm))?;
    Ok(())
}

/// Deletes the unfinished games untouched for `days` days, now and every hour.
async fn expire_every_hour(store: Arc<Store>, days: u64) {
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    loop {
        every.tick().await;
        match store.expire(days).await {
            Ok(0) => {}
            Ok(expired) => status!(
                "{} untouched for {days} days deleted",
                counted(expired, "unfinished game", "unfinished games")
            ),
            Err(error) => othello_io::warn(format_args!(
                "othello: serve: cannot delete old games: {error:?}"
            )),
        }
    }
}

async fn serve(
    args: &ServeArgs,
    server: Arc<Server>,
    wasm: Option<assets::WasmBuild>,
) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|source| ServeError::Listen {
            addr: args.addr,
            source,
        })?;
    let addr = listener.local_addr().map_err(ServeError::Runtime)?;
    let saved = server.store.saved_games().unwrap_or(0);
    status!(
        "{} in {}",
        counted(saved as usize, "saved game", "saved games"),
        server.store.database_path().display()
    );
    if args.expire_days > 0 {
        tokio::spawn(expire_every_hour(
            Arc::clone(&server.store),
            args.expire_days,
        ));
    }
    if wasm.is_none() {
        status!("Offline play is off (no --wasm build): pages play while the server runs");
    }
    // The address comes last but for the notes about the network, so that a script that reads
    // up to it has read what the server says at start.
    let url = page_url(addr);
    status!("Open {url} in a browser (Ctrl-C stops the server)");
    if addr.ip().is_unspecified() {
        if let Some(lan) = lan_address() {
            status!(
                "On a phone on the same network: http://{}",
                SocketAddr::new(lan, addr.port())
            );
        }
        status!("Note: anyone on this network can open the page and play.");
    }
    if args.open {
        open_browser(&url);
    }
    let app = api::router(Arc::clone(&server), wasm);
    let shutdown_server = Arc::clone(&server);
    let limits = ConnectionLimits {
        header_timeout: connections::HEADER_TIMEOUT,
        total: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
        per_address: usize::try_from(args.max_connections_per_address).unwrap_or(usize::MAX),
    };
    let outcome = connections::serve(listener, app, limits, async move {
        termination().await;
        // In-flight requests finish; searches stop at once so that they finish soon.
        shutdown_server.pool.close();
    })
    .await;
    status!(
        "Stopped; every game is saved in {}",
        server.store.database_path().display()
    );
    outcome.map_err(ServeError::Runtime)
}

/// The address a browser on this machine opens.
fn page_url(addr: SocketAddr) -> String {
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port())
    } else {
        addr
    };
    format!("http://{shown}/")
}

/// This machine's address on its network: the source address of a route outwards (no packet
/// is sent).
fn lan_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// Ctrl-C, or SIGTERM on Unix.
async fn termination() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    () = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => interrupt.await,
        }
    }
    #[cfg(not(unix))]
    interrupt.await;
}

/// Opens `url` in the desktop's browser; says so when it cannot.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let opened = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = opened {
        othello_io::warn(format_args!(
            "othello: cannot open a browser with {program}: {error}; open {url} yourself"
        ));
    }
}
