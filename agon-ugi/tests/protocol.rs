//! The `agon-ugi` binary over its standard input and output: every command, every option,
//! `stop` and `isready` during `go infinite`, the queries through whole games (standard,
//! `ludii` with a pass, a captor's placement), hostile lines and a clock game.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use agon_core::{Game, Outcome, Position, Rules, Side};

/// Long enough for a debug build on a loaded machine; the searches asked for are short.
const WAIT: Duration = Duration::from_secs(20);

/// White is stuck: under `ludii` (stuck=pass) its one action is a pass.
const WHITE_STUCK: &str = "Qf7,Ge4,Ge5,Ge6,Gf4,Gg4,Gg5/qf6,gd4,gd5,gf5,gg6,gh4,gh5 w";

/// White's queen is captured: under queen-placer=captor, Black places her.
const QUEEN_CAPTURED: &str = "Qf1*,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agon-ugi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("agon-ugi starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, within `wait`.
    fn next_within(&self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    fn next(&self) -> String {
        self.next_within(WAIT).expect("a line from agon-ugi")
    }

    /// The lines up to the first that starts with `prefix` (included).
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// The lines printed before `readyok` (sends `isready`).
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// The answer to `query WHAT`.
    fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.next();
        line.strip_prefix("response ")
            .unwrap_or_else(|| panic!("not a response: {line}"))
            .to_string()
    }

    /// The move of `go ARGS`, and the lines before it.
    fn go(&mut self, args: &str) -> (String, Vec<String>) {
        self.send(format!("go {args}").trim());
        let mut lines = self.until("bestmove ");
        let best = lines.pop().unwrap()["bestmove ".len()..].to_string();
        (best, lines)
    }

    /// Closes the input and waits for the process to end by itself.
    fn finish(mut self) {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(
                start.elapsed() < WAIT,
                "agon-ugi did not end at end of input"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `position` command of `game` (from its start position).
fn position_of(game: &Game) -> String {
    let mut line = if *game.start() == Position::start_with_rules(game.rules()) {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.start().to_text())
    };
    if !game.moves().is_empty() {
        line += " moves";
        for m in game.moves() {
            line += &format!(" {m}");
        }
    }
    line
}

fn result_of(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| o.winner) {
        None => "none",
        Some(None) => "draw",
        Some(Some(Side::White)) => "p1win",
        Some(Some(Side::Black)) => "p2win",
    }
}

/// Checks the three queries against agon-core's game.
fn check_queries(engine: &mut Engine, game: &Game) {
    let bool_text = |b: bool| if b { "true" } else { "false" };
    assert_eq!(engine.query("gameover"), bool_text(game.is_over()));
    assert_eq!(
        engine.query("p1turn"),
        bool_text(game.position().chooser() == Side::White)
    );
    assert_eq!(engine.query("result"), result_of(game.outcome()));
}

/// Plays `game` to its end (at most `max_plies` more plies) with `go ARGS` for every
/// move, sending the whole game each time as a harness does, checking every move for
/// legality and the queries at every ply. Returns the game.
fn play_out(engine: &mut Engine, game: Game, args: &str, max_plies: usize) -> Game {
    play_out_with(engine, game, args, max_plies, None)
}

/// [`play_out`] with player 1's and player 2's bots set before each of their moves.
fn play_out_with(
    engine: &mut Engine,
    mut game: Game,
    args: &str,
    max_plies: usize,
    bots: Option<[&str; 2]>,
) -> Game {
    for _ in 0..max_plies {
        engine.send(&position_of(&game));
        check_queries(engine, &game);
        if game.is_over() {
            return game;
        }
        if let Some(bots) = bots {
            let bot = bots[game.position().chooser().index()];
            engine.send(&format!("setoption name Bot value {bot}"));
        }
        let (best, _) = engine.go(args);
        let m = game
            .position()
            .parse_move(&best)
            .unwrap_or_else(|e| panic!("unreadable bestmove {best}: {e}"));
        game.play(m)
            .unwrap_or_else(|e| panic!("illegal bestmove {best}: {e}"));
    }
    engine.send(&position_of(&game));
    check_queries(engine, &game);
    game
}

#[test]
fn ugi_identifies_and_lists_every_option() {
    let mut e = Engine::start();
    e.send("ugi");
    let lines = e.until("ugiok");
    assert_eq!(
        lines[0],
        format!("id name agon-ugi {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(lines[1], "id author the agon developers");
    assert_eq!(
        &lines[2..],
        [
            "option name Bot type string default engine",
            "option name Rules type string default standard",
            "option name Hash type spin default 16 min 1 max 4096",
            "option name Threads type spin default 1 min 1 max 64",
            "option name Seed type spin default 0 min 0 max 9223372036854775807",
            "option name MoveOverhead type spin default 100 min 0 max 10000",
            "ugiok",
        ]
    );
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("quit");
    e.finish();
}

#[test]
fn every_option_is_taken_and_bad_values_are_named() {
    let mut e = Engine::start();
    for (name, value) in [
        ("Bot", "engine:d3"),
        ("Rules", "standard+queen-placer=captor"),
        ("Hash", "1"),
        ("Threads", "2"),
        ("Seed", "18446744073709551615"),
        ("MoveOverhead", "0"),
        ("move overhead", "10"),
    ] {
        // Names are read without case or spaces mattering? Only case: "move overhead" is
        // not an option.
        e.send(&format!("setoption name {name} value {value}"));
        let errors = e.sync();
        if name == "move overhead" {
            assert_eq!(
                errors,
                ["info string error: unknown option \"move overhead\": expected Bot, Rules, Hash, Threads, Seed or MoveOverhead"]
            );
        } else {
            assert_eq!(errors, Vec::<String>::new(), "{name}");
        }
    }
    for (line, error) in [
        ("setoption name Hash value 0", "bad value \"0\" for Hash: expected 1 to 4096"),
        ("setoption name Threads value 65", "bad value \"65\" for Threads: expected 1 to 64"),
        ("setoption name Seed value -1", "bad value \"-1\" for Seed: expected 0 to 18446744073709551615"),
        ("setoption name MoveOverhead value 10001", "bad value \"10001\" for MoveOverhead: expected 0 to 10000"),
        ("setoption name Bot value minimax", "unknown bot \"minimax\": expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME"),
        ("setoption name Rules value chess", "bad rules \"chess\": at byte 0: unknown rules preset (expected standard or ludii)"),
    ] {
        e.send(line);
        assert_eq!(e.sync(), [format!("info string error: {error}")], "{line}");
    }
    // The engine still plays under the options taken (captor rules, 2 threads).
    e.send("position startpos");
    let (best, info) = e.go("");
    let game = Game::with_rules("standard+queen-placer=captor".parse::<Rules>().unwrap());
    assert!(
        game.is_legal(game.position().parse_move(&best).unwrap()),
        "{best}"
    );
    assert!(
        info.iter().any(|l| l.starts_with("info depth 3 ")),
        "{info:?}"
    );
    e.finish();
}

#[test]
fn every_bot_kind_answers_go() {
    let mut e = Engine::start();
    for bot in [
        "random",
        "greedy",
        "mcts:20",
        "alphabeta:1",
        "alphabeta:2:50ms",
        "engine:n500",
    ] {
        e.send(&format!("setoption name Bot value {bot}"));
        e.send("position startpos moves f1-e1");
        let (best, _) = e.go("movetime 200");
        let mut game = Game::new();
        game.play("f1-e1".parse().unwrap()).unwrap();
        assert!(
            game.is_legal(game.position().parse_move(&best).unwrap()),
            "{bot}: {best}"
        );
    }
    e.finish();
}

#[test]
fn the_seed_decides_a_random_bots_moves() {
    let moves = |seed: u64| {
        let mut e = Engine::start();
        e.send("setoption name Bot value random");
        e.send(&format!("setoption name Seed value {seed}"));
        let game = play_out(&mut e, Game::new(), "", 6);
        game.moves().to_vec()
    };
    assert_eq!(moves(7), moves(7));
    assert_ne!(moves(7), moves(8));
}

#[test]
fn go_depth_and_nodes_give_info_lines_and_the_same_move_as_in_process() {
    let mut e = Engine::start();
    e.send("position startpos moves f1-e1 d1-e2");
    let (best, info) = e.go("depth 3");
    let depths: Vec<&str> = info
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(depths, ["1", "2", "3", "3"], "{info:?}");
    let last = info.last().unwrap();
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(last.contains(field), "{field} in {last}");
    }
    let mut game = Game::new();
    for m in ["f1-e1", "d1-e2"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let analysis = agon_bots::analyse(&game, agon_bots::Limits::depth(3), 1).unwrap();
    assert_eq!(best, analysis.best_move().to_string());
    assert!(
        last.contains(&format!(" nodes {} ", analysis.nodes)),
        "{last}"
    );

    e.send("uginewgame");
    e.send("position startpos");
    let (_, info) = e.go("nodes 1000");
    let nodes: u64 = info
        .last()
        .unwrap()
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(nodes, 1000);
    e.finish();
}

#[test]
fn a_won_position_is_scored_as_mate_in_plies() {
    let mut e = Engine::start();
    e.send("position fen Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    let (best, info) = e.go("depth 2");
    assert_eq!(best, "h5-g6");
    assert!(info.last().unwrap().contains(" score mate 1 "), "{info:?}");
    e.finish();
}

#[test]
fn isready_and_stop_answer_during_go_infinite() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("isready");
    // Info lines may come first; no bestmove before stop.
    let lines = e.until("readyok");
    assert!(asked.elapsed() < Duration::from_secs(2));
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info ") || l == "readyok"),
        "{lines:?}"
    );
    assert_eq!(e.query("p1turn"), "true");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove ");
    assert!(asked.elapsed() < Duration::from_secs(2));
    let best = &lines.last().unwrap()["bestmove ".len()..];
    assert!(Game::new().is_legal(best.parse().unwrap()), "{best}");
    // A second stop, with no search, says nothing; the engine goes on.
    e.send("stop");
    assert_eq!(e.sync(), Vec::<String>::new());
    // A go during a search is refused; a stop ends the search.
    e.send("go infinite");
    e.send("go depth 1");
    e.send("stop");
    let lines = e.until("bestmove ");
    assert!(
        lines.contains(&"info string error: a search is running: send stop before go".to_string()),
        "{lines:?}"
    );
    // The end of input during a search ends the process.
    e.send("go infinite");
    e.finish();
}

#[test]
fn a_whole_standard_game_with_queries_at_every_ply() {
    let mut e = Engine::start();
    e.send("setoption name Bot value engine");
    e.send("uginewgame");
    let game = play_out(&mut e, Game::new(), "depth 2", 600);
    assert!(game.is_over(), "{} plies", game.moves().len());
    e.send("quit");
    e.finish();
}

#[test]
fn a_whole_ludii_game_with_a_pass() {
    let mut e = Engine::start();
    e.send("setoption name Rules value ludii");
    let start = Position::from_text_with_rules(WHITE_STUCK, Rules::LUDII).unwrap();
    e.send(&format!("position fen {WHITE_STUCK}"));
    let (best, _) = e.go("depth 2");
    assert_eq!(best, "pass");
    // The engine against a random mover ends the game well before the move limit.
    e.send("setoption name Hash value 1");
    let bots = Some(["random", "engine:d2"]);
    let game = play_out_with(&mut e, Game::from_position(start), "", 600, bots);
    assert_eq!(game.moves()[0].to_string(), "pass");
    assert!(game.is_over(), "{} plies", game.moves().len());
    // A pass where another action exists is illegal under ludii: the passer loses.
    e.send("position startpos moves pass");
    let errors = e.sync();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("info string error: illegal move \"pass\""),
        "{errors:?}"
    );
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p2win");
    e.finish();
}

#[test]
fn the_captor_places_the_queen_under_queen_placer_captor() {
    let mut e = Engine::start();
    let rules: Rules = "standard+queen-placer=captor".parse().unwrap();
    e.send(&format!("setoption name Rules value {rules}"));
    e.send(&format!("position fen {QUEEN_CAPTURED}"));
    let start = Position::from_text_with_rules(QUEEN_CAPTURED, rules).unwrap();
    assert_eq!((start.turn(), start.chooser()), (Side::White, Side::Black));
    // White is to move, but Black places White's queen.
    assert_eq!(e.query("p1turn"), "false");
    let (best, _) = e.go("depth 2");
    assert!(best.starts_with("f1>"), "{best}");
    let game = play_out(&mut e, Game::from_position(start), "depth 2", 8);
    assert!(game.moves()[0].is_return());
    e.finish();
}

#[test]
fn hostile_lines_are_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    let long = "x".repeat(1 << 20);
    let long_position = format!("position startpos moves {}", "f1-e1 ".repeat(200_000));
    let cases: [(&str, &[&str]); 14] = [
        ("", &[]),
        ("   \t ", &[]),
        (&long, &["info string error: unknown command \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"..."]),
        ("frobnicate now", &["info string error: unknown command \"frobnicate\""]),
        ("go depth -3", &["info string error: bad number \"-3\" after depth"]),
        ("go nodes many", &["info string error: bad number \"many\" after nodes"]),
        ("go p1time 99999999999999999999999", &["info string error: bad number \"99999999999999999999999\" after p1time"]),
        ("go sideways 3", &["info string error: unknown go parameter \"sideways\": expected p1time, p2time, p1inc, p2inc, movetime, depth, nodes or infinite"]),
        ("setoption name Hash value lots", &["info string error: bad value \"lots\" for Hash: expected 1 to 4096"]),
        ("query everything", &["info string error: unknown query \"everything\": expected gameover, p1turn or result"]),
        ("position fen Qf1/qf11 w", &["info string error: bad position \"Qf1/qf11 w\" under standard: "]),
        ("position startpos moves f1-e1 z9-z10", &["info string error: unreadable move \"z9-z10\" (ply 2): "]),
        (&long_position, &["info string error: illegal move \"f1-e1\" (ply 2): "]),
        ("\u{fffd}\u{0}\u{7f}", &["info string error: unknown command \""]),
    ];
    for (line, expected) in cases {
        e.send(line);
        let got = e.sync();
        assert_eq!(got.len(), expected.len(), "{:.60}: {got:?}", line);
        for (g, x) in got.iter().zip(expected) {
            assert!(g.starts_with(x), "{:.60}: {g:.200}", line);
        }
    }
    e.finish();
}

#[test]
fn an_illegal_move_keeps_the_position_before_it_and_loses() {
    let mut e = Engine::start();
    // Black's d1-e2 is fine; White's e1-e1 is not a step: White loses.
    e.send("position startpos moves f1-e1 d1-e2 e1-e1 f1-e2");
    let errors = e.sync();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("info string error: illegal move \"e1-e1\""),
        "{errors:?}"
    );
    assert!(
        errors[0].ends_with("(ply 3): the cells are not adjacent; player 1 (White) loses, the position is the one before it"),
        "{errors:?}"
    );
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p2win");
    assert_eq!(e.query("p1turn"), "true");
    let (best, lines) = e.go("depth 1");
    assert_eq!(best, "(none)");
    assert_eq!(
        lines,
        ["info string error: the game is over: player 1 (White) played an illegal move"]
    );
    // Black's unreadable move: Black loses.
    e.send("position startpos moves f1-e1 nonsense");
    assert_eq!(e.sync().len(), 1);
    assert_eq!(e.query("result"), "p1win");
    // A new position clears the fault.
    e.send("position startpos moves f1-e1");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("result"), "none");
    assert_eq!(e.query("p1turn"), "false");
    e.finish();
}

#[test]
fn a_clock_game_never_runs_out_of_time() {
    let mut e = Engine::start();
    e.send("setoption name MoveOverhead value 50");
    let mut game = Game::new();
    let mut clocks = [Duration::from_millis(1000); 2];
    let inc = Duration::from_millis(10);
    for _ in 0..16 {
        if game.is_over() {
            break;
        }
        e.send(&position_of(&game));
        let side = game.position().chooser().index();
        let asked = Instant::now();
        let (best, _) = e.go(&format!(
            "p1time {} p2time {} p1inc {} p2inc {}",
            clocks[0].as_millis(),
            clocks[1].as_millis(),
            inc.as_millis(),
            inc.as_millis()
        ));
        let used = asked.elapsed();
        assert!(used < clocks[side], "{used:?} of {:?}", clocks[side]);
        clocks[side] = clocks[side] - used + inc;
        game.play(game.position().parse_move(&best).unwrap())
            .unwrap();
    }
    e.finish();
}

#[test]
fn movetime_is_kept_within_the_overhead() {
    let mut e = Engine::start();
    e.send("setoption name MoveOverhead value 150");
    e.send("position startpos");
    let asked = Instant::now();
    let (_, info) = e.go("movetime 300");
    let used = asked.elapsed();
    // The search stops at 300 - 150 ms.
    let time: u64 = info
        .last()
        .unwrap()
        .split_whitespace()
        .skip_while(|w| *w != "time")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(time <= 250, "{time} ms searched");
    assert!(used < Duration::from_millis(3000), "{used:?}");
    e.finish();
}

#[test]
fn uginewgame_and_rules_reset_the_game() {
    let mut e = Engine::start();
    e.send("position startpos moves f1-e1");
    e.send("uginewgame");
    assert_eq!(e.query("p1turn"), "true");
    e.send("position startpos moves f1-e1");
    e.send("setoption name Rules value ludii");
    assert_eq!(e.query("p1turn"), "true");
    // A bare go uses the bot's own limits (the engine: 100 ms).
    let (best, _) = e.go("");
    assert!(Game::with_rules(Rules::LUDII).is_legal(best.parse().unwrap()));
    // A game that is over gets no move.
    e.send(&format!("position fen {WHITE_STUCK} moves pass"));
    e.send("setoption name Rules value standard");
    e.send(&format!("position fen {WHITE_STUCK}"));
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p2win");
    let (best, lines) = e.go("depth 1");
    assert_eq!(best, "(none)");
    assert_eq!(lines.len(), 1);
    e.send("quit");
    e.finish();
}

#[test]
fn a_position_that_extends_the_game_held_plays_only_its_new_moves_and_any_other_is_replayed() {
    use agon_bots::{Bot, RandomBot};
    let mut e = Engine::start();
    // A random game to its end, and its first `n` moves.
    let mut whole = Game::new();
    let mut bot = RandomBot::new(5);
    while !whole.is_over() {
        whole.play(bot.choose_in_game(&whole).unwrap()).unwrap();
    }
    let first = |n: usize| {
        let mut game = Game::new();
        for &m in &whole.moves()[..n] {
            game.play(m).unwrap();
        }
        game
    };
    let len = whole.moves().len();
    assert!(len > 4);
    // Growing (the extension), jumping to the end, taken back, grown again.
    for n in [0, 1, 2, 3, len, len - 1, len - 3, len] {
        let game = first(n);
        e.send(&position_of(&game));
        check_queries(&mut e, &game);
    }
    // The same length with another last move: replayed, not extended.
    let mut other = first(len - 1);
    let last = whole.moves()[len - 1];
    let m = *other.legal_moves().iter().find(|&&m| m != last).unwrap();
    other.play(m).unwrap();
    e.send(&position_of(&other));
    check_queries(&mut e, &other);
    // An illegal move loses; the next position, extending the moves before it, is the
    // game it gives (the loss forgotten).
    let game = first(3);
    e.send(&format!("{} f1-f3", position_of(&game)));
    assert!(e
        .next()
        .starts_with("info string error: illegal move \"f1-f3\" (ply 4)"));
    assert_eq!(e.query("gameover"), "true");
    let winner = match game.position().chooser() {
        Side::White => "p2win",
        Side::Black => "p1win",
    };
    assert_eq!(e.query("result"), winner);
    let game = first(4);
    e.send(&position_of(&game));
    check_queries(&mut e, &game);
    e.finish();
}
