//! `agon-web [--addr 127.0.0.1:8080] [--db agon-web.sqlite3] [--workers N]`: the browser
//! game's server. The environment variables `AGON_WEB_ADDR`, `AGON_WEB_DB` and
//! `AGON_WEB_WORKERS` set the same, the options win.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use agon_web::Config;

const USAGE: &str = "usage: agon-web [--addr 127.0.0.1:8080] [--db agon-web.sqlite3] [--workers N]";

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
