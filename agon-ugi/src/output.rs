//! [`Output`]: one line the engine writes.

use std::fmt;

use agon_bots::{Analysis, Evaluation};

/// One line of output (its [`Display`](fmt::Display) form is the line, without the
/// newline).
///
/// ```
/// use agon_ugi::Output;
/// assert_eq!(Output::ReadyOk.to_string(), "readyok");
/// assert_eq!(Output::Error("bad".into()).to_string(), "info string error: bad");
/// assert_eq!(Output::Response("p1win").to_string(), "response p1win");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Output {
    /// `id name NAME`.
    IdName(String),
    /// `id author AUTHOR`.
    IdAuthor(String),
    /// `option name NAME type TYPE default VALUE [min A max B]`: the rest after the name.
    Option {
        /// The option's name.
        name: &'static str,
        /// The rest of the line: `type ... default ...`.
        rest: String,
    },
    /// `ugiok`.
    UgiOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...` fields of a search (see [`Output::info`]).
    Info(String),
    /// `info string TEXT`.
    InfoString(String),
    /// `info string error: TEXT`.
    Error(String),
    /// `bestmove MOVE` (`(none)` when there is none).
    BestMove(String),
    /// `response ANSWER`.
    Response(&'static str),
}

impl Output {
    /// The `info` line of one iteration's analysis: `depth D seldepth S score cp N|mate N
    /// nodes N nps N time MS hashfull H pv M...`. The score is for the side to act; `mate
    /// N` counts plies to the end (positive: a win of the side to act, its N-th ply from
    /// now; negative: a loss).
    ///
    /// ```
    /// use agon_bots::{analyse, Limits};
    /// use agon_ugi::Output;
    /// let a = analyse(&agon_core::Game::new(), Limits::depth(2), 1)?;
    /// let line = Output::info(&a).to_string();
    /// assert!(line.starts_with("info depth 2 seldepth "), "{line}");
    /// assert!(line.contains(" score cp ") && line.contains(" pv "), "{line}");
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    pub fn info(analysis: &Analysis) -> Output {
        let score = match analysis.score() {
            Evaluation::Points(cp) => format!("cp {cp}"),
            // The winner's N-th move is the (2N-1)-th ply from now; the loser's
            // opponent's N-th move the 2N-th.
            Evaluation::Win(n) => format!("mate {}", 2 * i64::from(n) - 1),
            Evaluation::Loss(n) => format!("mate -{}", 2 * i64::from(n)),
        };
        let mut line = format!(
            "depth {} seldepth {} score {score} nodes {} nps {} time {} hashfull {} pv",
            analysis.depth,
            analysis.seldepth,
            analysis.nodes,
            analysis.nps(),
            analysis.time.as_millis(),
            analysis.hashfull,
        );
        for m in analysis.pv() {
            line.push(' ');
            line += &m.to_string();
        }
        Output::Info(line)
    }
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::IdName(name) => write!(f, "id name {name}"),
            Output::IdAuthor(author) => write!(f, "id author {author}"),
            Output::Option { name, rest } => write!(f, "option name {name} {rest}"),
            Output::UgiOk => f.write_str("ugiok"),
            Output::ReadyOk => f.write_str("readyok"),
            Output::Info(fields) => write!(f, "info {fields}"),
            Output::InfoString(text) => write!(f, "info string {text}"),
            Output::Error(text) => write!(f, "info string error: {text}"),
            Output::BestMove(m) => write!(f, "bestmove {m}"),
            Output::Response(answer) => write!(f, "response {answer}"),
        }
    }
}
