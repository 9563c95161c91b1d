//! Replays the conformance data of `conformance/` (see its README for the schema) against
//! agon-core: the perft figures, and every ply of the recorded games (position text, legal
//! moves, the move, its captures) with each game's result.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use agon_core::{perft, CellSet, EndReason, Game, Move, Outcome, Position, Side};
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../conformance")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let value: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    assert_eq!(value["schema"], 1, "{name}: unknown schema");
    value
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

fn position(text: &str) -> Position {
    let pos = Position::from_text(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(pos.to_text().to_string(), text, "not the canonical text");
    pos
}

/// Deep perft is slow without optimizations: debug builds check trees of at most this
/// many leaves, release builds (`cargo test --release`) all of them.
const DEBUG_LEAVES: u64 = 1_000_000;

#[test]
fn perft_figures() {
    let data = load("perft.json");
    let entries = data["positions"].as_array().expect("a positions array");
    assert!(entries.len() >= 5, "too few perft positions");
    let names: Vec<&str> = entries.iter().map(|e| str_of(e, "name")).collect();
    assert!(names.contains(&"start"), "the start position is missing");
    for entry in entries {
        let name = str_of(entry, "name");
        let pos = position(str_of(entry, "position"));
        let counts = entry["perft"].as_array().expect("a perft array");
        for (depth, expected) in (1..).zip(counts) {
            let expected = expected.as_u64().expect("a count");
            if cfg!(debug_assertions) && expected > DEBUG_LEAVES {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "perft({name}, {depth})");
        }
    }
}

#[test]
fn start_perft_matches_the_published_figures() {
    let data = load("perft.json");
    let start = data["positions"]
        .as_array()
        .and_then(|a| a.iter().find(|e| e["name"] == "start"))
        .expect("the start entry");
    assert_eq!(
        str_of(start, "position"),
        Position::start().to_text().to_string()
    );
    let counts: Vec<u64> = start["perft"]
        .as_array()
        .expect("counts")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(counts, [27, 713, 18417, 466557, 11662533]);
}

fn cells(text: &str) -> CellSet {
    text.split_whitespace()
        .map(|c| c.parse().unwrap_or_else(|e| panic!("cell {c:?}: {e}")))
        .collect()
}

fn move_set(moves: impl IntoIterator<Item = Move>) -> BTreeSet<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

/// Checks that `game`, replayed, stands at game `g`'s final position and is over (`id`
/// says which game): its outcome, and the result `g` gives.
fn final_outcome<'a>(game: &Game, g: &'a Value, id: &Value) -> (Outcome, &'a Value) {
    assert_eq!(
        game.position().to_text().to_string(),
        str_of(g, "final"),
        "game {id}: final position"
    );
    let outcome = game
        .outcome()
        .unwrap_or_else(|| panic!("game {id} is not over"));
    (outcome, &g["result"])
}

/// The legal moves a ply of a game lists, checked against `game`'s (`at` says where).
fn listed_legal(game: &Game, ply: &Value, at: &str) -> BTreeSet<String> {
    let listed: BTreeSet<String> = str_of(ply, "legal")
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(
        move_set(game.legal_moves().iter().copied()),
        listed,
        "{at}: legal moves in {}",
        game.position().to_text()
    );
    listed
}

/// The categories of README's coverage table that `m`, played in `pos` and capturing
/// `captured`, falls in.
fn categories_of(pos: &Position, m: Move, captured: CellSet, found: &mut BTreeSet<String>) {
    let mut add = |c: &str| found.insert(c.to_string());
    if m.is_return() {
        let (from, to) = m.cells().expect("a return has cells");
        if pos.queens().contains(from) {
            add("queen returned");
            if to == agon_core::Cell::THRONE {
                add("queen returned onto the throne");
            }
        } else {
            add("guard returned");
            let pieces: CellSet = pos.legal_moves().iter().filter_map(|m| m.from()).collect();
            if pieces.len() > 1 {
                add("choice among captured guards");
            }
        }
    }
    match captured.len() {
        0 => {}
        1 => {
            add("single capture");
        }
        _ => {
            add("multiple capture");
        }
    }
    if captured.intersects(pos.queens()) {
        add("queen captured");
    }
}

/// Replays one game, returning its end reason, and checks its list of categories.
fn replay(g: &Value) -> EndReason {
    let id = &g["id"];
    let mut found = BTreeSet::new();
    let mut game = Game::from_position(position(str_of(g, "start")));
    let plies = g["plies"].as_array().expect("a plies array");
    for (n, ply) in plies.iter().enumerate() {
        let at = format!("game {id}, ply {n}");
        assert_eq!(game.outcome(), None, "{at}: the game is already over");
        let text = str_of(ply, "position");
        assert_eq!(
            game.position().to_text().to_string(),
            text,
            "{at}: position"
        );
        let listed = listed_legal(&game, ply, &at);
        let m: Move = str_of(ply, "move").parse().expect("a move text");
        assert!(listed.contains(&m.to_string()), "{at}: {m} is not listed");
        let before = *game.position();
        let captured = game
            .play(m)
            .unwrap_or_else(|e| panic!("{at}: {m} rejected: {e}"));
        assert_eq!(
            captured,
            cells(str_of(ply, "captures")),
            "{at}: captures of {m}"
        );
        categories_of(&before, m, captured, &mut found);
    }
    let (outcome, result) = final_outcome(&game, g, id);
    let winner = outcome.winner.map(|s| match s {
        Side::White => "white",
        Side::Black => "black",
    });
    assert_eq!(result["winner"].as_str(), winner, "game {id}: winner");
    assert_eq!(
        str_of(result, "reason"),
        outcome.reason.name(),
        "game {id}: reason"
    );
    assert_eq!(str_of(result, "score"), outcome.score(), "game {id}: score");
    found.insert(format!("end:{}", outcome.reason.name()));
    let recorded: BTreeSet<String> = g["categories"]
        .as_array()
        .expect("categories")
        .iter()
        .map(|c| c.as_str().expect("a name").to_string())
        .collect();
    assert_eq!(recorded, found, "game {id}: categories");
    outcome.reason
}

#[test]
fn games_replay_and_cover_every_end_and_capture_kind() {
    let data = load("games.json");
    let games = data["games"].as_array().expect("a games array");
    assert!(games.len() >= 200, "only {} games", games.len());
    let mut reasons: BTreeMap<EndReason, usize> = BTreeMap::new();
    let mut categories: BTreeMap<String, usize> = BTreeMap::new();
    for g in games {
        *reasons.entry(replay(g)).or_default() += 1;
        for c in g["categories"].as_array().expect("categories") {
            *categories
                .entry(c.as_str().expect("a name").to_string())
                .or_default() += 1;
        }
    }
    // Every end the standard rules have (the others belong to other rule sets).
    let standard = [
        EndReason::Throne,
        EndReason::RingWithoutQueen,
        EndReason::NoLegalAction,
        EndReason::Repetition,
    ];
    for reason in standard {
        assert!(reasons.contains_key(&reason), "no game ends by {reason}");
    }
    for category in [
        "single capture",
        "multiple capture",
        "queen captured",
        "queen returned",
        "queen returned onto the throne",
        "guard returned",
        "choice among captured guards",
    ] {
        assert!(
            categories.contains_key(category),
            "no game has a {category}"
        );
    }
}

/// `perft-rules.json`: the same schema as `perft.json` with a `rules` field.
#[test]
fn perft_figures_under_other_rule_sets() {
    let data = load("perft-rules.json");
    let entries = data["positions"].as_array().expect("a positions array");
    let mut rule_sets = BTreeSet::new();
    for entry in entries {
        let rules: agon_core::Rules = str_of(entry, "rules").parse().expect("a rule set");
        rule_sets.insert(rules.to_string());
        let text = str_of(entry, "position");
        let pos = Position::from_text_with_rules(text, rules).expect("a position");
        assert_eq!(pos.to_text().to_string(), text);
        for (depth, expected) in (1..).zip(entry["perft"].as_array().expect("counts")) {
            let expected = expected.as_u64().expect("a count");
            if cfg!(debug_assertions) && expected > DEBUG_LEAVES {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                expected,
                "perft({}, {depth}) under {rules}",
                str_of(entry, "name")
            );
        }
    }
    assert_eq!(rule_sets.len(), 11, "{rule_sets:?}");
}

/// What each rule set's games must show, recomputed by the replay (not read from the
/// file): the events the option is about.
const RULES_TARGETS: [(&str, &[&str]); 11] = [
    ("standard+capture=same-ring", &["single capture"]),
    ("standard+between=allowed", &["step between enemies"]),
    ("standard+between=trapped", &["trap", "both sides captured"]),
    (
        "standard+guard-return=next-ring",
        &["guard returned inside the outer ring"],
    ),
    ("standard+queen-return=not-throne", &["queen returned"]),
    (
        "standard+queen-placer=captor",
        &["queen placed by the captor"],
    ),
    (
        "standard+empty-throne-ring=draw",
        &["draw:ring-without-queen"],
    ),
    ("standard+stuck=pass", &["pass"]),
    ("standard+repetition=off", &["third occurrence played on"]),
    ("standard+limit=60", &["end:move-limit"]),
    ("ludii", &["pass"]),
];

/// `games-rules.json`: each game replayed under its `rules`, with its `trapped` and
/// `chooser` fields; each rule set's games reach what its option changes.
#[test]
fn games_under_other_rule_sets_replay() {
    let data = load("games-rules.json");
    let games = data["games"].as_array().expect("a games array");
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for g in games {
        let id = &g["id"];
        let rules: agon_core::Rules = str_of(g, "rules").parse().expect("a rule set");
        let found = seen.entry(rules.to_string()).or_default();
        let start = Position::from_text_with_rules(str_of(g, "start"), rules).expect("a start");
        let mut game = Game::from_position(start);
        for (n, ply) in g["plies"].as_array().expect("plies").iter().enumerate() {
            let at = format!("game {id} ({rules}), ply {n}");
            assert_eq!(game.outcome(), None, "{at}: over");
            let pos = *game.position();
            assert_eq!(pos.to_text().to_string(), str_of(ply, "position"), "{at}");
            listed_legal(&game, ply, &at);
            let m: Move = str_of(ply, "move").parse().expect("a move");
            assert_eq!(
                ply["trapped"].as_bool().unwrap_or(false),
                pos.traps(m),
                "{at}: trapped"
            );
            let chooser = (pos.chooser() != pos.turn()).then(|| match pos.chooser() {
                Side::White => "white",
                Side::Black => "black",
            });
            assert_eq!(ply["chooser"].as_str(), chooser, "{at}: chooser");
            let mut add = |c: &str| found.insert(c.to_string());
            if m.is_pass() {
                add("pass");
            }
            if pos.traps(m) {
                add("trap");
            }
            if chooser.is_some() {
                add("queen placed by the captor");
            }
            if let Move::Step { to, .. } = m {
                if pos.forbidden_cells(pos.turn()).contains(to) {
                    add("step between enemies");
                }
            }
            if let Move::Return { from, to } = m {
                if pos.queens().contains(from) {
                    add("queen returned");
                } else if to.ring().distance() < 5 {
                    add("guard returned inside the outer ring");
                }
            }
            let captured = game.play(m).unwrap_or_else(|e| panic!("{at}: {m}: {e}"));
            let enemies = captured & pos.pieces_of(pos.turn().other());
            assert_eq!(enemies, cells(str_of(ply, "captures")), "{at}: captures");
            if enemies.len() == 1 {
                add("single capture");
            }
            let c = game.position().captured();
            if c.intersects(game.position().pieces_of(Side::White))
                && c.intersects(game.position().pieces_of(Side::Black))
            {
                add("both sides captured");
            }
            if !game.is_over() && game.repetitions() >= 3 {
                add("third occurrence played on");
            }
        }
        let (outcome, result) = final_outcome(&game, g, id);
        assert_eq!(str_of(result, "reason"), outcome.reason.name(), "game {id}");
        assert_eq!(str_of(result, "score"), outcome.score(), "game {id}");
        found.insert(format!("end:{}", outcome.reason.name()));
        if outcome.winner.is_none() {
            found.insert(format!("draw:{}", outcome.reason.name()));
        }
    }
    for (rules, targets) in RULES_TARGETS {
        let found = seen
            .get(rules)
            .unwrap_or_else(|| panic!("no games under {rules}"));
        for t in targets {
            assert!(
                found.contains(*t),
                "no game under {rules} has {t}: {found:?}"
            );
        }
    }
    assert_eq!(seen.len(), RULES_TARGETS.len());
}
