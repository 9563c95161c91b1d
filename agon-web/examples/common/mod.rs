//! What the examples that measure a server share: the server runs as its own process (the
//! example started again with `--serve DB [WORKERS [THREADS]]`), so that the clients' work
//! is not counted as the server's.

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
    #[allow(dead_code)] // not every example takes the default threads
    pub fn start(db: &str, workers: Option<usize>) -> Server {
        Server::start_with(db, workers, None)
    }

    /// [`Server::start`] with the server's runtime on `threads` threads (the default: one
    /// a core).
    #[allow(dead_code)] // not every example sets the threads
    pub fn start_with(db: &str, workers: Option<usize>, threads: Option<usize>) -> Server {
        let exe = std::env::current_exe().expect("the example's own path");
        let mut args = vec!["--serve".to_string(), db.to_string()];
        let workers = workers.unwrap_or_else(|| agon_web::Config::default().workers);
        args.push(workers.to_string());
        args.extend(threads.map(|n| n.to_string()));
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

/// The process's CPU time so far (user + system), in seconds, from `/proc/PID/stat`.
#[allow(dead_code)] // not every example reads it
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name (which may hold spaces) in parentheses.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line: 11 and 12 after the name.
    // Clock ticks are 100 a second on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

/// When this process was started as a server process (`--serve DB [WORKERS [THREADS]]`),
/// serves until its standard input closes and answers true; otherwise answers false at
/// once.
pub fn serve_if_asked() -> bool {
    let args: Vec<String> = std::env::args().collect();
    let number = |n: &String| Some(n.parse().expect("a number"));
    match args.as_slice() {
        [_, flag, db] if flag == "--serve" => serve(db, None, None),
        [_, flag, db, workers] if flag == "--serve" => serve(db, number(workers), None),
        [_, flag, db, workers, threads] if flag == "--serve" => {
            serve(db, number(workers), number(threads))
        }
        _ => return false,
    }
    true
}

/// The server process: serves `db` on a free loopback port, prints its base URL, and
/// exits when its standard input closes (the measuring process ended, however it ended).
fn serve(db: &str, workers: Option<usize>, threads: Option<usize>) {
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
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = threads {
        runtime.worker_threads(threads);
    }
    let runtime = runtime.enable_all().build().expect("a runtime");
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
