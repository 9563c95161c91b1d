//! [`GameState`]: what every game endpoint answers, and what the event streams send: a
//! [`WebGame`] as one seat (or a watcher) sees it ([`View`]).

use agon_core::{CellSet, Kind, Move, Rules, Side};
use agon_svg::Svg;
use serde::Serialize;
use utoipa::ToSchema;

use super::names::{LevelName, OpponentName, SideName};
use crate::game::{now_ms, Opponent, WebGame, MINUTE_MS};
use crate::service::AppState;

/// The name of a side in the API: `white` or `black`.
///
/// ```
/// assert_eq!(agon_web::side_name(agon_core::Side::Black), "black");
/// ```
pub const fn side_name(side: Side) -> &'static str {
    side.name()
}

/// The end of a game as the API reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct OutcomeState {
    /// `white`, `black`, or `None` for a draw or an aborted game.
    #[schema(value_type = Option<SideName>)]
    pub winner: Option<&'static str>,
    /// `throne`, `ring-without-queen`, `no-legal-action`, `repetition`, `two-passes`,
    /// `move-limit` (agon-core's), or `resignation`, `time-forfeit`, `agreement`,
    /// `aborted` (agon-web's; an aborted game has no result).
    pub reason: &'static str,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub score: &'static str,
}

/// A legal move with its parts, so the page need not parse the notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct LegalMove {
    /// The move in the notation: `f1-e1`, `f4>l1`.
    #[serde(rename = "move")]
    pub text: String,
    /// The cell of the piece that moves (a step) or of the captured piece (a return);
    /// `null` for a pass.
    pub from: Option<String>,
    /// The cell it goes to (`null` for a pass).
    pub to: Option<String>,
    /// `step`, `return` or `pass`.
    pub kind: &'static str,
}

impl LegalMove {
    /// The parts of `m`.
    ///
    /// ```
    /// let m = agon_web::LegalMove::of("f4>l1".parse()?);
    /// assert_eq!((m.text.as_str(), m.from.as_deref(), m.to.as_deref(), m.kind), ("f4>l1", Some("f4"), Some("l1"), "return"));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn of(m: Move) -> LegalMove {
        LegalMove {
            text: m.to_string(),
            from: m.from().map(|c| c.to_string()),
            to: m.to().map(|c| c.to_string()),
            kind: match m {
                Move::Step { .. } => "step",
                Move::Return { .. } => "return",
                Move::Pass => "pass",
            },
        }
    }
}

/// One option of a rule set that differs from its preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct RuleOption {
    /// The option's name in the text form (`capture`, `limit`, ...).
    pub option: &'static str,
    /// Its value's name (`same-ring`), or for `limit` the number of plies or `none`.
    pub value: String,
}

/// A rule set in parts, so that a client need not parse its text form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct RulesParts {
    /// The preset the canonical text starts with: `standard` or `ludii`.
    pub preset: &'static str,
    /// The options that differ from that preset, in the text form's order (empty when the
    /// rules are the preset).
    pub options: Vec<RuleOption>,
    /// Every option's value, in the text form's order (`limit`: the plies or `none`).
    pub values: Vec<RuleOption>,
}

impl RulesParts {
    /// The parts of the canonical text form of `rules`.
    ///
    /// ```
    /// use agon_core::Rules;
    /// let parts = agon_web::RulesParts::of("ludii+capture=same-ring".parse()?);
    /// assert_eq!(parts.preset, "ludii");
    /// assert_eq!((parts.options[0].option, parts.options[0].value.as_str()), ("capture", "same-ring"));
    /// assert!(agon_web::RulesParts::of(Rules::STANDARD).options.is_empty());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn of(rules: Rules) -> RulesParts {
        let text = rules.to_string();
        let mut parts = text.split('+');
        let first = parts.next().unwrap_or("standard");
        let preset = Rules::PRESETS
            .iter()
            .map(|(name, _)| *name)
            .find(|name| *name == first)
            .unwrap_or("standard");
        let options = parts
            .filter_map(|part| {
                let (name, value) = part.split_once('=')?;
                let option = Rules::OPTIONS.iter().copied().find(|o| *o == name)?;
                Some(RuleOption {
                    option,
                    value: value.to_string(),
                })
            })
            .collect();
        RulesParts {
            preset,
            options,
            values: rule_values(rules),
        }
    }
}

/// The value of each option of `rules`, in [`Rules::OPTIONS`] order.
///
/// ```
/// let values = agon_web::rule_values(agon_core::Rules::LUDII);
/// assert_eq!(values.len(), 9);
/// assert_eq!((values[8].option, values[8].value.as_str()), ("limit", "2500"));
/// ```
pub fn rule_values(rules: Rules) -> Vec<RuleOption> {
    let names = [
        rules.capture().name(),
        rules.between().name(),
        rules.guard_return().name(),
        rules.queen_return().name(),
        rules.queen_placer().name(),
        rules.empty_throne_ring().name(),
        rules.stuck().name(),
        rules.repetition().name(),
    ];
    let limit = rules.limit().map_or("none".to_string(), |n| n.to_string());
    Rules::OPTIONS
        .iter()
        .zip(names.iter().map(|n| n.to_string()).chain([limit]))
        .map(|(&option, value)| RuleOption { option, value })
        .collect()
}

/// The values each option of the rule set can take, in [`Rules::OPTIONS`] order, the
/// standard one first (`limit` takes a number of plies: only `none` is listed).
///
/// ```
/// let all = agon_web::rule_option_values();
/// assert_eq!(all[1], ("between", vec!["forbidden", "allowed", "trapped"]));
/// ```
pub fn rule_option_values() -> Vec<(&'static str, Vec<&'static str>)> {
    use agon_core::{
        Between, Capture, EmptyThroneRing, GuardReturn, QueenPlacer, QueenReturn, Repetition, Stuck,
    };
    let lists: [Vec<&'static str>; 9] = [
        Capture::ALL.iter().map(|v| v.name()).collect(),
        Between::ALL.iter().map(|v| v.name()).collect(),
        GuardReturn::ALL.iter().map(|v| v.name()).collect(),
        QueenReturn::ALL.iter().map(|v| v.name()).collect(),
        QueenPlacer::ALL.iter().map(|v| v.name()).collect(),
        EmptyThroneRing::ALL.iter().map(|v| v.name()).collect(),
        Stuck::ALL.iter().map(|v| v.name()).collect(),
        Repetition::ALL.iter().map(|v| v.name()).collect(),
        vec!["none"],
    ];
    Rules::OPTIONS.into_iter().zip(lists).collect()
}

/// A piece on the board, as the page needs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PieceState {
    /// Its cell.
    pub cell: String,
    /// `white` or `black`.
    #[schema(value_type = SideName)]
    pub side: &'static str,
    /// `queen` or `guard`.
    pub kind: &'static str,
    /// Whether it is captured (it must be returned before it moves again).
    pub captured: bool,
}

/// One seat of a game, as the state shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct SeatState {
    /// Whether someone holds the seat (the computer's always is).
    pub taken: bool,
    /// The seat's display name, if its player gave one.
    pub name: Option<String>,
    /// Whether the seat has a page open (an event stream with its seat's cookie; the computer is
    /// always present).
    pub present: bool,
}

/// Both seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Seats {
    /// White's seat.
    pub white: SeatState,
    /// Black's seat.
    pub black: SeatState,
}

/// The clock of a game, as of `now_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct ClockState {
    /// The time control as chosen at "New game": `5+3` (minutes + increment seconds).
    pub control: String,
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: i64,
    /// What each move adds to its mover's time.
    pub increment_ms: i64,
    /// White's remaining time at `now_ms`.
    pub white_ms: i64,
    /// Black's remaining time at `now_ms`.
    pub black_ms: i64,
    /// The side whose time runs (the chooser), or `None` before the clock started and
    /// after the game ended.
    #[schema(value_type = Option<SideName>)]
    pub running: Option<&'static str>,
    /// The server's time of these figures, unix milliseconds.
    pub now_ms: i64,
    /// When the game is aborted unless the side to move makes its first move (unix
    /// milliseconds, by the server's clock like `now_ms`): in a game between people,
    /// before each side has moved, 30 seconds (or the side's time, if less) after both
    /// seats were taken (White) or after White's first move (Black); else `None`.
    pub first_move_deadline_ms: Option<i64>,
}

/// The pending offers: the side offering each, or `None`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct OffersState {
    /// A draw offer.
    #[schema(value_type = Option<SideName>)]
    pub draw: Option<&'static str>,
    /// A takeback request.
    #[schema(value_type = Option<SideName>)]
    pub takeback: Option<&'static str>,
    /// A rematch offer.
    #[schema(value_type = Option<SideName>)]
    pub rematch: Option<&'static str>,
}

/// Who looks at a state: the board's orientation, the time of the figures and which seats
/// have a page open.
///
/// ```
/// use agon_core::Side;
/// let view = agon_web::View { side: Side::Black, now_ms: 0, present: [true, false], minute_ms: 60_000 };
/// assert_eq!(view.side, Side::Black);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The side at the bottom of the board.
    pub side: Side,
    /// The server's time, unix milliseconds (the clock's figures are as of it).
    pub now_ms: i64,
    /// Whether White's and Black's seats have a page open.
    pub present: [bool; 2],
    /// How long a clock's minute lasts on this server (`AppState::clock_minute_ms`), to
    /// name a clock's time control as it was chosen.
    pub minute_ms: i64,
}

/// The state of a game, as JSON (documented in the crate README).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// The side the creator plays.
    #[schema(value_type = SideName)]
    pub human: &'static str,
    /// `computer` or `friend`.
    #[schema(value_type = OpponentName)]
    pub opponent: &'static str,
    /// The game's version: +1 for every change.
    pub version: i64,
    /// The seats, the clock, the offers, the position and the outcome: their fields are
    /// the state's own in its JSON.
    #[serde(flatten)]
    pub now: GameNow,
    /// The computer's level (`None` in a game between friends).
    #[schema(value_type = Option<LevelName>)]
    pub level: Option<&'static str>,
    /// The rule set in force, in its canonical text form (`standard`, `ludii`,
    /// `standard+capture=same-ring`).
    pub rules: String,
    /// The same rule set in parts: its preset and the options that differ from it.
    pub rules_parts: RulesParts,
    /// Every move from the start.
    pub moves: Vec<String>,
    /// The board, drawn by agon-svg with the view's side at the bottom.
    pub svg: String,
    /// Whether the game is rated (its end moves both players' ratings in `speed`).
    pub rated: bool,
    /// Its speed category: `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence` (a game without a clock).
    pub speed: &'static str,
    /// Who plays each seat: an account, a deleted account, or a guest.
    pub players: PlayersState,
}

/// Who plays each seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PlayersState {
    /// White's player.
    pub white: PlayerState,
    /// Black's player.
    pub black: PlayerState,
}

/// The player of a seat: an account, a deleted account, or a guest (or the computer).
///
/// ```
/// use agon_web::{game::SeatPlayer, http::state::PlayerState};
/// let p = SeatPlayer { account_id: "00112233aabbccdd".into(), username: "Zoe".into(), deleted: true, bot: false, rating: Some([1712.4, 80.0]) };
/// let state = PlayerState::of(Some(&p));
/// assert_eq!((state.username, state.deleted, state.rating), (None, true, Some(1712)));
/// assert_eq!(PlayerState::of(None), PlayerState { username: None, deleted: false, bot: false, rating: None, provisional: None });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PlayerState {
    /// The account's name; `null` for a guest's seat (or the computer's), and for a
    /// deleted account ("deleted player": `deleted` is true).
    pub username: Option<String>,
    /// Whether the seat's account was deleted: shown as "deleted player".
    pub deleted: bool,
    /// Whether the account is a bot's.
    pub bot: bool,
    /// In a rated game, the player's rating at the game's start, rounded.
    pub rating: Option<i64>,
    /// In a rated game, whether that rating was provisional (shown with a `?`).
    pub provisional: Option<bool>,
}

impl PlayerState {
    /// The state of a seat's account (`None`: a guest's seat).
    pub fn of(player: Option<&crate::game::SeatPlayer>) -> PlayerState {
        let Some(p) = player else {
            return PlayerState {
                username: None,
                deleted: false,
                bot: false,
                rating: None,
                provisional: None,
            };
        };
        PlayerState {
            username: (!p.deleted).then(|| p.username.clone()),
            deleted: p.deleted,
            bot: p.bot,
            rating: p.rating.map(|[r, _]| r.round() as i64),
            provisional: p
                .rating
                .map(|[_, deviation]| deviation > crate::game::rating::PROVISIONAL_DEVIATION),
        }
    }
}

/// What a game's state and a change of it both carry: the seats, the clock, the offers,
/// the position with its legal moves, and the outcome (flattened into [`GameState`] and
/// [`GameChange`]: their JSON has these fields at its top level).
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{game::WebGame, GameNow, Level, View};
/// let game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
/// let view = View { side: Side::White, now_ms: 0, present: [false; 2], minute_ms: 60_000 };
/// let now = GameNow::of(&game, view);
/// assert_eq!((now.to_move, now.legal_moves.len()), ("white", 27));
/// assert_eq!(now.outcome, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameNow {
    /// Who holds each seat, their names and presence.
    pub seats: Seats,
    /// The clock, if the game has one.
    pub clock: Option<ClockState>,
    /// The pending offers.
    pub offers: OffersState,
    /// The rematch's id, once one was agreed.
    pub rematch_game: Option<String>,
    /// The current position's text.
    pub position: String,
    /// The side to move.
    #[schema(value_type = SideName)]
    pub to_move: &'static str,
    /// Whether the side to move must return a captured piece.
    pub must_return: bool,
    /// The side that chooses the next action (`Position::chooser()`): the side to move,
    /// except under `queen-placer=captor` when the side to move must return its queen.
    #[schema(value_type = SideName)]
    pub chooser: &'static str,
    /// The legal moves of the side to move (none once the game is over).
    pub legal_moves: Vec<String>,
    /// The same moves with their cells and kind, in the same order.
    pub legal: Vec<LegalMove>,
    /// Every piece on the board, in cell order.
    pub pieces: Vec<PieceState>,
    /// The last move, if any.
    pub last_move: Option<String>,
    /// The cells whose pieces the last move captured.
    pub last_captures: Vec<String>,
    /// The cells of every captured piece.
    pub captured: Vec<String>,
    /// How the game ended, if it has.
    pub outcome: Option<OutcomeState>,
    /// Whether the computer has to move.
    pub computer_to_move: bool,
    /// Whether the person has a move to take back (against the computer only).
    pub can_undo: bool,
    /// Whether either seat may abort the game now (`POST .../abort`): between people,
    /// before each side has made its first move.
    pub can_abort: bool,
}

fn names(cells: CellSet) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

impl GameState {
    /// The state of `game`, seen from the creator's side, now, with no page open.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::WebGame, GameState, Level};
    /// let game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// let state = GameState::of(&game);
    /// assert_eq!(state.now.legal_moves.len(), 27);
    /// assert_eq!(state.now.legal[0].text, state.now.legal_moves[0]);
    /// assert_eq!(state.now.pieces.len(), 14);
    /// assert_eq!(state.now.to_move, "white");
    /// assert_eq!((state.opponent, state.version), ("computer", 0));
    /// assert!(!state.now.computer_to_move);
    /// ```
    pub fn of(game: &WebGame) -> GameState {
        GameState::view(
            game,
            View {
                side: game.human,
                now_ms: now_ms(),
                present: [false; 2],
                minute_ms: MINUTE_MS,
            },
        )
    }

    /// The state of `game` as `view` sees it.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::WebGame, GameState, Level, View};
    /// let game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// let state = GameState::view(&game, View { side: Side::Black, now_ms: 0, present: [true, false], minute_ms: 60_000 });
    /// assert!(state.now.seats.white.present);
    /// assert!(state.now.seats.black.present, "the computer is always there");
    /// ```
    pub fn view(game: &WebGame, view: View) -> GameState {
        GameState::build(game, view)
    }

    /// The state of `game` as `view` sees it, with the board drawn.
    fn build(game: &WebGame, view: View) -> GameState {
        let g = &game.game;
        GameState {
            id: game.id.clone(),
            human: side_name(game.human),
            opponent: game.opponent.name(),
            version: game.version,
            now: GameNow::of(game, view),
            level: (game.opponent == Opponent::Computer).then(|| game.level.name()),
            rules: g.rules().to_string(),
            rules_parts: RulesParts::of(g.rules()),
            moves: g.moves().iter().map(|m| m.to_string()).collect(),
            svg: board_svg(game, view.side),
            rated: game.rated,
            speed: game.speed.name(),
            players: PlayersState {
                white: PlayerState::of(game.players[0].as_ref()),
                black: PlayerState::of(game.players[1].as_ref()),
            },
        }
    }
}

impl OutcomeState {
    /// How `game` ended (by the rules, or by agon-web: a resignation, the clock, an
    /// agreement, an abort), or `None` while it goes on.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::WebGame, Level, OutcomeState};
    /// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// assert_eq!(OutcomeState::of(&game), None);
    /// game.resign(Side::White, 0).unwrap();
    /// let outcome = OutcomeState::of(&game).unwrap();
    /// assert_eq!((outcome.winner, outcome.reason, outcome.score), (Some("black"), "resignation", "0-1"));
    /// ```
    pub fn of(game: &WebGame) -> Option<OutcomeState> {
        let score = |winner: Option<Side>| match winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        };
        if let Some(end) = game.end {
            Some(OutcomeState {
                winner: end.winner.map(side_name),
                reason: end.kind.name(),
                score: if end.kind.has_result() {
                    score(end.winner)
                } else {
                    "*"
                },
            })
        } else {
            game.game.outcome().map(|o| OutcomeState {
                winner: o.winner.map(side_name),
                reason: o.reason.name(),
                score: o.score(),
            })
        }
    }
}

impl GameNow {
    /// The seats, clock, offers, position and outcome of `game` as `view` sees it.
    pub fn of(game: &WebGame, view: View) -> GameNow {
        let g = &game.game;
        let position = g.position();
        let outcome = OutcomeState::of(game);
        let legal: Vec<LegalMove> = if game.is_over() {
            Vec::new()
        } else {
            g.legal_moves().iter().map(|&m| LegalMove::of(m)).collect()
        };
        let pieces = position
            .pieces()
            .map(|(cell, piece)| PieceState {
                cell: cell.to_string(),
                side: side_name(piece.side),
                kind: match piece.kind {
                    Kind::Queen => "queen",
                    Kind::Guard => "guard",
                },
                captured: position.is_captured(cell),
            })
            .collect();
        let last_move = g.moves().last().copied();
        let computer = game.opponent == Opponent::Computer;
        let taken = game.seats_taken();
        let seat = |side: Side| SeatState {
            taken: taken[side.index()],
            name: game.names[side.index()].clone(),
            present: view.present[side.index()] || (computer && side != game.human),
        };
        let clock = game.clock.map(|c| {
            let remaining = game.remaining_at(view.now_ms).unwrap_or(c.remaining_ms);
            ClockState {
                control: clock_control(&c, view.minute_ms),
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                white_ms: remaining[0],
                black_ms: remaining[1],
                running: game.running().map(side_name),
                now_ms: view.now_ms,
                first_move_deadline_ms: game.first_move_deadline_ms(),
            }
        });
        GameNow {
            seats: Seats {
                white: seat(Side::White),
                black: seat(Side::Black),
            },
            clock,
            offers: OffersState {
                draw: game.offers.draw.map(side_name),
                takeback: game.offers.takeback.map(side_name),
                rematch: game.offers.rematch.map(side_name),
            },
            rematch_game: game.rematch_game.clone(),
            position: position.to_text().to_string(),
            to_move: side_name(position.turn()),
            must_return: position.captured_side() == Some(position.turn()),
            chooser: side_name(position.chooser()),
            legal_moves: legal.iter().map(|m| m.text.clone()).collect(),
            legal,
            pieces,
            last_move: last_move.map(|m| m.to_string()),
            last_captures: names(game.last_captures),
            captured: names(position.captured()),
            outcome,
            computer_to_move: game.computer_to_move(),
            can_undo: game.can_undo(),
            can_abort: game.can_abort(),
        }
    }
}

/// The board of `game` drawn by agon-svg with `side` at the bottom, its last move marked.
fn board_svg(game: &WebGame, side: Side) -> String {
    Svg::new(game.game.position())
        .size(None)
        .flipped(side == Side::Black)
        .last_move(game.game.moves().last().copied())
        .to_string()
}

/// A `change` event of the live stream: what changed from version `base` (which the page
/// has) to `version`, so that a page need not receive the whole game again. The page's
/// state after it: the fields of its state at `base` (the game's id, sides, rules and
/// level never change), the moves cut to the first `keep` and followed by `added`, the
/// board `svg` if not `null` (else the page's board stays: it did not change), and every
/// other field as given here.
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{game::WebGame, GameChange, GameState, Level};
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
/// let before = game.clone();
/// game.game.play("f1-e1".parse().unwrap()).unwrap();
/// game.version = 1;
/// let view = agon_web::View { side: Side::White, now_ms: 0, present: [false; 2], minute_ms: 60_000 };
/// let change = GameChange::between(&before, &game, view);
/// assert_eq!((change.base, change.version, change.keep), (0, 1, 0));
/// assert_eq!(change.added, vec!["f1-e1"]);
/// assert!(change.svg.is_some(), "the board changed: drawn again");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameChange {
    /// The version this change applies to (the page's state must be at it).
    pub base: i64,
    /// The version after it.
    pub version: i64,
    /// How many of the moves at `base` stay (fewer after a takeback).
    pub keep: usize,
    /// The moves after those kept.
    pub added: Vec<String>,
    /// The board, drawn for the stream's view, when it changed (`null` otherwise: the
    /// page's drawing stays).
    pub svg: Option<String>,
    /// The seats, the clock, the offers, the position and the outcome, as in the state.
    #[serde(flatten)]
    pub now: GameNow,
}

impl GameChange {
    /// Whether the board of `game` differs from `base`'s: its position or its last move
    /// (the drawing marks it).
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// use agon_web::{game::WebGame, GameChange, Level};
    /// let game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
    /// let mut offered = game.clone();
    /// offered.offers.draw = Some(Side::White);
    /// assert!(!GameChange::redraws(&game, &offered));
    /// ```
    pub fn redraws(base: &WebGame, game: &WebGame) -> bool {
        base.game.position() != game.game.position()
            || base.game.moves().last() != game.game.moves().last()
    }

    /// The change from `base` to `game` (a later version of the same game), as `view`
    /// sees it. The board is drawn only if it differs from `base`'s (its position or its
    /// last move).
    pub fn between(base: &WebGame, game: &WebGame, view: View) -> GameChange {
        let (old, new) = (base.game.moves(), game.game.moves());
        let keep = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        GameChange {
            base: base.version,
            version: game.version,
            keep,
            added: new[keep..].iter().map(|m| m.to_string()).collect(),
            svg: GameChange::redraws(base, game).then(|| board_svg(game, view.side)),
            now: GameNow::of(game, view),
        }
    }
}

/// The state of `game` for the answer to `view`'s side (or the creator's), with the
/// seats' presence.
pub(crate) fn state_for(app: &AppState, game: &WebGame, view: Option<Side>) -> GameState {
    GameState::view(game, view_now(app, game, view.unwrap_or(game.human)))
}

/// `side`'s view of `game` on this server now: the seats' presence and the clock as of now.
pub(crate) fn view_now(app: &AppState, game: &WebGame, side: Side) -> View {
    View {
        side,
        // The database's clock, the one the game's changes were charged by.
        now_ms: app.store.now_ms(),
        present: app.hub.present(&game.id),
        minute_ms: app.clock_minute_ms,
    }
}

/// A clock's time control as chosen, `M+S`, in minutes of `minute_ms` (rounded: a
/// shortened minute scales the increment to whole milliseconds).
///
/// ```
/// let clock = agon_web::game::Clock::new(300_000, 3_000);
/// assert_eq!(agon_web::http::state::clock_control(&clock, 60_000), "5+3");
/// ```
pub fn clock_control(clock: &crate::game::Clock, minute_ms: i64) -> String {
    let minute = minute_ms.max(1);
    let (minutes, seconds) = (
        (clock.initial_ms + minute / 2) / minute,
        (clock.increment_ms * 60 + minute / 2) / minute,
    );
    format!("{minutes}+{seconds}")
}
