//! Steps per second of the Rust batch environment, with random legal actions.
//!
//! ```sh
//! cargo run --release -p agon-rl --example vecenv -- 256 1024 8192
//! ```
//!
//! For each batch size, steps the batch for about a second (float32 observations in the
//! flat layout, bool masks) and prints one line: `n=1024 steps=... seconds=...
//! steps_per_second=...`. A step is one action in one game.

use std::time::Instant;

use agon_rl::{Layout, StepBuffers, VecEnv, ACTION_COUNT};

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("batch sizes are numbers"))
        .collect();
    let sizes = if sizes.is_empty() {
        vec![256, 1024, 8192]
    } else {
        sizes
    };
    for n in sizes {
        let layout = Layout::Flat;
        let mut env =
            VecEnv::new(n, 1, layout, None).expect("a batch size from 1 to VecEnv::MAX_ENVS");
        let mut obs = vec![0.0f32; n * layout.observation_len()];
        let (mut rewards, mut terms) = (vec![0.0f32; n], vec![false; n]);
        let mut masks = vec![false; n * ACTION_COUNT];
        let mut actions = vec![0i64; n];
        let started = Instant::now();
        let mut steps = 0u64;
        while started.elapsed().as_secs_f64() < 1.0 {
            env.random_actions(&mut actions).unwrap();
            let out = StepBuffers {
                observations: &mut obs,
                rewards: &mut rewards,
                terminations: &mut terms,
                masks: &mut masks,
            };
            env.step(&actions, out).unwrap();
            steps += n as u64;
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "n={n} steps={steps} seconds={seconds:.2} steps_per_second={:.0}",
            steps as f64 / seconds
        );
    }
}
