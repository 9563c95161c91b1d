//! The rule-set data of `conformance/`: `perft-rules.json` and `games-rules.json`, the
//! schemas of `perft.json` and `games.json` with a `rules` field (the rule set's text
//! form), for the ludii preset and each rule set that differs from the standard one by
//! one option. Every position is cross-checked with the reference generator under the
//! same rules (legal moves, outcome, chooser, traps), every move's result and every
//! game's end too.

use std::collections::BTreeSet;

use agon_core::random::Rng;
use agon_core::{
    perft, Between, Capture, Cell, CellSet, EmptyThroneRing, Game, GuardReturn, Move, Position,
    QueenPlacer, QueenReturn, Repetition, Rules, Side, Stuck,
};
use agon_reference::checks::{
    check_against_reference, check_game_against_reference, check_play_against_reference,
    check_position, check_transition,
};
use serde_json::{json, Value};

use super::cells_text;

/// Positions with White hemmed in (no step) and Black free: where V7 passes.
const WHITE_STUCK: [&str; 5] = [
    "Qf7,Ge4,Ge5,Ge6,Gf4,Gg4,Gg5/qf6,gd4,gd5,gf5,gg6,gh4,gh5 w",
    "Qf6,Ge4,Ge6,Gf4,Gf5,Gg5,Gh4/qf7,gd4,gd5,ge5,gg4,gg6,gh5 w",
    "Qh4,Gd4,Gd5,Gd6,Gf5,Gf7,Gh5/qe7,ge4,ge5,gf4,gg4,gg6,gh6 w",
    "Qe5,Gd4,Gd6,Ge4,Ge7,Gg5,Gg7/qf7,gd5,gf4,gf5,gf8,gh5,gh6 w",
    "Qh5,Gd4,Gd5,Ge6,Gf5,Gf7,Gh4/qh6,gd6,ge4,ge5,gf4,gg4,gg6 w",
];

/// The perft positions of the rule sets (all also in `agon-core/tests/variants.rs`).
const PERFT: [(&str, &str, &str); 7] = [
    (
        "start",
        "the start position",
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w",
    ),
    (
        "radial-capture",
        "e3-f3 captures f4 along a line across rings (V1)",
        "Qa1,Ga6,Gb7,Gc8,Gd9,Ge3,Gf5/ql6,gf4,gh9,gi8,gk7,gl4,gl5 w",
    ),
    (
        "between",
        "e2-e3 steps between two black guards and captures nothing (V2)",
        "Qa1,Ga6,Gb7,Gc8,Gd9,Ge2,Ge5/ql6,gd3,gf3,gh9,gi8,gk7,gl5 w",
    ),
    (
        "between-capturing",
        "e2-e3 steps between two black guards and captures e4 (V2)",
        "Qa1,Ga6,Gb7,Gc8,Gd9,Ge2,Ge5/ql6,gd3,ge4,gf3,gh9,gi8,gk7 w",
    ),
    (
        "guard-ring-1",
        "a guard captured on ring 1 with ring 2 full (V3 falls back to ring 3)",
        "Qa1,Gd4,Gd5,Gd6,Ge4,Ge5*,Ge7/qf8,gf4,gg4,gg7,gh4,gh5,gh6 w",
    ),
    (
        "queen-captured",
        "Black must return its queen; the throne is empty (V4, V5)",
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11*,ga2,gb7,gd1,gh1,gk7,gl2 b",
    ),
    ("white-stuck", "White has no step (V7)", WHITE_STUCK[0]),
];

/// A rule set of the data, what its games must show, and whether they start from the
/// stuck positions.
struct Variant {
    rules: Rules,
    targets: &'static [&'static str],
    stuck_starts: bool,
}

fn variants() -> Vec<Variant> {
    let s = Rules::STANDARD;
    let v = |rules, targets, stuck_starts| Variant {
        rules,
        targets,
        stuck_starts,
    };
    vec![
        v(
            s.with_capture(Capture::SameRing),
            &["single capture", "end:throne"],
            false,
        ),
        v(
            s.with_between(Between::Allowed),
            &["step between enemies"],
            false,
        ),
        v(
            s.with_between(Between::Trapped),
            &["trap", "both sides captured"],
            false,
        ),
        v(
            s.with_guard_return(GuardReturn::NextRing),
            &["guard returned inside the outer ring"],
            false,
        ),
        v(
            s.with_queen_return(QueenReturn::NotThrone),
            &["queen returned"],
            false,
        ),
        v(
            s.with_queen_placer(QueenPlacer::Captor),
            &["queen placed by the captor"],
            false,
        ),
        v(
            s.with_empty_throne_ring(EmptyThroneRing::Draw),
            &["end:ring-without-queen"],
            false,
        ),
        v(s.with_stuck(Stuck::Pass), &["pass"], true),
        v(
            s.with_repetition(Repetition::Off),
            &["third occurrence played on"],
            false,
        ),
        v(
            s.with_limit(60).expect("in range"),
            &["end:move-limit"],
            false,
        ),
        v(Rules::LUDII, &["pass"], true),
    ]
}

/// A finished game with its categories.
struct Played {
    seed: u64,
    game: Game,
    categories: BTreeSet<&'static str>,
}

/// Plays and checks a game: moves drawn uniformly by `Rng::new(seed).below(count)`,
/// stopped (and `None` returned) past `max_plies`.
fn play(start: Position, seed: u64, max_plies: usize) -> Option<Played> {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(start);
    let mut found = BTreeSet::new();
    while !game.is_over() {
        if game.moves().len() >= max_plies {
            return None;
        }
        let pos = *game.position();
        check_position(&pos);
        check_against_reference(&pos);
        let moves = game.legal_moves();
        let m = moves[rng.below(moves.len())];
        if m.is_pass() {
            found.insert("pass");
        }
        if pos.chooser() != pos.turn() {
            found.insert("queen placed by the captor");
        }
        if let Move::Step { to, .. } = m {
            if pos.forbidden_cells(pos.turn()).contains(to) {
                found.insert("step between enemies");
            }
            if pos.traps(m) {
                found.insert("trap");
                if pos.queens().contains(to) {
                    found.insert("queen trapped");
                }
            }
        }
        if let Move::Return { from, to } = m {
            if pos.queens().contains(from) {
                found.insert("queen returned");
            } else if to.ring().distance() < 5 {
                found.insert("guard returned inside the outer ring");
            }
        }
        let captured = game.play(m).expect("a listed move is legal");
        let after = *game.position();
        check_transition(&pos, m, &after);
        check_play_against_reference(&pos, m, &after);
        match captured.len() {
            0 => {}
            1 => {
                found.insert("single capture");
            }
            _ => {
                found.insert("multiple capture");
            }
        }
        let c = after.captured();
        if c.intersects(after.pieces_of(Side::White)) && c.intersects(after.pieces_of(Side::Black))
        {
            found.insert("both sides captured");
        }
        if !game.is_over() && game.repetitions() >= 3 {
            found.insert("third occurrence played on");
        }
        check_game_against_reference(&game);
    }
    check_position(game.position());
    check_against_reference(game.position());
    let reason = game.outcome().expect("over").reason;
    found.insert(match reason.name() {
        "throne" => "end:throne",
        "ring-without-queen" => "end:ring-without-queen",
        "no-legal-action" => "end:no-legal-action",
        "repetition" => "end:repetition",
        "two-passes" => "end:two-passes",
        _ => "end:move-limit",
    });
    Some(Played {
        seed,
        game,
        categories: found,
    })
}

/// Games per rule set: the first `GAMES` seeds' games of at most `MAX_PLIES` plies, then
/// the next ones covering each target the kept ones miss.
const GAMES: usize = 3;
const MAX_PLIES: usize = 160;

fn select(v: &Variant) -> Vec<Played> {
    let start = |seed: u64| {
        if v.stuck_starts {
            let text = WHITE_STUCK[(seed % 5) as usize];
            Position::from_text_with_rules(text, v.rules).expect("valid")
        } else {
            Position::start_with_rules(v.rules)
        }
    };
    super::select_by_seed(
        (GAMES, MAX_PLIES),
        (v.targets, 1),
        |seed| play(start(seed), seed, MAX_PLIES),
        |p| p.game.moves().len(),
        |p, target| p.categories.contains(target),
    )
}

fn game_json(id: usize, p: &Played) -> Value {
    let game = &p.game;
    let mut plies = Vec::new();
    for (i, m) in game.moves().iter().enumerate() {
        let pos = &game.positions()[i];
        let after = &game.positions()[i + 1];
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let captured = (after.captured() - pos.captured()).without_cell(m.to());
        let mut ply = json!({
            "position": pos.to_text().to_string(),
            "legal": legal.join(" "),
            "move": m.to_string(),
            "captures": cells_text(captured),
        });
        if pos.traps(*m) {
            ply["trapped"] = json!(true);
        }
        if pos.chooser() != pos.turn() {
            ply["chooser"] = json!(pos.chooser().name());
        }
        plies.push(ply);
    }
    let outcome = game.outcome().expect("a finished game");
    json!({
        "id": id,
        "rules": game.rules().to_string(),
        "seed": p.seed,
        "policy": "uniform",
        "start": game.start().to_text().to_string(),
        "plies": plies,
        "final": game.position().to_text().to_string(),
        "result": {
            "winner": outcome.winner.map(Side::name),
            "reason": outcome.reason.name(),
            "score": outcome.score(),
        },
        "categories": p.categories.iter().collect::<Vec<_>>(),
    })
}

trait WithoutCell {
    fn without_cell(self, c: Option<Cell>) -> CellSet;
}

impl WithoutCell for CellSet {
    /// The captured cells but the stepping piece's own (a trap is reported apart).
    fn without_cell(self, c: Option<Cell>) -> CellSet {
        c.map_or(self, |c| self.without(c))
    }
}

pub fn write(out: &std::path::Path) {
    let mut perft_items = Vec::new();
    let mut game_items = Vec::new();
    let mut table = Vec::new();
    for v in variants() {
        let r = agon_reference::rules_from_core(v.rules);
        for (name, note, text) in PERFT {
            let pos = Position::from_text_with_rules(text, v.rules).expect("valid");
            let depth = if name == "start" { 4 } else { 3 };
            let counts: Vec<u64> = (1..=depth).map(|d| perft(&pos, d)).collect();
            let state = agon_reference::from_core(&pos);
            for (d, &n) in (1..).zip(&counts) {
                assert_eq!(
                    agon_reference::perft_under(&state, &r, d),
                    n,
                    "{name} {d} {}",
                    v.rules
                );
            }
            table.push(format!(
                "| `{}` | `{name}` | {} |",
                v.rules,
                counts
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            perft_items.push(json!({
                "name": name,
                "rules": v.rules.to_string(),
                "note": note,
                "position": pos.to_text().to_string(),
                "perft": counts,
            }));
        }
        let games = select(&v);
        let plies: usize = games.iter().map(|p| p.game.moves().len()).sum();
        let mut covered: BTreeSet<&str> = BTreeSet::new();
        for p in &games {
            covered.extend(p.categories.iter().copied());
            game_items.push(game_json(game_items.len(), p));
        }
        println!(
            "| `{}` | {} | {plies} | {} |",
            v.rules,
            games.len(),
            covered.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    for line in table {
        println!("{line}");
    }
    crate::write_lines(
        &out.join("perft-rules.json"),
        "\"schema\": 1, \"generator\": \"conformance/generate\"",
        "positions",
        &perft_items,
    );
    crate::write_lines(
        &out.join("games-rules.json"),
        "\"schema\": 1, \"generator\": \"conformance/generate\"",
        "games",
        &game_items,
    );
}
