//! The batch environment against the core's own games: the same moves, rewards, restarts,
//! observations and masks as playing each game by hand.

use agon_core::{Game, Position};
use agon_rl::{
    write_mask, write_observation, Action, Layout, StepBuffers, VecEnv, VecEnvError, ACTION_COUNT,
};

struct Buffers {
    obs: Vec<f32>,
    rewards: Vec<f32>,
    terms: Vec<bool>,
    masks: Vec<bool>,
}

impl Buffers {
    fn new(n: usize, layout: Layout) -> Buffers {
        Buffers {
            obs: vec![0.0; n * layout.observation_len()],
            rewards: vec![0.0; n],
            terms: vec![false; n],
            masks: vec![false; n * ACTION_COUNT],
        }
    }

    fn out(&mut self) -> StepBuffers<'_, f32> {
        StepBuffers {
            observations: &mut self.obs,
            rewards: &mut self.rewards,
            terminations: &mut self.terms,
            masks: &mut self.masks,
        }
    }
}

#[test]
fn stepping_agrees_with_playing_each_game_by_hand() {
    let n = 6;
    let layout = Layout::Axial;
    let len = layout.observation_len();
    let mut env = VecEnv::new(n, 3, layout, None).unwrap();
    let mut games = vec![Game::new(); n];
    let mut b = Buffers::new(n, layout);
    let mut actions = vec![0i64; n];
    let mut ended = 0;
    let (mut obs, mut mask) = (vec![0.0f32; len], vec![false; ACTION_COUNT]);
    for _ in 0..3000 {
        env.random_actions(&mut actions).unwrap();
        env.step(&actions, b.out()).unwrap();
        for (i, game) in games.iter_mut().enumerate() {
            let m = Action::new(actions[i] as usize)
                .unwrap()
                .to_move(game.position())
                .unwrap();
            let mover = game.position().turn();
            game.play(m).unwrap();
            let (reward, term) = match game.outcome() {
                Some(o) => {
                    ended += 1;
                    *game = Game::new();
                    (
                        o.winner
                            .map_or(0.0, |w| if w == mover { 1.0 } else { -1.0 }),
                        true,
                    )
                }
                None => (0.0, false),
            };
            assert_eq!((b.rewards[i], b.terms[i]), (reward, term));
            assert_eq!(env.games()[i].moves(), game.moves());
            write_observation(game.position(), layout, &mut obs);
            write_mask(game.actions().iter(), &mut mask);
            assert_eq!(&b.obs[i * len..(i + 1) * len], &obs[..]);
            assert_eq!(
                &b.masks[i * ACTION_COUNT..(i + 1) * ACTION_COUNT],
                &mask[..]
            );
        }
    }
    assert!(ended > 0, "no game ended in 3000 steps of 6 games");
}

#[test]
fn the_same_seed_gives_the_same_batch() {
    let run = |seed| {
        let mut env = VecEnv::new(8, seed, Layout::Flat, None).unwrap();
        let mut b = Buffers::new(8, Layout::Flat);
        let mut actions = vec![0i64; 8];
        let mut seen = Vec::new();
        for _ in 0..200 {
            env.random_actions(&mut actions).unwrap();
            env.step(&actions, b.out()).unwrap();
            seen.extend_from_slice(&actions);
        }
        seen
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
}

#[test]
fn refused_calls_change_nothing() {
    let mut env = VecEnv::new(3, 5, Layout::Flat, None).unwrap();
    let mut b = Buffers::new(3, Layout::Flat);
    let mut actions = vec![0i64; 3];
    env.random_actions(&mut actions).unwrap();
    env.step(&actions, b.out()).unwrap();
    let before = env.clone();
    let legal = {
        let mut a = vec![0i64; 3];
        env.clone().random_actions(&mut a).unwrap();
        a
    };
    for (bad, env_index) in [(-1i64, 1), (ACTION_COUNT as i64, 2), (i64::MIN, 0)] {
        let mut attempt = legal.clone();
        attempt[env_index] = bad;
        assert_eq!(
            env.step(&attempt, b.out()),
            Err(VecEnvError::IllegalAction {
                env: env_index,
                action: bad
            })
        );
    }
    // A legal number that is not legal in its game: a step off the board from a1.
    let mut attempt = legal.clone();
    attempt[0] = 0;
    assert!(env.step(&attempt, b.out()).is_err());
    assert!(matches!(
        env.step(&legal[..2], b.out()),
        Err(VecEnvError::BufferLength {
            name: "actions",
            expected: 3,
            got: 2
        })
    ));
    let mut short = Buffers::new(2, Layout::Flat);
    let out = StepBuffers {
        observations: &mut short.obs,
        rewards: &mut b.rewards,
        terminations: &mut b.terms,
        masks: &mut b.masks,
    };
    assert!(matches!(
        env.step(&legal, out),
        Err(VecEnvError::BufferLength {
            name: "observations",
            ..
        })
    ));
    assert_eq!(env.games(), before.games());
}

#[test]
fn bad_batches_and_starts_are_refused() {
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
}
