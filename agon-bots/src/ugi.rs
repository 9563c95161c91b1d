//! Driving an engine process that speaks the Universal Game Interface (UGI): the bot spec
//! `ugi:[TIMEms:][nNODES:][dDEPTH:]COMMAND` ([`UgiSpec`]) and the bot it builds
//! ([`UgiBot`]).
//!
//! The harness keeps the game itself and never trusts the engine: each move it asks for
//! is sent as `position startpos moves ...` (or `position fen TEXT moves ...` from another
//! start) and `go ...`, and the `bestmove` that comes back is read and checked by
//! agon-core. An engine that answers with an illegal move or an unreadable one, too late,
//! not at all, or that exits, gives no move and names its fault ([`Forfeit`]); the arena
//! scores that game as its loss and goes on with a fresh process for the next game
//! (`docs/UGI-HARNESS.md`).
//!
//! Every read of the engine's output waits on a channel with a timeout (a reader thread
//! owns the pipe), so no engine can make the harness hang, and the process is killed when
//! the bot is dropped.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use agon_core::{Game, Move, Position, Rules, Side};

use crate::{Bot, SpecError, SpecNumber};

/// The longest `ugi:` spec read, in bytes: a command line may be long, but not unbounded.
///
/// ```
/// use agon_bots::ugi::{UgiSpec, MAX_UGI_SPEC_LEN};
/// let long = format!("ugi:{}", "x".repeat(MAX_UGI_SPEC_LEN));
/// assert!(UgiSpec::parse(&long).is_err());
/// ```
pub const MAX_UGI_SPEC_LEN: usize = 4096;

/// How long an engine has to answer `ugi` with `ugiok` and `isready` with `readyok`.
///
/// ```
/// assert_eq!(agon_bots::ugi::HANDSHAKE_TIMEOUT.as_secs(), 10);
/// ```
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The time a move may take beyond its limit before it counts as late: the pipe and the
/// scheduler's share of the delay (cutechess calls it the time margin).
///
/// ```
/// assert_eq!(agon_bots::ugi::TIME_MARGIN.as_millis(), 50);
/// ```
pub const TIME_MARGIN: Duration = Duration::from_millis(50);

/// How long past its limit (and [`TIME_MARGIN`]) the harness waits for a `bestmove`
/// before it gives up on the engine as hung and kills it.
///
/// ```
/// assert_eq!(agon_bots::ugi::HANG_GRACE.as_millis(), 1000);
/// ```
pub const HANG_GRACE: Duration = Duration::from_secs(1);

/// How long a search with no time limit (a node or depth budget only) may take before the
/// engine counts as hung.
///
/// ```
/// assert_eq!(agon_bots::ugi::UNTIMED_SEARCH_LIMIT.as_secs(), 60);
/// ```
pub const UNTIMED_SEARCH_LIMIT: Duration = Duration::from_secs(60);

/// `text` if it is one or more ASCII digits.
fn digits(text: Option<&str>) -> Option<&str> {
    text.filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The longest line read from an engine, in bytes; a longer one is cut there.
const MAX_LINE: u64 = 1 << 16;

/// Why a player lost a game without the rules ending it: the reasons a harness gives.
///
/// ```
/// use agon_bots::ForfeitKind;
/// assert_eq!(ForfeitKind::IllegalMove.to_string(), "illegal-move");
/// assert_eq!(ForfeitKind::ALL.map(ForfeitKind::name), ["illegal-move", "unreadable-move", "time-forfeit", "crash", "hang"]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum ForfeitKind {
    /// A well-formed move that is not legal in the position.
    IllegalMove,
    /// An answer that is not `bestmove MOVE` with a move in agon-core's notation.
    UnreadableMove,
    /// A move that came after the time it was given (its clock or its move time).
    TimeForfeit,
    /// The engine exited, closed its output, or could not be started.
    Crash,
    /// No answer within the limit plus [`HANG_GRACE`]: the engine was killed.
    Hang,
}

impl ForfeitKind {
    /// Every reason, in the order of the enum.
    pub const ALL: [ForfeitKind; 5] = [
        ForfeitKind::IllegalMove,
        ForfeitKind::UnreadableMove,
        ForfeitKind::TimeForfeit,
        ForfeitKind::Crash,
        ForfeitKind::Hang,
    ];

    /// The reason's name in reports and records: `illegal-move`, `unreadable-move`,
    /// `time-forfeit`, `crash`, `hang`.
    ///
    /// ```
    /// assert_eq!(agon_bots::ForfeitKind::Hang.name(), "hang");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ForfeitKind::IllegalMove => "illegal-move",
            ForfeitKind::UnreadableMove => "unreadable-move",
            ForfeitKind::TimeForfeit => "time-forfeit",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Hang => "hang",
        }
    }
}

impl fmt::Display for ForfeitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A forfeit: its reason and what happened, for people (`engine exited`, `f1-f3 ...`).
///
/// ```
/// use agon_bots::{Forfeit, ForfeitKind};
/// let f = Forfeit { kind: ForfeitKind::Crash, detail: "the engine exited".into() };
/// assert_eq!(f.to_string(), "crash: the engine exited");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Forfeit {
    /// The reason.
    pub kind: ForfeitKind,
    /// What happened.
    pub detail: String,
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

/// The state of a game clock when a move is asked: each side's remaining time and
/// increment, indexed by [`Side::index`] (White, player 1, first).
///
/// ```
/// use std::time::Duration;
/// use agon_bots::Clock;
/// use agon_core::Side;
/// let clock = Clock::new(Duration::from_secs(10), Duration::from_millis(100));
/// assert_eq!(clock.remaining[Side::Black.index()], Duration::from_secs(10));
/// assert_eq!(clock.go_arguments(), "p1time 10000 p2time 10000 p1inc 100 p2inc 100");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Clock {
    /// Each side's time left.
    pub remaining: [Duration; 2],
    /// Each side's increment per move.
    pub increment: [Duration; 2],
}

impl Clock {
    /// Both sides with `base` left and `increment` per move.
    pub const fn new(base: Duration, increment: Duration) -> Clock {
        Clock {
            remaining: [base; 2],
            increment: [increment; 2],
        }
    }

    /// The clock's part of a UGI `go` command, in milliseconds.
    pub fn go_arguments(&self) -> String {
        let ms = |d: Duration| d.as_millis();
        format!(
            "p1time {} p2time {} p1inc {} p2inc {}",
            ms(self.remaining[0]),
            ms(self.remaining[1]),
            ms(self.increment[0]),
            ms(self.increment[1])
        )
    }
}

/// A `ugi:` bot spec: the engine's command line and its limits per move.
///
/// The form is `ugi:[TIMEms:][nNODES:][dDEPTH:]COMMAND`: the limits, in this order and each
/// at most once, are sent with every `go` (`movetime`, `nodes`, `depth`); COMMAND is split
/// into words as a POSIX shell would (quotes and backslashes, no expansion) and run without
/// a shell. Without a limit and without a clock, each move gets `movetime` of
/// [`crate::Engine::DEFAULT_TIME`].
///
/// ```
/// use std::time::Duration;
/// use agon_bots::ugi::UgiSpec;
/// let spec = UgiSpec::parse("ugi:100ms:n5000:python3 'my engine.py' --fast")?;
/// assert_eq!(spec.command, ["python3", "my engine.py", "--fast"]);
/// assert_eq!((spec.time, spec.nodes, spec.depth), (Some(Duration::from_millis(100)), Some(5000), None));
/// assert_eq!(spec.to_string(), "ugi:100ms:n5000:python3 'my engine.py' --fast");
/// assert!(UgiSpec::parse("ugi:").is_err());
/// assert!(UgiSpec::parse("ugi:'unclosed").is_err());
/// # Ok::<(), agon_bots::SpecError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct UgiSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `movetime` for every move.
    pub time: Option<Duration>,
    /// `nodes` for every move.
    pub nodes: Option<u64>,
    /// `depth` for every move.
    pub depth: Option<u32>,
}

impl UgiSpec {
    /// Whether `spec` is a `ugi:` spec (its first part is `ugi`).
    ///
    /// ```
    /// assert!(agon_bots::ugi::UgiSpec::is_ugi(" ugi:./engine"));
    /// assert!(!agon_bots::ugi::UgiSpec::is_ugi("engine"));
    /// ```
    pub fn is_ugi(spec: &str) -> bool {
        spec.trim_start().starts_with("ugi:")
    }

    /// Reads a `ugi:` spec (spaces around it are ignored).
    ///
    /// # Errors
    ///
    /// [`SpecError::TooLong`] past [`MAX_UGI_SPEC_LEN`] bytes, [`SpecError::NotEngine`]
    /// for a spec that is not `ugi:`, [`SpecError::BadNumber`] for a limit out of range
    /// (`n0`), [`SpecError::RepeatedPart`], and [`SpecError::Command`] for a command that
    /// is empty or does not split (an unclosed quote).
    ///
    /// ```
    /// use agon_bots::{ugi::UgiSpec, SpecError};
    /// assert_eq!(UgiSpec::parse("ugi:d6:./engine")?.depth, Some(6));
    /// assert!(matches!(UgiSpec::parse("ugi:n0:./engine"), Err(SpecError::BadNumber { .. })));
    /// assert!(matches!(UgiSpec::parse("ugi:d2:d3:./engine"), Err(SpecError::RepeatedPart { .. })));
    /// // A part that is no limit starts the command, colons included.
    /// assert_eq!(UgiSpec::parse("ugi:./e --x=a:b")?.command, ["./e", "--x=a:b"]);
    /// # Ok::<(), SpecError>(())
    /// ```
    pub fn parse(spec: &str) -> Result<UgiSpec, SpecError> {
        if spec.len() > MAX_UGI_SPEC_LEN {
            return Err(SpecError::TooLong { len: spec.len() });
        }
        let Some(mut rest) = spec.trim().strip_prefix("ugi:") else {
            return Err(SpecError::NotEngine {
                spec: spec.to_string(),
            });
        };
        let mut parsed = UgiSpec {
            command: Vec::new(),
            time: None,
            nodes: None,
            depth: None,
        };
        let bad = |part: &str, number, (min, max)| SpecError::BadNumber {
            spec: spec.to_string(),
            part: part.to_string(),
            number,
            min,
            max,
        };
        let repeated = |part: &str| SpecError::RepeatedPart {
            spec: spec.to_string(),
            part: part.to_string(),
        };
        // Limits are parts of digits with their letter; anything else starts the command.
        while let Some((part, after)) = rest.split_once(':') {
            if let Some(ms) = digits(part.strip_suffix("ms")) {
                if parsed.time.is_some() {
                    return Err(repeated(part));
                }
                let ms = ms
                    .parse::<u64>()
                    .map_err(|_| bad(part, SpecNumber::TimeLimit, (0, u64::MAX)))?;
                parsed.time = Some(Duration::from_millis(ms));
            } else if let Some(n) = digits(part.strip_prefix('n')) {
                if parsed.nodes.is_some() {
                    return Err(repeated(part));
                }
                let range = (1, u64::MAX);
                let n = n.parse::<u64>().ok().filter(|&n| n >= 1);
                parsed.nodes = Some(n.ok_or_else(|| bad(part, SpecNumber::Nodes, range))?);
            } else if let Some(d) = digits(part.strip_prefix('d')) {
                if parsed.depth.is_some() {
                    return Err(repeated(part));
                }
                let max = crate::Engine::MAX_DEPTH;
                let d = d.parse::<u32>().ok().filter(|d| (1..=max).contains(d));
                parsed.depth =
                    Some(d.ok_or_else(|| bad(part, SpecNumber::Depth, (1, u64::from(max))))?);
            } else {
                break;
            }
            rest = after;
        }
        let command_error = |error: &str| SpecError::Command {
            spec: spec.to_string(),
            error: error.to_string(),
        };
        parsed.command = shlex::split(rest)
            .ok_or_else(|| command_error("an unclosed quote or a trailing backslash"))?;
        if parsed.command.is_empty() {
            return Err(command_error("no command"));
        }
        Ok(parsed)
    }

    /// The bot of this spec: it starts the engine at its first move (see [`UgiBot`]).
    ///
    /// ```
    /// use agon_bots::{ugi::UgiSpec, Bot};
    /// let bot = UgiSpec::parse("ugi:n100:./engine")?.bot(7);
    /// assert_eq!(bot.name(), "ugi:n100:./engine");
    /// # Ok::<(), agon_bots::SpecError>(())
    /// ```
    pub fn bot(&self, seed: u64) -> UgiBot {
        UgiBot {
            spec: self.clone(),
            seed,
            clock: None,
            process: None,
            forfeit: None,
        }
    }

    /// The `go` command for a move: the spec's limits, the clock's times, or the default
    /// move time when there are neither.
    fn go(&self, clock: Option<&Clock>) -> String {
        let mut go = String::from("go");
        if let Some(clock) = clock {
            go.push(' ');
            go.push_str(&clock.go_arguments());
        }
        if let Some(t) = self.time {
            go.push_str(&format!(" movetime {}", t.as_millis()));
        }
        if let Some(n) = self.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if go == "go" {
            go.push_str(&format!(
                " movetime {}",
                crate::Engine::DEFAULT_TIME.as_millis()
            ));
        }
        go
    }

    /// The time the move may take before it is late: the chooser's clock, else the move
    /// time (the default one when the spec has no limit at all), else none.
    fn move_limit(&self, clock: Option<&Clock>, chooser: Side) -> Option<Duration> {
        match (clock, self.time) {
            (Some(clock), _) => Some(clock.remaining[chooser.index()]),
            (None, Some(t)) => Some(t),
            (None, None) if self.nodes.is_none() && self.depth.is_none() => {
                Some(crate::Engine::DEFAULT_TIME)
            }
            (None, None) => None,
        }
    }
}

impl fmt::Display for UgiSpec {
    /// The spec in its canonical form: its limits in order, the command quoted as needed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ugi:")?;
        if let Some(t) = self.time {
            write!(f, "{}ms:", t.as_millis())?;
        }
        if let Some(n) = self.nodes {
            write!(f, "n{n}:")?;
        }
        if let Some(d) = self.depth {
            write!(f, "d{d}:")?;
        }
        let words = self.command.iter().map(String::as_str);
        // A word with a NUL byte cannot be quoted; it was read from a spec, so it has none.
        f.write_str(&shlex::try_join(words).map_err(|_| fmt::Error)?)
    }
}

/// A running engine process: its input, and its output's lines through a channel fed by
/// a reader thread (closed at the end of the output).
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// The engine's options, from its `option name N ...` lines.
    options: Vec<String>,
    /// The start and rules of the game last set up by `uginewgame`.
    game: Option<Position>,
}

impl Process {
    fn start(command: &[String]) -> Result<Process, Forfeit> {
        let crash = |detail: String| Forfeit {
            kind: ForfeitKind::Crash,
            detail,
        };
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| crash(format!("cannot start {:?}: {e}", command[0])))?;
        let (input, output) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(crash("no pipes to the engine".into()));
            }
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim().to_string();
                        if sender.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            input,
            lines,
            options: Vec::new(),
            game: None,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| Forfeit {
                kind: ForfeitKind::Crash,
                detail: format!("cannot write to the engine: {e}"),
            })
    }

    /// The next line, waiting until `deadline` at most: a hang past it, a crash at the
    /// end of the output.
    fn read(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Forfeit> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Forfeit {
                kind: ForfeitKind::Hang,
                detail: format!("no {waiting_for} in time"),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(Forfeit {
                kind: ForfeitKind::Crash,
                detail: format!("the engine exited while the harness waited for {waiting_for}"),
            }),
        }
    }

    /// Reads lines until one whose first word is `word`, which it returns.
    fn read_until(&mut self, word: &str, deadline: Instant) -> Result<String, Forfeit> {
        loop {
            let line = self.read(deadline, word)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some(w) if w == word => return Ok(line),
                Some("option") if words.next() == Some("name") => {
                    let name = words
                        .take_while(|&w| w != "type")
                        .collect::<Vec<_>>()
                        .join(" ");
                    self.options.push(name);
                }
                _ => {}
            }
        }
    }

    fn handshake(&mut self, rules: Rules, seed: u64) -> Result<(), Forfeit> {
        self.send("ugi")?;
        self.read_until("ugiok", Instant::now() + HANDSHAKE_TIMEOUT)?;
        if rules != Rules::STANDARD {
            self.send(&format!("setoption name Rules value {rules}"))?;
        }
        if self.options.iter().any(|o| o.eq_ignore_ascii_case("seed")) {
            self.send(&format!("setoption name Seed value {seed}"))?;
        }
        self.send("isready")?;
        self.read_until("readyok", Instant::now() + HANDSHAKE_TIMEOUT)?;
        Ok(())
    }
}

impl Drop for Process {
    /// Asks the engine to quit, and kills it if it is still running a moment later.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A UGI engine process as a [`Bot`]: built from a [`UgiSpec`] (or `bot_by_name("ugi:...")`).
///
/// The process starts at the first move asked (`ugi`, `setoption name Rules` when the rules
/// are not standard, `setoption name Seed` when the engine has that option, `isready`,
/// `uginewgame`) and lives until the bot is dropped. Every move is asked with the whole
/// game from its start, checked by agon-core, and timed: a fault gives no move and leaves
/// its [`Forfeit`] (see [`Bot::forfeit`]); the process is then stopped, and a later move
/// asked of the bot starts a fresh one.
///
/// ```no_run
/// use agon_bots::{bot_by_name, Bot};
/// use agon_core::Game;
/// let mut bot = bot_by_name("ugi:n5000:./my-engine --flag", 1)?;
/// match bot.choose_in_game(&Game::new()) {
///     Some(m) => println!("the engine plays {m}"),
///     None => println!("the engine forfeits: {}", bot.forfeit().unwrap()),
/// }
/// # Ok::<(), agon_bots::SpecError>(())
/// ```
pub struct UgiBot {
    spec: UgiSpec,
    seed: u64,
    clock: Option<Clock>,
    process: Option<Process>,
    forfeit: Option<Forfeit>,
}

impl UgiBot {
    /// The spec of the bot.
    ///
    /// ```
    /// use agon_bots::ugi::UgiSpec;
    /// let spec = UgiSpec::parse("ugi:./e")?;
    /// assert_eq!(spec.bot(0).spec(), &spec);
    /// # Ok::<(), agon_bots::SpecError>(())
    /// ```
    pub fn spec(&self) -> &UgiSpec {
        &self.spec
    }

    /// Asks the engine for its move in `game`, every fault a forfeit.
    fn ask(&mut self, game: &Game) -> Result<Move, Forfeit> {
        if self.process.is_none() {
            let mut process = Process::start(&self.spec.command)?;
            process.handshake(game.rules(), self.seed)?;
            self.process = Some(process);
        }
        let process = self.process.as_mut().expect("started above");
        let start = *game.start();
        if process.game != Some(start) {
            process.send("uginewgame")?;
            process.send("isready")?;
            process.read_until("readyok", Instant::now() + HANDSHAKE_TIMEOUT)?;
            process.game = Some(start);
        }
        let mut position = if start == Position::start_with_rules(game.rules()) {
            String::from("position startpos")
        } else {
            format!("position fen {}", start.to_text())
        };
        if !game.moves().is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                position.push_str(&format!(" {m}"));
            }
        }
        process.send(&position)?;
        let chooser = game.position().chooser();
        let limit = self.spec.move_limit(self.clock.as_ref(), chooser);
        let go = self.spec.go(self.clock.as_ref());
        let began = Instant::now();
        process.send(&go)?;
        let wait = limit.map_or(UNTIMED_SEARCH_LIMIT, |l| l + TIME_MARGIN) + HANG_GRACE;
        let line = process.read_until("bestmove", began + wait)?;
        let elapsed = began.elapsed();
        if let Some(limit) = limit {
            if elapsed > limit + TIME_MARGIN {
                return Err(Forfeit {
                    kind: ForfeitKind::TimeForfeit,
                    detail: format!(
                        "the move came after {} ms, {} ms were given",
                        elapsed.as_millis(),
                        limit.as_millis()
                    ),
                });
            }
        }
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let shown: String = line.chars().take(80).collect();
        let m: Move = text.parse().map_err(|e| Forfeit {
            kind: ForfeitKind::UnreadableMove,
            detail: format!("{shown:?}: {e}"),
        })?;
        if !game.is_legal(m) {
            let why = game
                .position()
                .check_move(m)
                .err()
                .map_or_else(|| "the game is over".to_string(), |e| e.to_string());
            return Err(Forfeit {
                kind: ForfeitKind::IllegalMove,
                detail: format!("{m} at ply {}: {why}", game.moves().len()),
            });
        }
        Ok(m)
    }
}

impl Bot for UgiBot {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        self.choose_in_game(&Game::from_position(*position))
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        if game.is_over() {
            return None;
        }
        match self.ask(game) {
            Ok(m) => Some(m),
            Err(forfeit) => {
                // A process that failed is not asked again: the next move starts afresh.
                self.process = None;
                self.forfeit = Some(forfeit);
                None
            }
        }
    }

    fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn forfeit(&mut self) -> Option<Forfeit> {
        self.forfeit.take()
    }
}
