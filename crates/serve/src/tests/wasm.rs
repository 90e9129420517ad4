//! The routes of `--wasm DIR` under the API router's layers: the same security headers as
//! every other answer.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use tower::ServiceExt;

use super::LIMITS;
use crate::api::{self, Server};
use crate::assets::WasmBuild;
use crate::pool::Pool;
use crate::store::Store;

#[tokio::test]
async fn the_wasm_build_is_served_with_the_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    std::fs::create_dir(&build).unwrap();
    std::fs::write(build.join("othello_wasm.js"), "export default 1;").unwrap();
    std::fs::write(build.join("othello_wasm_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let wasm = WasmBuild::read(&build).unwrap();
    let server = Arc::new(Server {
        store: Arc::new(Store::open(dir.path(), 10, LIMITS).await.unwrap()),
        pool: Pool::new(1, 8, 8),
    });
    let app = api::router(server, Some(wasm));
    for (path, content_type) in [
        ("/wasm/othello_wasm.js", "text/javascript; charset=utf-8"),
        ("/wasm/othello_wasm_bg.wasm", "application/wasm"),
    ] {
        let mut request = Request::get(path).body(Body::empty()).unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let headers = response.headers();
        assert_eq!(headers[header::CONTENT_TYPE], content_type, "{path}");
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{path}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer", "{path}");
    }
}
