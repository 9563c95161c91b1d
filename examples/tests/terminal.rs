//! The terminal game driven by scripted input, as a person would type it.

use agon_core::{EndReason, Outcome, Record, Side};
use agon_examples::terminal::{parse_args, run, End, Options};

/// Runs the game on `input` and returns how it ended and everything it printed.
fn session(options: &Options, input: &str) -> (End, String) {
    let mut output = Vec::new();
    let end = run(input.as_bytes(), &mut output, options).expect("writing to a Vec never fails");
    (
        end,
        String::from_utf8(output).expect("the game prints UTF-8"),
    )
}

fn options(args: &[&str]) -> Options {
    parse_args(args.iter().map(|s| s.to_string())).expect("valid arguments")
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("agon-examples-{}-{name}", std::process::id()));
        TempFile(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Asserts that `fragments` occur in `text` in this order.
fn assert_in_order(text: &str, fragments: &[&str]) {
    let mut rest = text;
    for fragment in fragments {
        match rest.find(fragment) {
            Some(i) => rest = &rest[i + fragment.len()..],
            None => panic!("{fragment:?} not found in order in:\n{text}"),
        }
    }
}

#[test]
fn bad_input_is_refused_with_the_reason_and_asked_again() {
    let (end, text) = session(
        &options(&["--side", "white", "--bot", "random", "--seed", "1"]),
        "f1-f3\nzz\nf1\nf11-f10\n\nsave\nfly away\n",
    );
    assert_eq!(end, End::Quit);
    assert_in_order(
        &text,
        &[
            "Agon (Queen's Guard, 1842)\n",
            "You play White against the computer (random).\n",
            "Type a move as a step (f1-e1), a return (f4>l1) or a pair (f1e1).\n",
            "                             f11q\n",
            "White to move\n",
            "Your move (White): Illegal move f1-f3: the cells are not adjacent.\n",
            "Your move (White): Cannot read \"zz\" as a move: at byte 0: expected a file letter a-l (no j). Type ? for the legal moves, help for the commands.\n",
            "Your move (White): Cannot read \"f1\" as a move: at byte 2: expected '-' (a step), '>' (a return) or a cell (a pair). Type ? for the legal moves, help for the commands.\n",
            "Your move (White): Illegal move f11-f10: not your piece.\n",
            "Your move (White): Your move (White): Usage: save FILE.\n",
            "Your move (White): Cannot read \"fly away\" as a move: at byte 1: expected a rank 1-11. ",
            "Your move (White): \nBye.\n",
        ],
    );
    // Nothing was played: the computer never moved.
    assert!(!text.contains("Computer (random) plays"));
}

#[test]
fn question_mark_lists_the_legal_moves() {
    let (_, text) = session(&options(&["--side", "white", "--bot", "random"]), "?\n");
    assert_in_order(
        &text,
        &[
            "Your move (White): Legal moves (27): a5-a4 a5-a6 a5-b5 a5-b6 b1-a1 b1-b2 b1-c1 b1-c2 d9-c8 d9-d8\n",
            " f1-e1 f1-f2 f1-g1 ",
        ],
    );
}

#[test]
fn moves_undo_save_load_and_resign() {
    let file = TempFile::new("game.txt");
    let script = format!(
        "f1-e1\nsave {0}\nundo\nundo\nf1g1\nload {0}\n?\nresign\n",
        file.path()
    );
    let (end, text) = session(
        &options(&["--side", "white", "--bot", "random", "--seed", "1"]),
        &script,
    );
    assert_eq!(
        end,
        End::Resigned {
            winner: Side::Black
        }
    );
    // The computer's reply is fixed by its seed and the game: the same bot gives it.
    let reply = "b7-c8";
    let mut game = agon_core::Game::new();
    game.play("f1-e1".parse().unwrap()).unwrap();
    let mut bot = agon_bots::bot_by_name("random", 1).unwrap();
    assert_eq!(bot.choose_in_game(&game).unwrap().to_string(), reply);
    let saved = std::fs::read_to_string(file.path()).expect("the game was saved");
    assert_eq!(
        saved,
        format!("[White \"human\"]\n[Black \"random\"]\n[Result \"*\"]\n\n1. f1-e1 {reply} *\n")
    );
    let record: Record = saved.parse().expect("a valid record");
    assert_eq!(record.game().moves().len(), 2);
    assert_in_order(
        &text,
        &[
            "Your move (White): You play f1-e1.\n",
            &format!("Computer (random) plays {reply}.\n"),
            "White to move\n",
            &format!("Saved the game to {}.\n", file.path()),
            &format!("Your move (White): Took back f1-e1 {reply}.\n"),
            "White to move\n",
            "Your move (White): Nothing to undo.\n",
            "Your move (White): You play f1-g1.\n",
            &format!("Loaded {}: 2 plies played.\n", file.path()),
            "Your move (White): Legal moves (",
            "Your move (White): You resign. Black wins.\n",
        ],
    );
}

#[test]
fn loading_a_bad_file_is_refused() {
    let file = TempFile::new("bad.txt");
    std::fs::write(file.path(), "1. f1-f3 *\n").unwrap();
    let missing = TempFile::new("missing.txt");
    let script = format!("load {}\nload {}\n", file.path(), missing.path());
    let (end, text) = session(&options(&["--side", "white", "--bot", "random"]), &script);
    assert_eq!(end, End::Quit);
    assert_in_order(
        &text,
        &[
            &format!(
                "Cannot load {}: at byte 3: move 1 of White is illegal: the cells are not adjacent.\n",
                file.path()
            ),
            &format!("Cannot load {}: ", missing.path()),
        ],
    );
}

#[test]
fn prompts_ask_again_until_answered() {
    let (end, text) = session(
        &Options::default(),
        "red\nb\nminimax\nmcts:zero\nrandom\nf11-g10\n",
    );
    assert_eq!(end, End::Quit);
    assert_in_order(
        &text,
        &[
            "Play White or Black? [w/b, default w]: Please answer w or b.\n",
            "Play White or Black? [w/b, default w]: Computer strength: ",
            "[default alphabeta:5]: unknown bot \"minimax\": expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME.\n",
            "bad number \"zero\" in bot \"mcts:zero\": expected playouts from 1 to 4294967295.\n",
            "You play Black against the computer (random).\n",
            // The computer has White and moves first.
            "Computer (random) plays ",
            "Your move (Black): ",
        ],
    );
}

#[test]
fn end_of_input_at_a_prompt_ends_cleanly() {
    let (end, text) = session(&Options::default(), "");
    assert_eq!(end, End::Quit);
    assert_eq!(
        text,
        "Agon (Queen's Guard, 1842)\nPlay White or Black? [w/b, default w]: \n"
    );
}

#[test]
fn auto_plays_a_whole_game() {
    let (end, text) = session(
        &options(&[
            "--auto",
            "--bot",
            "greedy",
            "--opponent",
            "random",
            "--seed",
            "3",
        ]),
        "these lines are never read\n",
    );
    let End::Over(outcome) = end else {
        panic!("the game did not end by the rules: {end:?}");
    };
    assert_eq!(outcome, Outcome::win(Side::White, EndReason::Throne));
    assert_in_order(
        &text,
        &[
            "White: greedy. Black: random.\n",
            "1. White (greedy) plays ",
            "2. Black (random) plays ",
            "Game over after ",
            " plies: White wins (throne).\n",
            "[Result \"1-0\"]\n",
            " 1-0\n",
        ],
    );
    // The record printed at the end replays to the same result.
    let record_text = &text[text.find("[Result").unwrap()..];
    let record: Record = record_text.parse().expect("the printed record parses");
    assert_eq!(record.game().outcome(), Some(outcome));
}

#[test]
fn arguments_are_checked() {
    let err = |args: &[&str]| parse_args(args.iter().map(|s| s.to_string())).unwrap_err();
    assert_eq!(err(&["--side"]), "--side needs a value");
    assert_eq!(err(&["--opponent", "random"]), "--opponent needs --auto");
    assert_eq!(err(&["--seed", "x"]), "bad seed \"x\"");
    assert_eq!(err(&["--fast"]), "unknown argument \"--fast\"");
    let options = options(&["--auto"]);
    assert!(options.auto);
    assert_eq!(options.bot, None);
}

#[test]
fn undo_as_black_keeps_the_computers_first_move() {
    let (end, text) = session(
        &options(&["--side", "black", "--bot", "random", "--seed", "2"]),
        "f11-g10\nundo\nundo\nquit\n",
    );
    assert_eq!(end, End::Quit);
    assert_in_order(
        &text,
        &[
            "You play Black against the computer (random).\n",
            "Computer (random) plays d9-e9.\n",
            "Your move (Black): You play f11-g10.\n",
            "Computer (random) plays b1-b2.\n",
            "Your move (Black): Took back f11-g10 b1-b2.\n",
            "Black to move\n",
            "Your move (Black): Nothing to undo.\n",
            "Your move (Black): Bye.\n",
        ],
    );
}

#[test]
fn captures_and_returns_are_reported() {
    // A loaded position where White's f2-f3 captures the black guard on f4 (between f3
    // and the white guard on f5); Black must then return it to the outer ring.
    let file = TempFile::new("capture.txt");
    let start = "Qa1,Ga3,Gb1,Gc1,Gd1,Gf2,Gf5/ql6,gf4,gh1,gi1,gk1,gl1,gl2 w";
    std::fs::write(
        file.path(),
        format!("[Position \"{start}\"]\n[Result \"*\"]\n\n*\n"),
    )
    .unwrap();
    let script = format!("load {}\nf2-f3\n", file.path());
    let (_, text) = session(
        &options(&["--side", "white", "--bot", "greedy", "--seed", "1"]),
        &script,
    );
    assert_in_order(
        &text,
        &[
            &format!("Loaded {}: 0 plies played.\n", file.path()),
            "Your move (White): You play f2-f3, capturing f4.\n",
            "f4g*",
            "Computer (greedy) plays f4>i8.\n",
        ],
    );
}

#[test]
fn the_game_explains_itself_and_takes_moves_in_capitals() {
    let (end, text) = session(
        &options(&["--side", "white", "--bot", "random"]),
        "F1-E1\nhelp\nquit\n",
    );
    assert_eq!(end, End::Quit);
    // The key under the first board, and the throne marked on every board without moving
    // the columns: the cells after it keep their places.
    assert!(text.contains("Key: Q G = White's queen and guards, q g = Black's,"));
    assert!(text.contains("* = captured (to be returned), # = the throne."));
    let throne_lines: Vec<&str> = text.lines().filter(|l| l.contains(" d5 ")).collect();
    assert!(throne_lines.len() >= 3, "{throne_lines:?}");
    for line in throne_lines {
        assert_eq!(line, "         b4        d5        f6#       h5        k4");
    }
    // Capitals are read as the notation's lower case.
    assert!(text.contains("You play f1-e1."), "{text}");
    // Help says how to win and where the rules are, once at the start and once asked.
    assert_eq!(
        text.matches("To win, bring your queen to the throne (f6)")
            .count(),
        2
    );
    assert_eq!(text.matches("docs/RULES.md").count(), 2);
}

#[test]
fn a_queen_on_the_throne_keeps_her_letter_before_the_mark() {
    // White's queen steps from ring 1 onto the throne.
    let start = "Qf7,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
    let record = format!("[Position \"{start}\"]\n\n1. f7-f6 *\n");
    let file = TempFile::new("throne.txt");
    std::fs::write(file.path(), record).unwrap();
    let (_, text) = session(
        &options(&["--side", "white", "--bot", "random"]),
        &format!("load {}\nquit\n", file.path()),
    );
    assert!(
        text.contains("         b4        d5        f6Q#      h5        k4"),
        "{text}"
    );
}
