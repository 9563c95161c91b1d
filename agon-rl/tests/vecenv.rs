//! The batch environment against the core's own games: the same moves, rewards, restarts,
//! observations and masks as playing each game by hand; the same results for any number
//! of threads and in every output format.

use agon_core::{EndReason, Game, Move, Position, Rules};
use agon_rl::{
    action_count, unpack_mask, write_observation, write_position_mask, Action, Layout, Masks,
    Observations, StepBuffers, VecEnv, VecEnvError, ACTION_COUNT, PASS_ACTION,
};
use proptest::prelude::*;

/// The output buffers of a batch, in all four formats at once.
struct Buffers {
    n: usize,
    layout: Layout,
    /// The width of a bool mask.
    width: usize,
    obs: Vec<f32>,
    obs8: Vec<u8>,
    rewards: Vec<f32>,
    terms: Vec<bool>,
    masks: Vec<bool>,
    packed: Vec<u8>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Format {
    FloatBool,
    FloatPacked,
    BytesBool,
    BytesPacked,
}

const FORMATS: [Format; 4] = [
    Format::FloatBool,
    Format::FloatPacked,
    Format::BytesBool,
    Format::BytesPacked,
];

impl Buffers {
    fn new(n: usize, layout: Layout) -> Buffers {
        Buffers::with_width(n, layout, ACTION_COUNT)
    }

    fn with_width(n: usize, layout: Layout, width: usize) -> Buffers {
        let len = layout.observation_len();
        Buffers {
            n,
            layout,
            width,
            obs: vec![0.5; n * len],
            obs8: vec![7; n * len],
            rewards: vec![0.5; n],
            terms: vec![false; n],
            masks: vec![false; n * width],
            packed: vec![0xff; n * width.div_ceil(8)],
        }
    }

    fn out(&mut self, format: Format) -> StepBuffers<'_> {
        let (observations, masks) = match format {
            Format::FloatBool => (
                Observations::F32(&mut self.obs),
                Masks::Bool(&mut self.masks),
            ),
            Format::FloatPacked => (
                Observations::F32(&mut self.obs),
                Masks::Packed(&mut self.packed),
            ),
            Format::BytesBool => (
                Observations::U8(&mut self.obs8),
                Masks::Bool(&mut self.masks),
            ),
            Format::BytesPacked => (
                Observations::U8(&mut self.obs8),
                Masks::Packed(&mut self.packed),
            ),
        };
        StepBuffers {
            observations,
            rewards: &mut self.rewards,
            terminations: &mut self.terms,
            masks,
        }
    }

    /// Game `i`'s observation as f32 and mask as bools, whatever the format written.
    fn row(&self, format: Format, i: usize) -> (Vec<f32>, Vec<bool>) {
        let len = self.layout.observation_len();
        let obs = match format {
            Format::FloatBool | Format::FloatPacked => self.obs[i * len..(i + 1) * len].to_vec(),
            Format::BytesBool | Format::BytesPacked => self.obs8[i * len..(i + 1) * len]
                .iter()
                .map(|&b| f32::from(b))
                .collect(),
        };
        let mask = match format {
            Format::FloatBool | Format::BytesBool => {
                self.masks[i * self.width..(i + 1) * self.width].to_vec()
            }
            Format::FloatPacked | Format::BytesPacked => {
                let mut mask = vec![true; self.width];
                let bytes = self.width.div_ceil(8);
                let packed = &self.packed[i * bytes..(i + 1) * bytes];
                unpack_mask(packed, &mut mask);
                // The padding bits of the last byte are 0 (the pass, bit 3337, is 0x40;
                // 8889 bits leave 7 bits of padding).
                let padding = if self.width == 3338 { 0x3f } else { 0x7f };
                assert_eq!(packed[bytes - 1] & padding, 0);
                mask
            }
        };
        (obs, mask)
    }

    /// Everything written, as f32 and bools.
    fn all(&self, format: Format) -> (Vec<f32>, Vec<f32>, Vec<bool>, Vec<bool>) {
        let (mut obs, mut masks) = (Vec::new(), Vec::new());
        for i in 0..self.n {
            let (o, m) = self.row(format, i);
            obs.extend(o);
            masks.extend(m);
        }
        (obs, self.rewards.clone(), masks, self.terms.clone())
    }
}

fn env(n: usize, seed: u64, layout: Layout, threads: usize) -> VecEnv {
    let mut env = VecEnv::new(n, seed, layout, None).unwrap();
    env.set_threads(threads).unwrap();
    env
}

/// Steps a batch of `n` games under `rules` with random actions for `steps` steps,
/// checking every output against the core's games played by hand; returns how many games
/// ended for each reason, and how many passes were played.
fn step_like_the_core(rules: Rules, n: usize, steps: usize) -> ([usize; EndReason::COUNT], usize) {
    let layout = Layout::Axial;
    let len = layout.observation_len();
    let width = action_count(rules);
    let mut env = VecEnv::with_rules(n, 3, layout, rules).unwrap();
    env.set_threads(2).unwrap();
    assert_eq!(env.action_count(), width);
    let mut games = vec![Game::with_rules(rules); n];
    let mut b = Buffers::with_width(n, layout, width);
    let mut actions = vec![0i64; n];
    let mut reasons = [0usize; EndReason::COUNT];
    let mut passes = 0;
    let (mut obs, mut mask) = (vec![0.0f32; len], vec![false; width]);
    for step in 0..steps {
        let format = FORMATS[step % 4];
        env.random_actions(&mut actions).unwrap();
        for (i, game) in games.iter().enumerate() {
            assert_eq!(env.player_to_act(i), game.position().chooser());
        }
        env.step(&actions, b.out(format)).unwrap();
        for (i, game) in games.iter_mut().enumerate() {
            let m = Action::new_in(actions[i] as usize, rules)
                .unwrap()
                .to_move(game.position())
                .unwrap();
            passes += usize::from(m == Move::Pass);
            // Rewards are the chooser's.
            let mover = game.position().chooser();
            game.play(m).unwrap();
            let (reward, term) = match game.outcome() {
                Some(o) => {
                    reasons[o.reason.index()] += 1;
                    *game = Game::with_rules(rules);
                    (
                        o.winner
                            .map_or(0.0, |w| if w == mover { 1.0 } else { -1.0 }),
                        true,
                    )
                }
                None => (0.0, false),
            };
            assert_eq!((b.rewards[i], b.terms[i]), (reward, term));
            assert_eq!(env.moves(i), game.moves());
            assert_eq!(env.position(i), game.position());
            write_observation(game.position(), layout, &mut obs);
            write_position_mask(game.position(), &mut mask);
            let (got_obs, got_mask) = b.row(format, i);
            let diff =
                |a: &[f32], b: &[f32]| (0..a.len()).filter(|&k| a[k] != b[k]).collect::<Vec<_>>();
            assert!(
                got_obs == obs,
                "step {step} game {i} {format:?}: observation differs at {:?}",
                diff(&got_obs, &obs)
            );
            let wrong: Vec<usize> = (0..width).filter(|&k| got_mask[k] != mask[k]).collect();
            assert!(
                wrong.is_empty(),
                "step {step} game {i} {format:?}: mask differs at {wrong:?} got {:?} pass {} {}",
                wrong.iter().map(|&k| got_mask[k]).collect::<Vec<_>>(),
                game.actions().is_pass(),
                game.position().to_text()
            );
        }
    }
    // The replayed games are the core's games.
    for (i, game) in games.iter().enumerate() {
        assert_eq!(env.game(i), *game);
        assert_eq!(env.game(i).repetitions(), game.repetitions());
    }
    (reasons, passes)
}

#[test]
fn stepping_agrees_with_playing_each_game_by_hand() {
    // Long enough for hundreds of games to end, repetition draws among them, and for the
    // histories to grow well past their first table.
    let (reasons, passes) = step_like_the_core(Rules::STANDARD, 24, 3000);
    // Every way a standard game ends happened, repetition included.
    assert!(reasons[..4].iter().all(|&r| r > 0), "{reasons:?}");
    assert_eq!((reasons[4], reasons[5], passes), (0, 0, 0));
}

#[test]
fn stepping_agrees_with_the_core_under_other_rules() {
    // The ludii preset with a short limit: passes instead of losses, no repetition, games
    // drawn at the limit.
    let rules: Rules = "ludii+limit=200".parse().unwrap();
    let (reasons, passes) = step_like_the_core(rules, 16, 2500);
    assert!(passes > 0, "{reasons:?}");
    let [throne, _, stuck, repetition, _, limit] = reasons;
    assert_eq!((stuck, repetition), (0, 0), "{reasons:?}");
    assert!(throne > 0 && limit > 0, "{reasons:?}");
    // Every other option at once, the queen placed by her captor among them.
    let rules: Rules = "standard+capture=same-ring+between=trapped+guard-return=next-ring\
+queen-return=not-throne+queen-placer=captor+empty-throne-ring=draw+stuck=pass+limit=300"
        .parse()
        .unwrap();
    let (reasons, _) = step_like_the_core(rules, 16, 1500);
    assert_eq!(reasons[EndReason::NoLegalAction.index()], 0, "{reasons:?}");
    assert!(reasons.iter().sum::<usize>() > 0);
}

/// Under `stuck=pass`, a pass position's masks hold the pass alone, in every format.
#[test]
fn a_pass_is_masked_and_stepped() {
    // White has no step (a random game's end by R12 under the standard rules); Black has
    // ten.
    let text = "Qf6,Ge6,Ge7,Gf7,Gf8,Gg5,Gg6/qi7,gd6,ge4,ge5,gf5,gg7,gh4 w";
    let pos = Position::from_text_with_rules(text, Rules::LUDII).unwrap();
    assert!(pos.actions().is_pass());
    let mut env = VecEnv::new(1, 1, Layout::Flat, Some(pos)).unwrap();
    let mut b = Buffers::with_width(1, Layout::Flat, action_count(Rules::LUDII));
    for format in [Format::FloatBool, Format::FloatPacked] {
        let (obs, masks) = match format {
            Format::FloatBool => (Observations::F32(&mut b.obs), Masks::Bool(&mut b.masks)),
            _ => (Observations::F32(&mut b.obs), Masks::Packed(&mut b.packed)),
        };
        env.observe(obs, masks).unwrap();
        let (_, mask) = b.row(format, 0);
        let legal: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
        assert_eq!(legal, [PASS_ACTION]);
    }
    // The pass is stepped like any action, and a standard-width mask buffer is refused.
    env.step(&[PASS_ACTION as i64], b.out(Format::FloatBool))
        .unwrap();
    assert_eq!(env.moves(0), [Move::Pass]);
    assert!(!b.terms[0]);
    let mut short = Buffers::new(1, Layout::Flat);
    assert_eq!(env.position(0).count_legal_moves(), 10);
    assert!(matches!(
        env.step(&[0], short.out(Format::FloatBool)),
        Err(VecEnvError::BufferLength { name: "masks", .. })
    ));
}

#[test]
fn repetition_draws_exactly_when_the_core_does() {
    // The shortest repetition: both queens shuffle back and forth, from the start and
    // after a different first move (so the start is not among the repeated positions).
    for prefix in [&[][..], &["a5-a4", "a2-a3"][..]] {
        let mut env = env(1, 1, Layout::Flat, 1);
        let mut game = Game::new();
        let mut b = Buffers::new(1, Layout::Flat);
        let shuffle = ["f1-e1", "f11-g10", "e1-f1", "g10-f11"];
        let moves: Vec<&str> = prefix
            .iter()
            .chain(shuffle.iter().cycle().take(8))
            .copied()
            .collect();
        for (ply, m) in moves.iter().enumerate() {
            let m = m.parse().unwrap();
            game.play(m).unwrap();
            let action = Action::from_move(m).unwrap().index() as i64;
            env.step(&[action], b.out(Format::FloatBool)).unwrap();
            assert_eq!(b.terms[0], game.is_over(), "ply {ply}");
            assert_eq!(b.rewards[0], 0.0);
        }
        assert!(b.terms[0]);
        assert_eq!(*env.position(0), Position::start());
    }
}

#[test]
fn every_thread_count_and_format_gives_the_same_results() {
    // 300 games: several chunks of work (64 games at least) for 2 or more threads. Every
    // batch is stepped in lockstep with a one-thread one, whose buffers of every format
    // are filled (by the step, then by `observe`) to compare with.
    let n = 300;
    let layout = Layout::Flat;
    let (mut reference, mut expected) = (env(n, 99, layout, 1), Buffers::new(n, layout));
    let mut others: Vec<_> = FORMATS
        .map(|format| (2, format))
        .into_iter()
        .chain([(3, Format::BytesPacked)])
        .map(|(threads, format)| {
            let b = Buffers::new(n, layout);
            (threads, format, env(n, 99, layout, threads), b)
        })
        .collect();
    let (mut actions, mut theirs) = (vec![0i64; n], vec![0i64; n]);
    let mut ended = 0;
    for _ in 0..200 {
        reference.random_actions(&mut actions).unwrap();
        reference
            .step(&actions, expected.out(Format::FloatBool))
            .unwrap();
        let Buffers { obs8, packed, .. } = &mut expected;
        reference
            .observe(Observations::U8(obs8), Masks::Packed(packed))
            .unwrap();
        ended += expected.terms.iter().filter(|&&t| t).count();
        for (threads, format, env, b) in &mut others {
            env.random_actions(&mut theirs).unwrap();
            assert_eq!(theirs, actions, "{threads} threads");
            env.step(&actions, b.out(*format)).unwrap();
            let same_obs = match format {
                Format::FloatBool | Format::FloatPacked => b.obs == expected.obs,
                Format::BytesBool | Format::BytesPacked => b.obs8 == expected.obs8,
            };
            let same_masks = match format {
                Format::FloatBool | Format::BytesBool => b.masks == expected.masks,
                Format::FloatPacked | Format::BytesPacked => b.packed == expected.packed,
            };
            assert!(
                same_obs
                    && same_masks
                    && b.rewards == expected.rewards
                    && b.terms == expected.terms,
                "{threads} threads, {format:?}"
            );
        }
    }
    // The formats hold the same values.
    assert!(expected.all(Format::FloatBool) == expected.all(Format::BytesPacked));
    assert!(ended > 20, "only {ended} games ended");
    for (threads, _, env, _) in &others {
        for i in 0..n {
            assert_eq!(env.moves(i), reference.moves(i), "{threads} threads");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn the_same_seed_gives_the_same_batch_on_any_threads(
        seed in any::<u64>(),
        n in 1usize..400,
        threads in 1usize..6,
    ) {
        let play = |threads| {
            let mut env = env(n, seed, Layout::Flat, threads);
            let mut b = Buffers::new(n, Layout::Flat);
            let mut actions = vec![0i64; n];
            let mut seen = Vec::new();
            for _ in 0..60 {
                env.random_actions(&mut actions).unwrap();
                env.step(&actions, b.out(Format::BytesPacked)).unwrap();
                seen.extend_from_slice(&actions);
                seen.extend(b.terms.iter().map(|&t| i64::from(t)));
            }
            (seen, b.obs8.clone(), b.packed.clone())
        };
        prop_assert!(play(1) == play(threads));
    }
}

#[test]
fn the_same_seed_gives_the_same_batch() {
    let run = |seed| {
        let mut env = env(8, seed, Layout::Flat, 2);
        let mut b = Buffers::new(8, Layout::Flat);
        let mut actions = vec![0i64; 8];
        let mut seen = Vec::new();
        for _ in 0..200 {
            env.random_actions(&mut actions).unwrap();
            env.step(&actions, b.out(Format::FloatBool)).unwrap();
            seen.extend_from_slice(&actions);
        }
        seen
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
    // Reseeding by reset draws game i from game_rng(seed, i), as new does.
    let (mut a, mut b) = (env(5, 3, Layout::Flat, 1), env(5, 4, Layout::Flat, 1));
    let (mut x, mut y) = (vec![0; 5], vec![0; 5]);
    a.reset(Some(4));
    a.random_actions(&mut x).unwrap();
    b.random_actions(&mut y).unwrap();
    assert_eq!(x, y);
}

#[test]
fn observe_writes_every_format_alike() {
    let n = 130;
    for layout in [Layout::Flat, Layout::Axial] {
        let mut env = env(n, 5, layout, 2);
        let mut b = Buffers::new(n, layout);
        let mut actions = vec![0i64; n];
        for _ in 0..50 {
            env.random_actions(&mut actions).unwrap();
            env.step(&actions, b.out(Format::FloatBool)).unwrap();
        }
        let stepped = b.all(Format::FloatBool);
        let mut again = Buffers::new(n, layout);
        env.observe(
            Observations::F32(&mut again.obs),
            Masks::Bool(&mut again.masks),
        )
        .unwrap();
        env.observe(
            Observations::U8(&mut again.obs8),
            Masks::Packed(&mut again.packed),
        )
        .unwrap();
        again.rewards.clone_from(&b.rewards);
        again.terms.clone_from(&b.terms);
        assert!(again.all(Format::FloatBool) == stepped);
        assert!(again.all(Format::BytesPacked) == stepped);
    }
}

#[test]
fn refused_calls_change_nothing() {
    // 2100 games: the actions are checked in two chunks of work (1024 games at least).
    let mut env = env(2100, 5, Layout::Flat, 2);
    let n = env.len();
    let mut b = Buffers::new(n, Layout::Flat);
    let mut actions = vec![0i64; n];
    env.random_actions(&mut actions).unwrap();
    env.step(&actions, b.out(Format::FloatBool)).unwrap();
    let before = env.clone();
    let legal = {
        let mut a = vec![0i64; n];
        env.clone().random_actions(&mut a).unwrap();
        a
    };
    // The first game refused is reported, whichever chunk of work it is in.
    for (bad, env_index) in [
        (-1i64, 1),
        (ACTION_COUNT as i64, 2),
        (i64::MIN, 0),
        (-5, 1049),
        (-6, 1050),
        (-8, 2099),
    ] {
        let mut attempt = legal.clone();
        attempt[n - 1] = -7;
        attempt[env_index] = bad;
        assert_eq!(
            env.step(&attempt, b.out(Format::BytesPacked)),
            Err(VecEnvError::IllegalAction {
                env: env_index,
                action: bad
            })
        );
    }
    // A legal number that is not legal in its game: a step off the board from a1.
    let mut attempt = legal.clone();
    attempt[1200] = 0;
    assert!(matches!(
        env.step(&attempt, b.out(Format::FloatBool)),
        Err(VecEnvError::IllegalAction {
            env: 1200,
            action: 0
        })
    ));
    assert!(matches!(
        env.step(&legal[..2], b.out(Format::FloatBool)),
        Err(VecEnvError::BufferLength {
            name: "actions",
            expected: 2100,
            got: 2
        })
    ));
    let mut short = Buffers::new(2, Layout::Flat);
    for case in 0..3 {
        let (observations, masks, name) = match case {
            0 => (
                Observations::F32(&mut short.obs),
                Masks::Bool(&mut b.masks),
                "observations",
            ),
            1 => (
                Observations::U8(&mut b.obs8),
                Masks::Packed(&mut short.packed),
                "masks",
            ),
            // Packed masks where bool masks are expected are too short.
            _ => (
                Observations::U8(&mut b.obs8),
                Masks::Packed(&mut b.packed[..n]),
                "masks",
            ),
        };
        let out = StepBuffers {
            observations,
            rewards: &mut b.rewards,
            terminations: &mut b.terms,
            masks,
        };
        assert!(matches!(
            env.step(&legal, out),
            Err(VecEnvError::BufferLength { name: got, .. }) if got == name
        ));
    }
    for i in 0..n {
        assert_eq!(env.moves(i), before.moves(i));
        assert_eq!(env.position(i), before.position(i));
    }
    // The generators did not move either.
    let (mut x, mut y) = (vec![0; n], vec![0; n]);
    env.random_actions(&mut x).unwrap();
    before.clone().random_actions(&mut y).unwrap();
    assert_eq!(x, y);
}

#[test]
fn bad_batches_threads_and_starts_are_refused() {
    assert_eq!(
        VecEnv::new(0, 0, Layout::Flat, None).unwrap_err(),
        VecEnvError::BatchSize(0)
    );
    assert_eq!(
        VecEnv::new(usize::MAX, 0, Layout::Flat, None).unwrap_err(),
        VecEnvError::BatchSize(usize::MAX)
    );
    let won: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b"
        .parse()
        .unwrap();
    assert_eq!(
        VecEnv::new(1, 0, Layout::Flat, Some(won)).unwrap_err(),
        VecEnvError::StartDecided
    );
    let mut env = VecEnv::new(1, 0, Layout::Flat, None).unwrap();
    let threads = env.threads();
    assert!((1..=VecEnv::MAX_THREADS).contains(&threads));
    for bad in [0, VecEnv::MAX_THREADS + 1, usize::MAX] {
        assert_eq!(env.set_threads(bad), Err(VecEnvError::Threads(bad)));
    }
    assert_eq!(env.threads(), threads);
    env.set_threads(VecEnv::MAX_THREADS).unwrap();
    assert_eq!(env.threads(), VecEnv::MAX_THREADS);
}

#[test]
fn a_game_keeps_little_memory() {
    // Step one game through many random games: its memory follows the game in progress
    // (a long game's history is released when it ends), and is far below a `Game`'s.
    let mut env = env(1, 8, Layout::Flat, 1);
    let mut b = Buffers::new(1, Layout::Flat);
    let mut actions = [0i64];
    let mut most = 0;
    let mut ended = 0;
    while ended < 200 {
        env.random_actions(&mut actions).unwrap();
        env.step(&actions, b.out(Format::BytesPacked)).unwrap();
        let plies = env.moves(0).len();
        let bytes = env.game_bytes(0);
        // The fixed part, and at most 16 bytes of table and 6 of moves a ply, or what a game
        // keeps when it starts again.
        let kept = 2048 * 4 + 1024 * 3;
        assert!(
            bytes <= 1024 + kept.max(22 * (plies + 1)),
            "{bytes} bytes at {plies} plies"
        );
        most = most.max(bytes);
        if b.terms[0] {
            ended += 1;
            assert!(env.game_bytes(0) <= 1024 + 2048 * 4 + 1024 * 3);
        }
    }
    assert!(most > 2048);
}

#[test]
fn a_large_batch_draws_and_checks_alike_on_any_threads() {
    // 2100 games: the light passes (drawing and checking the actions) are shared too.
    let n = 2100;
    let run = |threads| {
        let mut env = env(n, 21, Layout::Flat, threads);
        let mut b = Buffers::new(n, Layout::Flat);
        let mut actions = vec![0i64; n];
        let mut seen = Vec::new();
        for _ in 0..20 {
            env.random_actions(&mut actions).unwrap();
            env.step(&actions, b.out(Format::BytesPacked)).unwrap();
            seen.extend_from_slice(&actions);
        }
        (seen, b.obs8, b.packed)
    };
    let one = run(1);
    assert!(run(2) == one);
    assert!(run(5) == one);
}
