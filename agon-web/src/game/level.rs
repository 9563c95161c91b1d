//! [`Level`]: how strongly the computer plays, as a reference bot of `agon-bots`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use agon_bots::{Bot, BotKind, BotSpec};
use agon_core::{Game, Move};

/// The computer's strength, chosen when a game is created.
///
/// ```
/// use agon_web::Level;
/// let level: Level = "hard".parse().unwrap();
/// assert_eq!(level, Level::Hard);
/// assert_eq!(level.to_string(), "hard");
/// assert!("expert".parse::<Level>().is_err());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    /// One ply: the move whose result the evaluation likes best.
    Easy,
    /// Alpha-beta, [`Level::MEDIUM_DEPTH`] plies.
    Medium,
    /// The engine (`agon_bots::Engine`: principal-variation search) to a deadline of
    /// [`Level::HARD_BUDGET`]. At equal time it beat the alpha-beta bot the hard level
    /// used before, `alphabeta:30`: 8 wins, 8 draws, no loss from the opening book at
    /// 100 ms a move.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// How long the hard level searches a move: the deadline it stops at, well inside the
    /// 2 s a player should wait.
    pub const HARD_BUDGET: Duration = Duration::from_millis(1500);

    /// The level's name: `easy`, `medium` or `hard`.
    ///
    /// ```
    /// assert_eq!(agon_web::Level::Medium.name(), "medium");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The depth of the medium level's alpha-beta search.
    pub const MEDIUM_DEPTH: u32 = 3;

    /// The bot this level plays, as a spec of agon-bots (read and written by
    /// `agon_bots::BotSpec`; this module never splits spec text). The searching levels
    /// stop at [`Level::HARD_BUDGET`]: the medium level's cap is far above its usual time,
    /// so that no position can hold a player long.
    ///
    /// ```
    /// use agon_bots::{BotKind, BotSpec};
    /// use agon_web::Level;
    /// assert_eq!(Level::Easy.spec().kind, BotKind::Greedy);
    /// assert_eq!(Level::Medium.spec().budget, Some(Level::MEDIUM_DEPTH));
    /// for level in [Level::Medium, Level::Hard] {
    ///     assert_eq!(level.spec().time, Some(Level::HARD_BUDGET));
    /// }
    /// // The spec reads back as itself.
    /// for level in Level::ALL {
    ///     assert_eq!(level.bot_spec().parse::<BotSpec>().unwrap(), level.spec());
    /// }
    /// ```
    pub const fn spec(self) -> BotSpec {
        match self {
            Level::Easy => BotSpec::new(BotKind::Greedy),
            Level::Medium => BotSpec::new(BotKind::AlphaBeta)
                .with_budget(Level::MEDIUM_DEPTH)
                .with_time(Level::HARD_BUDGET),
            Level::Hard => BotSpec::new(BotKind::Engine).with_time(Level::HARD_BUDGET),
        }
    }

    /// The bot spec of `agon_bots::bot_by_name` this level plays: [`Level::spec`] as text.
    ///
    /// ```
    /// use agon_web::Level;
    /// assert_eq!(Level::Easy.bot_spec(), "greedy");
    /// assert!(Level::Hard.bot_spec().starts_with("engine:"));
    /// ```
    pub fn bot_spec(self) -> String {
        self.spec().to_string()
    }

    /// About how long a search of this level takes, in milliseconds (measured by the
    /// `levels` example, rounded up): what the search workers' queue counts.
    ///
    /// ```
    /// use agon_web::Level;
    /// assert_eq!(Level::Hard.expected_ms(), Level::HARD_BUDGET.as_millis() as usize);
    /// ```
    pub const fn expected_ms(self) -> usize {
        match self {
            Level::Easy => 1,
            Level::Medium => 5,
            Level::Hard => Level::HARD_BUDGET.as_millis() as usize,
        }
    }

    /// The bot of this level, seeded (the game's seed makes its replies reproducible).
    ///
    /// ```
    /// use agon_web::Level;
    /// assert_eq!(Level::Easy.bot(7).name(), "greedy");
    /// ```
    pub fn bot(self, seed: u64) -> Box<dyn Bot + Send> {
        self.spec().bot(seed)
    }

    /// The computer's move in `game` at this level, or `None` when the game is over.
    ///
    /// ```
    /// use agon_core::Game;
    /// use agon_web::Level;
    /// let game = Game::new();
    /// let m = Level::Easy.choose(&game, 1).unwrap();
    /// assert!(game.is_legal(m));
    /// ```
    pub fn choose(self, game: &Game, seed: u64) -> Option<Move> {
        self.bot(seed).choose_in_game(game)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("level must be easy, medium or hard, not {s:?}"))
    }
}
