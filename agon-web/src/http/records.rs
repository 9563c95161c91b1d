//! `POST /api/records/read`, `POST /api/records/write` and `POST /api/analysis/board`:
//! the analysis board's tree of moves as a game record with variations and back, read
//! and written by agon-core's `Record` (the page never handles the record's text
//! itself), and any position of that tree drawn with its legal moves.
//!
//! The tree is a flat list of nodes, each a move and the index of the node before it
//! (`null`: the start), every parent before its children; the first child of a node is
//! its main continuation, the others its variations, in order. Flat, so that a deep tree
//! is no deep JSON.

use agon_core::{Game, Move, Record, RecordError, Score, Variation};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::analysis::replay;
use super::request::{parse_position, parse_rules, JsonBody, MAX_RECORD_BODY};
use super::state::{side_name, LegalMove, OutcomeState};
use crate::error::{ApiError, ErrorBody};

/// One move of the tree.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TreeNode {
    /// The move in the notation (`f1-e1`, `f4>l1`, `pass`).
    #[serde(rename = "move")]
    pub text: String,
    /// The index of the node it follows, which comes before it; `null` for a move from
    /// the start.
    #[serde(default, deserialize_with = "super::request::optional_whole_number")]
    pub parent: Option<usize>,
}

/// `POST /api/records/read`: a record's text.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadRequest {
    /// A game record, variations allowed (agon-core's `Record`).
    pub record: String,
}

/// `POST /api/records/write`: a tree to write as a record.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteRequest {
    /// The start position's text, read under `rules` (default: the rules' start).
    #[serde(default)]
    pub position: Option<String>,
    /// The rule set's text (default `standard`).
    #[serde(default)]
    pub rules: Option<String>,
    /// The moves, as a tree.
    pub nodes: Vec<TreeNode>,
    /// The result written (`1-0`, `0-1`, `1/2-1/2`, `*`); by default the main line's
    /// outcome, or `*`.
    #[serde(default)]
    pub result: Option<String>,
    /// Tags other than `Rules`, `Position` and `Result`, as name and value.
    #[serde(default)]
    #[schema(schema_with = tag_pairs)]
    pub tags: Vec<[String; 2]>,
}

/// The schema of a record's tags: pairs of a name and a value, as agon-core's
/// `Record::set_tag` takes them (a name of ASCII letters, digits and `_`, not one of the
/// tags the record writes itself; a value of one line). Written by hand because derive
/// says nothing of `[String; 2]`'s length or of its two texts' difference.
fn tag_pairs() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ArrayItems, ObjectBuilder, Type};
    let name = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(TAG_NAME_PATTERN))
        .description(Some("The tag's name."));
    let value = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^[^\\n]*$"))
        .description(Some("The tag's value, one line."));
    let pair = ArrayBuilder::new()
        .prefix_items([name.build(), value.build()])
        .items(ArrayItems::False)
        .min_items(Some(2))
        .max_items(Some(2));
    ArrayBuilder::new()
        .items(pair)
        .description(Some("Tags as pairs of a name and a value."))
        .build()
}

/// A tag's name as `Record::set_tag` takes it: `Rules`, `Position` and `Result` are
/// written from the record itself.
const TAG_NAME_PATTERN: &str = "^(?!(Rules|Position|Result)$)[A-Za-z0-9_]+$";

/// A record and its tree: what both record operations answer.
#[derive(Serialize, ToSchema, Debug)]
pub struct RecordTree {
    /// The canonical text of the record, variations included.
    pub record: String,
    /// The start position's text.
    pub position: String,
    /// The rule set's text.
    pub rules: String,
    /// The written result.
    pub result: String,
    /// The tags other than `Rules`, `Position` and `Result`, in order.
    #[schema(schema_with = tag_pairs)]
    pub tags: Vec<[String; 2]>,
    /// The moves as a tree: the main line first, then the variations.
    pub nodes: Vec<TreeNode>,
}

impl RecordTree {
    /// The tree of `record`: its main line, then the variations of each of its moves,
    /// each followed by its own (the recursion is bounded by `Record::MAX_DEPTH`).
    ///
    /// ```
    /// use agon_web::records::RecordTree;
    /// let record: agon_core::Record = "1. f1-e1 (1. f1-g1) 1... f11-g10 *".parse()?;
    /// let tree = RecordTree::of(&record);
    /// let nodes: Vec<_> = tree.nodes.iter().map(|n| (n.text.as_str(), n.parent)).collect();
    /// assert_eq!(nodes, [("f1-e1", None), ("f11-g10", Some(0)), ("f1-g1", None)]);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn of(record: &Record) -> RecordTree {
        let game = record.game();
        let mut nodes = Vec::new();
        let main = push_line(&mut nodes, None, game.moves());
        for (ply, node) in main.iter().enumerate() {
            let parent = nodes[*node].parent;
            for v in record.variations(ply) {
                push_variation(&mut nodes, parent, v);
            }
        }
        RecordTree {
            record: record.to_string(),
            position: game.start().to_text().to_string(),
            rules: game.rules().to_string(),
            result: record.result().to_string(),
            tags: record
                .tags()
                .iter()
                .map(|(n, v)| [n.clone(), v.clone()])
                .collect(),
            nodes,
        }
    }
}

/// Appends `moves` as a line after node `parent`, returning their indices.
fn push_line(nodes: &mut Vec<TreeNode>, parent: Option<usize>, moves: &[Move]) -> Vec<usize> {
    let mut at = parent;
    let mut added = Vec::with_capacity(moves.len());
    for m in moves {
        nodes.push(TreeNode {
            text: m.to_string(),
            parent: at,
        });
        at = Some(nodes.len() - 1);
        added.push(nodes.len() - 1);
    }
    added
}

fn push_variation(nodes: &mut Vec<TreeNode>, parent: Option<usize>, v: &Variation) {
    let line = push_line(nodes, parent, v.moves());
    for (i, node) in line.iter().enumerate() {
        let before = nodes[*node].parent;
        for inner in v.variations(i) {
            push_variation(nodes, before, inner);
        }
    }
}

/// The record of a tree (see [`WriteRequest`]), refused with the API's names:
/// `invalid-field` (a parent that is not an earlier node, a tag, a result the main line
/// contradicts), `malformed-move`, `variation-too-deep`, the rule set's names, and
/// agon-core's `IllegalMove` names as `409`.
///
/// ```
/// use agon_web::records::{record_of_tree, TreeNode};
/// let node = |m: &str, parent| TreeNode { text: m.into(), parent };
/// let nodes = [node("f1-e1", None), node("f11-g10", Some(0)), node("f1-g1", None)];
/// let record = record_of_tree(None, None, &nodes, None, &[])?;
/// assert_eq!(record.to_string(), "[Result \"*\"]\n\n1. f1-e1 (1. f1-g1) 1... f11-g10 *\n");
/// let bad = [node("f1-f3", None)];
/// assert_eq!(record_of_tree(None, None, &bad, None, &[]).unwrap_err().name, "not-adjacent");
/// # Ok::<(), agon_web::ApiError>(())
/// ```
pub fn record_of_tree(
    position: Option<&str>,
    rules: Option<&str>,
    nodes: &[TreeNode],
    result: Option<&str>,
    tags: &[[String; 2]],
) -> Result<Record, ApiError> {
    let rules = parse_rules(rules)?;
    let start = parse_position(position, rules)?;
    // children[0] are the start's; children[i + 1] node i's.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len() + 1];
    let mut moves = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        let slot = match node.parent {
            None => 0,
            Some(p) if p < i => p + 1,
            Some(p) => {
                return Err(ApiError::invalid_field(format!(
                    "nodes[{i}].parent must be an earlier node, not {p}"
                )))
            }
        };
        children[slot].push(i);
        let m: Move = node.text.parse().map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed-move",
                format!("nodes[{i}] {:?}: {e}", node.text),
            )
        })?;
        moves.push(m);
    }
    let mut game = Game::from_position(start);
    // The main line: the first child of each node from the start.
    let mut main = Vec::new();
    let mut slot = 0;
    while let Some(&first) = children[slot].first() {
        game.play(moves[first]).map_err(|e| {
            ApiError::conflict(
                e.name(),
                format!("nodes[{first}] {}: {e}", nodes[first].text),
            )
        })?;
        main.push(first);
        slot = first + 1;
    }
    let mut record = Record::new(game);
    let mut before = 0;
    for (ply, &node) in main.iter().enumerate() {
        for &other in children[before].iter().skip(1) {
            let v = variation_from(&children, &moves, other, 1)?;
            record.add_variation(ply, v).map_err(record_error)?;
        }
        before = node + 1;
    }
    for [name, value] in tags {
        record
            .set_tag(name, value)
            .map_err(|e| ApiError::invalid_field(format!("tag {name:?}: {e}")))?;
    }
    if let Some(text) = result {
        let score: Score = text
            .parse()
            .map_err(|e| ApiError::invalid_field(format!("result {text:?}: {e}")))?;
        record
            .set_result(score)
            .map_err(|e| ApiError::invalid_field(format!("result {text:?}: {e}")))?;
    }
    Ok(record)
}

/// The variation that starts at node `first` and follows first children, with the other
/// children of each node after the first as its variations; `depth` is its nesting,
/// refused past `Record::MAX_DEPTH` before going deeper.
fn variation_from(
    children: &[Vec<usize>],
    moves: &[Move],
    first: usize,
    depth: usize,
) -> Result<Variation, ApiError> {
    if depth > Record::MAX_DEPTH {
        return Err(record_error(RecordError::VariationTooDeep));
    }
    let mut line = vec![first];
    while let Some(&next) = children[line[line.len() - 1] + 1].first() {
        line.push(next);
    }
    let mut v = Variation::new(line.iter().map(|&n| moves[n]).collect());
    for i in 1..line.len() {
        for &other in children[line[i - 1] + 1].iter().skip(1) {
            let inner = variation_from(children, moves, other, depth + 1)?;
            v.add_variation(i, inner).map_err(record_error)?;
        }
    }
    Ok(v)
}

/// A record's refusal of a variation with the API's names: agon-core's `IllegalMove`
/// name as `409`, `variation-too-deep`, or `invalid-field`.
fn record_error(e: RecordError) -> ApiError {
    match e {
        RecordError::IllegalVariationMove(reason) => {
            ApiError::conflict(reason.name(), format!("a variation: {e}"))
        }
        RecordError::VariationTooDeep => ApiError::new(
            StatusCode::BAD_REQUEST,
            "variation-too-deep",
            format!("the variations nest deeper than {}", Record::MAX_DEPTH),
        ),
        _ => ApiError::invalid_field(e.to_string()),
    }
}

/// `POST /api/records/read`: a record's text read into its tree, and written back
/// canonically.
#[utoipa::path(
    post,
    path = "/api/records/read",
    tag = "analysis",
    request_body = ReadRequest,
    responses(
        (status = 200, description = "The record, its canonical text and its tree", body = RecordTree),
        (status = 400, description = "`malformed-record` (with agon-core's reason and byte offset), or the record's rule set: `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`", body = ErrorBody),
        (status = 409, description = "a move of the record is illegal: agon-core's IllegalMove name", body = ErrorBody),
    )
)]
pub async fn read(
    JsonBody(request): JsonBody<ReadRequest, MAX_RECORD_BODY>,
) -> Result<Json<RecordTree>, ApiError> {
    let record = super::analysis::read_record(&request.record)?;
    Ok(Json(RecordTree::of(&record)))
}

/// `POST /api/records/write`: a tree written as a record with variations.
#[utoipa::path(
    post,
    path = "/api/records/write",
    tag = "analysis",
    request_body = WriteRequest,
    responses(
        (status = 200, description = "The record, its canonical text and its tree (as read back)", body = RecordTree),
        (status = 400, description = "`invalid-field` (a parent that is not an earlier node, a position, a tag, a result), `malformed-move`, `variation-too-deep`, or the rule set's: `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`", body = ErrorBody),
        (status = 409, description = "a move is illegal where it is played: agon-core's IllegalMove name", body = ErrorBody),
    )
)]
pub async fn write(
    JsonBody(request): JsonBody<WriteRequest, MAX_RECORD_BODY>,
) -> Result<Json<RecordTree>, ApiError> {
    let record = record_of_tree(
        request.position.as_deref(),
        request.rules.as_deref(),
        &request.nodes,
        request.result.as_deref(),
        &request.tags,
    )?;
    Ok(Json(RecordTree::of(&record)))
}

/// `POST /api/analysis/board`: a position of the analysis board.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// The start position's text, read under `rules` (default: the rules' start).
    #[serde(default)]
    pub position: Option<String>,
    /// The rule set's text (default `standard`).
    #[serde(default)]
    pub rules: Option<String>,
    /// The moves from the start to the position shown.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Black at the bottom of the drawing.
    #[serde(default)]
    pub flipped: bool,
}

/// The answer of `POST /api/analysis/board`.
#[derive(Serialize, ToSchema, Debug)]
pub struct BoardResponse {
    /// The position's text.
    pub position: String,
    /// The player to act (the side to move, but for a queen placed by her captor).
    #[schema(value_type = super::names::SideName)]
    pub chooser: &'static str,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// How the game ended there, if it did.
    pub outcome: Option<OutcomeState>,
    /// The board drawn, the last move marked.
    pub svg: String,
}

/// `POST /api/analysis/board`: a position after moves, drawn, with its legal moves and
/// outcome: what the analysis board shows at a node of its tree.
#[utoipa::path(
    post,
    path = "/api/analysis/board",
    tag = "analysis",
    request_body = BoardRequest,
    responses(
        (status = 200, description = "The position, its legal moves, its outcome and its drawing", body = BoardResponse),
        (status = 400, description = "`invalid-field` (the position), `malformed-move`, or the rule set's: `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`", body = ErrorBody),
        (status = 409, description = "a move is illegal (agon-core's IllegalMove name), or `game-over` for a move after the end", body = ErrorBody),
    )
)]
pub async fn board(
    JsonBody(request): JsonBody<BoardRequest, MAX_RECORD_BODY>,
) -> Result<Json<BoardResponse>, ApiError> {
    let game = replay(
        request.position.as_deref(),
        None,
        &request.moves,
        request.rules.as_deref(),
    )?;
    let position = game.position();
    let legal = if game.is_over() {
        Vec::new()
    } else {
        game.legal_moves()
            .iter()
            .map(|&m| LegalMove::of(m))
            .collect()
    };
    let outcome = game.outcome().map(|o| OutcomeState {
        winner: o.winner.map(side_name),
        reason: o.reason.name(),
        score: o.score(),
    });
    let svg = agon_svg::Svg::new(position)
        .size(None)
        .flipped(request.flipped)
        .last_move(game.moves().last().copied())
        .to_string();
    Ok(Json(BoardResponse {
        position: position.to_text().to_string(),
        chooser: side_name(position.chooser()),
        legal,
        outcome,
        svg,
    }))
}
