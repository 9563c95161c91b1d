//! [`Command`]: one line of input read into a command of the dialect (see `docs/UGI.md`).

use std::fmt;
use std::time::Duration;

/// The longest piece of an input line quoted back in an error message, in characters:
/// a 1 MB line is not echoed whole.
const QUOTE_MAX: usize = 40;

/// Where a `position` command starts: the start position of the rule set, or a position
/// in agon-core's one-line text form.
///
/// ```
/// use agon_ugi::{Command, Start};
/// let c = Command::parse("position fen Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w")?;
/// assert!(matches!(c, Some(Command::Position { start: Start::Text(_), .. })));
/// # Ok::<(), agon_ugi::CommandError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Start {
    /// `startpos`: the start position of the current rule set.
    StartPos,
    /// `fen TEXT`: a position in agon-core's one-line text form (spaces included).
    Text(String),
}

/// What `query` asks.
///
/// ```
/// use agon_ugi::{Command, Query};
/// assert_eq!(Command::parse("query p1turn")?, Some(Command::Query(Query::P1Turn)));
/// # Ok::<(), agon_ugi::CommandError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Query {
    /// `gameover`: whether the game is over.
    GameOver,
    /// `p1turn`: whether player 1 (White) is to act.
    P1Turn,
    /// `result`: `p1win`, `p2win`, `draw` or `none` (not over).
    Result,
}

/// The parameters of `go`, all optional (times in milliseconds on the line).
///
/// ```
/// use std::time::Duration;
/// use agon_ugi::{Command, Go};
/// let Some(Command::Go(go)) = Command::parse("go p1time 1000 p2time 900 p1inc 10 p2inc 10")? else {
///     panic!("not a go");
/// };
/// assert_eq!(go.p1time, Some(Duration::from_millis(1000)));
/// assert_eq!(go.p2inc, Some(Duration::from_millis(10)));
/// assert!(!go.infinite && go.depth.is_none());
/// # Ok::<(), agon_ugi::CommandError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Go {
    /// Player 1's (White's) time left.
    pub p1time: Option<Duration>,
    /// Player 2's (Black's) time left.
    pub p2time: Option<Duration>,
    /// Player 1's increment per move.
    pub p1inc: Option<Duration>,
    /// Player 2's increment per move.
    pub p2inc: Option<Duration>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

impl Go {
    /// Whether no limit is given (a bare `go`: the bot's own limits hold).
    ///
    /// ```
    /// assert!(agon_ugi::Go::default().is_bare());
    /// ```
    pub fn is_bare(&self) -> bool {
        *self == Go::default()
    }
}

/// One command of the dialect.
///
/// ```
/// use agon_ugi::{Command, Start};
/// assert_eq!(Command::parse("isready")?, Some(Command::IsReady));
/// assert_eq!(Command::parse("   ")?, None);
/// assert_eq!(
///     Command::parse("position startpos moves f1-e1 f11-g11")?,
///     Some(Command::Position { start: Start::StartPos, moves: vec!["f1-e1".into(), "f11-g11".into()] })
/// );
/// assert_eq!(
///     Command::parse("setoption name Move Overhead value 50")?,
///     Some(Command::SetOption { name: "Move Overhead".into(), value: "50".into() })
/// );
/// assert_eq!(Command::parse("go depth x").unwrap_err().to_string(), "bad number \"x\" after depth");
/// # Ok::<(), agon_ugi::CommandError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `ugi`: identify and list the options.
    Ugi,
    /// `isready`: answered `readyok` at once.
    IsReady,
    /// `setoption name NAME value VALUE` (a name may hold spaces).
    SetOption {
        /// The option's name.
        name: String,
        /// Its value (the rest of the line, spaces included).
        value: String,
    },
    /// `uginewgame`: the next position starts a new game.
    NewGame,
    /// `position startpos|fen TEXT [moves M...]`.
    Position {
        /// The position before the moves.
        start: Start,
        /// The moves, as written (read against the position they are played in).
        moves: Vec<String>,
    },
    /// `go ...`: search and answer `bestmove`.
    Go(Go),
    /// `stop`: end the search now.
    Stop,
    /// `quit`: end the process.
    Quit,
    /// `query gameover|p1turn|result`.
    Query(Query),
}

/// Why a line is not a command: the text of `info string error: ...`.
///
/// ```
/// let err = agon_ugi::Command::parse("fly").unwrap_err();
/// assert_eq!(err.to_string(), "unknown command \"fly\"");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

/// `text` quoted for an error message, cut to [`QUOTE_MAX`] characters.
pub(crate) fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        Some((at, _)) => format!("{:?}...", &text[..at]),
        None => format!("{text:?}"),
    }
}

fn error(message: String) -> CommandError {
    CommandError(message)
}

impl Command {
    /// Reads one line. Words are separated by any whitespace; an empty line is `None`
    /// (ignored, as UCI engines do).
    ///
    /// # Errors
    ///
    /// A [`CommandError`] naming the fault: an unknown command or word, a missing or bad
    /// number, a missing part. Never panics, whatever the line.
    ///
    /// ```
    /// use agon_ugi::Command;
    /// assert!(Command::parse("go nodes 18446744073709551616").is_err());
    /// assert!(Command::parse("position").is_err());
    /// assert!(Command::parse("query who").is_err());
    /// ```
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Ok(None);
        };
        let no_more = |command: Command| match rest.first() {
            Some(w) => Err(error(format!("unexpected {} after {first}", quote(w)))),
            None => Ok(Some(command)),
        };
        match first {
            "ugi" => no_more(Command::Ugi),
            "isready" => no_more(Command::IsReady),
            "uginewgame" => no_more(Command::NewGame),
            "stop" => no_more(Command::Stop),
            "quit" => no_more(Command::Quit),
            "setoption" => set_option(rest).map(Some),
            "position" => position(rest).map(Some),
            "go" => go(rest).map(|g| Some(Command::Go(g))),
            "query" => match rest {
                [what] => Ok(Some(Command::Query(match *what {
                    "gameover" => Query::GameOver,
                    "p1turn" => Query::P1Turn,
                    "result" => Query::Result,
                    _ => {
                        return Err(error(format!(
                            "unknown query {}: expected gameover, p1turn or result",
                            quote(what)
                        )))
                    }
                }))),
                [] => Err(error("query without a question".into())),
                [_, extra, ..] => Err(error(format!("unexpected {} after query", quote(extra)))),
            },
            _ => Err(error(format!("unknown command {}", quote(first)))),
        }
    }
}

fn set_option(words: &[&str]) -> Result<Command, CommandError> {
    if words.first() != Some(&"name") {
        return Err(error("setoption without 'name'".into()));
    }
    let words = &words[1..];
    let at = words.iter().position(|w| *w == "value");
    let (name, value) = match at {
        Some(at) => (&words[..at], &words[at + 1..]),
        None => (words, &[][..]),
    };
    if name.is_empty() {
        return Err(error("setoption without an option name".into()));
    }
    if at.is_none() {
        return Err(error(format!(
            "setoption {} without 'value'",
            quote(&name.join(" "))
        )));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

fn position(words: &[&str]) -> Result<Command, CommandError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(at) => (&words[..at], &words[at + 1..]),
        None => (words, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["startpos", extra, ..] => {
            return Err(error(format!("unexpected {} after startpos", quote(extra))))
        }
        ["fen"] => return Err(error("position fen without a position".into())),
        ["fen", text @ ..] => Start::Text(text.join(" ")),
        [] => return Err(error("position without startpos or fen".into())),
        [other, ..] => {
            return Err(error(format!(
                "unknown position {}: expected startpos or fen",
                quote(other)
            )))
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn go(words: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        if word == "infinite" {
            go.infinite = true;
            continue;
        }
        let known = [
            "p1time", "p2time", "p1inc", "p2inc", "movetime", "depth", "nodes",
        ];
        if !known.contains(&word) {
            return Err(error(format!(
                "unknown go parameter {}: expected p1time, p2time, p1inc, p2inc, movetime, depth, nodes or infinite",
                quote(word)
            )));
        }
        let Some(&text) = words.next() else {
            return Err(error(format!("missing number after {word}")));
        };
        let bad = || error(format!("bad number {} after {word}", quote(text)));
        let number: u64 = match text.parse::<i64>() {
            // Harnesses may send a clock that has run below zero: no time left.
            Ok(n) => n.max(0) as u64,
            Err(_) => text.parse::<u64>().map_err(|_| bad())?,
        };
        let ms = Some(Duration::from_millis(number));
        match word {
            "p1time" => go.p1time = ms,
            "p2time" => go.p2time = ms,
            "p1inc" => go.p1inc = ms,
            "p2inc" => go.p2inc = ms,
            "movetime" => go.movetime = ms,
            "depth" => {
                if number == 0 {
                    return Err(bad());
                }
                go.depth = Some(number.min(u64::from(u32::MAX)) as u32);
            }
            _ => {
                if number == 0 {
                    return Err(bad());
                }
                go.nodes = Some(number);
            }
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_command_reads() {
        let cases: [(&str, Command); 8] = [
            ("ugi", Command::Ugi),
            ("isready", Command::IsReady),
            ("uginewgame", Command::NewGame),
            ("stop", Command::Stop),
            ("quit", Command::Quit),
            ("query gameover", Command::Query(Query::GameOver)),
            ("query result", Command::Query(Query::Result)),
            ("\tquery   p1turn  ", Command::Query(Query::P1Turn)),
        ];
        for (line, command) in cases {
            assert_eq!(Command::parse(line), Ok(Some(command)), "{line}");
        }
    }

    #[test]
    fn position_text_keeps_its_spaces_and_moves_follow() {
        let c = Command::parse("position fen Qf1*,Ga5/qf11 w moves f4>l1 pass").unwrap();
        assert_eq!(
            c,
            Some(Command::Position {
                start: Start::Text("Qf1*,Ga5/qf11 w".into()),
                moves: vec!["f4>l1".into(), "pass".into()],
            })
        );
        assert_eq!(
            Command::parse("position startpos moves"),
            Ok(Some(Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }))
        );
    }

    #[test]
    fn go_reads_every_parameter() {
        let c = Command::parse(
            "go p1time 10 p2time 20 p1inc 1 p2inc 2 movetime 5 depth 3 nodes 99 infinite",
        )
        .unwrap();
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(
            c,
            Some(Command::Go(Go {
                p1time: ms(10),
                p2time: ms(20),
                p1inc: ms(1),
                p2inc: ms(2),
                movetime: ms(5),
                depth: Some(3),
                nodes: Some(99),
                infinite: true,
            }))
        );
        assert_eq!(
            Command::parse("go p1time -50"),
            Ok(Some(Command::Go(Go {
                p1time: ms(0),
                ..Go::default()
            })))
        );
    }

    #[test]
    fn faults_are_named() {
        let cases = [
            ("go depth", "missing number after depth"),
            ("go nodes 0", "bad number \"0\" after nodes"),
            ("go nodes 1.5", "bad number \"1.5\" after nodes"),
            ("go fast", "unknown go parameter \"fast\": expected p1time, p2time, p1inc, p2inc, movetime, depth, nodes or infinite"),
            ("ugi now", "unexpected \"now\" after ugi"),
            ("setoption Hash value 3", "setoption without 'name'"),
            ("setoption name value 3", "setoption without an option name"),
            ("setoption name Hash", "setoption \"Hash\" without 'value'"),
            ("position", "position without startpos or fen"),
            ("position fen", "position fen without a position"),
            ("position fen moves a1-a2", "position fen without a position"),
            ("position startpos f1-e1", "unexpected \"f1-e1\" after startpos"),
            ("position here", "unknown position \"here\": expected startpos or fen"),
            ("query", "query without a question"),
            ("query result now", "unexpected \"now\" after query"),
        ];
        for (line, message) in cases {
            assert_eq!(
                Command::parse(line).map_err(|e| e.to_string()),
                Err(message.to_string()),
                "{line}"
            );
        }
    }

    #[test]
    fn a_long_word_is_quoted_short() {
        let line = "x".repeat(1 << 20);
        let err = Command::parse(&line).unwrap_err().to_string();
        assert_eq!(err, format!("unknown command \"{}\"...", "x".repeat(40)));
    }

    proptest! {
        #[test]
        fn no_line_panics(line in "\\PC{0,200}") {
            let _ = Command::parse(&line);
        }

        #[test]
        fn no_go_line_panics(words in proptest::collection::vec(
            prop_oneof![
                Just("p1time".to_string()), Just("depth".to_string()), Just("nodes".to_string()),
                Just("infinite".to_string()), Just("movetime".to_string()), "-?[0-9]{0,25}", "\\PC{0,5}",
            ], 0..8)) {
            let _ = Command::parse(&format!("go {}", words.join(" ")));
        }
    }
}
