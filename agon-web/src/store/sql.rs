//! SQL both dialects run: [`Statement`]s with `?N` placeholders and typed [`Value`]s
//! (every write of a [`Change`](super::Change) becomes these in [`super::write`], the
//! accounts' in [`super::accounts`]), the cells read back, and the queries both stores
//! share; SQLite runs them as they are, PostgreSQL with `$N` ([`Dialect::text`]). Each
//! store only binds the values and runs the statements.

use std::borrow::Cow;

/// A value bound to a placeholder, typed so that PostgreSQL (strict about its parameters'
/// types) and SQLite read it alike.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// A 64-bit integer (`BIGINT`; SQLite's `INTEGER`), or NULL.
    Int(Option<i64>),
    /// A ply (`INTEGER` in PostgreSQL).
    Ply(i32),
    /// Text that is never NULL.
    Text(String),
    /// Text, or NULL.
    OptText(Option<String>),
    /// Bytes (`BYTEA`; SQLite's `BLOB`), or NULL.
    Bytes(Option<Vec<u8>>),
    /// A flag (`BOOLEAN`; SQLite's 0 or 1).
    Bool(bool),
    /// A real number (`DOUBLE PRECISION`; SQLite's `REAL`).
    Real(f64),
}

// A rating is never NaN (`Rating::new` refuses it), so a value equals itself.
impl Eq for Value {}

/// A value read from a row, whatever its column: both stores' readers make these, and
/// the operations written once (`accounts.rs`) read them by what they expect.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell {
    Null,
    /// An integer or a flag (SQLite keeps flags as 0 or 1; PostgreSQL's become so too).
    Int(i64),
    Real(f64),
    Text(String),
    Bytes(Vec<u8>),
}

/// The rows one read answers.
pub(crate) type Rows = Vec<Vec<Cell>>;

impl Cell {
    fn unexpected(&self, what: &str) -> super::StoreError {
        super::StoreError::Database(format!("database: a {what} expected, {self:?} read"))
    }

    /// The integer, or an error naming what was read instead.
    pub fn int(&self) -> Result<i64, super::StoreError> {
        match self {
            Cell::Int(v) => Ok(*v),
            _ => Err(self.unexpected("number")),
        }
    }

    /// The integer, `None` for NULL.
    pub fn opt_int(&self) -> Result<Option<i64>, super::StoreError> {
        match self {
            Cell::Null => Ok(None),
            _ => self.int().map(Some),
        }
    }

    /// The real number (an integer column's too: SQLite stores `2.0` as it likes).
    pub fn real(&self) -> Result<f64, super::StoreError> {
        match self {
            Cell::Real(v) => Ok(*v),
            Cell::Int(v) => Ok(*v as f64),
            _ => Err(self.unexpected("real number")),
        }
    }

    /// The text.
    pub fn text(&self) -> Result<String, super::StoreError> {
        match self {
            Cell::Text(v) => Ok(v.clone()),
            _ => Err(self.unexpected("text")),
        }
    }

    /// The bytes.
    pub fn bytes(&self) -> Result<Vec<u8>, super::StoreError> {
        match self {
            Cell::Bytes(v) => Ok(v.clone()),
            _ => Err(self.unexpected("blob")),
        }
    }

    /// The flag (0 or 1 in SQLite).
    pub fn flag(&self) -> Result<bool, super::StoreError> {
        self.int().map(|v| v != 0)
    }
}

/// One statement of a write: its SQL with `?1` to `?N`, the values, and the error it
/// fails with unless it changes exactly one row (the version check of a save: else the
/// change is a conflict; `None`: any number of rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Statement {
    pub sql: String,
    pub params: Vec<Value>,
    pub one_row: Option<super::StoreError>,
}

impl Statement {
    pub fn new(sql: impl Into<String>, params: Vec<Value>) -> Statement {
        Statement {
            sql: sql.into(),
            params,
            one_row: None,
        }
    }

    /// The statement, failing with `error` unless it changes exactly one row.
    pub fn one_row(self, error: super::StoreError) -> Statement {
        Statement {
            one_row: Some(error),
            ..self
        }
    }

    /// Runs the check of [`Statement::one_row`] on the number of rows it `changed`.
    pub fn check(&self, changed: u64) -> Result<(), super::StoreError> {
        match &self.one_row {
            Some(error) if changed != 1 => Err(error.clone()),
            _ => Ok(()),
        }
    }
}

/// The two SQL dialects the stores speak.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// `sql` (written with `?N` placeholders and no other `?`) in this dialect. SQLite
    /// has no row locks (its transaction holds the whole file's write lock): it reads a
    /// `FOR UPDATE` without it.
    pub fn text(self, sql: &str) -> Cow<'_, str> {
        match self {
            Dialect::Sqlite if sql.contains(" FOR UPDATE") => {
                Cow::Owned(sql.replace(" FOR UPDATE", ""))
            }
            Dialect::Sqlite => Cow::Borrowed(sql),
            Dialect::Postgres => Cow::Owned(sql.replace('?', "$")),
        }
    }
}

/// The ids of the games whose running side's deadline has passed by `?1`.
/// The accounts of a game's seats, read with the game: side, account id, name, when
/// deleted, bot, the rating and deviation at the start ([`super::row::seat_player`]).
pub(crate) const SEAT_PLAYERS: &str = "SELECT s.side, a.id, a.username, a.deleted_ms, a.bot, \
     s.rating, s.deviation FROM seat_accounts s JOIN accounts a ON a.id = s.account_id \
     WHERE s.game_id = ?1";

pub(crate) const RUNNING_CLOCKS: &str = "SELECT id FROM games WHERE deadline_ms <= ?1";

/// The number of games and of moves.
pub(crate) const COUNTS: &str = "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM moves)";

/// The idle games: unfinished ones touched before `?1`, finished ones before `?2` (with
/// `?3` false and `?4` true: SQLite's `over` is 0 or 1, PostgreSQL's a boolean).
pub(crate) const IDLE: &str = "(over = ?3 AND touched_ms < ?1) OR (over = ?4 AND touched_ms < ?2)";

/// The parameters of [`IDLE`].
pub(crate) fn idle_params(unfinished_ms: i64, finished_ms: Option<i64>) -> Vec<Value> {
    vec![
        Value::Int(Some(unfinished_ms)),
        Value::Int(Some(finished_ms.unwrap_or(i64::MIN))),
        Value::Bool(false),
        Value::Bool(true),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_reads_a_row_lock_as_its_transactions_lock() {
        let read = "SELECT id FROM accounts WHERE id = ?1 FOR UPDATE";
        assert_eq!(
            Dialect::Sqlite.text(read),
            "SELECT id FROM accounts WHERE id = ?1"
        );
        assert_eq!(
            Dialect::Postgres.text(read),
            "SELECT id FROM accounts WHERE id = $1 FOR UPDATE"
        );
    }

    #[test]
    fn a_cell_reads_as_what_it_holds_or_names_what_it_is() {
        assert_eq!(Cell::Int(3).int(), Ok(3));
        assert_eq!(Cell::Null.opt_int(), Ok(None));
        assert_eq!(Cell::Int(1).flag(), Ok(true));
        assert_eq!(Cell::Int(2).real(), Ok(2.0));
        assert_eq!(Cell::Bytes(vec![1]).bytes(), Ok(vec![1]));
        assert_eq!(
            Cell::Text("x".into()).int().unwrap_err().to_string(),
            "database: a number expected, Text(\"x\") read"
        );
        assert_eq!(
            Cell::Null.text().unwrap_err().to_string(),
            "database: a text expected, Null read"
        );
    }

    #[test]
    fn a_one_row_statement_fails_with_its_error_unless_one_row_changed() {
        let s = Statement::new("DELETE FROM x", vec![]);
        assert_eq!((s.check(0), s.check(2)), (Ok(()), Ok(())));
        let s = s.one_row(crate::store::StoreError::NoAccount);
        assert_eq!(s.check(1), Ok(()));
        assert_eq!(s.check(0), Err(crate::store::StoreError::NoAccount));
        assert_eq!(s.check(2), Err(crate::store::StoreError::NoAccount));
    }

    #[test]
    fn postgres_reads_the_placeholders_with_dollars() {
        assert_eq!(
            Dialect::Postgres.text(RUNNING_CLOCKS),
            "SELECT id FROM games WHERE deadline_ms <= $1"
        );
        assert_eq!(Dialect::Sqlite.text(RUNNING_CLOCKS), RUNNING_CLOCKS);
    }
}
