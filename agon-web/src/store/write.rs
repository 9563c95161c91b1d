//! Each write of a [`Change`](super::Change) to a game ([`Op`]) and its SQL: one
//! description of each write, turned into statements both stores run (their dialect:
//! [`Dialect::text`](super::sql::Dialect::text)).

use super::row::{GameRow, CHANGEABLE, COLUMNS};
use super::sql::{Statement, Value};

/// The placeholders `?from` to `?(from + n - 1)`, comma-separated.
fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One write of a [`Change`](super::Change), in the order it was asked.
pub(crate) enum Op {
    /// A new game's row and moves.
    Insert {
        row: Box<GameRow>,
        moves: Vec<String>,
        now_ms: i64,
        deadline_ms: Option<i64>,
    },
    /// Moves from ply `from` on, stored at `now_ms`.
    Append {
        id: String,
        from: usize,
        moves: Vec<String>,
        now_ms: i64,
    },
    /// Deletes the moves from ply `keep` on.
    Truncate { id: String, keep: usize },
    /// The account of a seat of game `game_id` (written with the game: the row is
    /// new), and in a rated game the player's rating and deviation at the start.
    Seat {
        game_id: String,
        side: &'static str,
        account_id: String,
        rating: Option<[f64; 2]>,
        now_ms: i64,
    },
    /// Writes the row's changeable fields, if it still holds version `row.version - 1`.
    Save {
        row: Box<GameRow>,
        now_ms: i64,
        deadline_ms: Option<i64>,
    },
}

impl Op {
    /// The statements of this write, in order.
    pub fn statements(self) -> Vec<Statement> {
        match self {
            Op::Insert {
                row,
                moves,
                now_ms,
                deadline_ms,
            } => {
                let mut params: Vec<Value> = row.fields().into_iter().map(|f| f.1).collect();
                params.extend([
                    Value::Int(Some(now_ms / 1000)),
                    Value::Int(Some(now_ms)),
                    Value::Int(deadline_ms),
                ]);
                let sql = format!(
                    "INSERT INTO games ({COLUMNS}, created_unix, touched_ms, deadline_ms) \
                     VALUES ({})",
                    placeholders(1, params.len())
                );
                let mut statements = vec![Statement::new(sql, params)];
                statements.extend(append(&row.id, 0, moves, now_ms));
                statements
            }
            Op::Append {
                id,
                from,
                moves,
                now_ms,
            } => append(&id, from, moves, now_ms).into_iter().collect(),
            Op::Truncate { id, keep } => vec![Statement::new(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                vec![Value::Text(id), ply(keep)],
            )],
            Op::Seat {
                game_id,
                side,
                account_id,
                rating,
                now_ms,
            } => {
                let mut params = vec![
                    Value::Text(game_id),
                    Value::Text(side.to_string()),
                    Value::Text(account_id),
                    Value::Int(Some(now_ms)),
                ];
                // A casual seat leaves the rating NULL (no value to bind).
                let (columns, values) = match rating {
                    Some([rating, deviation]) => {
                        params.extend([Value::Real(rating), Value::Real(deviation)]);
                        (", rating, deviation", ", ?5, ?6")
                    }
                    None => ("", ""),
                };
                vec![Statement::new(
                    format!(
                        "INSERT INTO seat_accounts (game_id, side, account_id, claimed_ms\
                         {columns}) VALUES (?1, ?2, ?3, ?4{values})"
                    ),
                    params,
                )]
            }
            Op::Save {
                row,
                now_ms,
                deadline_ms,
            } => {
                let mut sets = Vec::new();
                let mut params = Vec::new();
                let written = row
                    .fields()
                    .into_iter()
                    .filter(|(name, _)| CHANGEABLE.contains(name))
                    .chain([
                        ("touched_ms", Value::Int(Some(now_ms))),
                        ("deadline_ms", Value::Int(deadline_ms)),
                    ]);
                for (name, value) in written {
                    params.push(value);
                    sets.push(format!("{name} = ?{}", params.len()));
                }
                // The guard: the row still holds the version the change was computed from.
                params.push(Value::Text(row.id.clone()));
                params.push(Value::Int(Some(row.version - 1)));
                let n = params.len();
                let sql = format!(
                    "UPDATE games SET {} WHERE id = ?{} AND version = ?{n}",
                    sets.join(", "),
                    n - 1
                );
                vec![Statement::new(sql, params).one_row(super::StoreError::Conflict)]
            }
        }
    }
}

fn ply(ply: usize) -> Value {
    // MAX_PLIES is far below i32::MAX.
    Value::Ply(i32::try_from(ply).unwrap_or(i32::MAX))
}

/// The moves from ply `from` on in one statement (none for no move).
fn append(id: &str, from: usize, moves: Vec<String>, now_ms: i64) -> Option<Statement> {
    if moves.is_empty() {
        return None;
    }
    let mut params = vec![Value::Text(id.to_string()), Value::Int(Some(now_ms))];
    let mut rows = Vec::new();
    for (i, m) in moves.into_iter().enumerate() {
        params.push(ply(from + i));
        params.push(Value::Text(m));
        let n = params.len();
        rows.push(format!("(?1, ?{}, ?{n}, ?2)", n - 1));
    }
    let sql = format!(
        "INSERT INTO moves (game_id, ply, move, at_ms) VALUES {}",
        rows.join(", ")
    );
    Some(Statement::new(sql, params))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tests::computer_game;

    fn row() -> Box<GameRow> {
        let game = computer_game();
        Box::new(GameRow::of(&game))
    }

    #[test]
    fn a_save_names_each_column_it_writes_and_guards_the_version() {
        let mut row = row();
        row.version = 7;
        let [save] = &Op::Save {
            row,
            now_ms: 5,
            deadline_ms: None,
        }
        .statements()[..] else {
            panic!("one statement")
        };
        assert_eq!(save.one_row, Some(crate::store::StoreError::Conflict));
        assert_eq!(save.params.len(), CHANGEABLE.len() + 4);
        let n = save.params.len();
        assert!(
            save.sql
                .ends_with(&format!("WHERE id = ?{} AND version = ?{n}", n - 1)),
            "{}",
            save.sql
        );
        assert_eq!(save.params[n - 1], Value::Int(Some(6)), "the version read");
        assert_eq!(save.params[n - 2], Value::Text("0011223344556677".into()));
        // Each `name = ?i` binds the field of that name.
        let fields = GameRow::of(&computer_game()).fields();
        for set in save.sql["UPDATE games SET ".len()..]
            .split(" WHERE")
            .next()
            .unwrap()
            .split(", ")
        {
            let (name, at) = set.split_once(" = ?").unwrap();
            let value = &save.params[at.parse::<usize>().unwrap() - 1];
            match name {
                "touched_ms" => assert_eq!(value, &Value::Int(Some(5))),
                "deadline_ms" => assert_eq!(value, &Value::Int(None)),
                "version" => assert_eq!(value, &Value::Int(Some(7))),
                _ => assert_eq!(
                    Some(value),
                    fields.iter().find(|f| f.0 == name).map(|f| &f.1),
                    "{name}"
                ),
            }
        }
    }

    #[test]
    fn moves_are_one_statement_and_no_move_is_none() {
        let append = Op::Append {
            id: "0011223344556677".into(),
            from: 3,
            moves: vec!["f1-e1".into(), "pass".into()],
            now_ms: 9,
        };
        let [insert] = &append.statements()[..] else {
            panic!("one statement")
        };
        assert_eq!(insert.sql, "INSERT INTO moves (game_id, ply, move, at_ms) VALUES (?1, ?3, ?4, ?2), (?1, ?5, ?6, ?2)");
        assert_eq!(
            insert.params[2..],
            [
                Value::Ply(3),
                Value::Text("f1-e1".into()),
                Value::Ply(4),
                Value::Text("pass".into())
            ]
        );
        assert!(Op::Append {
            id: "x".into(),
            from: 0,
            moves: vec![],
            now_ms: 0
        }
        .statements()
        .is_empty());
        let new = Op::Insert {
            row: row(),
            moves: vec![],
            now_ms: 1_000,
            deadline_ms: None,
        }
        .statements();
        assert_eq!(new.len(), 1, "a new game without moves is its row");
        assert_eq!(new[0].params.len(), COLUMNS.split(',').count() + 3);
    }
}
