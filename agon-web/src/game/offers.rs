//! What two people ask each other: draw offers, takeback requests and rematches, each
//! offered by one seat and accepted or declined by the other ([`Answer`]).
//!
//! An `offer` records the offering side in the game ([`Refusal::OfferPending`] if one is
//! already pending); `accept` and `decline` need an offer by the OTHER side
//! ([`Refusal::NoOffer`]). Any move lets a pending draw or takeback offer lapse.

use agon_core::Side;

use super::{EndKind, Opponent, Refusal, WebGame};

/// The pending offers of a game between friends: the side offering each, or `None`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// A draw offer.
    pub draw: Option<Side>,
    /// A takeback request (of the offering side's last action).
    pub takeback: Option<Side>,
    /// A rematch offer (only once the game is over).
    pub rematch: Option<Side>,
}

/// What a seat says to an offer.
///
/// ```
/// use agon_web::game::Answer;
/// assert_eq!("accept".parse::<Answer>(), Ok(Answer::Accept));
/// assert!("yes".parse::<Answer>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Offers (or asks for) it.
    Offer,
    /// Accepts the other side's offer.
    Accept,
    /// Declines the other side's offer.
    Decline,
}

impl Answer {
    /// Every answer.
    pub const ALL: [Answer; 3] = [Answer::Offer, Answer::Accept, Answer::Decline];

    /// `offer`, `accept` or `decline`.
    pub const fn name(self) -> &'static str {
        match self {
            Answer::Offer => "offer",
            Answer::Accept => "accept",
            Answer::Decline => "decline",
        }
    }
}

impl std::str::FromStr for Answer {
    type Err = String;

    /// The answer of this name; else what the text should have been.
    fn from_str(text: &str) -> Result<Answer, String> {
        let answer = Answer::ALL.into_iter().find(|a| a.name() == text);
        answer.ok_or_else(|| format!("answer must be offer, accept or decline, not {text:?}"))
    }
}

/// Checks an answer against the pending offer of its kind: an offer needs none pending,
/// an accept or a decline needs the other side's.
fn check(pending: Option<Side>, seat: Side, answer: Answer) -> Result<(), Refusal> {
    match (answer, pending) {
        (Answer::Offer, None) => Ok(()),
        (Answer::Offer, Some(_)) => Err(Refusal::OfferPending),
        (_, Some(side)) if side == seat.other() => Ok(()),
        _ => Err(Refusal::NoOffer),
    }
}

/// What accepting a takeback did: the moves from ply `keep` on were taken back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TakenBack {
    /// The number of moves left.
    pub keep: usize,
}

impl WebGame {
    /// `seat`'s answer about a draw at `now_ms`: an offer is recorded, an accept ends the
    /// game by `agreement`, a decline clears the offer. Between friends, in a game going on.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{Answer, EndKind, Opponent, Refusal, WebGame}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// game.opponent = Opponent::Friend;
    /// game.answer_draw(Side::White, Answer::Offer, 0)?;
    /// assert_eq!(game.answer_draw(Side::White, Answer::Accept, 0), Err(Refusal::NoOffer));
    /// game.answer_draw(Side::Black, Answer::Accept, 0)?;
    /// assert_eq!(game.end.unwrap().kind, EndKind::Agreement);
    /// # Ok::<(), Refusal>(())
    /// ```
    pub fn answer_draw(&mut self, seat: Side, answer: Answer, now_ms: i64) -> Result<(), Refusal> {
        self.ensure_friend()?;
        self.ensure_not_over()?;
        check(self.offers.draw, seat, answer)?;
        match answer {
            Answer::Offer => self.offers.draw = Some(seat),
            Answer::Accept => self.end_with(EndKind::Agreement, None, now_ms),
            Answer::Decline => self.offers.draw = None,
        }
        Ok(())
    }

    /// `seat`'s answer about taking back its last action (and the opponent's reply after
    /// it, if any) at `now_ms`: an offer needs an action of `seat` to take back; an accept
    /// takes back the offering side's last action (answered: what is kept); a decline
    /// clears the request. Between friends, in a game going on.
    pub fn answer_takeback(
        &mut self,
        seat: Side,
        answer: Answer,
        now_ms: i64,
    ) -> Result<Option<TakenBack>, Refusal> {
        self.ensure_friend()?;
        self.ensure_not_over()?;
        check(self.offers.takeback, seat, answer)?;
        let nothing = || Refusal::NothingToUndo(Opponent::Friend);
        match answer {
            Answer::Offer => {
                self.last_ply_of(seat).ok_or_else(nothing)?;
                self.offers.takeback = Some(seat);
                Ok(None)
            }
            Answer::Accept => {
                // Any move clears the offer, so the offering side's last action is the
                // one it asked about.
                let keep = self.last_ply_of(seat.other()).ok_or_else(nothing)?;
                self.take_back_to(keep, now_ms);
                Ok(Some(TakenBack { keep }))
            }
            Answer::Decline => {
                self.offers.takeback = None;
                Ok(None)
            }
        }
    }

    /// `seat`'s answer about a rematch, once the game is over: answers whether the
    /// rematch is to be created now (against the computer an offer creates it; between
    /// friends an accept does). The caller creates it ([`WebGame::rematch`]) and records
    /// it ([`WebGame::rematch_created`]).
    pub fn answer_rematch(&mut self, seat: Side, answer: Answer) -> Result<bool, Refusal> {
        if !self.is_over() {
            return Err(Refusal::GameNotOver);
        }
        if self.rematch_game.is_some() {
            return Err(Refusal::RematchExists);
        }
        match (self.opponent, answer) {
            (Opponent::Computer, Answer::Offer) => Ok(true),
            (Opponent::Computer, _) => Err(Refusal::NoOffer),
            (Opponent::Friend, _) => {
                check(self.offers.rematch, seat, answer)?;
                match answer {
                    Answer::Offer => self.offers.rematch = Some(seat),
                    Answer::Decline => self.offers.rematch = None,
                    Answer::Accept => {}
                }
                Ok(answer == Answer::Accept)
            }
        }
    }

    /// The rematch of this game (over): a new game `id` under the same rules, from the
    /// same start, with the same clock, colours swapped: each seat keeps its token (its
    /// digest) and name.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::{Clock, WebGame}, Level};
    /// let mut game = WebGame::new("0011223344556677".into(), [7; 32], Side::White, Level::Easy, 1, Position::start());
    /// game.clock = Some(Clock { remaining_ms: [5, 6], at_ms: Some(9), ..Clock::new(60_000, 1_000) });
    /// let new = game.rematch("8899aabbccddeeff".into(), 2);
    /// assert_eq!((new.human, new.token_sha256, new.version), (Side::Black, [7; 32], 0));
    /// assert_eq!(new.clock, Some(Clock::new(60_000, 1_000)));
    /// ```
    pub fn rematch(&self, id: String, seed: u64) -> WebGame {
        let mut game = WebGame::new(
            id,
            self.token_sha256,
            self.human.other(),
            self.level,
            seed,
            *self.game.start(),
        );
        game.guest_sha256 = self.guest_sha256;
        game.opponent = self.opponent;
        game.names = [self.names[1].clone(), self.names[0].clone()];
        game.clock = self
            .clock
            .map(|c| super::Clock::new(c.initial_ms, c.increment_ms));
        // A rematch is casual, even of a rated game: rating a game needs its seats'
        // accounts, which a rematch between seat tokens does not carry.
        game.speed = self.speed;
        game
    }

    /// Records that the rematch `id` was created: the offer is settled.
    pub fn rematch_created(&mut self, id: String) {
        self.offers.rematch = None;
        self.rematch_game = Some(id);
    }
}
