//! [`record_of`]: a web game as an agon-core [`Record`], its players and its result.

use agon_core::{Record, Score, Side};

use super::{Opponent, WebGame};

/// The game record of a web game: its moves, the players and the result (an end outside
/// the rules, like a resignation or a time forfeit, included).
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{game::{record_of, End, EndKind, WebGame}, Level};
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::Black, Level::Hard, 1, Position::start());
/// game.play("f1-e1".parse()?)?;
/// game.end = Some(End { kind: EndKind::Resignation, winner: Some(Side::White) });
/// let text = record_of(&game).to_string();
/// assert!(text.contains("[White \"computer (hard)\"]"));
/// assert!(text.ends_with("1. f1-e1 1-0\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_of(game: &WebGame) -> Record {
    let mut record = Record::new(game.game.clone());
    let player = |side: Side| -> String {
        match game.opponent {
            Opponent::Computer if side == game.human => "you".to_string(),
            Opponent::Computer => format!("computer ({})", game.level),
            Opponent::Friend => game.names[side.index()]
                .clone()
                .unwrap_or_else(|| side.name().to_string()),
        }
    };
    let (white, black) = (player(Side::White), player(Side::Black));
    let termination = if let Some(end) = game.end {
        // Only a game still going can end outside the rules, so any result is its to take.
        let set = record.set_result(match end.winner {
            _ if !end.kind.has_result() => Score::Unfinished,
            Some(Side::White) => Score::WhiteWins,
            Some(Side::Black) => Score::BlackWins,
            None => Score::Draw,
        });
        debug_assert!(
            set.is_ok(),
            "a game ended outside the rules was over: {set:?}"
        );
        Some(end.kind.name())
    } else {
        game.game.outcome().map(|outcome| outcome.reason.name())
    };
    let tags = [
        ("Event", "agon-web"),
        ("Game", game.id.as_str()),
        ("White", white.as_str()),
        ("Black", black.as_str()),
    ];
    for (name, value) in tags
        .into_iter()
        .chain(termination.map(|t| ("Termination", t)))
    {
        // Fixed names; the values are hex ids, levels and names without control
        // characters (parse_name), so without line breaks.
        let set = record.set_tag(name, value);
        debug_assert!(set.is_ok(), "tag {name}: {set:?}");
    }
    record
}
