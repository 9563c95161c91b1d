//! The change cache: the text of each live event, built once per version of a game and
//! per view, whatever the number of streams that send it.
//!
//! The hub keeps each published version as a [`Published`], shared by every stream of the
//! game (and kept while one of them still has it to send); its slots hold the ready
//! Server-Sent Events frames (`event:`, `id:`, `data:` lines) as [`Bytes`], which a stream
//! sends without copying. A view is the board's orientation, the only thing that differs
//! between streams (the state shows no seat anything another seat or a watcher may not
//! see): so at most two `state` texts (the whole state, White or Black at the bottom) and
//! two `change` texts per version, one when the board did not change (no drawing in it).
//!
//! A `state` text of a game whose clock runs is rebuilt once older than [`FRESH`]: its
//! clock's figures are as of its building, and a page counts down from them.

use std::sync::Arc;
use std::time::Duration;

use agon_core::Side;
use bytes::Bytes;
use serde::Serialize;

use super::state::{state_for, view_now, GameChange};
use crate::hub::Published;
use crate::service::AppState;

/// How long a `state` text of a game whose clock runs stays good to send.
pub const FRESH: Duration = Duration::from_millis(250);

/// A Server-Sent Events frame: `event`, `id` (if any), then `data` as JSON on one line.
///
/// ```
/// let frame = agon_web::http::change::frame("presence", None, &serde_json::json!({"white": true}));
/// assert_eq!(&frame[..], b"event: presence\ndata: {\"white\":true}\n\n");
/// ```
pub fn frame(event: &str, id: Option<i64>, data: &impl Serialize) -> Bytes {
    let mut text = format!("event: {event}\n");
    if let Some(id) = id {
        text.push_str(&format!("id: {id}\n"));
    }
    text.push_str("data: ");
    // Compact JSON has no line break: one `data:` line. Our types always serialise.
    text.push_str(&serde_json::to_string(data).unwrap_or_default());
    text.push_str("\n\n");
    Bytes::from(text)
}

/// The slot of a text: the whole state (per view), a change drawn (per view), a change
/// without a drawing (one for both views).
fn slot(change: bool, drawn: bool, side: Side) -> usize {
    match (change, drawn) {
        (false, _) => side.index(),
        (true, true) => 2 + side.index(),
        (true, false) => 2,
    }
}

/// The `state` event of `published` for `side`'s view: the whole state.
pub(crate) fn state_text(app: &AppState, published: &Published, side: Side) -> Bytes {
    let game = &published.game;
    let max_age = game.running().map(|_| FRESH);
    published.text(slot(false, true, side), max_age, || {
        app.metrics.event_text_built("state");
        frame(
            "state",
            Some(game.version),
            &state_for(app, game, Some(side)),
        )
    })
}

/// The `change` event of `published` for `side`'s view (from the version published
/// before it), or `None` when the hub did not have that version.
pub(crate) fn change_text(app: &AppState, published: &Arc<Published>, side: Side) -> Option<Bytes> {
    let (base, game) = (published.base.as_ref()?, &published.game);
    let drawn = GameChange::redraws(base, game);
    Some(published.text(slot(true, drawn, side), None, || {
        app.metrics.event_text_built("change");
        let change = GameChange::between(base, game, view_now(app, game, side));
        frame("change", Some(game.version), &change)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_text_has_its_own_slot_and_a_plain_change_is_shared() {
        let all = [
            slot(false, true, Side::White),
            slot(false, true, Side::Black),
            slot(true, true, Side::White),
            slot(true, true, Side::Black),
        ];
        assert_eq!(all, [0, 1, 2, 3]);
        assert_eq!(
            slot(true, false, Side::White),
            slot(true, false, Side::Black)
        );
        assert!(all.iter().all(|&s| s < crate::hub::TEXT_SLOTS));
    }
}
