//! What the examples that measure a server share: the server runs as its own process (the
//! example started again with `--serve DB [WORKERS]`), so that the clients' work is not
//! counted as the server's.

use std::io::{BufRead, Read, Write};

/// One server process: this example run again as `EXAMPLE --serve DB [WORKERS]`.
pub struct Server {
    child: std::process::Child,
    /// Its base URL, `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Server {
    /// Starts a server process on `db` (a SQLite path or a PostgreSQL URL), with `workers`
    /// threads or the default, and waits for the base URL it prints.
    pub fn start(db: &str, workers: Option<usize>) -> Server {
        let exe = std::env::current_exe().expect("the example's own path");
        let mut args = vec!["--serve".to_string(), db.to_string()];
        args.extend(workers.map(|n| n.to_string()));
        let mut child = std::process::Command::new(exe)
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start a server process");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("the server's stdout");
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server's address");
        if !line.starts_with("http://") {
            eprintln!("a server process did not start");
            std::process::exit(1);
        }
        Server {
            child,
            base: line.trim().to_string(),
        }
    }

    /// The process's id, to read its `/proc/PID/...` figures.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// When this process was started as a server process (`--serve DB [WORKERS]`), serves
/// until its standard input closes and answers true; otherwise answers false at once.
pub fn serve_if_asked() -> bool {
    let args: Vec<String> = std::env::args().collect();
    match args.as_slice() {
        [_, flag, db] if flag == "--serve" => serve(db, None),
        [_, flag, db, workers] if flag == "--serve" => {
            serve(db, Some(workers.parse().expect("a number of workers")))
        }
        _ => return false,
    }
    true
}

/// The server process: serves `db` on a free loopback port, prints its base URL, and
/// exits when its standard input closes (the measuring process ended, however it ended).
fn serve(db: &str, workers: Option<usize>) {
    let defaults = agon_web::Config::default();
    let config = agon_web::Config {
        db: db.parse().expect("a database"),
        workers: workers.unwrap_or(defaults.workers),
        // Every simulated client comes from 127.0.0.1: one address's limits would
        // measure the limits, not the server.
        streams: agon_web::StreamLimits {
            max_streams: 10_000,
            max_per_client: 10_000,
        },
        limits: agon_web::limits::LimitConfig::off(),
        ..defaults
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let state = runtime
        .block_on(agon_web::AppState::connect(&config))
        .expect("open the database");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind a loopback port");
    let addr = listener.local_addr().expect("the bound address");
    runtime.spawn(agon_web::serve_on(listener, state, std::future::pending()));
    println!("http://{addr}");
    std::io::stdout().flush().expect("print the address");
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
}
