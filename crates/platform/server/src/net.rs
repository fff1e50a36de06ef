//! Accepting connections within bounds: at most [`Limits::max_connections`] at once and
//! [`Limits::max_connections_per_ip`] from one address, request heads read within
//! [`Limits::header_read_timeout`] (which hyper also applies to a kept-alive connection
//! waiting for its next request), and no write stalled longer than [`Limits::write_timeout`]
//! (a client that stops reading a response or its WebSocket is closed).
//!
//! HTTP/1.1 is served by hyper's own connection builder with its timer, as `axum::serve`
//! does, but `axum::serve` sets no timer (so no header timeout) and counts no connections.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Sleep;
use tower::ServiceExt;

use crate::server::Limits;
use crate::util::lock;

/// The address a client is counted and rate-limited by: an IPv4 address, or the /64 network
/// of an IPv6 address (one host usually holds a whole /64, so counting single IPv6
/// addresses would let it open 2^64 times the limit). IPv4-mapped IPv6 counts as IPv4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip {
            IpAddr::V4(_) => ClientKey(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let net = u128::from(v6) & !((1u128 << 64) - 1);
                    ClientKey(IpAddr::V6(Ipv6Addr::from(net)))
                }
            },
        }
    }
}

/// The client's address, put in every request's extensions by the server's accept loop (a
/// router used in-process has none).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub SocketAddr);

#[derive(Default)]
struct Counts {
    total: usize,
    per_client: HashMap<ClientKey, usize>,
}

/// The open connections, in total and per client; [`ConnectionCount`] reads them.
#[derive(Default)]
struct Registry {
    counts: Mutex<Counts>,
}

/// A handle on the number of open connections (WebSockets included), for tests and
/// monitoring.
#[derive(Clone, Default)]
pub struct ConnectionCount(Arc<Registry>);

impl ConnectionCount {
    /// Connections open now.
    pub fn total(&self) -> usize {
        lock(&self.0.counts).total
    }

    /// Connections open now from `ip`'s [`ClientKey`].
    pub fn from_ip(&self, ip: IpAddr) -> usize {
        let counts = lock(&self.0.counts);
        counts
            .per_client
            .get(&ClientKey::of(ip))
            .copied()
            .unwrap_or(0)
    }

    /// A slot for a new connection from `ip`, or `None` over a limit.
    fn admit(&self, ip: IpAddr, limits: &Limits) -> Option<Slot> {
        let key = ClientKey::of(ip);
        let mut counts = lock(&self.0.counts);
        let mine = counts.per_client.get(&key).copied().unwrap_or(0);
        if counts.total >= limits.max_connections || mine >= limits.max_connections_per_ip {
            return None;
        }
        counts.total += 1;
        counts.per_client.insert(key, mine + 1);
        Some(Slot {
            registry: self.0.clone(),
            key,
        })
    }
}

/// One admitted connection; dropping it (when the socket is dropped, after a WebSocket
/// upgrade too) frees its place.
struct Slot {
    registry: Arc<Registry>,
    key: ClientKey,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = lock(&self.registry.counts);
        counts.total = counts.total.saturating_sub(1);
        if let Some(n) = counts.per_client.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                counts.per_client.remove(&self.key);
            }
        }
    }
}

/// A client socket that holds its [`Slot`] and fails a write that makes no progress for
/// `write_timeout`, so a client that never reads cannot hold a task and a socket forever.
pub(crate) struct GuardedStream<T> {
    inner: T,
    write_timeout: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
    _slot: Option<Slot>,
}

impl<T> GuardedStream<T> {
    fn new(inner: T, write_timeout: Duration, slot: Option<Slot>) -> Self {
        Self {
            inner,
            write_timeout,
            stalled: None,
            _slot: slot,
        }
    }

    /// Called when a write is pending: fails once it has been pending for `write_timeout`.
    fn poll_stall<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let timeout = self.write_timeout;
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {timeout:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progress<R>(
        &mut self,
        poll: Poll<io::Result<R>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<R>> {
        match poll {
            Poll::Ready(r) => {
                self.stalled = None;
                Poll::Ready(r)
            }
            Poll::Pending => self.poll_stall(cx),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for GuardedStream<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for GuardedStream<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.progress(poll, cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.progress(poll, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.progress(poll, cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.progress(poll, cx)
    }
}

/// What a refused connection is told before it is closed (best effort, never waited for).
fn refusal() -> String {
    const BODY: &str = r#"{"error":"too many connections (from your address, or in all)","code":"too_many_connections"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    )
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (their connections close after them) and returns.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    count: ConnectionCount,
    shutdown: impl Future<Output = ()>,
) {
    let (stop, stopping) = watch::channel(());
    let (done, all_done) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = count.admit(peer.ip(), &limits) else {
            let _ = stream.try_write(refusal().as_bytes());
            continue;
        };
        let _ = stream.set_nodelay(true);
        let stream = GuardedStream::new(stream, limits.write_timeout, Some(slot));
        tokio::spawn(connection(
            stream,
            peer,
            app.clone(),
            limits,
            stopping.clone(),
            all_done.clone(),
        ));
    }
    drop(listener);
    let _ = stop.send(());
    drop(all_done);
    // Every connection task holds a receiver of `done`; `closed` resolves when all are gone.
    done.closed().await;
}

/// One HTTP/1.1 connection (upgradable to a WebSocket), closed gracefully on shutdown.
async fn connection(
    stream: GuardedStream<TcpStream>,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    mut stopping: watch::Receiver<()>,
    _done: watch::Receiver<()>,
) {
    let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let mut req = req.map(Body::new);
        req.extensions_mut().insert(ClientAddr(peer));
        app.clone().oneshot(req)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let conn = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => {
            if let Err(e) = result {
                tracing::debug!("connection from {peer}: {e}");
            }
            return;
        }
        _ = stopping.changed() => conn.as_mut().graceful_shutdown(),
    }
    if let Err(e) = conn.await {
        tracing::debug!("connection from {peer}: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[test]
    fn ipv6_clients_count_by_their_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(ClientKey::of(a), ClientKey::of(b));
        assert_ne!(ClientKey::of(a), ClientKey::of(c));
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(
            ClientKey::of(mapped),
            ClientKey::of("10.1.2.3".parse().unwrap())
        );
    }

    #[test]
    fn slots_are_counted_and_freed() {
        let limits = Limits {
            max_connections: 3,
            max_connections_per_ip: 2,
            ..Limits::default()
        };
        let count = ConnectionCount::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let a1 = count.admit(a, &limits);
        let a2 = count.admit(a, &limits);
        assert!(a1.is_some() && a2.is_some());
        assert!(count.admit(a, &limits).is_none(), "per address");
        let b1 = count.admit(b, &limits);
        assert!(b1.is_some());
        assert!(count.admit(b, &limits).is_none(), "in total");
        assert_eq!((count.total(), count.from_ip(a)), (3, 2));
        drop(a1);
        assert_eq!((count.total(), count.from_ip(a)), (2, 1));
        assert!(count.admit(b, &limits).is_some());
    }

    /// A peer that never reads: the writer's buffer fills, and the write fails after the
    /// timeout instead of waiting forever.
    #[tokio::test]
    async fn a_stalled_write_fails_after_the_timeout() {
        let (ours, _theirs) = tokio::io::duplex(64);
        let mut stream = GuardedStream::new(ours, Duration::from_millis(200), None);
        let started = std::time::Instant::now();
        let err = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                if let Err(e) = stream.write_all(&[0u8; 1024]).await {
                    return e;
                }
            }
        })
        .await
        .expect("the write fails by itself");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(200));
    }
}
