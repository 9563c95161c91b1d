//! [`Sprt`]: the sequential probability ratio test, and Elo.

use std::fmt;

/// A sequential probability ratio test (SPRT): the Elo of H0 and H1 (of the first player
/// over the second, `elo0 < elo1`), and the error rates.
///
/// Engine authors use the SPRT to accept or reject a change: games are played until the log-likelihood ratio (LLR) of "B is
/// `elo1` stronger" against "B is `elo0` stronger" crosses a bound fixed by the error
/// rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds):
/// below `ln(beta / (1 - alpha))` H0 is accepted, above `ln((1 - beta) / alpha)` H1 is
/// (Wald's bounds; ±2.94 for `alpha = beta = 0.05`).
///
/// Two models of the LLR from wins, draws and losses are given:
///
/// - [`Sprt::llr`], the default: the generalised SPRT on **logistic Elo** with the
///   trinomial normal approximation (as on the Chess Programming Wiki's *Match Statistics*
///   page, and OpenBench): with `N` games, score `s = (W + D/2) / N`, per-game variance
///   `v = (W + D/4) / N - s²`, and `sᵢ = 1 / (1 + 10^(-eloᵢ / 400))`,
///   `LLR = (s1 - s0) (2s - s0 - s1) N / (2v)`. It works without draws, which are rare
///   in some Agon matches.
/// - [`Sprt::llr_bayes_elo`]: the SPRT of cutechess-cli on **BayesElo**, with the draw
///   Elo estimated from the games; it needs at least one win, draw and loss (0 otherwise,
///   as in cutechess-cli).
///
/// ```
/// use agon_bots::{Decision, Sprt};
///
/// let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05)?;
/// let (lower, upper) = sprt.bounds();
/// assert_eq!((lower * 100.0).round(), -294.0);
/// assert_eq!((upper * 100.0).round(), 294.0);
/// assert_eq!(sprt.decision(10, 10, 10), Decision::Continue);
/// assert_eq!(sprt.decision(700, 300, 500), Decision::AcceptH1);
/// assert_eq!(sprt.decision(500, 300, 700), Decision::AcceptH0);
/// # Ok::<(), agon_bots::SprtError>(())
/// ```
///
/// Its text names its parameters:
///
/// ```
/// use agon_bots::Sprt;
/// let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05)?;
/// assert_eq!(sprt.to_string(), "SPRT elo0=0.0 elo1=5.0 alpha=0.05 beta=0.05");
/// # Ok::<(), agon_bots::SprtError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

/// Why SPRT parameters were refused.
///
/// ```
/// use agon_bots::{Sprt, SprtError};
/// assert_eq!(Sprt::new(5.0, 0.0, 0.05, 0.05), Err(SprtError::EloOrder));
/// assert_eq!(Sprt::new(0.0, 5.0, 0.0, 0.05), Err(SprtError::ErrorRate));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum SprtError {
    /// `elo0` is not below `elo1`, or one is not finite or beyond ±1000.
    EloOrder,
    /// `alpha` or `beta` is not strictly between 0 and 0.5.
    ErrorRate,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtError::EloOrder => "elo0 must be below elo1, both finite and within ±1000",
            SprtError::ErrorRate => "alpha and beta must be between 0 and 0.5",
        })
    }
}

impl std::error::Error for SprtError {}

/// What an [`Sprt`] says of the games so far.
///
/// ```
/// use agon_bots::Decision;
/// assert_eq!(Decision::AcceptH1.to_string(), "H1 accepted");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Decision {
    /// The LLR fell below the lower bound: the first player is not `elo1` stronger.
    AcceptH0,
    /// The LLR rose above the upper bound: the first player is at least `elo0` stronger.
    AcceptH1,
    /// Neither: play on.
    Continue,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
            Decision::Continue => "continue",
        })
    }
}

/// The expected score of a player `elo` stronger, on the logistic scale.
///
/// ```
/// use agon_bots::expected_score;
/// assert_eq!(expected_score(0.0), 0.5);
/// assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
/// ```
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of a score (the inverse of [`expected_score`]), infinite
/// at 0 and 1.
///
/// ```
/// use agon_bots::elo_of_score;
/// assert_eq!(elo_of_score(0.5), 0.0);
/// assert_eq!(elo_of_score(1.0), f64::INFINITY);
/// ```
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Sprt {
    /// An SPRT of H0 "`elo0`" against H1 "`elo1`" with error rates `alpha`, `beta`.
    ///
    /// # Errors
    ///
    /// [`SprtError::EloOrder`] unless `-1000 <= elo0 < elo1 <= 1000`,
    /// [`SprtError::ErrorRate`] unless both rates lie strictly between 0 and 0.5.
    ///
    /// ```
    /// assert!(agon_bots::Sprt::new(-5.0, 0.0, 0.1, 0.1).is_ok());
    /// ```
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let elo_ok = |e: f64| e.is_finite() && e.abs() <= 1000.0;
        if !(elo_ok(elo0) && elo_ok(elo1) && elo0 < elo1) {
            return Err(SprtError::EloOrder);
        }
        let rate_ok = |r: f64| r > 0.0 && r < 0.5;
        if !(rate_ok(alpha) && rate_ok(beta)) {
            return Err(SprtError::ErrorRate);
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds on the LLR: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    ///
    /// ```
    /// let sprt = agon_bots::Sprt::new(0.0, 5.0, 0.05, 0.1)?;
    /// let (lower, upper) = sprt.bounds();
    /// assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
    /// assert!((upper - (0.9f64 / 0.05).ln()).abs() < 1e-12);
    /// # Ok::<(), agon_bots::SprtError>(())
    /// ```
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of the games on logistic Elo (see [`Sprt`]); 0 without games.
    /// An empty bin (no draws, say) counts as 0.001 games, as in fishtest, so that the
    /// variance is never zero.
    ///
    /// ```
    /// let sprt = agon_bots::Sprt::new(0.0, 10.0, 0.05, 0.05)?;
    /// assert_eq!(sprt.llr(0, 0, 0), 0.0);
    /// assert!(sprt.llr(20, 0, 0) > 2.95);
    /// assert!(sprt.llr(60, 0, 40) > 0.0);
    /// # Ok::<(), agon_bots::SprtError>(())
    /// ```
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        if wins == 0 && draws == 0 && losses == 0 {
            return 0.0;
        }
        // As fishtest does, a tiny count in each empty bin keeps the variance positive
        // when no game was drawn, or all were won.
        let bin = |k: u32| if k == 0 { 1e-3 } else { f64::from(k) };
        let (wins, draws, losses) = (bin(wins), bin(draws), bin(losses));
        let n = wins + draws + losses;
        let (w, d) = (wins / n, draws / n);
        let score = w + d / 2.0;
        let variance = w + d / 4.0 - score * score;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        (s1 - s0) * (2.0 * score - s0 - s1) * n / (2.0 * variance)
    }

    /// The LLR of the games on BayesElo, as cutechess-cli computes it: the draw Elo is
    /// estimated from the games, and `elo0`, `elo1` are read as BayesElo. 0 unless there is
    /// at least one win, one draw and one loss.
    ///
    /// ```
    /// let sprt = agon_bots::Sprt::new(0.0, 3.0, 0.05, 0.05)?;
    /// // The example of github.com/jw1912/SPRT: LLR 2.47.
    /// assert_eq!((sprt.llr_bayes_elo(4307, 8620, 4063) * 100.0).round(), 247.0);
    /// assert_eq!(sprt.llr_bayes_elo(10, 0, 5), 0.0);
    /// # Ok::<(), agon_bots::SprtError>(())
    /// ```
    pub fn llr_bayes_elo(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        if wins == 0 || draws == 0 || losses == 0 {
            return 0.0;
        }
        let n = f64::from(wins) + f64::from(draws) + f64::from(losses);
        let (pw, pl) = (f64::from(wins) / n, f64::from(losses) / n);
        let draw_elo = 200.0 * ((1.0 - 1.0 / pw) * (1.0 - 1.0 / pl)).log10();
        let probabilities = |elo: f64| {
            let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
            let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
            (win, 1.0 - win - loss, loss)
        };
        let (w0, d0, l0) = probabilities(self.elo0);
        let (w1, d1, l1) = probabilities(self.elo1);
        f64::from(wins) * (w1 / w0).ln()
            + f64::from(draws) * (d1 / d0).ln()
            + f64::from(losses) * (l1 / l0).ln()
    }

    /// The fewest games on which [`Sprt::decision`] decides.
    ///
    /// The LLR is a large-sample approximation: on a handful of games its variance comes
    /// from the empty bins' 0.001 games, so that two draws between engines 50 Elo apart
    /// read as an LLR of -20 and "accept H0", and two wins as +106. Fishtest only looks
    /// at the LLR after whole batches of games; 30 games, the smallest batch that makes
    /// an all-draw start unlikely (0.7³⁰ ≈ 2·10⁻⁵ at a 70% draw rate, engine against engine
    /// at 100 ms), play that part here.
    ///
    /// ```
    /// assert_eq!(agon_bots::Sprt::MIN_GAMES, 30);
    /// ```
    pub const MIN_GAMES: u32 = 30;

    /// The decision on the games by [`Sprt::llr`]: [`Decision::Continue`] before
    /// [`Sprt::MIN_GAMES`] games, whatever the LLR.
    ///
    /// ```
    /// use agon_bots::{Decision, Sprt};
    /// let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05)?;
    /// assert_eq!(sprt.decision(90, 0, 10), Decision::AcceptH1);
    /// // Two draws are no evidence, though their LLR is far below the bound.
    /// assert!(sprt.llr(0, 2, 0) < sprt.bounds().0);
    /// assert_eq!(sprt.decision(0, 2, 0), Decision::Continue);
    /// # Ok::<(), agon_bots::SprtError>(())
    /// ```
    pub fn decision(&self, wins: u32, draws: u32, losses: u32) -> Decision {
        if u64::from(wins) + u64::from(draws) + u64::from(losses) < u64::from(Sprt::MIN_GAMES) {
            return Decision::Continue;
        }
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT elo0={:.1} elo1={:.1} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}
