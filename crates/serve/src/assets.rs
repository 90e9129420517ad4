//! The page's files, built into the binary: no build step, nothing fetched from elsewhere, and
//! no request path reaches the file system. With the web app manifest, the icons and the service
//! worker (`sw.js`, which keeps these files for a page opened without the network), a phone can
//! install the page on its home screen.

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// One embedded file: its path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const ASSETS: [Asset; 11] = [
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
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        asset.bytes,
    )
        .into_response()
}
