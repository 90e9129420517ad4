//! Accepting connections: HTTP/1.1 through hyper's own connection builder, so that a client
//! has a limited time ([`HEADER_TIMEOUT`] in `othello serve`) to send a request's head (and a
//! kept-alive connection waits that long for the next one), with a cap on the connections open at once, overall and per client
//! address, taken at accept time: a connection over either cap is closed at once.
//!
//! Each request carries its client's address as axum's `ConnectInfo`, which the rate limit and
//! the caps per address read: an IPv4 address as it is, an IPv6 address as its /64 network (one
//! household or phone is given a whole /64, so its addresses count as one client). On shutdown the listener closes, idle connections close, and the
//! requests under way finish (for at most [`SHUTDOWN_GRACE`]).

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// The time a client has to send a request's head, and that a kept-alive connection waits for
/// the next request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest that shutdown waits for the requests under way.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// How many connections may be open at once, and how long one may take over a request's head.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// The time a client has to send a request's head, and that a kept-alive connection waits
    /// for the next request.
    pub header_timeout: Duration,
    /// In all.
    pub total: usize,
    /// From one client address.
    pub per_address: usize,
}

/// The connections open per client address.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

/// One connection's place in its address's count, given back when dropped.
struct AddressPlace {
    counts: Arc<PerAddress>,
    address: IpAddr,
}

impl PerAddress {
    /// A place for one more connection from `address`, unless it has `most` open.
    fn take(counts: &Arc<PerAddress>, address: IpAddr, most: usize) -> Option<AddressPlace> {
        let mut open = counts.0.lock().expect("no panic while held");
        let count = open.entry(address).or_insert(0);
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(AddressPlace {
            counts: Arc::clone(counts),
            address,
        })
    }
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        let mut open = self.counts.0.lock().expect("no panic while held");
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// The address a client is counted by: an IPv4 address (or one mapped into IPv6) as it is, an
/// IPv6 address as its /64 network.
pub fn client_address(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1_u128 << 64) - 1))),
        v4 @ IpAddr::V4(_) => v4,
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests under way
/// finish.
///
/// # Errors
/// None so far: a failed accept (too many open files) waits a moment and goes on.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let total = Arc::new(Semaphore::new(limits.total.max(1)));
    let per_address = Arc::new(PerAddress::default());
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let Ok((stream, peer)) = accepted else {
            // Out of file descriptors, or a connection reset before it was taken.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let address = client_address(peer.ip());
        let Ok(permit) = Arc::clone(&total).try_acquire_owned() else {
            continue;
        };
        let Some(place) = PerAddress::take(&per_address, address, limits.per_address) else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let mut request = request.map(Body::new);
            request
                .extensions_mut()
                .insert(ConnectInfo(SocketAddr::new(address, peer.port())));
            app.clone().oneshot(request)
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop((permit, place));
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        assert_eq!(client_address(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_address(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(
            client_address(ip("2001:db8:1:2:a:b:c:d")),
            ip("2001:db8:1:2::")
        );
    }
}
