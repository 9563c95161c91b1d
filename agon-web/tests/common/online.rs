//! What the tests of online play share (`tests/lobby.rs`, `tests/bots.rs`): a server on a
//! free port, and a client of it that is a person's browser (the cookies the answers set,
//! the site's origin) or a bot's program (its API token in `Authorization: Bearer`).

use std::sync::Arc;

use agon_web::game::account::Token;
use agon_web::store::NewAccount;
use agon_web::{AppState, Config, Store};
use serde_json::{json, Value};

use super::{read_events, Backend, Stream, TestDb};

/// A server on a test database, and its store; it stops when dropped.
pub struct Server {
    pub base: String,
    pub store: Arc<Store>,
    _db: TestDb,
    _stop: tokio::sync::oneshot::Sender<()>,
}

/// A server with the rate limits off.
pub async fn server(b: Backend) -> Server {
    server_with(b, agon_web::limits::LimitConfig::off()).await
}

/// A server with `limits`.
pub async fn server_with(b: Backend, limits: agon_web::limits::LimitConfig) -> Server {
    let config = Config {
        limits,
        ..Config::default()
    };
    let (state, db) = super::state(b, config).await;
    serve(state, db).await
}

/// Serves `state` (on `db`, kept until the server is dropped) on a free port.
pub async fn serve(state: AppState, db: TestDb) -> Server {
    let store = state.store.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(agon_web::serve_on(listener, state, async move {
        let _ = stopped.await;
    }));
    Server {
        base,
        store,
        _db: db,
        _stop: stop,
    }
}

/// A client: a person's browser (it keeps the cookies the answers set: the lobby's, a
/// session's; it sends the site's origin) or a bot's program (its API token).
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub cookies: Vec<String>,
    pub token: Option<String>,
}

impl Client {
    pub fn new(server: &Server) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: server.base.clone(),
            cookies: Vec::new(),
            token: None,
        }
    }

    /// A person signed in as a new account `name` (made in the store, with a session).
    pub async fn person(server: &Server, id: &str, name: &str) -> Client {
        let mut client = Client::new(server);
        client.sign_in(&server.store, id, name).await;
        client
    }

    /// A bot: account `name` made a bot's by its person, with a new API token.
    pub async fn bot(server: &Server, id: &str, name: &str) -> Client {
        let mut client = Client::person(server, id, name).await;
        let (status, made) = client.post("/api/account/bot", json!({})).await;
        assert_eq!((status, &made["bot"]), (200, &json!(true)), "{made}");
        let (status, made) = client
            .post("/api/account/tokens", json!({"name": "engine"}))
            .await;
        assert_eq!(status, 201, "{made}");
        client.token = Some(made["token"].as_str().unwrap().to_string());
        client
    }

    /// Signs in as a new account `name` (made in the store, with a session).
    pub async fn sign_in(&mut self, store: &Store, id: &str, name: &str) {
        let new = NewAccount {
            id: id.into(),
            username: agon_web::game::account::Username::parse(name).unwrap(),
            user_handle: [id.as_bytes()[15]; 32],
            bot: false,
        };
        let mut bytes = [0u8; 20];
        bytes[..16].copy_from_slice(id.as_bytes());
        let token = Token::session(bytes);
        store
            .create_signed_in(&new, &token, "test", agon_web::now_ms())
            .await
            .unwrap();
        let site = agon_web::game::site::SiteOrigin::parse(&self.origin()).unwrap();
        let set = agon_web::accounts::session_set_cookie(&site, Some(&token));
        self.cookies
            .push(set.split(';').next().unwrap().to_string());
    }

    /// The site's origin: a loopback server names itself `localhost`.
    pub fn origin(&self) -> String {
        self.base.replace("127.0.0.1", "localhost")
    }

    fn keep(&mut self, response: &reqwest::Response) {
        for set in response.headers().get_all("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_string();
            let name = pair.split('=').next().unwrap().to_string();
            self.cookies.retain(|c| !c.starts_with(&format!("{name}=")));
            self.cookies.push(pair);
        }
    }

    /// A request with the client's origin, cookies and token.
    pub fn request(&self, method: &str, path: &str) -> reqwest::RequestBuilder {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("origin", self.origin());
        if !self.cookies.is_empty() {
            request = request.header("cookie", self.cookies.join("; "));
        }
        if let Some(token) = &self.token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        request
    }

    /// Sends a JSON body: the status and the JSON answer (`null` for none).
    pub async fn send(&mut self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let response = self.request(method, path).json(&body).send().await.unwrap();
        self.keep(&response);
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `POST path` with `body`: the status and the answer.
    pub async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.send("POST", path, body).await
    }

    /// `GET path`, which must answer 200: the answer.
    pub async fn get(&mut self, path: &str) -> Value {
        let (status, answer) = self.send("GET", path, Value::Null).await;
        assert_eq!(status, 200, "{path}: {answer}");
        answer
    }

    /// Asserts that `method path` with `body` is refused with `status` and the error
    /// `name`: the answer.
    pub async fn refused(
        &mut self,
        method: &str,
        path: &str,
        body: Value,
        status: u16,
        name: &str,
    ) -> Value {
        let (got, answer) = self.send(method, path, body).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(name)),
            "{method} {path}: {answer}"
        );
        answer
    }

    /// Opens an event stream at `path`, which must answer 200.
    pub async fn stream(&mut self, path: &str) -> Stream {
        self.resume(path, None).await
    }

    /// Opens an event stream at `path` resuming after event `last` (`Last-Event-ID`).
    pub async fn resume(&mut self, path: &str, last: Option<i64>) -> Stream {
        let mut request = self.request("GET", path);
        if let Some(last) = last {
            request = request.header("last-event-id", last.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        self.keep(&response);
        read_events(response)
    }

    /// The lobby's event stream, resuming after event `last` if given.
    pub async fn lobby_stream(&mut self, last: Option<i64>) -> Stream {
        self.resume("/api/lobby/events", last).await
    }

    /// Posts a seek, which must be created: (its id, the poster's seat token).
    pub async fn seek(&mut self, body: Value) -> (String, String) {
        self.posted("/api/lobby/seeks", body).await
    }

    /// Sends a direct challenge, which must be created: (its id, the challenger's seat
    /// token).
    pub async fn challenge(&mut self, body: Value) -> (String, String) {
        self.posted("/api/lobby/challenges", body).await
    }

    async fn posted(&mut self, path: &str, body: Value) -> (String, String) {
        let (status, posted) = self.post(path, body).await;
        assert_eq!(status, 201, "{path}: {posted}");
        let id = posted["seek"]["id"].as_str().unwrap().to_string();
        (id, posted["token"].as_str().unwrap().to_string())
    }
}
