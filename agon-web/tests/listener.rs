//! The accept loop with nothing in front (issue 31, point 2): the `agon-web` binary under
//! an open-file limit of 256, spoken to over raw TCP. Silent and half-sent connections,
//! the caps per address and in all, the deadlines, and the errors raised before the
//! router (each the JSON error with the security headers).

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use std::io::BufRead;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The `agon-web` binary on a free loopback port, limited to 256 open files.
struct Server {
    child: Child,
    addr: SocketAddr,
    /// Kept open: the server's output goes nowhere else.
    _stdout: std::io::BufReader<std::process::ChildStdout>,
    _dir: tempfile::TempDir,
}

impl Server {
    async fn start(args: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -n 256 && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_agon-web"))
            .args(["--addr", "127.0.0.1:0", "--workers", "1", "--db"])
            .arg(dir.path().join("g.sqlite3"))
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let read = tokio::task::spawn_blocking(move || {
            let mut stdout = std::io::BufReader::new(stdout);
            let mut line = String::new();
            stdout.read_line(&mut line).map(|_| (line, stdout))
        });
        let (line, stdout) = tokio::time::timeout(Duration::from_secs(30), read)
            .await
            .expect("the server starts within 30 s")
            .unwrap()
            .unwrap();
        // "agon-web: listening on 127.0.0.1:PORT: play at http://localhost:PORT/ (...)"
        let addr = line
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split(": ").next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server {
            child,
            addr,
            _stdout: stdout,
            _dir: dir,
        }
    }

    /// A connection from `127.0.0.1`, or from another loopback address.
    async fn connect_from(&self, from: [u8; 4]) -> TcpStream {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::from((from, 0))).unwrap();
        socket.connect(self.addr).await.unwrap()
    }

    async fn connect(&self) -> TcpStream {
        self.connect_from([127, 0, 0, 1]).await
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One response as read off the socket.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Asserts the documented JSON error with the security headers.
    fn error(&self, status: u16, name: &str) {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(self.header("content-type"), Some("application/json"));
        assert_eq!(
            self.header("content-security-policy"),
            Some(agon_web::CONTENT_SECURITY_POLICY)
        );
        assert_eq!(self.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(self.header("x-frame-options"), Some("DENY"));
        assert_eq!(self.header("referrer-policy"), Some("no-referrer"));
        let body: Value = serde_json::from_slice(&self.body).unwrap();
        assert_eq!(body["error"], name, "{body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
}

/// Parses the responses in `bytes` (each with a `Content-Length`).
fn replies(mut bytes: &[u8]) -> Vec<Reply> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let end = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(bytes)));
        let head = std::str::from_utf8(&bytes[..end]).unwrap();
        let mut lines = head.split("\r\n");
        let status = lines.next().unwrap()[9..12].parse().unwrap();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(": "))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let length: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map_or(0, |(_, v)| v.parse().unwrap());
        let body = bytes[end + 4..end + 4 + length].to_vec();
        bytes = &bytes[end + 4 + length..];
        out.push(Reply {
            status,
            headers,
            body,
        });
    }
    out
}

/// Everything the server sends until it closes the connection (which it must within
/// `within`), while `request` is written alongside.
async fn until_closed(stream: TcpStream, request: Vec<u8>, within: Duration) -> Vec<u8> {
    let (mut read, mut write) = stream.into_split();
    // Written apart: the server may answer (and stop reading) before it is all sent.
    let writer = tokio::spawn(async move {
        let _ = write.write_all(&request).await;
        write
    });
    let mut bytes = Vec::new();
    tokio::time::timeout(within, read.read_to_end(&mut bytes))
        .await
        .expect("the server closes the connection in time")
        .unwrap();
    drop(writer.await);
    bytes
}

/// The one response to `request` on a new connection, which the server then closes.
async fn refusal(server: &Server, request: &[u8]) -> Reply {
    let stream = server.connect().await;
    let bytes = until_closed(stream, request.to_vec(), Duration::from_secs(10)).await;
    let mut all = replies(&bytes);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0)
}

/// `GET /api/health` from `from`, kept alive: its reply and how long it took.
async fn health_from(server: &Server, from: [u8; 4]) -> (Reply, Duration) {
    let start = Instant::now();
    let mut stream = server.connect_from(from).await;
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .expect("an answer within 10 s")
            .unwrap();
        assert!(n > 0, "closed: {:?}", String::from_utf8_lossy(&bytes));
        bytes.extend_from_slice(&chunk[..n]);
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
            let length: usize = head
                .split("\r\n")
                .find_map(|l| l.strip_prefix("content-length: "))
                .map_or(0, |v| v.parse().unwrap());
            if bytes.len() >= end + 4 + length {
                break;
            }
        }
    }
    (replies(&bytes).remove(0), start.elapsed())
}

#[tokio::test]
async fn silent_and_half_sent_connections_leave_others_served() {
    // Defaults but the deadline: a head is waited for 5 s.
    let server = Server::start(&["--head-timeout", "5"]).await;
    let (_, usual) = health_from(&server, [127, 0, 0, 2]).await;
    // 64 connections (the cap per address) held open, half silent, half with a partial head.
    let mut held = Vec::new();
    for i in 0..64 {
        let mut stream = server.connect().await;
        if i % 2 == 1 {
            stream.write_all(b"GET /api/he").await.unwrap();
        }
        held.push(stream);
    }
    // 236 more from the same address: each answered at once and closed.
    let start = Instant::now();
    for _ in 0..236 {
        let stream = server.connect().await;
        let bytes = until_closed(stream, Vec::new(), Duration::from_secs(5)).await;
        let reply = replies(&bytes).remove(0);
        reply.error(429, "too-many-connections");
        assert_eq!(reply.header("retry-after"), Some("1"));
        assert_eq!(reply.header("connection"), Some("close"));
    }
    let refusals = start.elapsed();
    assert!(
        refusals < Duration::from_secs(5),
        "236 refusals took {refusals:?}"
    );
    // Another address is served within its usual time (the first request's, give or take).
    let (reply, took) = health_from(&server, [127, 0, 0, 2]).await;
    assert_eq!(reply.status, 200);
    assert!(
        took < usual + Duration::from_millis(500),
        "{took:?} against {usual:?}"
    );
    // The held ones are answered 408 at their head's deadline, and closed.
    let start = Instant::now();
    for stream in held.drain(..) {
        let bytes = until_closed(stream, Vec::new(), Duration::from_secs(10)).await;
        replies(&bytes)[0].error(408, "request-timeout");
    }
    assert!(start.elapsed() < Duration::from_secs(7));
    // Then this address is served again.
    let (reply, _) = health_from(&server, [127, 0, 0, 1]).await;
    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn the_cap_in_all_refuses_with_503_until_a_connection_closes() {
    let server = Server::start(&[
        "--max-connections",
        "10",
        "--max-connections-per-client",
        "100",
        "--head-timeout",
        "1",
    ])
    .await;
    let mut held = Vec::new();
    for _ in 0..10 {
        held.push(server.connect().await);
    }
    let stream = server.connect_from([127, 0, 0, 3]).await;
    let bytes = until_closed(stream, Vec::new(), Duration::from_secs(1)).await;
    replies(&bytes)[0].error(503, "too-many-connections");
    drop(held.pop());
    // The closed one's place is free once the server saw it close.
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let (reply, _) = health_from(&server, [127, 0, 0, 3]).await;
        if reply.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "{reply:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn errors_below_the_router_are_json_with_the_security_headers() {
    let server = Server::start(&[]).await;
    let cases: [(Vec<u8>, u16, &str); 7] = [
        (
            b"GET /\xff HTTP/1.1\r\nHost: t\r\n\r\n".to_vec(),
            400,
            "invalid-path",
        ),
        (
            [b"GET /".as_slice(), &[b'a'; 100_000], b" HTTP/1.1\r\n\r\n"].concat(),
            414,
            "uri-too-long",
        ),
        (
            [
                b"GET / HTTP/1.1\r\nHost: t\r\nX-Big: ".as_slice(),
                &[b'a'; 1 << 20],
                b"\r\n\r\n",
            ]
            .concat(),
            431,
            "headers-too-large",
        ),
        (
            b"POST /api/games HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                .to_vec(),
            411,
            "length-required",
        ),
        (
            b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n".to_vec(),
            413,
            "body-too-large",
        ),
        (
            b"GET / HTTP/1.1\r\nHost: t\r\nContent-Length: x\r\n\r\n".to_vec(),
            400,
            "bad-request",
        ),
        (
            b"\x16\x03\x01\x02\x00\x01\x00\r\n\r\n".to_vec(),
            400,
            "bad-request",
        ),
    ];
    for (request, status, name) in cases {
        refusal(&server, &request).await.error(status, name);
    }
    // What the router answers carries them too, and a connection goes on after it.
    let mut stream = server.connect().await;
    stream
        .write_all(b"GET /nothing HTTP/1.1\r\nHost: t\r\n\r\nGET /api/health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let bytes = until_closed(stream, Vec::new(), Duration::from_secs(5)).await;
    let both = replies(&bytes);
    both[0].error(404, "not-found");
    assert_eq!(both[1].status, 200);
}

#[tokio::test]
async fn deadlines_close_connections() {
    let server = Server::start(&[
        "--head-timeout",
        "1",
        "--body-timeout",
        "1",
        "--idle-timeout",
        "1",
    ])
    .await;
    let second = Duration::from_secs(1);
    let cases: [(&[u8], &str); 3] = [
        (b"", "head"),
        (b"GET /api/health HTTP/1.1\r\nHo", "head"),
        (
            b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"le",
            "body",
        ),
    ];
    for (request, what) in cases {
        let start = Instant::now();
        let reply = refusal(&server, request).await;
        let took = start.elapsed();
        reply.error(408, "request-timeout");
        let message = serde_json::from_slice::<Value>(&reply.body).unwrap()["message"].clone();
        assert!(message.as_str().unwrap().contains(what), "{message}");
        assert!(took >= second && took < 3 * second, "{took:?}");
    }
    // A kept-alive connection is answered, then closed without a word once idle.
    let start = Instant::now();
    let stream = server.connect().await;
    let request = b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n".to_vec();
    let bytes = until_closed(stream, request, Duration::from_secs(5)).await;
    let took = start.elapsed();
    let all = replies(&bytes);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].status, 200);
    assert!(took >= second && took < 3 * second, "{took:?}");
}

#[tokio::test]
async fn an_event_stream_is_never_idle() {
    let server = Server::start(&["--idle-timeout", "1", "--head-timeout", "1"]).await;
    let created: Value = reqwest::Client::new()
        .post(format!("http://{}/api/games", server.addr))
        .json(&serde_json::json!({"side": "white", "opponent": "friend"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();
    let mut stream = server.connect().await;
    let request = format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: t\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    // The stream's head and first state, then nothing (its keep-alive comes every 15 s)
    // for over twice the idle timeout, and the connection stays open.
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16384];
    let deadline = tokio::time::Instant::now() + Duration::from_millis(2500);
    while let Ok(read) = tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await {
        let n = read.unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&bytes));
        bytes.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("event: state"), "{text}");
}

#[tokio::test]
async fn a_client_that_reads_nothing_is_dropped() {
    let server = Server::start(&["--idle-timeout", "1"]).await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(server.addr).await.unwrap();
    // 400 answers of 23 KB asked at once (9 MB, more than the sockets' buffers hold), and
    // none read for 3 s.
    let request = "GET /assets/style.css HTTP/1.1\r\nHost: t\r\n\r\n".repeat(400);
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut received = 0;
    let mut chunk = vec![0u8; 1 << 16];
    let reading = async {
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received += n,
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), reading)
        .await
        .expect("the server closed the connection");
    let css = std::fs::metadata(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/style.css"))
        .unwrap()
        .len() as usize;
    assert!(received < 100 * css, "{received} bytes received");
}

#[tokio::test]
async fn a_client_that_expects_100_continue_gets_it_before_sending_its_body() {
    let server = Server::start(&[]).await;
    let body = br#"{"side":"white","opponent":"friend"}"#;
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut stream = server.connect().await;
    stream.write_all(head.as_bytes()).await.unwrap();
    // The interim answer comes at once (curl would wait a second for it; others longer).
    let mut interim = [0u8; CONTINUE.len()];
    tokio::time::timeout(Duration::from_secs(2), stream.read_exact(&mut interim))
        .await
        .expect("100 Continue within 2 s")
        .unwrap();
    assert_eq!(&interim, CONTINUE);
    let bytes = until_closed(stream, body.to_vec(), Duration::from_secs(10)).await;
    // One final answer, and no second `100 Continue` from hyper before it.
    let all = replies(&bytes);
    let statuses: Vec<u16> = all.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [201]);
    let created: Value = serde_json::from_slice(&all[0].body).unwrap();
    assert!(created["id"].is_string(), "{created}");

    // The body sent along with the head: no interim answer, the request is served.
    let stream = server.connect().await;
    let bytes = until_closed(
        stream,
        [head.as_bytes(), body].concat(),
        Duration::from_secs(10),
    )
    .await;
    let all = replies(&bytes);
    let statuses: Vec<u16> = all.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [201]);

    // A body over the limit is refused on its head, without a `100 Continue`.
    let big = "POST /api/games HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n";
    refusal(&server, big.as_bytes())
        .await
        .error(413, "body-too-large");
}

const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";
