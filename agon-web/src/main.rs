//! `agon-web [--addr 127.0.0.1:8080] [--db agon-web.sqlite3] [--workers N]
//! [--max-streams N] [--max-streams-per-client N] [--idle-days N]`: the browser game's
//! server. The environment variables `AGON_WEB_ADDR`, `AGON_WEB_DB`, `AGON_WEB_WORKERS`,
//! `AGON_WEB_MAX_STREAMS`, `AGON_WEB_MAX_STREAMS_PER_CLIENT` and `AGON_WEB_IDLE_DAYS` set
//! the same, the options win.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use agon_web::Config;

const USAGE: &str = "usage: agon-web [--addr 127.0.0.1:8080] [--db agon-web.sqlite3] \
    [--workers N] [--max-streams N] [--max-streams-per-client N] [--idle-days N]";

/// A number from `min` to `max` for option `name`.
fn number(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "--{name}: a number from {min} to {max}, not {value:?}"
        )),
    }
}

fn parse(args: impl Iterator<Item = String>) -> Result<Config, String> {
    let mut config = Config::default();
    let mut set = |name: &str, value: &str| -> Result<(), String> {
        match name {
            "addr" => {
                config.addr = value
                    .parse()
                    .map_err(|_| format!("--addr: not an address like 127.0.0.1:8080: {value:?}"))?
            }
            "db" => config.db = value.into(),
            "max-streams" => config.streams.max_streams = number(name, value, 1, 1_000_000)?,
            "max-streams-per-client" => {
                config.streams.max_per_client = number(name, value, 1, 100_000)?
            }
            "idle-days" => config.idle_days = number(name, value, 1, 36_500)? as u32,
            "workers" => {
                config.workers = match value.parse::<usize>() {
                    Ok(n) if (1..=1024).contains(&n) => n,
                    _ => return Err(format!("--workers: a number from 1 to 1024, not {value:?}")),
                }
            }
            _ => unreachable!("only the names below are set"),
        }
        Ok(())
    };
    for (name, var) in [
        ("addr", "AGON_WEB_ADDR"),
        ("db", "AGON_WEB_DB"),
        ("workers", "AGON_WEB_WORKERS"),
        ("max-streams", "AGON_WEB_MAX_STREAMS"),
        ("max-streams-per-client", "AGON_WEB_MAX_STREAMS_PER_CLIENT"),
        ("idle-days", "AGON_WEB_IDLE_DAYS"),
    ] {
        if let Ok(value) = std::env::var(var) {
            set(name, &value).map_err(|e| format!("{var}: {e}"))?;
        }
    }
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        let name = match flag.as_str() {
            "--addr" => "addr",
            "--db" => "db",
            "--workers" => "workers",
            "--max-streams" => "max-streams",
            "--max-streams-per-client" => "max-streams-per-client",
            "--idle-days" => "idle-days",
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown argument {arg:?}\n{USAGE}")),
        };
        let value = match inline.or_else(|| args.next()) {
            Some(v) => v,
            None => return Err(format!("{flag} needs a value\n{USAGE}")),
        };
        set(name, &value)?;
    }
    Ok(config)
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = match parse(std::env::args().skip(1)) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let shutdown = async {
        // Ctrl-C, or SIGTERM from a service manager replacing the server.
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(e) => {
                    eprintln!("agon-web: no SIGTERM handler ({e}); stop with Ctrl-C");
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    };
    match agon_web::serve(config, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agon-web: {e}");
            ExitCode::FAILURE
        }
    }
}
