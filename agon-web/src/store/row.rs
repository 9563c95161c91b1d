//! [`GameRow`]: a game's row of `games`, as both stores read and write it, and its
//! conversion to and from a [`WebGame`] (whose moves are replayed from their rows).

use agon_core::{Move, Position, Rules, Side};

use super::sql::Value;
use super::StoreError;
use crate::game::speed::Speed;
use crate::game::{Clock, End, EndKind, Offers, SeatPlayer, WebGame};

/// A [`GameRow`] from a row of [`COLUMNS`]: `game_row_from!(row.get)` calls `row.get(0)?`
/// to `row.get(25)?` (each store's own row reader, typed by the field it fills).
macro_rules! game_row_from {
    ($row:ident . $get:ident) => {
        GameRow {
            id: $row.$get(0)?,
            token_sha256: $row.$get(1)?,
            human: $row.$get(2)?,
            level: $row.$get(3)?,
            start: $row.$get(4)?,
            seed: $row.$get(5)?,
            rules: $row.$get(6)?,
            opponent: $row.$get(7)?,
            guest_sha256: $row.$get(8)?,
            creator_name: $row.$get(9)?,
            guest_name: $row.$get(10)?,
            clock: [
                $row.$get(11)?,
                $row.$get(12)?,
                $row.$get(13)?,
                $row.$get(14)?,
                $row.$get(15)?,
            ],
            version: $row.$get(16)?,
            end_reason: $row.$get(17)?,
            loser: $row.$get(18)?,
            offers: [$row.$get(19)?, $row.$get(20)?, $row.$get(21)?],
            rematch_game: $row.$get(22)?,
            resigned: $row.$get(23)?,
            over: $row.$get(24)?,
            aborted: $row.$get(25)?,
            rated: $row.$get(26)?,
            speed: $row.$get(27)?,
            result: $row.$get(28)?,
        }
    };
}

/// The columns of `games` a load reads, in [`GameRow`]'s order (both stores' schemas have
/// them; [`GameRow::fields`] names them in the same order).
pub(crate) const COLUMNS: &str = "id, token_sha256, human, level, start, seed, rules, opponent,
    guest_sha256, creator_name, guest_name, clock_initial_ms, clock_increment_ms, white_ms,
    black_ms, clock_at_ms, version, end_reason, loser, draw_offer, takeback_offer,
    rematch_offer, rematch_game, resigned, over, aborted, rated, speed, result";

/// A game's row as both stores read and write it (the columns of `games`).
pub(crate) struct GameRow {
    pub id: String,
    pub token_sha256: Vec<u8>,
    pub human: String,
    pub level: String,
    pub start: String,
    pub seed: i64,
    pub rules: String,
    pub opponent: String,
    pub guest_sha256: Option<Vec<u8>>,
    pub creator_name: Option<String>,
    pub guest_name: Option<String>,
    /// `clock_initial_ms`, `clock_increment_ms`, `white_ms`, `black_ms`, `clock_at_ms`.
    pub clock: [Option<i64>; 5],
    pub version: i64,
    pub end_reason: Option<String>,
    pub loser: Option<String>,
    /// `draw_offer`, `takeback_offer`, `rematch_offer`.
    pub offers: [Option<String>; 3],
    pub rematch_game: Option<String>,
    pub resigned: bool,
    pub over: bool,
    /// Aborted: over with no result (`end_reason` NULL, as its CHECK allows).
    pub aborted: bool,
    /// Whether the game is rated.
    pub rated: bool,
    /// Its speed's name (NULL in a game stored before speeds: derived from its clock).
    pub speed: Option<String>,
    /// `white`, `black` or `draw` once it has a result ([`WebGame::result`]), for the
    /// lists of a player's games; written, never read back (the replay says it).
    pub result: Option<String>,
}

fn side_text(side: Option<Side>) -> Option<String> {
    side.map(|s| s.name().to_string())
}

impl GameRow {
    /// Every column of the row with its value, in [`COLUMNS`]' order: what a new game's
    /// `INSERT` writes, and (the [`CHANGEABLE`] ones) what a change's `UPDATE` writes.
    pub fn fields(&self) -> Vec<(&'static str, Value)> {
        let [initial, increment, white, black, at] = self.clock;
        let [draw, takeback, rematch] = self.offers.clone();
        vec![
            ("id", Value::Text(self.id.clone())),
            (
                "token_sha256",
                Value::Bytes(Some(self.token_sha256.clone())),
            ),
            ("human", Value::Text(self.human.clone())),
            ("level", Value::Text(self.level.clone())),
            ("start", Value::Text(self.start.clone())),
            ("seed", Value::Int(Some(self.seed))),
            ("rules", Value::Text(self.rules.clone())),
            ("opponent", Value::Text(self.opponent.clone())),
            ("guest_sha256", Value::Bytes(self.guest_sha256.clone())),
            ("creator_name", Value::OptText(self.creator_name.clone())),
            ("guest_name", Value::OptText(self.guest_name.clone())),
            ("clock_initial_ms", Value::Int(initial)),
            ("clock_increment_ms", Value::Int(increment)),
            ("white_ms", Value::Int(white)),
            ("black_ms", Value::Int(black)),
            ("clock_at_ms", Value::Int(at)),
            ("version", Value::Int(Some(self.version))),
            ("end_reason", Value::OptText(self.end_reason.clone())),
            ("loser", Value::OptText(self.loser.clone())),
            ("draw_offer", Value::OptText(draw)),
            ("takeback_offer", Value::OptText(takeback)),
            ("rematch_offer", Value::OptText(rematch)),
            ("rematch_game", Value::OptText(self.rematch_game.clone())),
            ("resigned", Value::Bool(self.resigned)),
            ("over", Value::Bool(self.over)),
            ("aborted", Value::Bool(self.aborted)),
            ("rated", Value::Bool(self.rated)),
            ("speed", Value::OptText(self.speed.clone())),
            ("result", Value::OptText(self.result.clone())),
        ]
    }

    /// The row of `game`.
    pub fn of(game: &WebGame) -> GameRow {
        let clock = game.clock;
        GameRow {
            id: game.id.clone(),
            token_sha256: game.token_sha256.to_vec(),
            human: game.human.name().to_string(),
            level: game.level.name().to_string(),
            start: game.game.start().to_text().to_string(),
            // Database integers are signed: the seed's bits are kept as they are.
            seed: game.seed as i64,
            rules: game.game.rules().to_string(),
            opponent: game.opponent.name().to_string(),
            guest_sha256: game.guest_sha256.map(|d| d.to_vec()),
            creator_name: game.names[game.human.index()].clone(),
            guest_name: game.names[game.human.other().index()].clone(),
            clock: [
                clock.map(|c| c.initial_ms),
                clock.map(|c| c.increment_ms),
                clock.map(|c| c.remaining_ms[0]),
                clock.map(|c| c.remaining_ms[1]),
                clock.and_then(|c| c.at_ms),
            ],
            version: game.version,
            end_reason: game
                .end
                .filter(|e| e.kind.has_result())
                .map(|e| e.kind.name().to_string()),
            loser: side_text(game.end.and_then(|e| e.winner.map(Side::other))),
            offers: [
                side_text(game.offers.draw),
                side_text(game.offers.takeback),
                side_text(game.offers.rematch),
            ],
            rematch_game: game.rematch_game.clone(),
            resigned: game.resigned(),
            over: game.is_over(),
            aborted: game.end.is_some_and(|e| !e.kind.has_result()),
            rated: game.rated,
            speed: Some(game.speed.name().to_string()),
            result: game
                .result()
                .map(|winner| side_text(winner).unwrap_or_else(|| "draw".to_string())),
        }
    }

    /// The game of this row, its moves (in the notation, by ply) replayed.
    pub fn into_game(self, moves: &[String]) -> Result<WebGame, StoreError> {
        let id = self.id;
        let corrupt = |what: &str| StoreError::Corrupt {
            id: id.clone(),
            what: what.to_string(),
        };
        let token_sha256: [u8; 32] = self
            .token_sha256
            .try_into()
            .map_err(|_| corrupt("token digest"))?;
        let guest_sha256: Option<[u8; 32]> = match self.guest_sha256 {
            None => None,
            Some(d) => Some(d.try_into().map_err(|_| corrupt("guest digest"))?),
        };
        let side = |text: &Option<String>| -> Result<Option<Side>, StoreError> {
            match text {
                None => Ok(None),
                Some(t) => Side::from_name(t).map(Some).ok_or_else(|| corrupt("side")),
            }
        };
        let human = Side::from_name(&self.human).ok_or_else(|| corrupt("side"))?;
        let level = self.level.parse().map_err(|_| corrupt("level"))?;
        let rules: Rules = self.rules.parse().map_err(|_| corrupt("rules"))?;
        // The position's text holds no rules: it is read under the game's.
        let start = Position::from_text_with_rules(&self.start, rules)
            .map_err(|_| corrupt("start position"))?;
        let mut game = WebGame::new(
            id.clone(),
            token_sha256,
            human,
            level,
            self.seed as u64,
            start,
        );
        game.guest_sha256 = guest_sha256;
        game.opponent = self.opponent.parse().map_err(|_| corrupt("opponent"))?;
        game.names[human.index()] = self.creator_name;
        game.names[human.other().index()] = self.guest_name;
        game.clock = match self.clock {
            [Some(initial_ms), Some(increment_ms), Some(white), Some(black), at_ms] => {
                Some(Clock {
                    initial_ms,
                    increment_ms,
                    remaining_ms: [white, black],
                    at_ms,
                })
            }
            _ => None,
        };
        game.version = self.version;
        game.end = match self.end_reason {
            None if self.aborted => Some(End {
                kind: EndKind::Aborted,
                winner: None,
            }),
            None => None,
            Some(reason) => Some(End {
                kind: EndKind::from_name(&reason).ok_or_else(|| corrupt("end reason"))?,
                winner: side(&self.loser)?.map(Side::other),
            }),
        };
        game.offers = Offers {
            draw: side(&self.offers[0])?,
            takeback: side(&self.offers[1])?,
            rematch: side(&self.offers[2])?,
        };
        game.rematch_game = self.rematch_game;
        game.rated = self.rated;
        game.speed = match &self.speed {
            Some(name) => Speed::from_name(name).ok_or_else(|| corrupt("speed"))?,
            None => game.clock.map_or(Speed::Correspondence, |c| {
                Speed::of_clock(c.initial_ms, c.increment_ms)
            }),
        };
        for text in moves {
            let m = text.parse::<Move>().map_err(|_| corrupt("move text"))?;
            game.play(m).map_err(|_| corrupt("illegal move"))?;
        }
        Ok(game)
    }
}

/// A seat's player from a row of [`super::sql::SEAT_PLAYERS`] as each store reads it
/// (side, account id, name, when deleted, bot, rating, deviation), put on its seat.
pub(crate) fn seat_player(
    players: &mut [Option<SeatPlayer>; 2],
    id: &str,
    (side, account_id, username, deleted_ms, bot, rating, deviation): SeatRow,
) -> Result<(), StoreError> {
    let side = Side::from_name(&side).ok_or_else(|| StoreError::Corrupt {
        id: id.to_string(),
        what: "seat side".into(),
    })?;
    players[side.index()] = Some(SeatPlayer {
        account_id,
        username,
        deleted: deleted_ms.is_some(),
        bot,
        rating: rating.zip(deviation).map(|(r, d)| [r, d]),
    });
    Ok(())
}

/// A row of [`super::sql::SEAT_PLAYERS`].
pub(crate) type SeatRow = (
    String,
    String,
    String,
    Option<i64>,
    bool,
    Option<f64>,
    Option<f64>,
);

/// The columns a change may write ([`GameRow::fields`]' names): the rest (who created
/// the game, how, under which rules) never changes once inserted.
pub(crate) const CHANGEABLE: [&str; 16] = [
    "guest_sha256",
    "guest_name",
    "white_ms",
    "black_ms",
    "clock_at_ms",
    "version",
    "end_reason",
    "loser",
    "resigned",
    "draw_offer",
    "takeback_offer",
    "rematch_offer",
    "rematch_game",
    "over",
    "aborted",
    "result",
];

#[cfg(test)]
mod tests {
    use agon_core::Side;

    use super::*;
    use crate::game::tests::computer_game;
    use crate::game::Level;

    #[test]
    fn the_fields_name_the_columns_a_load_reads_in_their_order() {
        let game = computer_game();
        let names: Vec<&str> = GameRow::of(&game).fields().iter().map(|f| f.0).collect();
        let columns: Vec<&str> = COLUMNS.split(',').map(str::trim).collect();
        assert_eq!(names, columns);
        assert!(CHANGEABLE.iter().all(|c| names.contains(c)));
    }

    #[test]
    fn a_row_reads_back_as_the_game_it_was_written_from() {
        let mut game = computer_game();
        (game.token_sha256, game.human, game.level, game.seed) =
            ([3; 32], Side::Black, Level::Hard, 9);
        game.opponent = crate::game::Opponent::Friend;
        game.guest_sha256 = Some([4; 32]);
        game.names = [Some("Ada".into()), None];
        game.clock = Some(Clock {
            remaining_ms: [1, 2],
            at_ms: Some(5),
            ..Clock::new(60_000, 2_000)
        });
        game.play("f1-e1".parse().unwrap()).unwrap();
        game.offers.draw = Some(Side::White);
        game.version = 4;
        let back = GameRow::of(&game).into_game(&["f1-e1".into()]).unwrap();
        assert_eq!(GameRow::of(&back).fields(), GameRow::of(&game).fields());
        assert_eq!(back.last_captures, game.last_captures);
    }

    #[test]
    fn an_aborted_game_reads_back_aborted_with_no_end_reason() {
        let mut game = computer_game();
        game.opponent = crate::game::Opponent::Friend;
        game.abort(5).unwrap();
        let row = GameRow::of(&game);
        assert_eq!(
            (row.end_reason.as_deref(), row.loser.as_deref()),
            (None, None)
        );
        assert!(row.aborted && row.over);
        let back = row.into_game(&[]).unwrap();
        assert_eq!(back.end, game.end);
        assert_eq!(back.end.unwrap().kind, crate::game::EndKind::Aborted);
    }

    #[test]
    fn a_row_that_does_not_read_back_is_corrupt_by_name() {
        let game = computer_game();
        let e = GameRow::of(&game)
            .into_game(&["nonsense".into()])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 0011223344556677 in the database: move text"
        );
        let e = GameRow::of(&game).into_game(&["f1-e9".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 0011223344556677 in the database: illegal move"
        );
    }
}
