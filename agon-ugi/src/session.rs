//! [`Session`]: the state of one engine process (options, the game, a running search) and
//! the handling of each command.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use agon_bots::{Analysis, AzSpec, Bot, BotKind, BotSpec, Engine, MoveBudget, SearchControl};
use agon_core::{Game, Position, Rules, Side};

use crate::command::{quote, Command, Go, Query, Start};
use crate::output::Output;

/// The engine's name in `id name`.
///
/// ```
/// assert!(agon_ugi::NAME.starts_with("agon-ugi "));
/// ```
pub const NAME: &str = concat!("agon-ugi ", env!("CARGO_PKG_VERSION"));

/// The author in `id author`.
///
/// ```
/// assert_eq!(agon_ugi::AUTHOR, "the agon developers");
/// ```
pub const AUTHOR: &str = "the agon developers";

/// The default of the `MoveOverhead` option, in milliseconds: time kept in reserve under
/// a clock for the process, the pipe and the harness. On a loaded machine (load 11 on two
/// cores) 30 ms let 9 of 3067 moves at 1 s + 10 ms come late, 100 ms none of 1768.
///
/// ```
/// assert_eq!(agon_ugi::DEFAULT_MOVE_OVERHEAD_MS, 100);
/// ```
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 100;

/// The largest `MoveOverhead`, in milliseconds.
///
/// ```
/// assert_eq!(agon_ugi::MAX_MOVE_OVERHEAD_MS, 10_000);
/// ```
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

/// The options a session reads (`setoption`), with their current values.
#[derive(Clone, Debug)]
struct Options {
    bot: String,
    rules: Rules,
    hash: Option<usize>,
    threads: Option<usize>,
    seed: u64,
    overhead: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bot: "engine".into(),
            rules: Rules::STANDARD,
            hash: None,
            threads: None,
            seed: 0,
            overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        }
    }
}

/// The bot that answers `go`: the engine (searched under a [`SearchControl`]) or another
/// bot of agon-bots (asked for its move).
enum Player {
    Engine(Engine),
    Other {
        /// The spec, for bots whose time limit follows the clock (`None` for `az`).
        spec: Option<BotSpec>,
        bot: Box<dyn Bot + Send>,
    },
}

impl Player {
    /// The player of `options`, or the error of its spec.
    fn build(options: &Options) -> Result<Player, String> {
        let spec = options.bot.trim();
        if AzSpec::is_az(spec) {
            let bot = agon_bots::bot_by_name(spec, options.seed).map_err(|e| e.to_string())?;
            return Ok(Player::Other { spec: None, bot });
        }
        let parsed = BotSpec::parse(spec).map_err(|e| e.to_string())?;
        if parsed.kind != BotKind::Engine {
            return Ok(Player::Other {
                spec: Some(parsed),
                bot: parsed.bot(options.seed),
            });
        }
        let mut engine = Engine::from_spec(spec).map_err(|e| e.to_string())?;
        if let Some(mib) = options.hash {
            engine = engine.with_hash_mib(mib);
        }
        if let Some(threads) = options.threads {
            engine = engine.with_threads(threads);
        }
        Ok(Player::Engine(engine))
    }
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// Raised just before `bestmove` is sent: a harness that has read it may send the
    /// next `go` at once, and the thread is then about to end.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<Player>,
    /// The options changed during the search: the player it returns is not kept.
    stale: bool,
}

/// One engine process's state: its options, the game set by `position` (and whether a bad
/// move forfeited it), the player and the search running, if any. Each input line goes to
/// [`Session::handle_line`]; every output line goes to the channel given to
/// [`Session::new`], from this thread or the search's.
///
/// ```
/// use std::sync::mpsc;
/// use agon_ugi::{Output, Session};
///
/// let (tx, rx) = mpsc::channel();
/// let mut session = Session::new(tx);
/// session.handle_line("setoption name Bot value alphabeta:1");
/// session.handle_line("position startpos moves f1-e1");
/// session.handle_line("query p1turn");
/// session.handle_line("go");
/// assert!(!session.handle_line("quit"));
/// drop(session);
/// let lines: Vec<String> = rx.iter().map(|o| o.to_string()).collect();
/// assert_eq!(lines[0], "response false");
/// assert!(lines.last().unwrap().starts_with("bestmove "));
/// ```
pub struct Session {
    out: Sender<Output>,
    options: Options,
    game: Game,
    /// The side that played an illegal or unreadable move in the last `position`: it lost.
    forfeit: Option<Side>,
    /// The texts of the game's moves as the last `position` gave them (checked against
    /// the game's length before use: a reset of the game leaves them stale).
    move_texts: Vec<String>,
    /// The player between searches (`None`: built at the next `go`).
    player: Option<Player>,
    search: Option<Running>,
}

impl Session {
    /// A session with the default options (the engine, standard rules) at the start
    /// position, writing to `out`.
    ///
    /// ```
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let mut session = agon_ugi::Session::new(tx);
    /// session.handle_line("query result");
    /// assert_eq!(rx.recv().unwrap().to_string(), "response none");
    /// ```
    pub fn new(out: Sender<Output>) -> Session {
        Session {
            out,
            options: Options::default(),
            game: Game::new(),
            forfeit: None,
            move_texts: Vec::new(),
            player: None,
            search: None,
        }
    }

    /// Handles one input line; `false` once the session is over (`quit`). A line that
    /// is not a command is answered `info string error: ...` and the session goes on.
    ///
    /// ```
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let mut session = agon_ugi::Session::new(tx);
    /// assert!(session.handle_line("hello"));
    /// assert_eq!(rx.recv().unwrap().to_string(), "info string error: unknown command \"hello\"");
    /// ```
    pub fn handle_line(&mut self, line: &str) -> bool {
        match Command::parse(line) {
            Ok(Some(command)) => self.handle(command),
            Ok(None) => true,
            Err(e) => {
                self.send(Output::Error(e.to_string()));
                true
            }
        }
    }

    /// Handles one command; `false` once the session is over (`quit`).
    ///
    /// ```
    /// use agon_ugi::{Command, Output, Session};
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// let mut session = Session::new(tx);
    /// assert!(session.handle(Command::IsReady));
    /// assert_eq!(rx.recv().unwrap(), Output::ReadyOk);
    /// assert!(!session.handle(Command::Quit));
    /// ```
    pub fn handle(&mut self, command: Command) -> bool {
        self.reap();
        match command {
            Command::Ugi => self.ugi(),
            Command::IsReady => self.send(Output::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => {
                self.game = Game::with_rules(self.options.rules);
                self.forfeit = None;
                self.drop_player();
            }
            Command::Position { start, moves } => self.position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::Quit => {
                self.stop();
                return false;
            }
            Command::Query(query) => self.query(query),
        }
        true
    }

    /// The current game (the position of the last `position` command, up to its last
    /// legal move).
    ///
    /// ```
    /// let (tx, _rx) = std::sync::mpsc::channel();
    /// let mut session = agon_ugi::Session::new(tx);
    /// session.handle_line("position startpos moves f1-e1 d1-e2");
    /// assert_eq!(session.game().moves().len(), 2);
    /// ```
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn send(&self, output: Output) {
        // The reader of the channel is gone only when the process ends.
        let _ = self.out.send(output);
    }

    fn ugi(&self) {
        self.send(Output::IdName(NAME.into()));
        self.send(Output::IdAuthor(AUTHOR.into()));
        let d = Options::default();
        let options: [(&'static str, String); 6] = [
            ("Bot", format!("type string default {}", d.bot)),
            ("Rules", format!("type string default {}", d.rules)),
            (
                "Hash",
                format!(
                    "type spin default {} min 1 max {}",
                    Engine::DEFAULT_HASH_MIB,
                    Engine::MAX_HASH_MIB
                ),
            ),
            (
                "Threads",
                format!("type spin default 1 min 1 max {}", Engine::MAX_THREADS),
            ),
            (
                "Seed",
                format!("type spin default {} min 0 max {}", d.seed, i64::MAX),
            ),
            (
                "MoveOverhead",
                format!(
                    "type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
                ),
            ),
        ];
        for (name, rest) in options {
            self.send(Output::Option { name, rest });
        }
        self.send(Output::UgiOk);
    }

    /// The player is rebuilt at the next `go` (its options changed, or a new game starts).
    fn drop_player(&mut self) {
        self.player = None;
        if let Some(running) = &mut self.search {
            running.stale = true;
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let number = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| {
                    format!("bad value {} for {name}: expected 0 to {max}", quote(value))
                })
        };
        let positive = |max: u64| -> Result<usize, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .map(|n| n as usize)
                .ok_or_else(|| {
                    format!("bad value {} for {name}: expected 1 to {max}", quote(value))
                })
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "bot" => {
                let options = Options {
                    bot: value.to_string(),
                    ..self.options.clone()
                };
                Player::build(&options).map(|player| {
                    self.options = options;
                    self.drop_player();
                    self.player = Some(player);
                })
            }
            "rules" => match Rules::from_text(value.trim()) {
                Ok(rules) => {
                    self.options.rules = rules;
                    self.game = Game::with_rules(rules);
                    self.forfeit = None;
                    Ok(())
                }
                Err(e) => Err(format!("bad rules {}: {e}", quote(value))),
            },
            "hash" => positive(Engine::MAX_HASH_MIB as u64).map(|mib| {
                self.options.hash = Some(mib);
                self.drop_player();
            }),
            "threads" => positive(Engine::MAX_THREADS as u64).map(|n| {
                self.options.threads = Some(n);
                self.drop_player();
            }),
            "seed" => number(u64::MAX).map(|seed| {
                self.options.seed = seed;
                self.drop_player();
            }),
            "moveoverhead" => number(MAX_MOVE_OVERHEAD_MS).map(|ms| {
                self.options.overhead = Duration::from_millis(ms);
            }),
            _ => Err(format!(
                "unknown option {}: expected Bot, Rules, Hash, Threads, Seed or MoveOverhead",
                quote(name)
            )),
        };
        if let Err(e) = result {
            self.send(Output::Error(e));
        }
    }

    fn position(&mut self, start: Start, moves: &[String]) {
        let rules = self.options.rules;
        let start = match start {
            Start::StartPos => Position::start_with_rules(rules),
            Start::Text(text) => match Position::from_text_with_rules(&text, rules) {
                Ok(position) => position,
                Err(e) => {
                    // Nothing of the command is taken: the game stays as it was.
                    self.send(Output::Error(format!(
                        "bad position {} under {rules}: {e}",
                        quote(&text)
                    )));
                    return;
                }
            },
        };
        // A harness sends the whole game before each move: when this command extends the
        // game held (the same start, its moves first), only the new moves are played, so
        // a long game is not replayed from its start at every move.
        let held = self.move_texts.len();
        let extends = self.forfeit.is_none()
            && held == self.game.moves().len()
            && *self.game.start() == start
            && moves.get(..held) == Some(&self.move_texts[..]);
        if !extends {
            self.game = Game::from_position(start);
            self.move_texts.clear();
        }
        self.forfeit = None;
        for text in &moves[self.move_texts.len()..] {
            let chooser = self.game.position().chooser();
            let ply = self.game.moves().len() + 1;
            let fault = match self.game.position().parse_move(text) {
                Err(e) => format!("unreadable move {} (ply {ply}): {e}", quote(text)),
                Ok(m) => match self.game.play(m) {
                    Ok(_) => {
                        self.move_texts.push(text.clone());
                        continue;
                    }
                    Err(e) => format!("illegal move {} (ply {ply}): {e}", quote(text)),
                },
            };
            if let Some(outcome) = self.game.outcome() {
                // A move after the end changes nothing of the result.
                self.send(Output::Error(format!(
                    "{fault}; the game was over ({outcome})"
                )));
            } else {
                self.forfeit = Some(chooser);
                self.send(Output::Error(format!(
                    "{fault}; {} loses, the position is the one before it",
                    side_name(chooser)
                )));
            }
            return;
        }
    }

    fn query(&self, query: Query) {
        let answer = match query {
            Query::GameOver => {
                if self.forfeit.is_some() || self.game.is_over() {
                    "true"
                } else {
                    "false"
                }
            }
            Query::P1Turn => {
                if self.game.position().chooser() == Side::White {
                    "true"
                } else {
                    "false"
                }
            }
            Query::Result => {
                let winner = match (self.forfeit, self.game.outcome()) {
                    (Some(loser), _) => Some(Some(loser.other())),
                    (None, Some(outcome)) => Some(outcome.winner),
                    (None, None) => None,
                };
                match winner {
                    None => "none",
                    Some(None) => "draw",
                    Some(Some(Side::White)) => "p1win",
                    Some(Some(Side::Black)) => "p2win",
                }
            }
        };
        self.send(Output::Response(answer));
    }

    /// Takes back the player of a search that has ended.
    fn reap(&mut self) {
        if self.search.as_ref().is_some_and(|running| {
            running.handle.is_finished() || running.answered.load(Ordering::Acquire)
        }) {
            self.join();
        }
    }

    /// Waits for the search to end and takes its player back.
    fn join(&mut self) {
        let Some(running) = self.search.take() else {
            return;
        };
        match running.handle.join() {
            Ok(player) if !running.stale => self.player = Some(player),
            Ok(_) => {}
            Err(_) => self.send(Output::Error("the search failed".into())),
        }
    }

    fn stop(&mut self) {
        if let Some(running) = &self.search {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    fn go(&mut self, go: Go) {
        let start = Instant::now();
        if self.search.is_some() {
            self.send(Output::Error(
                "a search is running: send stop before go".into(),
            ));
            return;
        }
        if let Some(loser) = self.forfeit {
            self.send(Output::Error(format!(
                "the game is over: {} played an illegal move",
                side_name(loser)
            )));
            self.send(Output::BestMove("(none)".into()));
            return;
        }
        if let Some(outcome) = self.game.outcome() {
            self.send(Output::Error(format!("the game is over ({outcome})")));
            self.send(Output::BestMove("(none)".into()));
            return;
        }
        let player = match self.player.take() {
            Some(player) => player,
            None => match Player::build(&self.options) {
                Ok(player) => player,
                Err(e) => {
                    self.send(Output::Error(e));
                    self.send(Output::BestMove("(none)".into()));
                    return;
                }
            },
        };
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let job = Job {
            answered: Arc::clone(&answered),
            game: self.game.clone(),
            go,
            start,
            overhead: self.options.overhead,
            seed: self.options.seed,
            stop: Arc::clone(&stop),
            out: self.out.clone(),
        };
        let handle = std::thread::spawn(move || job.run(player));
        self.search = Some(Running {
            stop,
            answered,
            handle,
            stale: false,
        });
    }
}

impl Drop for Session {
    /// A session dropped during a search stops it and waits for its `bestmove`.
    fn drop(&mut self) {
        self.stop();
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "player 1 (White)",
        Side::Black => "player 2 (Black)",
    }
}

/// One `go`, run on the search thread.
struct Job {
    game: Game,
    go: Go,
    start: Instant,
    overhead: Duration,
    seed: u64,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
    out: Sender<Output>,
}

impl Job {
    /// The time budget of this move: `movetime`, else the clock of the side to act.
    fn budget(&self) -> Option<MoveBudget> {
        if let Some(t) = self.go.movetime {
            return Some(MoveBudget::movetime(t, self.overhead));
        }
        let (time, inc) = match self.game.position().chooser() {
            Side::White => (self.go.p1time, self.go.p1inc),
            Side::Black => (self.go.p2time, self.go.p2inc),
        };
        time.map(|t| MoveBudget::new(t, inc.unwrap_or_default(), self.overhead))
    }

    /// Whether `go` limits this move (else the bot's own limits hold).
    fn limited(&self) -> bool {
        self.go.infinite
            || self.go.depth.is_some()
            || self.go.nodes.is_some()
            || self.budget().is_some()
    }

    fn send(&self, output: Output) {
        let _ = self.out.send(output);
    }

    fn run(self, mut player: Player) -> Player {
        let best = match &mut player {
            Player::Engine(engine) => self.run_engine(engine),
            Player::Other { spec, bot } => self.run_bot(spec.as_ref(), bot),
        };
        if self.go.infinite {
            // `bestmove` waits for `stop` under `go infinite`.
            while !self.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.answered.store(true, Ordering::Release);
        self.send(Output::BestMove(
            best.map_or_else(|| "(none)".to_string(), |m| m.to_string()),
        ));
        player
    }

    fn run_engine(&self, engine: &mut Engine) -> Option<agon_core::Move> {
        let mut control = SearchControl::new().with_stop_flag(Arc::clone(&self.stop));
        if self.limited() {
            if let Some(budget) = self.budget() {
                control = control.with_budget(budget, self.start);
            }
            if let Some(depth) = self.go.depth {
                control = control.with_depth(depth);
            }
            if let Some(nodes) = self.go.nodes {
                control = control.with_nodes(nodes);
            }
        } else {
            let limits = engine.limits();
            if let Some(t) = limits.time {
                control = control.with_budget(MoveBudget::movetime(t, Duration::ZERO), self.start);
            }
            if let Some(depth) = limits.depth {
                control = control.with_depth(depth);
            }
            if let Some(nodes) = limits.nodes {
                control = control.with_nodes(nodes);
            }
        }
        let out = self.out.clone();
        let mut control = control.on_depth(move |analysis: &Analysis| {
            let _ = out.send(Output::info(analysis));
        });
        match engine.analyse_with(&self.game, &mut control, 1) {
            Ok(analysis) => {
                self.send(Output::info(&analysis));
                Some(analysis.best_move())
            }
            Err(e) => {
                self.send(Output::Error(e.to_string()));
                None
            }
        }
    }

    fn run_bot(
        &self,
        spec: Option<&BotSpec>,
        bot: &mut Box<dyn Bot + Send>,
    ) -> Option<agon_core::Move> {
        // A bot that takes a time limit gets the move's hard time; the others think as
        // they do (and do not honour `stop`).
        let timed = match (spec, self.budget()) {
            (Some(spec), Some(budget)) if spec.kind.takes_time() => {
                Some(spec.with_time(budget.hard).bot(self.seed))
            }
            _ => None,
        };
        let m = match timed {
            Some(mut timed) => timed.choose_in_game(&self.game),
            None => bot.choose_in_game(&self.game),
        };
        self.send(Output::Info(format!(
            "time {}",
            self.start.elapsed().as_millis()
        )));
        m
    }
}
