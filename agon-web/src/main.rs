//! `agon-web [--addr 127.0.0.1:8080] [--db agon-web.sqlite3 | postgres://...] [--workers N]` and the
//! options of a public address (rate limits, `--trust-proxy`, `--no-metrics`): the browser
//! game's server. The environment variables `AGON_WEB_ADDR`, `AGON_WEB_DB`,
//! `AGON_WEB_WORKERS`, ... set the same (see `NAMES`), the options win.
#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Duration;

use agon_web::limits::Quota;
use agon_web::Config;

const USAGE: &str =
    "usage: agon-web [--addr 127.0.0.1:8080] [--db agon-web.sqlite3 | postgres://USER@HOST/DB]
       [--db-connections 16] [--workers N] [--review-workers 1] [--max-queued-reviews 32]
       [--max-streams 10000] [--max-streams-per-client 16] [--idle-days 30] [--keep-days forever]
       [--clock-minute-ms 60000]
       [--create-limit 10/min:20] [--create-global 300/min:100]
       [--action-limit 5/s:20] [--action-global 500/s:1000] [--limit-addresses 50000]
       [--seeks-per-player 3] [--seeks-per-address 6]
       [--head-timeout 10] [--body-timeout 30] [--idle-timeout 75] (seconds)
       [--max-connections N] [--max-connections-per-client 64]
       [--trust-proxy] [--no-metrics] [--origin https://agon.example]
  a limit is COUNT/s|min|h[:BURST], or off; a number of seeks is 1 to 1000, or off";

/// Every option: its name (`--NAME`), its environment variable, and whether it is a flag
/// (no value on the command line; `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off` in
/// the environment).
const NAMES: [(&str, &str, bool); 26] = [
    ("addr", "AGON_WEB_ADDR", false),
    ("db", "AGON_WEB_DB", false),
    ("db-connections", "AGON_WEB_DB_CONNECTIONS", false),
    ("workers", "AGON_WEB_WORKERS", false),
    ("review-workers", "AGON_WEB_REVIEW_WORKERS", false),
    ("max-queued-reviews", "AGON_WEB_MAX_QUEUED_REVIEWS", false),
    ("max-streams", "AGON_WEB_MAX_STREAMS", false),
    (
        "max-streams-per-client",
        "AGON_WEB_MAX_STREAMS_PER_CLIENT",
        false,
    ),
    ("idle-days", "AGON_WEB_IDLE_DAYS", false),
    ("keep-days", "AGON_WEB_KEEP_DAYS", false),
    ("clock-minute-ms", "AGON_WEB_CLOCK_MINUTE_MS", false),
    ("create-limit", "AGON_WEB_CREATE_LIMIT", false),
    ("create-global", "AGON_WEB_CREATE_GLOBAL", false),
    ("action-limit", "AGON_WEB_ACTION_LIMIT", false),
    ("action-global", "AGON_WEB_ACTION_GLOBAL", false),
    ("limit-addresses", "AGON_WEB_LIMIT_ADDRESSES", false),
    ("seeks-per-player", "AGON_WEB_SEEKS_PER_PLAYER", false),
    ("seeks-per-address", "AGON_WEB_SEEKS_PER_ADDRESS", false),
    ("head-timeout", "AGON_WEB_HEAD_TIMEOUT", false),
    ("body-timeout", "AGON_WEB_BODY_TIMEOUT", false),
    ("idle-timeout", "AGON_WEB_IDLE_TIMEOUT", false),
    ("max-connections", "AGON_WEB_MAX_CONNECTIONS", false),
    (
        "max-connections-per-client",
        "AGON_WEB_MAX_CONNECTIONS_PER_CLIENT",
        false,
    ),
    ("trust-proxy", "AGON_WEB_TRUST_PROXY", true),
    ("no-metrics", "AGON_WEB_NO_METRICS", true),
    ("origin", "AGON_WEB_ORIGIN", false),
];

/// A number from `min` to `max` for option `name`.
fn number(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "--{name}: a number from {min} to {max}, not {value:?}"
        )),
    }
}

/// A number of seconds from 1 to an hour for option `name`.
fn seconds(name: &str, value: &str) -> Result<Duration, String> {
    Ok(Duration::from_secs(number(name, value, 1, 3600)? as u64))
}

/// A limit's text: a quota, or `off`.
fn quota(value: &str) -> Result<Option<Quota>, String> {
    match value {
        "off" | "none" => Ok(None),
        _ => value.parse().map(Some),
    }
}

/// A bound on open seeks for option `name`: a number from 1 to 1000, or `off`.
fn seeks(name: &str, value: &str) -> Result<Option<u32>, String> {
    match value {
        "off" | "none" => Ok(None),
        _ => Ok(Some(number(name, value, 1, 1000)? as u32)),
    }
}

fn flag(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(format!("not 1 or 0 (true or false): {value:?}")),
    }
}

fn parse(args: impl Iterator<Item = String>) -> Result<Config, String> {
    let mut config = Config::default();
    let mut set = |name: &str, value: &str| -> Result<(), String> {
        match name {
            "addr" => {
                config.addr = value
                    .parse()
                    .map_err(|_| format!("not an address like 127.0.0.1:8080: {value:?}"))?
            }
            "db" => config.db = value.parse()?,
            "db-connections" => config.db_connections = number(name, value, 1, 1000)?,
            "max-streams" => config.streams.max_streams = number(name, value, 1, 1_000_000)?,
            "max-streams-per-client" => {
                config.streams.max_per_client = number(name, value, 1, 100_000)?
            }
            "idle-days" => config.idle_days = number(name, value, 1, 36_500)? as u32,
            "keep-days" => {
                config.keep_days = match value {
                    "forever" => None,
                    _ => Some(number(name, value, 1, 36_500)? as u32),
                }
            }
            "clock-minute-ms" => config.clock_minute_ms = number(name, value, 100, 60_000)? as i64,
            "workers" => config.workers = number(name, value, 1, 1024)?,
            "review-workers" => config.review_workers = number(name, value, 1, 64)?,
            "max-queued-reviews" => config.max_queued_reviews = number(name, value, 1, 100_000)?,
            "create-limit" => config.limits.create = quota(value)?,
            "create-global" => config.limits.create_global = quota(value)?,
            "action-limit" => config.limits.action = quota(value)?,
            "action-global" => config.limits.action_global = quota(value)?,
            "seeks-per-player" => config.limits.seeks_per_player = seeks(name, value)?,
            "seeks-per-address" => config.limits.seeks_per_address = seeks(name, value)?,
            // 0 would put every client in the one shared bucket of addresses past the bound.
            "limit-addresses" => config.limits.max_addresses = number(name, value, 1, 10_000_000)?,
            "head-timeout" => config.connections.head_timeout = seconds(name, value)?,
            "body-timeout" => config.connections.body_timeout = seconds(name, value)?,
            "idle-timeout" => config.connections.idle_timeout = seconds(name, value)?,
            "max-connections" => {
                config.connections.max_connections = Some(number(name, value, 1, 1_000_000)?)
            }
            "max-connections-per-client" => {
                config.connections.max_per_client = number(name, value, 1, 1_000_000)?
            }
            "trust-proxy" => config.limits.trust_proxy = flag(value)?,
            "no-metrics" => config.metrics = !flag(value)?,
            "origin" => config.origin = Some(agon_web::game::site::SiteOrigin::parse(value)?),
            _ => unreachable!("only the names of NAMES are set"),
        }
        Ok(())
    };
    for (name, var, _) in NAMES {
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
        if matches!(flag.as_str(), "-h" | "--help") {
            return Err(USAGE.to_string());
        }
        let known = NAMES
            .iter()
            .find(|(name, _, _)| flag.strip_prefix("--") == Some(name));
        let Some(&(name, _, is_flag)) = known else {
            return Err(format!("unknown argument {arg:?}\n{USAGE}"));
        };
        let value = match (is_flag, inline) {
            (true, None) => "1".to_string(),
            (_, Some(v)) => v,
            (false, None) => match args.next() {
                Some(v) => v,
                None => return Err(format!("{flag} needs a value\n{USAGE}")),
            },
        };
        set(name, &value).map_err(|e| format!("{flag}: {e}"))?;
    }
    // A page's event streams each hold a connection: the cap on connections must not
    // cut them before their own cap does.
    if config.connections.max_per_client <= config.streams.max_per_client {
        return Err(format!(
            "--max-connections-per-client ({}) must be above --max-streams-per-client ({})",
            config.connections.max_per_client, config.streams.max_per_client
        ));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> impl Iterator<Item = String> + '_ {
        text.split_whitespace().map(String::from)
    }

    #[test]
    fn the_options_of_a_public_address() {
        let config = parse(args(
            "--create-limit 2/min:3 --action-global=off --limit-addresses 7 --trust-proxy --no-metrics",
        ))
        .unwrap();
        assert_eq!(config.limits.create, Some(Quota::per_minute(2, 3)));
        assert_eq!(config.limits.action_global, None);
        assert_eq!(config.limits.max_addresses, 7);
        assert!(config.limits.trust_proxy);
        assert!(!config.metrics);
        assert!(parse(args("--action-limit 5")).is_err());
        assert!(parse(args("--trust-proxy=maybe")).is_err());
        let origin = parse(args("--origin https://agon.example")).unwrap().origin;
        assert_eq!(origin.unwrap().as_str(), "https://agon.example");
        assert!(parse(args("--origin agon.example")).is_err());
        assert!(parse(args("--create-limit")).is_err());
        assert!(parse(args("--limit-addresses 0")).is_err());
        assert!(parse(args("--workers 0")).is_err());
    }

    #[test]
    fn the_bounds_on_open_seeks() {
        let defaults = parse(args("")).unwrap().limits;
        assert_eq!(
            (defaults.seeks_per_player, defaults.seeks_per_address),
            (Some(3), Some(6))
        );
        let config = parse(args("--seeks-per-player 2 --seeks-per-address=off")).unwrap();
        assert_eq!(
            (
                config.limits.seeks_per_player,
                config.limits.seeks_per_address
            ),
            (Some(2), None)
        );
        assert!(parse(args("--seeks-per-player 0")).is_err());
        assert!(parse(args("--seeks-per-address 1001")).is_err());
        assert!(parse(args("--seeks-per-address 2/min")).is_err());
    }

    #[test]
    fn the_bounds_on_connections() {
        let config = parse(args(
            "--head-timeout 2 --body-timeout=3 --idle-timeout 4 --max-connections 100 \
             --max-connections-per-client 20",
        ))
        .unwrap();
        let limits = config.connections;
        assert_eq!(limits.head_timeout, Duration::from_secs(2));
        assert_eq!(limits.body_timeout, Duration::from_secs(3));
        assert_eq!(limits.idle_timeout, Duration::from_secs(4));
        assert_eq!(limits.max_connections, Some(100));
        assert_eq!(limits.max_per_client, 20);
        assert_eq!(parse(args("")).unwrap().connections.max_connections, None);
        assert!(parse(args("--head-timeout 0")).is_err());
        assert!(parse(args("--idle-timeout 3601")).is_err());
        // Not at or under the streams' own cap per address (16 by default).
        assert!(parse(args("--max-connections-per-client 16")).is_err());
        let fewer_streams = "--max-streams-per-client 4 --max-connections-per-client 5";
        assert!(parse(args(fewer_streams)).is_ok());
    }

    #[test]
    fn the_database_is_a_file_or_a_postgres_url() {
        let config = parse(args(
            "--db postgres://agon@10.0.0.5/agon --db-connections 8",
        ))
        .unwrap();
        assert_eq!(
            config.db,
            agon_web::Database::Postgres("postgres://agon@10.0.0.5/agon".into())
        );
        assert_eq!(config.db_connections, 8);
        let config = parse(args("--db games.sqlite3")).unwrap();
        assert_eq!(
            config.db,
            agon_web::Database::Sqlite("games.sqlite3".into())
        );
        assert!(parse(args("--db-connections 0")).is_err());
    }
}
