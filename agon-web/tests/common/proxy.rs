//! A TCP proxy between a server and its database, whose link a test cuts, restores, or
//! makes go silent (the faults of a network: [`Link`]).

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does with its connections.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Forwards every byte both ways.
    Open,
    /// Closes every connection, and every new one at once (a link cut: both ends see
    /// the connection end).
    Cut,
    /// Forwards nothing either way and closes nothing (packets dropped, as by a link gone
    /// silent): what was sent waits, and goes through once the link is open again, as
    /// TCP would resend it.
    Silent,
    /// Open until a PostgreSQL transaction through it has read a row (a `SELECT ... FOR
    /// UPDATE`: it holds a row lock), then [`Link::Silent`] before that answer goes back:
    /// a link that goes silent in the middle of a change.
    SilentOnceLocked,
}

/// A proxy on a loopback port to `target`, stopped when dropped.
pub struct Proxy {
    /// Where it listens.
    pub addr: SocketAddr,
    link: watch::Sender<Link>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.link.send_replace(Link::Cut);
        self.task.abort();
    }
}

impl Proxy {
    /// Starts a proxy to `target`, open.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (link, _) = watch::channel(Link::Open);
        let sender = link.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if *sender.borrow() == Link::Cut {
                    continue; // dropped: closed at once
                }
                let sender = sender.clone();
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(target).await else {
                        return;
                    };
                    let _ = (client.set_nodelay(true), server.set_nodelay(true));
                    let (client_read, client_write) = client.into_split();
                    let (server_read, server_write) = server.into_split();
                    tokio::join!(
                        pump(client_read, server_write, sender.clone(), false),
                        pump(server_read, client_write, sender, true),
                    );
                });
            }
        });
        Proxy { addr, link, task }
    }

    /// The PostgreSQL URL `url` through this proxy (its host and port replaced).
    pub fn url(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").unwrap();
        let (user, rest) = rest.split_once('@').unwrap();
        let (_, path) = rest.split_once('/').unwrap();
        // No TLS negotiation: the proxy reads PostgreSQL's messages from the first byte.
        format!("{scheme}://{user}@{}/{path}?sslmode=disable", self.addr)
    }

    /// Sets what the link does from now on.
    pub fn set(&self, link: Link) {
        self.link.send_replace(link);
    }

    /// What the link does now ([`Link::SilentOnceLocked`] turns [`Link::Silent`] once it
    /// happened).
    pub fn link(&self) -> Link {
        *self.link.borrow()
    }
}

/// Waits while the link is silent: answers whether to go on (not cut).
async fn open(link: &mut watch::Receiver<Link>) -> bool {
    loop {
        match *link.borrow_and_update() {
            Link::Open | Link::SilentOnceLocked => return true,
            Link::Cut => return false,
            Link::Silent => {}
        }
        if link.changed().await.is_err() {
            return false;
        }
    }
}

/// Forwards `from` to `to` as the link allows; `answers`: the server's direction, whose
/// PostgreSQL messages [`Link::SilentOnceLocked`] watches.
async fn pump(
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    sender: watch::Sender<Link>,
    answers: bool,
) {
    let mut link = sender.subscribe();
    let mut messages = Messages::default();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        if !open(&mut link).await {
            return;
        }
        let n = tokio::select! {
            read = from.read(&mut buffer) => match read {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            },
            // Silent or cut meanwhile: looked at again before reading.
            _ = link.changed() => continue,
        };
        if answers && messages.lock_answered(&buffer[..n]) {
            sender.send_if_modified(|l| {
                let armed = *l == Link::SilentOnceLocked;
                if armed {
                    *l = Link::Silent;
                }
                armed
            });
        }
        // What was read goes through once the link is open again.
        if !open(&mut link).await || to.write_all(&buffer[..n]).await.is_err() {
            return;
        }
    }
}

/// Reads PostgreSQL's answers (each message: a type byte, a 4-byte length counting
/// itself, the body) to tell when a transaction has read a row.
#[derive(Default)]
struct Messages {
    /// The current message's header as read so far (type and length).
    header: Vec<u8>,
    /// Bytes of the current message's body still to come.
    body: usize,
    /// The current message's type.
    kind: u8,
    /// Whether a row (`D`) came since the last ready-for-query (`Z`).
    row: bool,
}

impl Messages {
    /// Reads `bytes`: answers whether they hold a ready-for-query in a transaction (`Z`
    /// with status `T`) after a row: a `SELECT ... FOR UPDATE` inside a transaction done.
    fn lock_answered(&mut self, mut bytes: &[u8]) -> bool {
        let mut locked = false;
        while !bytes.is_empty() {
            if self.body == 0 {
                let take = (5 - self.header.len()).min(bytes.len());
                self.header.extend_from_slice(&bytes[..take]);
                bytes = &bytes[take..];
                if self.header.len() == 5 {
                    self.kind = self.header[0];
                    let length = u32::from_be_bytes(self.header[1..5].try_into().unwrap());
                    self.body = (length as usize).saturating_sub(4);
                    self.header.clear();
                    if self.kind == b'D' {
                        self.row = true;
                    }
                }
                continue;
            }
            if self.kind == b'Z' {
                if bytes[0] == b'T' && self.row {
                    locked = true;
                }
                self.row = false;
            }
            let take = self.body.min(bytes.len());
            self.body -= take;
            // The type is looked at only at the body's first byte.
            self.kind = 0;
            bytes = &bytes[take..];
        }
        locked
    }
}
