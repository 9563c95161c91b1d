//! The network player (`az` feature): the Rust network computes what JAX computes, the
//! PUCT bot plays legal moves, deterministically, finds a win in one and records its
//! visits, the Gumbel search (`gK`) plays legal moves, deterministically, and records its
//! improved policy, and bad model files are errors.
#![cfg(feature = "az")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use agon_bots::{bot_by_name, AzSpec, Bot, Network, NetworkError, SpecError};
use agon_core::{Game, Move, Position};
use candle_core::{Device, Tensor};

/// The fixture written by `tests/data/make_az_fixture.py`: a small network with random
/// weights (float16), observations of four positions and JAX's outputs on them.
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/az-fixture.safetensors")
}

fn spec(visits: u32, options: &str) -> String {
    format!("az:{}:{visits}{options}", fixture().display())
}

fn tensors() -> HashMap<String, Tensor> {
    candle_core::safetensors::load(fixture(), &Device::Cpu).unwrap()
}

#[test]
fn the_rust_network_computes_what_jax_computes() {
    let t = tensors();
    let observations: Vec<f32> = t["fixture.observations"]
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap();
    let expected_logits: Vec<f32> = t["fixture.logits"]
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap();
    let expected_values: Vec<f32> = t["fixture.values"].to_vec1().unwrap();
    let network = Network::load(fixture()).unwrap();
    assert_eq!(network.size(), (2, 8));
    let (logits, values) = network.evaluate_planes(&observations).unwrap();
    assert_eq!(values.len(), 4);
    assert_eq!(logits.len(), 4 * agon_rl::ACTION_COUNT);
    for (a, b) in logits.iter().zip(&expected_logits) {
        assert!(
            (a - b).abs() <= 1e-4 * (1.0 + b.abs()),
            "logit {a} against JAX's {b}"
        );
    }
    for (a, b) in values.iter().zip(&expected_values) {
        assert!((a - b).abs() <= 1e-5, "value {a} against JAX's {b}");
    }
    // The values differ from position to position: the test compares real outputs.
    assert!(expected_values
        .windows(2)
        .any(|w| (w[0] - w[1]).abs() > 1e-3));
}

#[test]
fn evaluating_positions_is_evaluating_their_planes() {
    let network = Network::load(fixture()).unwrap();
    let start = Position::start();
    let mut planes = vec![0.0f32; agon_rl::Layout::Axial.observation_len()];
    agon_rl::write_observation(&start, agon_rl::Layout::Axial, &mut planes);
    let (logits, values) = network.evaluate_planes(&planes).unwrap();
    let p = &network.evaluate(&[start]).unwrap()[0];
    assert_eq!((&p.logits, p.value), (&logits, values[0]));
    assert!(matches!(
        network.evaluate_planes(&planes[1..]),
        Err(NetworkError::Inference { .. })
    ));
}

#[test]
fn the_bot_plays_only_legal_moves_through_a_game() {
    let mut white = bot_by_name(&spec(24, ":noise:t6"), 1).unwrap();
    let mut black = bot_by_name(&spec(16, ":b4"), 2).unwrap();
    let mut game = Game::new();
    for _ in 0..40 {
        if game.is_over() {
            break;
        }
        let bot = if game.position().chooser() == agon_core::Side::White {
            &mut white
        } else {
            &mut black
        };
        let m = bot.choose_in_game(&game).unwrap();
        assert!(game.is_legal(m), "{m} in {}", game.position());
        game.play(m).unwrap();
    }
    assert!(game.moves().len() >= 20);
}

/// The search of `spec(visits, plain)` chooses alike under any seed, and with `noisy`'s
/// noise alike under the same seed, the noise changing its statistics under others.
fn assert_deterministic_under_its_seed(visits: u32, plain: &str, noisy: &str) {
    let mut game = Game::new();
    for m in ["a5-a4", "l2-k2"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let choose = |options: &str, seed| {
        bot_by_name(&spec(visits, options), seed)
            .unwrap()
            .choose_with_stats(&game)
    };
    assert_eq!(choose(plain, 1), choose(plain, 1));
    assert_eq!(choose(plain, 1), choose(plain, 99));
    assert_eq!(choose(noisy, 5), choose(noisy, 5));
    let differs = (6..12).any(|seed| choose(noisy, seed).unwrap().1 != choose(noisy, 5).unwrap().1);
    assert!(differs, "the noise of {noisy:?} changes the statistics");
}

#[test]
fn the_bot_is_deterministic_under_its_seed() {
    // With noise and temperature, the same seed gives the same choice and visits.
    assert_deterministic_under_its_seed(48, "", ":noise:t30");
}

#[test]
fn the_visits_are_recorded_like_mcts() {
    let game = Game::new();
    for batch in [1, 8, 32] {
        let mut bot = bot_by_name(&spec(100, &format!(":b{batch}")), 3).unwrap();
        let (m, stats) = bot.choose_with_stats(&game).unwrap();
        let stats = stats.unwrap();
        assert_eq!(
            stats.visits.iter().map(|&(_, n)| n).sum::<u32>(),
            100,
            "batch {batch}"
        );
        assert!(stats.visits.iter().all(|&(v, n)| game.is_legal(v) && n > 0));
        let most = stats.visits.iter().map(|&(_, n)| n).max();
        assert_eq!(
            stats.visits.iter().find(|&&(v, _)| v == m).map(|&(_, n)| n),
            most
        );
        assert!((-1.0..=1.0).contains(&stats.value));
        // In the order of the legal moves.
        let legal = game.legal_moves();
        let order: Vec<usize> = stats
            .visits
            .iter()
            .map(|&(v, _)| legal.iter().position(|&l| l == v).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn the_bot_finds_a_throne_win_in_one() {
    // White's queen is on the throne with five guards around it; h6-g6 fills the sixth
    // cell of ring 1 and wins (R10), whatever the untrained network thinks.
    let pos: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 w"
        .parse()
        .unwrap();
    let win: Move = "h6-g6".parse().unwrap();
    for options in ["", ":b1", ":b32"] {
        let mut bot = bot_by_name(&spec(200, options), 4).unwrap();
        assert_eq!(bot.choose(&pos), Some(win), "{options}");
        let (_, stats) = bot.choose_with_stats(&Game::from_position(pos)).unwrap();
        assert!(stats.unwrap().value > 0.5, "{options}");
    }
}

#[test]
fn contempt_makes_a_repetition_draw_worth_less_than_even() {
    // Black to move: a1-a2 brings the start back a third time, a draw (R11).
    let moves = [
        "a5-a4", "a2-a1", "a4-a5", "a1-a2", "a5-a4", "a2-a1", "a4-a5",
    ];
    let mut game = Game::new();
    for m in moves {
        game.play(m.parse().unwrap()).unwrap();
    }
    let draw: Move = "a1-a2".parse().unwrap();
    let mut after = game.clone();
    after.play(draw).unwrap();
    assert!(after.outcome().is_some_and(|o| o.winner.is_none()));
    let visits_to_draw = |options: &str| {
        let mut bot = bot_by_name(&spec(400, options), 2).unwrap();
        let (m, stats) = bot.choose_with_stats(&game).unwrap();
        let stats = stats.unwrap();
        let n = stats
            .visits
            .iter()
            .find(|&&(v, _)| v == draw)
            .map_or(0, |&(_, n)| n);
        (m, n)
    };
    // A draw valued as a loss is visited once, to learn it is one, and not played.
    let (m, scorned) = visits_to_draw(":c1000");
    assert_ne!(m, draw);
    assert!(scorned <= 2, "{scorned}");
    // Worth 0 (AlphaZero's), the untrained network's values make it as good as another.
    let (_, even) = visits_to_draw("");
    assert!(even > scorned, "{even} against {scorned}");
}

#[test]
fn a_spec_changed_to_nothing_still_searches() {
    // Its fields are public: a batch and a budget of 0 are taken as 1, not searched forever.
    let network = std::sync::Arc::new(Network::load(fixture()).unwrap());
    let mut spec = AzSpec::parse(&spec(10, "")).unwrap();
    (spec.batch, spec.visits) = (0, 0);
    let mut bot = agon_bots::AzBot::new(network, spec, 1);
    let pos = Position::start();
    let m = bot.choose(&pos).expect("a move");
    assert!(pos.legal_moves().contains(&m));
    assert!(bot.name().starts_with("az:") && bot.name().contains(":1"));
}

#[test]
fn a_game_over_has_no_move() {
    let mut bot = bot_by_name(&spec(10, ""), 0).unwrap();
    let over: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 b"
        .parse()
        .unwrap();
    assert!(over.outcome().is_some());
    assert_eq!(bot.choose(&over), None);
    assert_eq!(bot.choose_with_stats(&Game::from_position(over)), None);
}

/// A temporary directory of this test process, removed when dropped (so that a run leaves
/// nothing behind in the system's temporary folder).
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("agon-az-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `tensors` as the model file `NAME.safetensors`.
    fn model(&self, name: &str, tensors: &HashMap<String, Tensor>) -> PathBuf {
        let path = self.0.join(format!("{name}.safetensors"));
        candle_core::safetensors::save(tensors, &path).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn model_error(path: &Path) -> String {
    let spec = format!("az:{}:10", path.display());
    match bot_by_name(&spec, 0) {
        Err(SpecError::Model { error, .. }) => error,
        Err(other) => panic!("{spec}: {other}"),
        Ok(_) => panic!("{spec}: a bot"),
    }
}

#[test]
fn a_missing_file_is_an_error() {
    let error = model_error(Path::new("/no/such/model.safetensors"));
    assert!(
        error.starts_with("cannot read \"/no/such/model.safetensors\""),
        "{error}"
    );
    assert!(matches!(
        Network::load("/no/such/model.safetensors"),
        Err(NetworkError::Io { .. })
    ));
}

#[test]
fn a_corrupt_file_is_an_error() {
    let bytes = std::fs::read(fixture()).unwrap();
    let scratch = Scratch::new("corrupt");
    for (name, corrupt) in [
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("header", bytes[8..].to_vec()),
        ("text", b"{\"not\": \"a model\"}".to_vec()),
        ("empty", Vec::new()),
    ] {
        assert!(
            matches!(
                Network::from_bytes(&corrupt),
                Err(NetworkError::Format { .. })
            ),
            "{name}"
        );
        let path = scratch.0.join(format!("{name}.safetensors"));
        std::fs::write(&path, &corrupt).unwrap();
        assert!(
            model_error(&path).starts_with("not a safetensors model"),
            "{name}"
        );
    }
}

#[test]
fn a_model_of_the_wrong_shape_is_an_error() {
    let scratch = Scratch::new("shape");
    let zeros =
        |shape: &[usize]| Tensor::zeros(shape, candle_core::DType::F32, &Device::Cpu).unwrap();
    // A policy over another action space.
    let mut t = tensors();
    t.insert("policy.dense.weight".into(), zeros(&[121, 3000]));
    t.insert("policy.dense.bias".into(), zeros(&[3000]));
    assert_eq!(
        Network::load(scratch.model("policy", &t)).err(),
        Some(NetworkError::Shape {
            name: "policy.dense.weight".into(),
            expected: vec![121, 3337],
            found: vec![121, 3000],
        })
    );
    // Another input: 12 planes instead of agon-rl's 11.
    let mut t = tensors();
    t.insert("stem.weight".into(), zeros(&[8, 12, 3, 3]));
    let error = model_error(&scratch.model("stem", &t));
    assert_eq!(
        error,
        "tensor \"stem.weight\" has shape [8, 12, 3, 3], expected [8, 11, 3, 3]: a model of another shape"
    );
    // A block whose width is not the tower's.
    let mut t = tensors();
    t.insert("blocks.1.conv2.bias".into(), zeros(&[9]));
    assert!(matches!(
        Network::load(scratch.model("bias", &t)),
        Err(NetworkError::Shape { .. })
    ));
    // A tensor missing.
    let mut t = tensors();
    t.remove("value.out.weight");
    assert_eq!(
        Network::load(scratch.model("missing", &t)).err(),
        Some(NetworkError::MissingTensor {
            name: "value.out.weight".into()
        })
    );
    // A tensor of the wrong rank.
    let mut t = tensors();
    t.insert("value.conv.weight".into(), zeros(&[2, 8]));
    assert!(matches!(
        Network::load(scratch.model("rank", &t)),
        Err(NetworkError::Shape { .. })
    ));
}

#[test]
fn az_specs_are_read_and_checked() {
    assert_eq!(
        bot_by_name(&spec(10, ":noise:t4:b2"), 0).unwrap().name(),
        spec(10, ":noise:t4:b2")
    );
    assert_eq!(
        AzSpec::parse(&spec(10, ":b8")).unwrap().to_string(),
        spec(10, "")
    );
    assert_eq!(
        AzSpec::parse(&spec(10, ":c0")).unwrap().to_string(),
        spec(10, "")
    );
    let contempt = AzSpec::parse("az:m:10:c1000:noise").unwrap();
    assert_eq!(
        (contempt.contempt, contempt.to_string().as_str()),
        (1000, "az:m:10:noise:c1000")
    );
    for bad in [
        "az:m:0",
        "az:m:1000001",
        "az:m:10:b0",
        "az:m:10:b257",
        "az:m:10:tx",
        "az:m:10:c1001",
        "az:m:10:c-1",
        "az:m:10:c",
    ] {
        assert!(
            matches!(bot_by_name(bad, 0), Err(SpecError::BadNumber { .. })),
            "{bad}"
        );
    }
    let unknown = bot_by_name("az:m:10:fast", 0).err().unwrap();
    assert!(matches!(unknown, SpecError::UnknownPart { .. }));
    assert!(
        unknown
            .to_string()
            .ends_with("expected noise, t30, b8, c100 or g16"),
        "{unknown}"
    );
    assert!(matches!(
        bot_by_name("az:m:10:c5:c5", 0),
        Err(SpecError::RepeatedPart { .. })
    ));
    assert!(matches!(bot_by_name("az", 0), Err(SpecError::Model { .. })));
    let long = format!("az:{}:10", "m".repeat(200));
    assert!(matches!(
        bot_by_name(&long, 0),
        Err(SpecError::TooLong { .. })
    ));
}

#[test]
fn a_path_to_something_else_than_a_file_is_an_error() {
    for path in ["/dev/zero", "/", "/tmp"] {
        let error = model_error(Path::new(path));
        assert!(error.contains("not a regular file"), "{path}: {error}");
    }
}

#[test]
fn the_shipped_network_is_played_by_its_name() {
    for &(name, bytes) in agon_bots::AzBot::SHIPPED {
        let network = Network::from_bytes(bytes).unwrap();
        assert!(network.size().1 > 0, "{name}");
        let mut bot = bot_by_name(&format!("az:{name}:24"), 1).unwrap();
        assert_eq!(bot.name(), format!("az:{name}:24"));
        let game = Game::new();
        let (m, stats) = bot.choose_with_stats(&game).unwrap();
        assert!(game.is_legal(m));
        assert_eq!(
            stats.unwrap().visits.iter().map(|&(_, n)| n).sum::<u32>(),
            24
        );
    }
    // A name that is not shipped is read as a path.
    let error = model_error(Path::new("agon-az-none"));
    assert!(error.starts_with("cannot read \"agon-az-none\""), "{error}");
}

/// The moves of a PUCT spec through the first plies of a game, each bot playing its side.
fn puct_moves(white: &str, black: &str, plies: usize) -> Vec<String> {
    let mut bots = [
        bot_by_name(white, 1).unwrap(),
        bot_by_name(black, 2).unwrap(),
    ];
    let mut game = Game::new();
    let mut moves = Vec::new();
    while moves.len() < plies && !game.is_over() {
        let m = bots[game.position().chooser().index()]
            .choose_in_game(&game)
            .unwrap();
        moves.push(m.to_string());
        game.play(m).unwrap();
    }
    moves
}

/// The PUCT search is untouched by the Gumbel option: its moves are those it played
/// before the option came (recorded then), with and without noise and temperature, on the
/// fixture and on the shipped network.
#[test]
fn the_puct_specs_play_the_moves_they_played_before_gumbel() {
    let fixture_moves = puct_moves(&spec(32, ""), &spec(24, ":noise:t4:b4"), 6);
    let shipped_moves = puct_moves("az:agon-az-2x32:16", "az:agon-az-2x32:8:noise:t2:c700", 2);
    assert_eq!(fixture_moves, PINNED_FIXTURE);
    assert_eq!(shipped_moves, PINNED_SHIPPED);
}

/// Recorded on the commit before the Gumbel option (ef2a8a2).
const PINNED_FIXTURE: [&str; 6] = ["h9-g9", "l2-k3", "b1-b2", "d1-e2", "b2-c2", "e2-d2"];
const PINNED_SHIPPED: [&str; 2] = ["f1-f2", "b7-a6"];

#[test]
fn the_gumbel_search_plays_only_legal_moves_through_a_game() {
    let mut white = bot_by_name(&spec(12, ":noise:g16"), 1).unwrap();
    let mut black = bot_by_name(&spec(8, ":g4"), 2).unwrap();
    let mut game = Game::new();
    for _ in 0..20 {
        if game.is_over() {
            break;
        }
        let bot = if game.position().chooser() == agon_core::Side::White {
            &mut white
        } else {
            &mut black
        };
        let (m, stats) = bot.choose_with_stats(&game).unwrap();
        assert!(game.is_legal(m), "{m} in {}", game.position());
        // The improved policy in millionths: legal moves, summing to a million.
        let stats = stats.unwrap();
        assert!(stats.visits.iter().all(|&(v, n)| game.is_legal(v) && n > 0));
        let total: u32 = stats.visits.iter().map(|&(_, n)| n).sum();
        assert!(
            total.abs_diff(1_000_000) <= stats.visits.len() as u32,
            "{total}"
        );
        assert!((-1.0..=1.0).contains(&stats.value));
        game.play(m).unwrap();
    }
    assert!(game.moves().len() >= 16);
}

#[test]
fn the_gumbel_search_is_deterministic_under_its_seed() {
    // The Gumbel noise changes the improved policy.
    assert_deterministic_under_its_seed(32, ":g16", ":noise:g16");
}

#[test]
fn a_smaller_value_scale_gives_a_gentler_improved_policy() {
    // `s100` (mctx's c_scale of 0.1) against the paper's 1.0: the same search without
    // noise, its improved policy (the self-play target) less sure of its first move.
    let mut game = Game::new();
    for m in ["a5-a4", "l2-k2"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let largest_share = |options: &str| {
        let (_, stats) = bot_by_name(&spec(32, options), 1)
            .unwrap()
            .choose_with_stats(&game)
            .unwrap();
        let stats = stats.unwrap();
        let total: u32 = stats.visits.iter().map(|&(_, n)| n).sum();
        assert!(total.abs_diff(1_000_000) <= stats.visits.len() as u32);
        stats.visits.iter().map(|&(_, n)| n).max().unwrap()
    };
    let (sharp, gentle) = (largest_share(":g16"), largest_share(":g16:s100"));
    assert!(gentle < sharp, "{gentle} < {sharp}");
    assert_eq!(largest_share(":g16:s1000"), sharp, "s1000 is the default");
}
