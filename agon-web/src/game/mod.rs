//! The web game's own model and its rules of play: [`WebGame`] (an agon-core [`Game`] with
//! its seats, [`Clock`], [`Offers`] and the ends outside the rules, [`End`]) and the checks a
//! request must pass, each refused by a [`Refusal`] named as the API names it.
//!
//! Nothing here knows HTTP, SQL or tokio: the service ([`crate::service`]) loads a game,
//! asks it what an action does, and stores it; every method takes the time (`now_ms`) it
//! acts at, so that each is tested alone.

use agon_core::{CellSet, Game, IllegalMove, Move, Position, Side};

pub mod account;
mod clock;
mod level;
pub mod lobby;
mod offers;
pub mod rating;
mod record;
pub mod site;
pub mod speed;

pub use clock::{
    minutes_plus_seconds, now_ms, Clock, MAX_CLOCK_INCREMENT, MAX_CLOCK_MINUTES, MINUTE_MS,
};
pub use level::Level;
pub use offers::{Answer, Offers, TakenBack};
pub use record::record_of;

use speed::Speed;

/// The most moves a game may hold. Every request replays its game, so an endless game
/// would make each request slower; no game between a person and the computer comes near
/// this (random games average under 500 moves). A move past it is refused with
/// `409 game-too-long`.
pub const MAX_PLIES: usize = 10_000;

/// How long a side of a game between people with a clock has for its first move, in
/// milliseconds (or its clock's time, if that is less): White's from when both seats are
/// taken, Black's from White's first move. Past it the game is aborted
/// ([`EndKind::Aborted`]), not lost on time, as on lichess. A game without a clock has no
/// such limit.
///
/// ```
/// assert_eq!(agon_web::game::FIRST_MOVE_MS, 30_000);
/// ```
pub const FIRST_MOVE_MS: i64 = 30_000;

/// The plies during which a game between people may be aborted: until each side has made
/// its first move.
///
/// ```
/// assert_eq!(agon_web::game::ABORTABLE_PLIES, 2);
/// ```
pub const ABORTABLE_PLIES: usize = 2;

/// Who plays the creator: the computer, or a friend who joins by the game's link.
///
/// ```
/// use agon_web::game::Opponent;
/// assert_eq!(Opponent::Friend.name(), "friend");
/// assert_eq!("computer".parse::<Opponent>(), Ok(Opponent::Computer));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer, at the game's level.
    Computer,
    /// A person, who takes the other seat by `POST /api/games/{id}/join`.
    Friend,
}

impl Opponent {
    /// `computer` or `friend`.
    pub const fn name(self) -> &'static str {
        match self {
            Opponent::Computer => "computer",
            Opponent::Friend => "friend",
        }
    }
}

impl std::str::FromStr for Opponent {
    type Err = String;

    fn from_str(s: &str) -> Result<Opponent, String> {
        match s {
            "computer" => Ok(Opponent::Computer),
            "friend" => Ok(Opponent::Friend),
            _ => Err(format!("opponent must be computer or friend, not {s:?}")),
        }
    }
}

/// How a game ended outside agon-core's rules (the rules' own ends come from the replay).
///
/// ```
/// use agon_web::game::EndKind;
/// assert_eq!(EndKind::TimeForfeit.name(), "time-forfeit");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// A player gave the game up.
    Resignation,
    /// A player's clock ran out: the other wins.
    TimeForfeit,
    /// Both players agreed to a draw.
    Agreement,
    /// A side aborted the game before each side had made its first move, or a side did
    /// not make its first move in time ([`FIRST_MOVE_MS`]): no result, never rated.
    Aborted,
}

impl EndKind {
    /// `resignation`, `time-forfeit`, `agreement` or `aborted`.
    pub const fn name(self) -> &'static str {
        match self {
            EndKind::Resignation => "resignation",
            EndKind::TimeForfeit => "time-forfeit",
            EndKind::Agreement => "agreement",
            EndKind::Aborted => "aborted",
        }
    }

    /// Whether a game that ended so has a result (a win or a draw) to score and rate: all
    /// but an aborted one.
    ///
    /// ```
    /// use agon_web::game::EndKind;
    /// assert!(EndKind::Agreement.has_result());
    /// assert!(!EndKind::Aborted.has_result());
    /// ```
    pub const fn has_result(self) -> bool {
        !matches!(self, EndKind::Aborted)
    }

    /// The kind of this name, as [`EndKind::name`] writes it.
    pub fn from_name(name: &str) -> Option<EndKind> {
        [
            EndKind::Resignation,
            EndKind::TimeForfeit,
            EndKind::Agreement,
            EndKind::Aborted,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// The end of a game outside the rules: how, and who won (`None`: a draw, or no result
/// when aborted).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// How it ended.
    pub kind: EndKind,
    /// The winner, or `None` for a draw by agreement or an aborted game.
    pub winner: Option<Side>,
}

/// A game as the web game knows it: the agon-core [`Game`], who plays it, its clock,
/// offers and version.
#[derive(Clone, Debug)]
pub struct WebGame {
    /// The game's public id.
    pub id: String,
    /// The SHA-256 digest of the creator's secret token (the creator plays `human`).
    pub token_sha256: [u8; 32],
    /// The SHA-256 digest of the other seat's token, once a friend took it (never against
    /// the computer).
    pub guest_sha256: Option<[u8; 32]>,
    /// The side the creator plays; the computer or the friend plays the other.
    pub human: Side,
    /// The computer's level (unused in games between friends).
    pub level: Level,
    /// The seed of the computer's bot.
    pub seed: u64,
    /// Who plays the creator.
    pub opponent: Opponent,
    /// The display names of White's and Black's seats (by `Side::index`).
    pub names: [Option<String>; 2],
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// The game's version: +1 for every change, assigned in the change's transaction.
    pub version: i64,
    /// How the game ended outside the rules, if it did.
    pub end: Option<End>,
    /// The pending offers.
    pub offers: Offers,
    /// The rematch's id, once one was agreed.
    pub rematch_game: Option<String>,
    /// The game, replayed from its start position and moves.
    pub game: Game,
    /// The cells whose pieces the last move captured.
    pub last_captures: CellSet,
    /// Whether the game is rated: its result moves both players' ratings in its
    /// [`speed`](WebGame::speed) (both seats are accounts; never against the computer).
    pub rated: bool,
    /// The game's speed category, by its clock ([`Speed::of_clock`] of the clock as the
    /// players chose it); a game without a clock counts as correspondence.
    pub speed: Speed,
    /// The accounts of White's and Black's seats (`None`: a guest's seat, or the
    /// computer's), read with the game.
    pub players: [Option<SeatPlayer>; 2],
}

/// The account that holds a seat of a game.
///
/// ```
/// use agon_web::game::SeatPlayer;
/// let p = SeatPlayer { account_id: "00112233aabbccdd".into(), username: "Zoe".into(), deleted: false, bot: false, rating: Some([1500.0, 500.0]) };
/// assert!(!p.deleted);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SeatPlayer {
    /// The account's id.
    pub account_id: String,
    /// Its name (a deleted account's too: shown as "deleted player" instead).
    pub username: String,
    /// Whether the account was deleted.
    pub deleted: bool,
    /// Whether it is a bot account.
    pub bot: bool,
    /// In a rated game, the player's rating and deviation at the start.
    pub rating: Option<[f64; 2]>,
}

impl WebGame {
    /// A new game against the computer with no moves, under the rules of its start
    /// position, with no clock.
    pub fn new(
        id: String,
        token_sha256: [u8; 32],
        human: Side,
        level: Level,
        seed: u64,
        start: Position,
    ) -> WebGame {
        WebGame {
            id,
            token_sha256,
            guest_sha256: None,
            human,
            level,
            seed,
            opponent: Opponent::Computer,
            names: [None, None],
            clock: None,
            version: 0,
            end: None,
            offers: Offers::default(),
            rematch_game: None,
            game: Game::from_position(start),
            last_captures: CellSet::EMPTY,
            rated: false,
            speed: Speed::Correspondence,
            players: [None, None],
        }
    }

    /// The game's result once it has one: `Some(winner)`, `Some(None)` for a draw;
    /// `None` while it goes on, and for an aborted game (no result, never rated).
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{Opponent, WebGame}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// assert_eq!(game.result(), None);
    /// game.resign(Side::Black, 5)?;
    /// assert_eq!(game.result(), Some(Some(Side::White)));
    /// game.end = None;
    /// game.opponent = Opponent::Friend;
    /// game.abort(6)?;
    /// assert_eq!(game.result(), None);
    /// # Ok::<(), agon_web::game::Refusal>(())
    /// ```
    pub fn result(&self) -> Option<Option<Side>> {
        match self.end {
            Some(end) if end.kind.has_result() => Some(end.winner),
            Some(_) => None,
            None => self.game.outcome().map(|o| o.winner),
        }
    }

    /// Whether the game is over, by the rules or otherwise (resignation, time, agreement).
    pub fn is_over(&self) -> bool {
        self.end.is_some() || self.game.is_over()
    }

    /// Whether the game was resigned.
    pub fn resigned(&self) -> bool {
        self.end.is_some_and(|e| e.kind == EndKind::Resignation)
    }

    /// Whether the computer has to move now: it is the chooser of the next action
    /// (`Position::chooser()`: under `queen-placer=captor` the opponent of a side that
    /// must return its queen chooses where she goes).
    pub fn computer_to_move(&self) -> bool {
        self.opponent == Opponent::Computer
            && !self.is_over()
            && self.game.position().chooser() != self.human
    }

    /// Which seats are taken, White's and Black's (the computer's always is).
    pub fn seats_taken(&self) -> [bool; 2] {
        let mut taken = [true; 2];
        if self.opponent == Opponent::Friend && self.guest_sha256.is_none() {
            taken[self.human.other().index()] = false;
        }
        taken
    }

    /// The seat whose token has this digest, compared in constant time with both seats'.
    pub fn seat_of(&self, digest: &[u8; 32]) -> Option<Side> {
        use subtle::ConstantTimeEq;
        let creator = bool::from(self.token_sha256.ct_eq(digest));
        let guest = self
            .guest_sha256
            .is_some_and(|g| bool::from(g.ct_eq(digest)));
        if creator {
            Some(self.human)
        } else if guest {
            Some(self.human.other())
        } else {
            None
        }
    }

    /// The side whose clock runs: the chooser, once the clock started (with the first
    /// move: no time runs before it) and while the game goes on.
    pub fn running(&self) -> Option<Side> {
        let clock = self.clock?;
        clock.at_ms?;
        (!self.is_over() && self.plies() > 0).then(|| self.game.position().chooser())
    }

    /// When the game is aborted unless the chooser makes its first move (unix
    /// milliseconds): in a game between people with a clock, both seats taken, before each
    /// side has moved, [`FIRST_MOVE_MS`] (or the chooser's time, if less) after the wait
    /// began (`Clock::at_ms`: both seats taken, or White's first move). `None` otherwise.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{Clock, Opponent, WebGame}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// game.opponent = Opponent::Friend;
    /// game.clock = Some(Clock::new(10_000, 0));
    /// game.join([1; 32], None, 5_000)?;
    /// assert_eq!(game.first_move_deadline_ms(), Some(15_000), "the clock's 10 s, less than 30 s");
    /// # Ok::<(), agon_web::game::Refusal>(())
    /// ```
    pub fn first_move_deadline_ms(&self) -> Option<i64> {
        let clock = self.clock?;
        let waiting = self.opponent == Opponent::Friend
            && self.plies() < ABORTABLE_PLIES
            && self.seats_taken() == [true; 2]
            && !self.is_over();
        let chooser = self.game.position().chooser();
        let limit = FIRST_MOVE_MS.min(clock.remaining_ms[chooser.index()]);
        waiting.then_some(clock.at_ms? + limit)
    }

    /// Both sides' remaining times at `now_ms` (the running side's counted down, not below
    /// 0), White's first; `None` without a clock.
    pub fn remaining_at(&self, now_ms: i64) -> Option<[i64; 2]> {
        Some(self.clock?.remaining_with(self.running(), now_ms))
    }

    /// When the game ends unless the chooser moves (unix milliseconds): the first-move
    /// deadline ([`WebGame::first_move_deadline_ms`]), else when the running side's time
    /// runs out, if a clock runs. Its timer and the store's sweep wake at it.
    pub fn deadline_ms(&self) -> Option<i64> {
        if let Some(deadline) = self.first_move_deadline_ms() {
            return Some(deadline);
        }
        let side = self.running()?;
        let clock = self.clock?;
        Some(clock.at_ms? + clock.remaining_ms[side.index()])
    }

    /// Charges the running side with the time since the clock's last change, and sets
    /// that change to `now_ms`.
    fn charge(&mut self, now_ms: i64) {
        self.charge_from(self.running(), now_ms);
    }

    /// Charges `running` (the side whose time ran since the clock's last change, `None`
    /// if none did) and sets that change to `now_ms`; answers whether a time ran.
    fn charge_from(&mut self, running: Option<Side>, now_ms: i64) -> bool {
        match (&mut self.clock, running) {
            (Some(clock), Some(_)) => {
                clock.remaining_ms = clock.remaining_with(running, now_ms);
                clock.at_ms = Some(now_ms);
                true
            }
            _ => false,
        }
    }

    /// If the chooser's first move is overdue at `now_ms`, aborts the game
    /// ([`WebGame::first_move_deadline_ms`]); else if the running side's time has run out,
    /// ends the game by `time-forfeit` (the other side wins). Answers whether it ended.
    pub fn flag(&mut self, now_ms: i64) -> bool {
        if self.first_move_deadline_ms().is_some_and(|d| now_ms >= d) {
            self.end_with(EndKind::Aborted, None, now_ms);
            return true;
        }
        match (self.running(), self.deadline_ms()) {
            (Some(side), Some(deadline)) if now_ms >= deadline => {
                self.end_with(EndKind::TimeForfeit, Some(side.other()), now_ms);
                true
            }
            _ => false,
        }
    }

    /// Ends the game (resignation, agreement) at `now_ms`: the running clock stops.
    pub fn end_with(&mut self, kind: EndKind, winner: Option<Side>, now_ms: i64) {
        self.charge(now_ms);
        self.end = Some(End { kind, winner });
        self.offers.draw = None;
        self.offers.takeback = None;
    }

    /// Starts the clock at `now_ms` if it has not started and both seats are taken, once a
    /// move was made; between people also before it: `at_ms` is then when the wait for the
    /// first move began ([`WebGame::first_move_deadline_ms`]; no time runs before it).
    pub fn start_clock(&mut self, now_ms: i64) {
        let waits = self.plies() > 0 || self.opponent == Opponent::Friend;
        let ready = waits && self.seats_taken() == [true; 2] && !self.is_over();
        if let Some(clock) = &mut self.clock {
            if clock.at_ms.is_none() && ready {
                clock.at_ms = Some(now_ms);
            }
        }
    }

    /// Plays a move, keeping what it captured.
    pub fn play(&mut self, m: Move) -> Result<(), agon_core::IllegalMove> {
        self.last_captures = self.game.play(m)?;
        Ok(())
    }

    /// Plays a move at `now_ms`: the mover's clock is charged and gets the increment, and
    /// the pending draw and takeback offers lapse.
    pub fn play_at(&mut self, m: Move, now_ms: i64) -> Result<(), agon_core::IllegalMove> {
        let mover = self.game.position().chooser();
        let running = self.running();
        self.play(m)?;
        if self.charge_from(running, now_ms) {
            if let Some(clock) = &mut self.clock {
                clock.remaining_ms[mover.index()] += clock.increment_ms;
            }
        } else if self.plies() == 1 {
            // The first move: the clock starts now, whatever wait for it came before.
            if let Some(clock) = self.clock.as_mut().filter(|c| c.at_ms.is_some()) {
                clock.at_ms = Some(now_ms);
            }
        }
        self.start_clock(now_ms);
        self.offers.draw = None;
        self.offers.takeback = None;
        Ok(())
    }

    /// Takes back every move from ply `keep` on at `now_ms` (the running side is charged
    /// up to now; no time is given back), and the pending draw and takeback offers lapse.
    pub fn take_back_to(&mut self, keep: usize, now_ms: i64) {
        self.charge(now_ms);
        while self.plies() > keep {
            self.game.undo();
        }
        // What the move before captured, for the state's last_captures.
        let positions = self.game.positions();
        self.last_captures = match self.game.moves().last() {
            Some(&m) if positions.len() >= 2 => positions[positions.len() - 2].captures(m),
            _ => CellSet::EMPTY,
        };
        if self.plies() == 0 {
            if let Some(clock) = &mut self.clock {
                clock.at_ms = None;
            }
            // Between people the wait for the first move begins again.
            self.start_clock(now_ms);
        }
        self.offers.draw = None;
        self.offers.takeback = None;
    }

    /// The ply of `side`'s last action, if it made one: what a takeback goes back to. An
    /// action is a side's when it chose it (`Position::chooser()`), so under
    /// `queen-placer=captor` the return of the opponent's queen is the captor's.
    pub fn last_ply_of(&self, side: Side) -> Option<usize> {
        let positions = self.game.positions();
        // positions[i] is the position before move i.
        (0..self.plies())
            .rev()
            .find(|&i| positions[i].chooser() == side)
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }
}

/// Why the rules of play refuse an action, named as the API names it ([`Refusal::name`]).
///
/// ```
/// use agon_web::game::{Opponent, Refusal};
/// assert_eq!(Refusal::NotYourTurn(Opponent::Friend).name(), "not-your-turn");
/// assert_eq!(Refusal::NotYourTurn(Opponent::Friend).to_string(), "your opponent is to move");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The token is neither seat's.
    WrongToken,
    /// The game has ended.
    GameOver,
    /// The game holds the most moves it may (the limit).
    GameTooLong(usize),
    /// The other side is to move (the computer, or the friend).
    NotYourTurn(Opponent),
    /// The person is to move, not the computer.
    NotComputerTurn,
    /// The game is between friends.
    NotAgainstComputer,
    /// The game is against the computer.
    NotAFriendGame,
    /// No move to take back: the person's own (against the computer) or any (friends).
    NothingToUndo(Opponent),
    /// An offer of this kind is pending already.
    OfferPending,
    /// The opponent offered nothing to answer.
    NoOffer,
    /// Both seats are taken.
    SeatTaken,
    /// A rematch is offered once the game is over.
    GameNotOver,
    /// The rematch exists.
    RematchExists,
    /// Each side has made its first move: the game can no longer be aborted.
    TooLateToAbort,
    /// The move's text does not parse (agon-core's message).
    MalformedMove(String),
    /// The move is illegal here.
    Illegal(IllegalMove),
}

impl Refusal {
    /// The stable name: `game-over`, `not-your-turn`, ... (agon-core's for an illegal move).
    pub fn name(&self) -> &'static str {
        match self {
            Refusal::WrongToken => "wrong-token",
            Refusal::GameOver => "game-over",
            Refusal::GameTooLong(_) => "game-too-long",
            Refusal::NotYourTurn(_) => "not-your-turn",
            Refusal::NotComputerTurn => "not-computer-turn",
            Refusal::NotAgainstComputer => "not-against-computer",
            Refusal::NotAFriendGame => "not-a-friend-game",
            Refusal::NothingToUndo(_) => "nothing-to-undo",
            Refusal::OfferPending => "offer-pending",
            Refusal::NoOffer => "no-offer",
            Refusal::SeatTaken => "seat-taken",
            Refusal::GameNotOver => "game-not-over",
            Refusal::RematchExists => "rematch-exists",
            Refusal::TooLateToAbort => "too-late-to-abort",
            Refusal::MalformedMove(_) => "malformed-move",
            Refusal::Illegal(reason) => reason.name(),
        }
    }
}

impl std::fmt::Display for Refusal {
    /// A sentence for people.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::WrongToken => f.write_str("this token does not let you play this game"),
            Refusal::GameOver => f.write_str("the game has ended"),
            Refusal::GameTooLong(max) => write!(
                f,
                "this game has reached the limit of {max} moves: start a new one"
            ),
            Refusal::NotYourTurn(Opponent::Computer) => f.write_str("the computer is to move"),
            Refusal::NotYourTurn(Opponent::Friend) => f.write_str("your opponent is to move"),
            Refusal::NotComputerTurn => f.write_str("it is your turn, not the computer's"),
            Refusal::NotAgainstComputer => {
                f.write_str("this game is between friends, not against the computer")
            }
            Refusal::NotAFriendGame => f.write_str("this game is against the computer"),
            Refusal::NothingToUndo(Opponent::Computer) => {
                f.write_str("you have no move to take back")
            }
            Refusal::NothingToUndo(Opponent::Friend) => {
                f.write_str("there is no move to take back")
            }
            Refusal::OfferPending => f.write_str("an offer is already pending"),
            Refusal::NoOffer => f.write_str("your opponent has offered nothing to answer"),
            Refusal::SeatTaken => f.write_str("both seats are taken: you can watch the game"),
            Refusal::GameNotOver => f.write_str("a rematch is offered once the game is over"),
            Refusal::RematchExists => f.write_str("the rematch of this game has been created"),
            Refusal::TooLateToAbort => f.write_str(
                "both sides have made their first move: the game can no longer be aborted",
            ),
            Refusal::MalformedMove(message) => f.write_str(message),
            Refusal::Illegal(reason) => write!(f, "{reason}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The checks a request must pass, and the actions of a seat.
impl WebGame {
    /// The seat of a token's digest: [`Refusal::WrongToken`] for neither.
    pub fn seat(&self, digest: &[u8; 32]) -> Result<Side, Refusal> {
        self.seat_of(digest).ok_or(Refusal::WrongToken)
    }

    /// [`Refusal::GameOver`] once the game is over.
    pub fn ensure_not_over(&self) -> Result<(), Refusal> {
        match self.is_over() {
            true => Err(Refusal::GameOver),
            false => Ok(()),
        }
    }

    /// [`Refusal::GameTooLong`] once the game holds `max_plies` moves ([`MAX_PLIES`]), for
    /// the person's moves and the computer's alike.
    pub fn ensure_room(&self, max_plies: usize) -> Result<(), Refusal> {
        match self.plies() >= max_plies {
            true => Err(Refusal::GameTooLong(max_plies)),
            false => Ok(()),
        }
    }

    /// [`Refusal::NotAgainstComputer`] in a game between friends.
    pub fn ensure_computer(&self) -> Result<(), Refusal> {
        match self.opponent {
            Opponent::Computer => Ok(()),
            Opponent::Friend => Err(Refusal::NotAgainstComputer),
        }
    }

    /// [`Refusal::NotAFriendGame`] in a game against the computer.
    pub fn ensure_friend(&self) -> Result<(), Refusal> {
        match self.opponent {
            Opponent::Friend => Ok(()),
            Opponent::Computer => Err(Refusal::NotAFriendGame),
        }
    }

    /// [`Refusal::NotYourTurn`] while the computer is to move.
    pub fn ensure_persons_turn(&self) -> Result<(), Refusal> {
        match self.computer_to_move() {
            true => Err(Refusal::NotYourTurn(Opponent::Computer)),
            false => Ok(()),
        }
    }

    /// [`Refusal::NotComputerTurn`] unless the computer is to move.
    pub fn ensure_computer_turn(&self) -> Result<(), Refusal> {
        match self.computer_to_move() {
            true => Ok(()),
            false => Err(Refusal::NotComputerTurn),
        }
    }

    /// `seat` plays the move of `text` at `now_ms` (see [`WebGame::play_at`]), if the game
    /// goes on, has room for it and `seat` chooses the next action.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{Opponent, Refusal, WebGame, MAX_PLIES}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// game.move_of(Side::White, "f1-e1", 0, MAX_PLIES)?;
    /// assert_eq!(game.move_of(Side::White, "e1-d1", 0, MAX_PLIES), Err(Refusal::NotYourTurn(Opponent::Computer)));
    /// assert_eq!(game.move_of(Side::Black, "zz", 0, MAX_PLIES).unwrap_err().name(), "malformed-move");
    /// # Ok::<(), Refusal>(())
    /// ```
    pub fn move_of(
        &mut self,
        seat: Side,
        text: &str,
        now_ms: i64,
        max_plies: usize,
    ) -> Result<(), Refusal> {
        self.ensure_not_over()?;
        self.ensure_room(max_plies)?;
        if self.game.position().chooser() != seat {
            return Err(Refusal::NotYourTurn(self.opponent));
        }
        let m: Move = self
            .game
            .position()
            .parse_move(text)
            .map_err(|e| Refusal::MalformedMove(e.to_string()))?;
        self.play_at(m, now_ms).map_err(Refusal::Illegal)
    }

    /// Takes back the person's last move and the computer's replies after it at `now_ms`
    /// (against the computer; between friends a takeback is asked for,
    /// [`WebGame::answer_takeback`]): answers the number of moves kept.
    pub fn undo(&mut self, now_ms: i64) -> Result<usize, Refusal> {
        self.ensure_computer()?;
        match self.last_human_ply() {
            Some(keep) if self.end.is_none() => {
                self.take_back_to(keep, now_ms);
                Ok(keep)
            }
            _ => Err(Refusal::NothingToUndo(Opponent::Computer)),
        }
    }

    /// `seat` resigns at `now_ms`: the other side wins.
    pub fn resign(&mut self, seat: Side, now_ms: i64) -> Result<(), Refusal> {
        self.ensure_not_over()?;
        self.end_with(EndKind::Resignation, Some(seat.other()), now_ms);
        Ok(())
    }

    /// Either seat aborts the game at `now_ms`: it ends with no result ([`EndKind::Aborted`]).
    /// Between people, before each side has made its first move ([`ABORTABLE_PLIES`]).
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{EndKind, Opponent, Refusal, WebGame, MAX_PLIES}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// assert_eq!(game.abort(0), Err(Refusal::NotAFriendGame));
    /// game.opponent = Opponent::Friend;
    /// game.move_of(Side::White, "f1-e1", 0, MAX_PLIES)?;
    /// game.abort(0)?;
    /// assert_eq!((game.end.unwrap().kind, game.end.unwrap().winner), (EndKind::Aborted, None));
    /// # Ok::<(), Refusal>(())
    /// ```
    pub fn abort(&mut self, now_ms: i64) -> Result<(), Refusal> {
        self.ensure_friend()?;
        self.ensure_not_over()?;
        if self.plies() >= ABORTABLE_PLIES {
            return Err(Refusal::TooLateToAbort);
        }
        self.end_with(EndKind::Aborted, None, now_ms);
        Ok(())
    }

    /// Whether the game may be aborted now ([`WebGame::abort`]).
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{Opponent, WebGame}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// assert!(!game.can_abort(), "against the computer: resign or start again");
    /// game.opponent = Opponent::Friend;
    /// assert!(game.can_abort());
    /// ```
    pub fn can_abort(&self) -> bool {
        self.opponent == Opponent::Friend && !self.is_over() && self.plies() < ABORTABLE_PLIES
    }

    /// A friend takes the free seat at `now_ms`, with the token of this digest and a name:
    /// the clock starts if a move was made.
    pub fn join(
        &mut self,
        digest: [u8; 32],
        name: Option<String>,
        now_ms: i64,
    ) -> Result<Side, Refusal> {
        self.ensure_friend()?;
        if self.guest_sha256.is_some() {
            return Err(Refusal::SeatTaken);
        }
        self.ensure_not_over()?;
        let side = self.human.other();
        self.guest_sha256 = Some(digest);
        self.names[side.index()] = name;
        self.start_clock(now_ms);
        Ok(side)
    }

    /// The ply of the person's last move, if they have made one: what undo goes back to.
    /// A move is the person's when they chose it (`Position::chooser()`), so under
    /// `queen-placer=captor` the return of the computer's queen is theirs.
    pub fn last_human_ply(&self) -> Option<usize> {
        self.last_ply_of(self.human)
    }

    /// Whether the person has a move to take back (against the computer only).
    pub fn can_undo(&self) -> bool {
        self.opponent == Opponent::Computer && self.end.is_none() && self.last_human_ply().is_some()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const ID: &str = "0011223344556677";

    /// A game against the computer, the person White (game `0011223344556677`).
    pub(crate) fn computer_game() -> WebGame {
        WebGame::new(
            ID.into(),
            [1; 32],
            Side::White,
            Level::Easy,
            1,
            Position::start(),
        )
    }

    /// A game between friends, both seats taken, with a clock of a minute and a second a
    /// move when `clock` (not started).
    fn friends(clock: bool) -> WebGame {
        let mut game = computer_game();
        game.opponent = Opponent::Friend;
        game.guest_sha256 = Some([2; 32]);
        game.clock = clock.then(|| Clock::new(60_000, 1_000));
        game
    }

    /// The first legal move of the chooser, as text.
    fn any_move(game: &WebGame) -> String {
        game.game.legal_moves()[0].to_string()
    }

    /// The chooser plays its first legal move at `now_ms`.
    fn play(game: &mut WebGame, now_ms: i64) {
        let seat = game.game.position().chooser();
        let text = any_move(game);
        game.move_of(seat, &text, now_ms, MAX_PLIES).unwrap();
    }

    #[test]
    fn the_clock_starts_with_the_first_move_and_charges_each_mover_with_its_increment() {
        let mut game = friends(true);
        assert_eq!((game.running(), game.deadline_ms()), (None, None));
        let clock = |game: &WebGame| {
            game.clock
                .map(|c| (c.remaining_ms, c.at_ms, game.running()))
        };
        play(&mut game, 1_000);
        // The first move starts the clock: no time ran before it, no increment for it.
        let black = Some(Side::Black);
        assert_eq!(clock(&game), Some(([60_000, 60_000], Some(1_000), black)));
        assert_eq!(game.remaining_at(5_000), Some([60_000, 56_000]));
        // Black's first move is due within 30 s, before its minute runs out.
        assert_eq!(game.deadline_ms(), Some(1_000 + FIRST_MOVE_MS));
        play(&mut game, 4_000);
        // Black thought 3 s and gets its second.
        let white = Some(Side::White);
        assert_eq!(clock(&game), Some(([60_000, 58_000], Some(4_000), white)));
        assert_eq!(game.deadline_ms(), Some(64_000));
        // No time runs before the clock's last change, and none below 0.
        assert_eq!(game.remaining_at(3_000), Some([60_000, 58_000]));
        assert_eq!(game.remaining_at(100_000), Some([0, 58_000]));
    }

    #[test]
    fn the_clock_waits_for_both_seats() {
        let mut game = friends(true);
        game.guest_sha256 = None;
        play(&mut game, 1_000);
        assert_eq!(game.clock.unwrap().at_ms, None, "the friend has not joined");
        assert_eq!(
            game.join([2; 32], Some("Bo".into()), 7_000),
            Ok(Side::Black)
        );
        assert_eq!(game.clock.unwrap().at_ms, Some(7_000));
        assert_eq!(game.names[Side::Black.index()].as_deref(), Some("Bo"));
        assert_eq!(game.join([3; 32], None, 8_000), Err(Refusal::SeatTaken));
        assert_eq!(
            computer_game().join([3; 32], None, 0),
            Err(Refusal::NotAFriendGame)
        );
    }

    #[test]
    fn a_flag_falls_at_the_deadline_not_before() {
        let mut game = friends(true);
        play(&mut game, 1_000);
        play(&mut game, 1_000);
        play(&mut game, 1_000);
        game.offers.draw = Some(Side::White);
        // Black's minute and the second its first move earned, from the third move on.
        assert_eq!(game.deadline_ms(), Some(62_000));
        assert!(!game.flag(61_999));
        assert!(!game.is_over());
        assert!(game.flag(62_000));
        assert_eq!(
            game.end,
            Some(End {
                kind: EndKind::TimeForfeit,
                winner: Some(Side::White)
            })
        );
        // The clock stopped at the flag, Black's time spent; the offers lapsed.
        assert_eq!(game.running(), None);
        assert_eq!(game.clock.unwrap().remaining_ms, [61_000, 0]);
        assert_eq!(game.offers, Offers::default());
        assert!(!game.flag(100_000), "a game over does not flag again");
        assert_eq!(
            game.move_of(Side::Black, "pass", 0, MAX_PLIES),
            Err(Refusal::GameOver)
        );
    }

    #[test]
    fn either_side_may_abort_in_the_first_two_plies_and_no_later() {
        for aborter in [Side::White, Side::Black] {
            for plies in 0..=ABORTABLE_PLIES {
                let mut game = friends(true);
                game.start_clock(0);
                for i in 0..plies {
                    play(&mut game, 1_000 * (i as i64 + 1));
                }
                assert_eq!(game.can_abort(), plies < 2, "{plies} plies");
                game.offers.draw = Some(aborter);
                let seat = game.seat(&[[1; 32], [2; 32]][aborter.index()]);
                assert_eq!(seat, Ok(aborter));
                let before = game.clone();
                let result = game.abort(9_000);
                if plies < ABORTABLE_PLIES {
                    assert_eq!(result, Ok(()));
                    let end = End {
                        kind: EndKind::Aborted,
                        winner: None,
                    };
                    assert_eq!(game.end, Some(end));
                    assert!(game.is_over() && !game.can_abort());
                    assert_eq!((game.running(), game.deadline_ms()), (None, None));
                    assert_eq!(game.offers.draw, None, "offers lapse");
                    assert_eq!(game.abort(9_500), Err(Refusal::GameOver));
                    assert_eq!(game.resign(aborter, 9_500), Err(Refusal::GameOver));
                } else {
                    assert_eq!(result, Err(Refusal::TooLateToAbort));
                    assert_eq!(result.unwrap_err().name(), "too-late-to-abort");
                    assert_eq!(game.end, None);
                    assert_eq!(game.offers, before.offers, "nothing changed");
                }
            }
        }
        let mut game = computer_game();
        assert_eq!(game.abort(0), Err(Refusal::NotAFriendGame));
        assert!(!game.can_abort());
    }

    #[test]
    fn a_first_move_not_made_in_time_aborts_the_game_not_a_time_forfeit() {
        // White's first move: 30 s from the friend's joining, White's clock not running.
        let mut game = friends(true);
        game.guest_sha256 = None;
        assert_eq!(game.first_move_deadline_ms(), None, "nobody waits yet");
        game.join([2; 32], None, 1_000).unwrap();
        assert_eq!(game.running(), None);
        assert_eq!(game.remaining_at(20_000), Some([60_000, 60_000]));
        assert_eq!(game.deadline_ms(), Some(1_000 + FIRST_MOVE_MS));
        assert!(!game.flag(1_000 + FIRST_MOVE_MS - 1));
        assert!(game.flag(1_000 + FIRST_MOVE_MS));
        assert_eq!(game.end.unwrap().kind, EndKind::Aborted);
        assert_eq!(game.end.unwrap().winner, None);
        assert_eq!(game.clock.unwrap().remaining_ms, [60_000, 60_000]);

        // Black's: 30 s from White's first move, which starts the clock whenever it came.
        let mut game = friends(true);
        game.start_clock(0);
        play(&mut game, 20_000);
        assert_eq!(game.clock.unwrap().at_ms, Some(20_000));
        assert_eq!(game.remaining_at(25_000), Some([60_000, 55_000]));
        assert_eq!(game.deadline_ms(), Some(20_000 + FIRST_MOVE_MS));
        assert!(game.flag(20_000 + FIRST_MOVE_MS));
        assert_eq!(game.end.unwrap().kind, EndKind::Aborted);
        assert_eq!(game.clock.unwrap().remaining_ms, [60_000, 30_000]);

        // A clock shorter than 30 s: the clock's time, and still an abort.
        let mut game = friends(false);
        game.clock = Some(Clock::new(10_000, 0));
        game.start_clock(0);
        play(&mut game, 1_000);
        assert_eq!(game.deadline_ms(), Some(11_000));
        assert!(game.flag(11_000));
        assert_eq!(game.end.unwrap().kind, EndKind::Aborted);

        // Once both sides moved, the clock's deadline again: a time forfeit.
        let mut game = friends(true);
        game.start_clock(0);
        play(&mut game, 1_000);
        play(&mut game, 2_000);
        assert_eq!(game.first_move_deadline_ms(), None);
        assert_eq!(game.deadline_ms(), Some(62_000));
        assert!(game.flag(62_000));
        assert_eq!(game.end.unwrap().kind, EndKind::TimeForfeit);

        // No clock, or against the computer: no first-move limit.
        let mut game = friends(false);
        game.start_clock(0);
        assert_eq!(game.first_move_deadline_ms(), None);
        let mut game = computer_game();
        game.clock = Some(Clock::new(60_000, 0));
        game.start_clock(0);
        assert_eq!(game.clock.unwrap().at_ms, None);
        assert_eq!(game.first_move_deadline_ms(), None);
    }

    #[test]
    fn a_game_without_a_clock_never_flags() {
        let mut game = friends(false);
        play(&mut game, 0);
        assert_eq!(
            (game.running(), game.deadline_ms(), game.remaining_at(9)),
            (None, None, None)
        );
        assert!(!game.flag(i64::MAX));
    }

    #[test]
    fn a_move_lets_draw_and_takeback_offers_lapse() {
        let mut game = friends(false);
        play(&mut game, 0);
        game.answer_draw(Side::White, Answer::Offer, 0).unwrap();
        game.answer_takeback(Side::White, Answer::Offer, 0).unwrap();
        assert_eq!(game.offers.draw, Some(Side::White));
        assert_eq!(game.offers.takeback, Some(Side::White));
        play(&mut game, 0);
        assert_eq!((game.offers.draw, game.offers.takeback), (None, None));
    }

    #[test]
    fn offers_need_none_pending_and_answers_need_the_other_sides() {
        let mut game = friends(false);
        game.answer_draw(Side::White, Answer::Offer, 0).unwrap();
        assert_eq!(
            game.answer_draw(Side::Black, Answer::Offer, 0),
            Err(Refusal::OfferPending)
        );
        assert_eq!(
            game.answer_draw(Side::White, Answer::Decline, 0),
            Err(Refusal::NoOffer)
        );
        game.answer_draw(Side::Black, Answer::Decline, 0).unwrap();
        assert_eq!(game.offers.draw, None);
        assert_eq!(
            game.answer_draw(Side::White, Answer::Accept, 0),
            Err(Refusal::NoOffer)
        );
        game.answer_draw(Side::Black, Answer::Offer, 0).unwrap();
        game.answer_draw(Side::White, Answer::Accept, 5).unwrap();
        assert_eq!(
            game.end,
            Some(End {
                kind: EndKind::Agreement,
                winner: None
            })
        );
        assert_eq!(
            game.answer_draw(Side::White, Answer::Offer, 0),
            Err(Refusal::GameOver)
        );
        assert_eq!(
            computer_game().answer_draw(Side::White, Answer::Offer, 0),
            Err(Refusal::NotAFriendGame)
        );
    }

    /// `asker` asks to take back at `at_ms` and the other accepts a second later.
    fn asked_and_accepted(
        game: &mut WebGame,
        asker: Side,
        at_ms: i64,
    ) -> Result<Option<TakenBack>, Refusal> {
        game.answer_takeback(asker, Answer::Offer, at_ms)?;
        game.answer_takeback(asker.other(), Answer::Accept, at_ms + 1_000)
    }

    #[test]
    fn an_accepted_takeback_takes_back_the_askers_last_action_and_the_reply() {
        let mut game = friends(true);
        assert_eq!(
            game.answer_takeback(Side::White, Answer::Offer, 0),
            Err(Refusal::NothingToUndo(Opponent::Friend))
        );
        play(&mut game, 1_000); // White
        play(&mut game, 3_000); // Black
                                // White's move and Black's reply go; the clock had started with White's move.
        let kept = asked_and_accepted(&mut game, Side::White, 4_000);
        assert_eq!(kept, Ok(Some(TakenBack { keep: 0 })));
        assert_eq!(game.plies(), 0);
        assert_eq!(game.last_captures, CellSet::EMPTY);
        // Back to the start: no clock runs, and White's first move is awaited again.
        assert_eq!(game.running(), None);
        assert_eq!(game.clock.unwrap().at_ms, Some(5_000));
        assert_eq!(game.first_move_deadline_ms(), Some(5_000 + FIRST_MOVE_MS));
        assert_eq!(game.offers.takeback, None);
        // Black's own action, taken back alone.
        play(&mut game, 6_000);
        play(&mut game, 7_000);
        let kept = asked_and_accepted(&mut game, Side::Black, 8_000);
        assert_eq!(kept, Ok(Some(TakenBack { keep: 1 })));
        assert_eq!(game.plies(), 1);
        // Time is charged up to each takeback and never given back: White ran 2 s before
        // the first one (58 s) and 2 s before the second (56 s); Black's move after the
        // restart took 1 s and got its second back (59 s).
        assert_eq!(game.clock.unwrap().remaining_ms, [56_000, 59_000]);
    }

    #[test]
    fn undo_takes_back_the_persons_move_and_the_computers_reply() {
        let mut game = computer_game();
        assert_eq!(
            game.undo(0),
            Err(Refusal::NothingToUndo(Opponent::Computer))
        );
        assert_eq!(
            Refusal::NothingToUndo(Opponent::Computer).to_string(),
            "you have no move to take back"
        );
        play(&mut game, 0);
        assert!(game.computer_to_move());
        assert_eq!(
            game.ensure_persons_turn(),
            Err(Refusal::NotYourTurn(Opponent::Computer))
        );
        assert_eq!(game.ensure_computer_turn(), Ok(()));
        play(&mut game, 0);
        assert!(game.can_undo());
        assert_eq!(game.undo(0), Ok(0));
        assert_eq!(game.plies(), 0);
        assert!(!game.can_undo());
        assert_eq!(friends(false).undo(0), Err(Refusal::NotAgainstComputer));
    }

    #[test]
    fn a_resigned_game_is_lost_by_the_resigner_and_cannot_be_undone() {
        let mut game = computer_game();
        play(&mut game, 0);
        game.resign(Side::White, 0).unwrap();
        assert!(game.resigned() && game.is_over());
        assert_eq!(game.end.unwrap().winner, Some(Side::Black));
        assert_eq!(game.resign(Side::White, 0), Err(Refusal::GameOver));
        assert_eq!(
            game.undo(0),
            Err(Refusal::NothingToUndo(Opponent::Computer))
        );
        assert!(!game.computer_to_move());
    }

    #[test]
    fn a_rematch_is_answered_once_the_game_is_over() {
        let mut game = friends(false);
        assert_eq!(
            game.answer_rematch(Side::White, Answer::Offer),
            Err(Refusal::GameNotOver)
        );
        game.resign(Side::Black, 0).unwrap();
        assert_eq!(game.answer_rematch(Side::White, Answer::Offer), Ok(false));
        assert_eq!(game.offers.rematch, Some(Side::White));
        assert_eq!(
            game.answer_rematch(Side::White, Answer::Accept),
            Err(Refusal::NoOffer)
        );
        assert_eq!(game.answer_rematch(Side::Black, Answer::Accept), Ok(true));
        game.rematch_created("8899aabbccddeeff".into());
        assert_eq!(game.offers.rematch, None);
        assert_eq!(
            game.answer_rematch(Side::Black, Answer::Offer),
            Err(Refusal::RematchExists)
        );
        // Against the computer an offer creates it; nothing else is answered.
        let mut game = computer_game();
        game.resign(Side::White, 0).unwrap();
        assert_eq!(
            game.answer_rematch(Side::White, Answer::Accept),
            Err(Refusal::NoOffer)
        );
        assert_eq!(game.answer_rematch(Side::White, Answer::Offer), Ok(true));
    }

    #[test]
    fn a_token_finds_its_seat_and_no_other() {
        let game = friends(false);
        assert_eq!(game.seat(&[1; 32]), Ok(Side::White));
        assert_eq!(game.seat(&[2; 32]), Ok(Side::Black));
        assert_eq!(game.seat(&[3; 32]), Err(Refusal::WrongToken));
        assert_eq!(game.seats_taken(), [true, true]);
        let mut open = friends(false);
        open.guest_sha256 = None;
        assert_eq!(open.seats_taken(), [true, false]);
        assert_eq!(open.seat(&[2; 32]), Err(Refusal::WrongToken));
    }

    #[test]
    fn a_move_is_refused_by_name_before_it_changes_anything() {
        let mut game = friends(false);
        let text = any_move(&game);
        assert_eq!(
            game.move_of(Side::Black, &text, 0, MAX_PLIES),
            Err(Refusal::NotYourTurn(Opponent::Friend))
        );
        assert_eq!(
            game.move_of(Side::White, &text, 0, 0),
            Err(Refusal::GameTooLong(0))
        );
        assert_eq!(
            Refusal::GameTooLong(10_000).to_string(),
            "this game has reached the limit of 10000 moves: start a new one"
        );
        let e = game.move_of(Side::White, "f1-", 0, MAX_PLIES).unwrap_err();
        assert_eq!(e.name(), "malformed-move");
        let e = game.move_of(Side::White, "pass", 0, MAX_PLIES).unwrap_err();
        assert!(matches!(e, Refusal::Illegal(_)), "{e:?}");
        assert_eq!(game.plies(), 0, "nothing changed");
        assert_eq!(game.version, 0);
    }
}
