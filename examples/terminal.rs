//! The terminal game: a person plays Agon against a bot, typing moves and commands; or
//! two bots play each other (`--auto`). The `play` example is a thin wrapper around
//! [`parse_args`] and [`run`], which read and write any streams, so tests drive it with
//! scripted input.
//!
//! Commands at the prompt:
//!
//! | input | effect |
//! |---|---|
//! | `f1-e1`, `f4>l1`, `f1e1` | play a step, a return, or a from-to pair ([`agon_core::Position::parse_move`]) |
//! | `?` | list the legal moves |
//! | `undo` | take back your last move and the computer's reply |
//! | `resign` | resign the game |
//! | `save FILE` | write the game record ([`Record`]) to `FILE` |
//! | `load FILE` | read a game record from `FILE` and go on from its last position |
//! | `help` | list the commands |
//! | `quit` | leave (so does the end of the input) |
//!
//! An input that is not a move, or a move the rules refuse, is answered with the reason
//! and the prompt comes again.
//!
//! ```
//! use agon_examples::terminal::{parse_args, run, End};
//!
//! let options = parse_args(["--side", "white", "--bot", "random"].map(String::from))?;
//! let mut output = Vec::new();
//! let end = run("f1-e1\n".as_bytes(), &mut output, &options).map_err(|e| e.to_string())?;
//! let text = String::from_utf8(output).unwrap();
//! assert!(text.contains("You play f1-e1."));
//! assert!(text.contains("Computer (random) plays "));
//! assert_eq!(end, End::Quit);
//! # Ok::<(), String>(())
//! ```

use std::io::{self, BufRead, Write};

use agon_core::{CellSet, Game, Move, Record, Score, Side};

use agon_bots::arena::MAX_PLIES;
use agon_bots::{bot_by_name, Bot};

/// The bot the computer plays when none is named.
///
/// ```
/// use agon_examples::terminal::DEFAULT_BOT;
/// assert_eq!(agon_bots::bot_by_name(DEFAULT_BOT, 0).unwrap().name(), "alphabeta:5");
/// ```
pub const DEFAULT_BOT: &str = "alphabeta:5";

/// The usage line of the `play` example.
///
/// ```
/// assert!(agon_examples::terminal::USAGE.starts_with("play [--side white|black]"));
/// ```
pub const USAGE: &str =
    "play [--side white|black] [--bot SPEC] [--auto [--opponent SPEC]] [--seed N]
  SPEC: random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME (default alphabeta:5)";

/// How to set up the terminal game.
///
/// ```
/// use agon_examples::terminal::Options;
/// let options = Options::default();
/// assert_eq!((options.side, options.bot, options.auto), (None, None, false));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The side the person plays; asked at the start when `None` (and not `auto`).
    pub side: Option<agon_core::Side>,
    /// The computer's bot spec (see [`bot_by_name`]); asked when `None` (and not `auto`,
    /// which then uses [`DEFAULT_BOT`]).
    pub bot: Option<String>,
    /// With `auto`, the bot that plays Black (White plays `bot`); `bot` when `None`.
    pub opponent: Option<String>,
    /// Computer against computer, reading no input.
    pub auto: bool,
    /// The seed of the bots (the opponent in `auto` gets `seed + 1`); 0 when `None`.
    pub seed: Option<u64>,
}

/// How a session of [`run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// ```
/// use agon_examples::terminal::{run, End, Options};
/// use agon_core::Side;
///
/// let options = Options { side: Some(Side::White), bot: Some("random".into()), ..Options::default() };
/// let end = run("resign\n".as_bytes(), std::io::sink(), &options).unwrap();
/// assert_eq!(end, End::Resigned { winner: Side::Black });
/// ```
pub enum End {
    /// The game ended by the rules.
    Over(agon_core::Outcome),
    /// A side resigned; the other won.
    Resigned {
        /// The side that won.
        winner: Side,
    },
    /// An `--auto` game reached [`MAX_PLIES`] plies, counted as a draw.
    PlyCap,
    /// The person left (`quit` or the end of the input) with the game unfinished.
    Quit,
}

/// Reads the `play` example's arguments (without the program name).
///
/// ```
/// use agon_examples::terminal::parse_args;
/// use agon_core::Side;
///
/// let options = parse_args(["--side", "b", "--bot", "mcts:500", "--seed", "4"].map(String::from))?;
/// assert_eq!(options.side, Some(Side::Black));
/// assert_eq!(options.bot.as_deref(), Some("mcts:500"));
/// assert_eq!(options.seed, Some(4));
/// assert_eq!(
///     parse_args(["--side", "red"].map(String::from)).unwrap_err(),
///     "bad side \"red\": expected white or black"
/// );
/// assert_eq!(
///     parse_args(["--bot", "minimax"].map(String::from)).unwrap_err(),
///     "unknown bot \"minimax\": expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME"
/// );
/// # Ok::<(), String>(())
/// ```
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--side" => {
                let v = value("--side")?;
                options.side = Some(
                    parse_side(&v)
                        .ok_or_else(|| format!("bad side {v:?}: expected white or black"))?,
                );
            }
            "--bot" => {
                let v = value("--bot")?;
                bot_by_name(&v, 0).map_err(|e| e.to_string())?;
                options.bot = Some(v);
            }
            "--opponent" => {
                let v = value("--opponent")?;
                bot_by_name(&v, 0).map_err(|e| e.to_string())?;
                options.opponent = Some(v);
            }
            "--seed" => {
                let v = value("--seed")?;
                options.seed = Some(v.parse().map_err(|_| format!("bad seed {v:?}"))?);
            }
            "--auto" => options.auto = true,
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    if options.opponent.is_some() && !options.auto {
        return Err("--opponent needs --auto".to_string());
    }
    Ok(options)
}

fn parse_side(text: &str) -> Option<Side> {
    match text.trim().to_ascii_lowercase().as_str() {
        "w" | "white" => Some(Side::White),
        "b" | "black" => Some(Side::Black),
        _ => None,
    }
}

/// Reads one line; `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

/// `", capturing e5, g5"` for the cells of captured pieces, or nothing.
fn captures_text(captures: CellSet) -> String {
    if captures.is_empty() {
        return String::new();
    }
    let names: Vec<String> = captures.iter().map(|c| c.to_string()).collect();
    format!(", capturing {}", names.join(", "))
}

/// The moves as lines of at most about 78 characters.
fn moves_text(moves: &[Move]) -> String {
    let mut text = format!("Legal moves ({}):", moves.len());
    let mut width = text.len();
    for m in moves {
        let name = m.to_string();
        if width + 1 + name.len() > 78 {
            text.push_str("\n ");
            width = 1;
        }
        text.push(' ');
        text.push_str(&name);
        width += 1 + name.len();
    }
    text
}

const HELP: &str = "Type a move as a step (f1-e1), a return (f4>l1) or a pair (f1e1).
Commands: ? (legal moves), undo, resign, save FILE, load FILE, help, quit.
To win, bring your queen to the throne (f6) and ring it with your guards on all six cells
around it. Guards of one side that ring the throne without their own queen on it lose.
A captured piece (*) must be returned by its side before anything else. A position seen
for the third time is a draw; a player with no legal move loses. The full rules:
docs/RULES.md in the repository.";

/// What the board's letters and marks mean, printed under the first board.
const KEY: &str = "Key: Q G = White's queen and guards, q g = Black's,
     * = captured (to be returned), # = the throne.";

/// The board as the rules draw it, with the throne marked `#` (after any piece on it).
fn board(position: &agon_core::Position) -> String {
    let text = position.to_string();
    let throne = agon_core::Cell::THRONE.to_string();
    // The throne's label is a word of its own: its name, then the marks of a piece on it.
    let at = text
        .match_indices(&throne)
        .map(|(i, _)| i)
        .find(|&i| i == 0 || text.as_bytes()[i - 1] == b' ');
    match at {
        Some(i) => {
            let end = text[i..]
                .find(char::is_whitespace)
                .map_or(text.len(), |n| i + n);
            // The mark takes one of the spaces after the label, so the columns stay put.
            let rest = &text[end..];
            let rest = rest
                .strip_prefix(' ')
                .filter(|r| r.starts_with(' '))
                .unwrap_or(rest);
            format!("{}#{rest}", &text[..end])
        }
        None => text,
    }
}

/// Reads a move as the notation writes it, or in capitals (`F1-E1`), which people type.
fn read_move(position: &agon_core::Position, line: &str) -> Result<Move, agon_core::ParseError> {
    position.parse_move(line).or_else(|e| {
        position
            .parse_move(&line.to_ascii_lowercase())
            .map_err(|_| e)
    })
}

/// Runs the terminal game on `input` and `output` with `options`, until the game ends, the
/// person quits, or the input ends. Only write errors (and read errors) are errors: bad
/// input is answered and asked again.
///
/// ```
/// use agon_examples::terminal::{run, End, Options};
///
/// let options = Options { auto: true, bot: Some("greedy".into()), opponent: Some("random".into()), ..Options::default() };
/// let mut output = Vec::new();
/// let end = run(std::io::empty(), &mut output, &options).unwrap();
/// assert!(matches!(end, End::Over(_)));
/// assert!(String::from_utf8(output).unwrap().contains("Game over after "));
/// ```
pub fn run(mut input: impl BufRead, mut output: impl Write, options: &Options) -> io::Result<End> {
    let out = &mut output;
    writeln!(out, "Agon (Queen's Guard, 1842)")?;
    let seed = options.seed.unwrap_or(0);
    if options.auto {
        return run_auto(out, options, seed);
    }
    let human = match options.side {
        Some(side) => side,
        None => loop {
            write!(out, "Play White or Black? [w/b, default w]: ")?;
            out.flush()?;
            let Some(line) = read_line(&mut input)? else {
                writeln!(out)?;
                return Ok(End::Quit);
            };
            if line.is_empty() {
                break Side::White;
            }
            match parse_side(&line) {
                Some(side) => break side,
                None => writeln!(out, "Please answer w or b.")?,
            }
        },
    };
    let mut computer = match &options.bot {
        Some(spec) => bot_by_name(spec, seed).map_err(io::Error::other)?,
        None => loop {
            write!(
                out,
                "Computer strength: random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME [default {DEFAULT_BOT}]: "
            )?;
            out.flush()?;
            let Some(line) = read_line(&mut input)? else {
                writeln!(out)?;
                return Ok(End::Quit);
            };
            let spec = if line.is_empty() {
                DEFAULT_BOT
            } else {
                line.as_str()
            };
            match bot_by_name(spec, seed) {
                Ok(bot) => break bot,
                Err(e) => writeln!(out, "{e}.")?,
            }
        },
    };
    let computer_name = computer.name();
    writeln!(
        out,
        "You play {human} against the computer ({computer_name})."
    )?;
    writeln!(out, "{HELP}")?;
    let mut game = Game::new();
    writeln!(out, "\n{}\n{KEY}\n", board(game.position()))?;
    loop {
        if let Some(outcome) = game.outcome() {
            writeln!(
                out,
                "Game over after {} plies: {outcome}.",
                game.moves().len()
            )?;
            let verdict = match outcome.winner {
                Some(side) if side == human => "You win!",
                Some(_) => "You lose.",
                None => "A draw.",
            };
            writeln!(out, "{verdict}")?;
            return Ok(End::Over(outcome));
        }
        if game.position().turn() != human {
            let m = computer.choose_in_game(&game).ok_or_else(|| {
                io::Error::other("the computer found no move in a game that goes on")
            })?;
            let captures = game.play(m).map_err(|e| {
                io::Error::other(format!("the computer chose the illegal move {m}: {e}"))
            })?;
            writeln!(
                out,
                "Computer ({computer_name}) plays {m}{}.",
                captures_text(captures)
            )?;
            writeln!(out, "\n{}\n", board(game.position()))?;
            continue;
        }
        write!(out, "Your move ({human}): ")?;
        out.flush()?;
        let Some(line) = read_line(&mut input)? else {
            writeln!(out, "\nBye.")?;
            return Ok(End::Quit);
        };
        let (command, argument) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line.as_str(), ""),
        };
        match command {
            "" => {}
            "?" => {
                let moves = game.legal_moves();
                writeln!(out, "{}", moves_text(&moves))?;
            }
            "help" => writeln!(out, "{HELP}")?,
            "quit" | "exit" => {
                writeln!(out, "Bye.")?;
                return Ok(End::Quit);
            }
            "resign" => {
                let winner = human.other();
                writeln!(out, "You resign. {winner} wins.")?;
                return Ok(End::Resigned { winner });
            }
            "undo" => undo(out, &mut game, human)?,
            "save" if !argument.is_empty() => {
                let mut record = Record::new(game.clone());
                let (white, black) = match human {
                    Side::White => ("human".to_string(), computer_name.clone()),
                    Side::Black => (computer_name.clone(), "human".to_string()),
                };
                let tagged = record
                    .set_tag("White", &white)
                    .and_then(|()| record.set_tag("Black", &black))
                    .map_err(|e| io::Error::other(e.to_string()));
                match tagged.and_then(|()| std::fs::write(argument, record.to_string())) {
                    Ok(()) => writeln!(out, "Saved the game to {argument}.")?,
                    Err(e) => writeln!(out, "Cannot save to {argument}: {e}.")?,
                }
            }
            "load" if !argument.is_empty() => {
                let loaded = std::fs::read_to_string(argument)
                    .map_err(|e| e.to_string())
                    .and_then(|text| text.parse::<Record>().map_err(|e| e.to_string()));
                match loaded {
                    Ok(record) => {
                        game = record.into_game();
                        writeln!(
                            out,
                            "Loaded {argument}: {} plies played.",
                            game.moves().len()
                        )?;
                        writeln!(out, "\n{}\n", board(game.position()))?;
                    }
                    Err(e) => writeln!(out, "Cannot load {argument}: {e}.")?,
                }
            }
            "save" | "load" => writeln!(out, "Usage: {command} FILE.")?,
            _ => match read_move(game.position(), &line) {
                Err(e) => writeln!(
                    out,
                    "Cannot read {line:?} as a move: {e}. Type ? for the legal moves, help for the commands."
                )?,
                Ok(m) => match game.play(m) {
                    Err(e) => writeln!(out, "Illegal move {m}: {e}.")?,
                    Ok(captures) => {
                        writeln!(out, "You play {m}{}.", captures_text(captures))?;
                        writeln!(out, "\n{}\n", board(game.position()))?;
                    }
                },
            },
        }
    }
}

/// Takes back the person's last move and the computer's replies after it.
fn undo(out: &mut impl Write, game: &mut Game, human: Side) -> io::Result<()> {
    let positions = game.positions();
    // The side that made move i is the side to move in position i.
    let Some(last_human) = (0..game.moves().len())
        .rev()
        .find(|&i| positions[i].turn() == human)
    else {
        return writeln!(out, "Nothing to undo.");
    };
    let mut taken: Vec<Move> = Vec::new();
    while game.moves().len() > last_human {
        if let Some(m) = game.undo() {
            taken.push(m);
        }
    }
    taken.reverse();
    let names: Vec<String> = taken.iter().map(|m| m.to_string()).collect();
    writeln!(out, "Took back {}.", names.join(" "))?;
    writeln!(out, "\n{}\n", board(game.position()))
}

/// Computer against computer: `bot` as White, `opponent` (or `bot`) as Black.
fn run_auto(out: &mut impl Write, options: &Options, seed: u64) -> io::Result<End> {
    let white_spec = options.bot.as_deref().unwrap_or(DEFAULT_BOT);
    let black_spec = options.opponent.as_deref().unwrap_or(white_spec);
    let mut white = bot_by_name(white_spec, seed).map_err(io::Error::other)?;
    let mut black = bot_by_name(black_spec, seed.wrapping_add(1)).map_err(io::Error::other)?;
    writeln!(out, "White: {}. Black: {}.", white.name(), black.name())?;
    let mut game = Game::new();
    writeln!(out, "\n{}\n", board(game.position()))?;
    while !game.is_over() {
        if game.moves().len() >= MAX_PLIES {
            writeln!(out, "Stopped after {MAX_PLIES} plies, counted as a draw.")?;
            return Ok(End::PlyCap);
        }
        let side = game.position().turn();
        let bot: &mut (dyn Bot + Send) = match side {
            Side::White => white.as_mut(),
            Side::Black => black.as_mut(),
        };
        let m = bot
            .choose_in_game(&game)
            .ok_or_else(|| io::Error::other("a bot found no move in a game that goes on"))?;
        let captures = game.play(m).map_err(|e| {
            io::Error::other(format!("{} chose the illegal move {m}: {e}", bot.name()))
        })?;
        writeln!(
            out,
            "{}. {side} ({}) plays {m}{}.",
            game.moves().len(),
            bot.name(),
            captures_text(captures)
        )?;
        writeln!(out, "\n{}\n", board(game.position()))?;
    }
    let outcome = game
        .outcome()
        .ok_or_else(|| io::Error::other("the game is not over"))?;
    writeln!(
        out,
        "Game over after {} plies: {outcome}.",
        game.moves().len()
    )?;
    let record = Record::new(game);
    debug_assert_eq!(record.result(), Score::from_outcome(Some(outcome)));
    write!(out, "\n{record}")?;
    Ok(End::Over(outcome))
}
