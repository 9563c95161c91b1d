//! What the integration tests share: a database of either store for each test.
//!
//! PostgreSQL: `AGON_WEB_TEST_PG` (set by `scripts/test.sh`) is the URL of a server the
//! tests must use, and a test fails if it cannot reach it. Without it, each test binary
//! starts its own throwaway server with `scripts/pg.sh` (stopped once the binary exits);
//! where PostgreSQL is not installed, the PostgreSQL half of the tests is skipped with a
//! notice. Every test gets a database of its own (`CREATE DATABASE`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use agon_web::{AppState, Config, Database, Store};

/// Which store a test runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A test's database, dropped with the test (the SQLite file's directory; a PostgreSQL
/// database stays on the throwaway server until it stops).
pub struct TestDb {
    pub db: Database,
    _dir: tempfile::TempDir,
}

/// The throwaway server of this test binary: its URL (of the `postgres` database), or
/// `None` when PostgreSQL cannot be had here.
fn server_url() -> Option<&'static str> {
    static URL: OnceLock<Option<String>> = OnceLock::new();
    URL.get_or_init(|| {
        if let Ok(url) = std::env::var("AGON_WEB_TEST_PG") {
            return Some(url);
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = std::env::temp_dir().join(format!("agon-web-pg-{}", std::process::id()));
        let out = std::process::Command::new(root.join("scripts/pg.sh"))
            .arg("start")
            .arg(&dir)
            .arg(std::process::id().to_string())
            .output();
        match out {
            Ok(out) if out.status.success() => {
                Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
            }
            Ok(out) => {
                eprintln!(
                    "NOTICE: no PostgreSQL here ({}): the PostgreSQL tests are skipped",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("NOTICE: scripts/pg.sh: {e}: the PostgreSQL tests are skipped");
                None
            }
        }
    })
    .as_deref()
}

/// Whether the PostgreSQL half runs; prints why not. With `AGON_WEB_TEST_PG` set it
/// always does (and fails if the server is not there).
pub fn postgres_available() -> bool {
    server_url().is_some()
}

/// A new, empty PostgreSQL database on the test server: its URL.
pub async fn postgres_database() -> String {
    let url = server_url().expect("PostgreSQL for the tests (AGON_WEB_TEST_PG or scripts/pg.sh)");
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("the test PostgreSQL at {url}: {e}"));
    let driver = tokio::spawn(connection);
    let name = format!("agon_test_{:016x}", rand_u64());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    let base = url.rsplit_once('/').map_or(url, |(base, _)| base);
    format!("{base}/{name}")
}

fn rand_u64() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    u64::from_le_bytes(bytes)
}

/// A new, empty database of `backend`.
pub async fn database(backend: Backend) -> TestDb {
    let dir = tempfile::tempdir().unwrap();
    let db = match backend {
        Backend::Sqlite => Database::Sqlite(dir.path().join("games.sqlite3")),
        Backend::Postgres => Database::Postgres(postgres_database().await),
    };
    TestDb { db, _dir: dir }
}

/// The directory of a test's files (logs, the SQLite file).
impl TestDb {
    pub fn dir(&self) -> PathBuf {
        self._dir.path().to_path_buf()
    }
}

/// The app's state on a new database of `backend`, from `config` (whose `db` is set).
pub async fn state(backend: Backend, config: Config) -> (AppState, TestDb) {
    let db = database(backend).await;
    let config = Config {
        db: db.db.clone(),
        ..config
    };
    (AppState::connect(&config).await.unwrap(), db)
}

/// Runs one SQL statement with no parameters on either store (a test setting up what no
/// request can, like a game untouched for a month).
pub async fn execute(store: &Store, sql: &str) {
    match store {
        Store::Sqlite(s) => {
            let sql = sql.to_string();
            s.transaction(move |tx| Ok(tx.execute_batch(&sql)?))
                .unwrap();
        }
        Store::Postgres(p) => {
            p.pool()
                .get()
                .await
                .unwrap()
                .batch_execute(sql)
                .await
                .unwrap();
        }
    }
}

/// Declares each test (an `async fn NAME(b: Backend)` of the file) twice: `sqlite::NAME`
/// and `postgres::NAME`; the latter is skipped with a notice where PostgreSQL is not
/// installed and `AGON_WEB_TEST_PG` is not set.
#[macro_export]
macro_rules! both_stores {
    ($flavor:tt; $($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test $flavor]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test $flavor]
                async fn $name() {
                    if !$crate::common::postgres_available() {
                        eprintln!("NOTICE: {} skipped: no PostgreSQL", stringify!($name));
                        return;
                    }
                    super::$name($crate::common::Backend::Postgres).await
                }
            )*
        }
    };
}
