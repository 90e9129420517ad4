//! The page's files, built into the binary: no build step, nothing fetched from elsewhere, and
//! no request path reaches the file system. With the web app manifest, the icons and the service
//! worker (`sw.js`, which keeps these files for a page opened without the network), a phone can
//! install the page on its home screen. The WebAssembly build for offline play (built by its own
//! command, see docs/serve.md) is read once at start from `--wasm DIR` when given, and served
//! from memory under `/wasm/`; without it the page plays online only. [`export`] writes the same
//! files as a folder for a static host.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use othello_io::atomic::write_atomic;

/// One embedded file: its path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const ASSETS: [Asset; 13] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("static/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/app.js"),
    },
    Asset {
        path: "/board.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/board.js"),
    },
    Asset {
        path: "/chart.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/chart.js"),
    },
    Asset {
        path: "/sw.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/sw.js"),
    },
    Asset {
        path: "/local.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/local.js"),
    },
    Asset {
        path: "/worker.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/worker.js"),
    },
    Asset {
        path: "/api.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("static/api.js"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("static/style.css"),
    },
    Asset {
        path: "/icon.svg",
        content_type: "image/svg+xml",
        bytes: include_bytes!("static/icon.svg"),
    },
    Asset {
        path: "/icon-192.png",
        content_type: "image/png",
        bytes: include_bytes!("static/icon-192.png"),
    },
    Asset {
        path: "/icon-512.png",
        content_type: "image/png",
        bytes: include_bytes!("static/icon-512.png"),
    },
    Asset {
        path: "/manifest.webmanifest",
        content_type: "application/manifest+json",
        bytes: include_bytes!("static/manifest.webmanifest"),
    },
];

/// A route for each file.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    ASSETS.iter().fold(Router::new(), |router, asset| {
        router.route(asset.path, get(move || async move { serve(asset) }))
    })
}

fn serve(asset: &'static Asset) -> Response {
    answer(asset.content_type, asset.bytes)
}

fn answer(content_type: &'static str, bytes: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        bytes,
    )
        .into_response()
}

/// The WebAssembly build's files, as `wasm-bindgen --target web` names them, with their
/// content types.
const WASM_FILES: [(&str, &str); 2] = [
    ("othello_wasm.js", "text/javascript; charset=utf-8"),
    ("othello_wasm_bg.wasm", "application/wasm"),
];

/// The largest WebAssembly file read (the build is about a megabyte).
const WASM_LIMIT: u64 = 32 << 20;

/// The WebAssembly build, read into memory.
#[derive(Debug)]
pub struct WasmBuild {
    files: Vec<(&'static str, &'static str, Vec<u8>)>,
}

/// The WebAssembly build could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the WebAssembly build {path}: {source}", path = .path.display())]
pub struct WasmError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub source: io::Error,
}

impl WasmBuild {
    /// Reads `othello_wasm.js` and `othello_wasm_bg.wasm` from `dir`.
    ///
    /// # Errors
    /// [`WasmError`] naming the file that is missing, unreadable or too large.
    pub fn read(dir: &Path) -> Result<WasmBuild, WasmError> {
        let mut files = Vec::new();
        for (name, content_type) in WASM_FILES {
            let path = dir.join(name);
            let fail = |source| WasmError {
                path: path.clone(),
                source,
            };
            let mut bytes = Vec::new();
            fs::File::open(&path)
                .map_err(fail)?
                .take(WASM_LIMIT + 1)
                .read_to_end(&mut bytes)
                .map_err(fail)?;
            if bytes.len() as u64 > WASM_LIMIT {
                return Err(fail(io::Error::other("larger than 32 MiB")));
            }
            files.push((name, content_type, bytes));
        }
        Ok(WasmBuild { files })
    }

    /// A route for each file, under `/wasm/`.
    pub fn routes<S: Clone + Send + Sync + 'static>(self) -> Router<S> {
        self.files
            .into_iter()
            .fold(Router::new(), |router, (name, content_type, bytes)| {
                let bytes: &'static [u8] = Vec::leak(bytes);
                router.route(
                    &format!("/wasm/{name}"),
                    get(move || async move { answer(content_type, bytes) }),
                )
            })
    }
}

/// Writes the page (and the WebAssembly build, when given) into `dir` as static files: a new
/// or empty directory, so that nothing of anyone else's is overwritten. Each file is written
/// atomically (`othello_io::atomic`: a temporary file synced, then renamed), so a failure
/// part-way (a full disk) leaves whole files only.
///
/// # Errors
/// The I/O error, with the path it concerns, when `dir` is not empty or a file cannot be
/// written.
pub fn export(dir: &Path, wasm: Option<&WasmBuild>) -> Result<usize, (PathBuf, io::Error)> {
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |error| (path, error)
    };
    fs::create_dir_all(dir).map_err(fail(dir))?;
    if fs::read_dir(dir).map_err(fail(dir))?.next().is_some() {
        return Err((
            dir.to_path_buf(),
            io::Error::other("not empty (the export writes into a new or empty directory)"),
        ));
    }
    let mut written = 0;
    for asset in &ASSETS {
        let name = if asset.path == "/" {
            "index.html"
        } else {
            asset.path.trim_start_matches('/')
        };
        let path = dir.join(name);
        write_atomic(&path, asset.bytes).map_err(fail(&path))?;
        written += 1;
    }
    if let Some(wasm) = wasm {
        let wasm_dir = dir.join("wasm");
        fs::create_dir_all(&wasm_dir).map_err(fail(&wasm_dir))?;
        for (name, _, bytes) in &wasm.files {
            let path = wasm_dir.join(name);
            write_atomic(&path, bytes).map_err(fail(&path))?;
            written += 1;
        }
    }
    Ok(written)
}
