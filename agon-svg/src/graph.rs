//! The evaluation graph of a reviewed game: White's expected score at each position, from
//! the start (left) to the end (right), with the marked actions as dots.

use core::fmt;

use crate::{Escaped, Num, Points};

/// How an action is marked on an [`EvaluationGraph`]: the three judgements of a game
/// review, each with its colour.
///
/// ```
/// use agon_svg::Mark;
/// assert_eq!(Mark::Blunder.class(), "blunder");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Mark {
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A large loss.
    Blunder,
}

impl Mark {
    /// The class of the mark's dot: `inaccuracy`, `mistake` or `blunder`.
    ///
    /// ```
    /// assert_eq!(agon_svg::Mark::Mistake.class(), "mistake");
    /// ```
    pub fn class(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// Its fill: colours told apart also by people who do not see red and green
    /// (Okabe and Ito's palette: sky blue, orange, vermilion).
    fn colour(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "#56b4e9",
            Mark::Mistake => "#e69f00",
            Mark::Blunder => "#d55e00",
        }
    }
}

/// The picture's size in its own units.
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 160.0;

/// A picture of a game's evaluation, as SVG text: a builder over White's expected score at
/// each position (from 0, a Black win, to 1, a White win; a value outside is drawn at the
/// nearer end, a NaN at one half); format it with [`Display`](fmt::Display).
///
/// The area under the curve is White's share, light; above it Black's, dark; a line marks
/// one half. [`mark`](EvaluationGraph::mark) puts a dot on the position an action led to,
/// [`current`](EvaluationGraph::current) a line at one position. Classes, stable for pages:
/// `<svg class="evaluation-graph" role="img" aria-label=…>`, `<polygon class="white-area">`,
/// `<polyline class="curve">`, `<line class="midline">`, `<line class="current"
/// data-position=…>`, `<circle class="mark KIND" data-position=…>` where `KIND` is
/// [`Mark::class`].
///
/// ```
/// use agon_svg::{EvaluationGraph, Mark};
///
/// let white = [0.5, 0.55, 0.6, 0.2, 0.1];
/// let text = EvaluationGraph::new(&white).mark(3, Mark::Blunder).current(Some(2)).to_string();
/// assert!(text.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" class="evaluation-graph""#));
/// assert!(text.contains(r#"<circle class="mark blunder" data-position="3""#));
/// assert!(text.contains(r#"<line class="current" data-position="2""#));
/// // The curve passes through every position, left to right.
/// assert!(text.contains(r#"<polyline class="curve" points="0.00,80.00 150.00,72.00 300.00,64.00 450.00,128.00 600.00,144.00""#));
/// ```
#[derive(Clone, Debug)]
pub struct EvaluationGraph<'a> {
    white: &'a [f64],
    marks: Vec<(usize, Mark)>,
    current: Option<usize>,
    label: Option<String>,
}

impl<'a> EvaluationGraph<'a> {
    /// A graph of White's expected score at each position, the start first.
    ///
    /// ```
    /// let text = agon_svg::EvaluationGraph::new(&[0.5]).to_string();
    /// assert!(text.ends_with("</svg>"));
    /// ```
    pub fn new(white: &'a [f64]) -> EvaluationGraph<'a> {
        EvaluationGraph {
            white,
            marks: Vec::new(),
            current: None,
            label: None,
        }
    }

    /// Marks the position at `index` (the one an action led to) with a dot; indices past
    /// the last position are left out.
    ///
    /// ```
    /// use agon_svg::{EvaluationGraph, Mark};
    /// let text = EvaluationGraph::new(&[0.5, 0.4]).mark(1, Mark::Mistake).mark(9, Mark::Blunder).to_string();
    /// assert_eq!(text.matches("<circle").count(), 1);
    /// ```
    #[must_use]
    pub fn mark(mut self, index: usize, mark: Mark) -> EvaluationGraph<'a> {
        self.marks.push((index, mark));
        self
    }

    /// Draws a line at the position at `index` (the one shown beside the graph), or none.
    ///
    /// ```
    /// let text = agon_svg::EvaluationGraph::new(&[0.5, 0.4]).current(Some(1)).to_string();
    /// assert!(text.contains(r#"class="current""#));
    /// ```
    #[must_use]
    pub fn current(mut self, index: Option<usize>) -> EvaluationGraph<'a> {
        self.current = index;
        self
    }

    /// The picture's accessible name (its `aria-label` and `<title>`); by default
    /// "Evaluation graph: N positions". The text is escaped.
    ///
    /// ```
    /// let text = agon_svg::EvaluationGraph::new(&[0.5]).label("Évaluation <1>").to_string();
    /// assert!(text.contains(r#"aria-label="Évaluation &lt;1&gt;""#));
    /// ```
    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> EvaluationGraph<'a> {
        self.label = Some(label.into());
        self
    }

    /// The x of position `index`.
    fn x(&self, index: usize) -> f64 {
        if self.white.len() <= 1 {
            return WIDTH / 2.0;
        }
        WIDTH * index as f64 / (self.white.len() - 1) as f64
    }

    /// The y of an expected score: 1 at the top.
    fn y(score: f64) -> f64 {
        let score = if score.is_nan() {
            0.5
        } else {
            score.clamp(0.0, 1.0)
        };
        HEIGHT * (1.0 - score)
    }
}

impl fmt::Display for EvaluationGraph<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| format!("Evaluation graph: {} positions", self.white.len()));
        let label = Escaped(&label);
        write!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="evaluation-graph" viewBox="0 0 {} {}" role="img" aria-label="{label}"><title>{label}</title>"#,
            Num(WIDTH),
            Num(HEIGHT)
        )?;
        write!(
            f,
            r##"<rect class="black-area" width="{}" height="{}" fill="#4a4036"/>"##,
            Num(WIDTH),
            Num(HEIGHT)
        )?;
        let mut curve: Vec<(f64, f64)> = (0..self.white.len())
            .map(|i| (self.x(i), Self::y(self.white[i])))
            .collect();
        if curve.len() == 1 {
            curve = vec![(0.0, curve[0].1), (WIDTH, curve[0].1)];
        }
        if !curve.is_empty() {
            let mut area = curve.clone();
            area.push((curve[curve.len() - 1].0, HEIGHT));
            area.push((curve[0].0, HEIGHT));
            write!(
                f,
                r##"<polygon class="white-area" points="{}" fill="#f4ead6"/>"##,
                Points(&area)
            )?;
        }
        write!(
            f,
            r##"<line class="midline" x1="0.00" y1="{m}" x2="{}" y2="{m}" stroke="#8a6d3b" stroke-width="1" stroke-dasharray="4 4"/>"##,
            Num(WIDTH),
            m = Num(HEIGHT / 2.0)
        )?;
        if !curve.is_empty() {
            write!(
                f,
                r##"<polyline class="curve" points="{}" fill="none" stroke="#c9a227" stroke-width="2"/>"##,
                Points(&curve)
            )?;
        }
        if let Some(i) = self.current.filter(|&i| i < self.white.len()) {
            write!(
                f,
                r##"<line class="current" data-position="{i}" x1="{x}" y1="0.00" x2="{x}" y2="{}" stroke="#2e7d32" stroke-width="2"/>"##,
                Num(HEIGHT),
                x = Num(self.x(i))
            )?;
        }
        for &(i, mark) in self.marks.iter().filter(|(i, _)| *i < self.white.len()) {
            write!(
                f,
                r##"<circle class="mark {}" data-position="{i}" cx="{}" cy="{}" r="4" fill="{}" stroke="#222" stroke-width="1"/>"##,
                mark.class(),
                Num(self.x(i)),
                Num(Self::y(self.white[i])),
                mark.colour()
            )?;
        }
        f.write_str("</svg>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(text).expect("well-formed SVG")
    }

    #[test]
    fn the_picture_is_well_formed_and_its_curve_spans_the_width() {
        let white = [0.5, 1.0, 0.0, 0.25];
        let text = EvaluationGraph::new(&white)
            .mark(2, Mark::Inaccuracy)
            .mark(3, Mark::Mistake)
            .to_string();
        let doc = parse(&text);
        let curve = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("curve"))
            .unwrap();
        assert_eq!(
            curve.attribute("points"),
            Some("0.00,80.00 200.00,0.00 400.00,160.00 600.00,120.00")
        );
        let marks: Vec<_> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "circle")
            .map(|n| (n.attribute("class").unwrap(), n.attribute("cy").unwrap()))
            .collect();
        assert_eq!(
            marks,
            [("mark inaccuracy", "160.00"), ("mark mistake", "120.00")]
        );
    }

    #[test]
    fn odd_values_are_drawn_within_the_picture() {
        let white = [f64::NAN, 2.0, -1.0, f64::INFINITY];
        let text = EvaluationGraph::new(&white).to_string();
        parse(&text);
        assert!(text.contains(r#"points="0.00,80.00 200.00,0.00 400.00,160.00 600.00,0.00""#));
        assert!(!text.contains("NaN") && !text.contains("inf"));
    }

    #[test]
    fn one_position_is_a_flat_line_and_none_is_an_empty_frame() {
        let text = EvaluationGraph::new(&[0.75]).to_string();
        assert!(text.contains(r#"<polyline class="curve" points="0.00,40.00 600.00,40.00""#));
        let empty = EvaluationGraph::new(&[])
            .current(Some(0))
            .mark(0, Mark::Blunder)
            .to_string();
        parse(&empty);
        assert!(
            !empty.contains("curve") && !empty.contains("<circle") && !empty.contains("current")
        );
    }

    #[test]
    fn the_label_is_escaped_and_named_twice() {
        let text = EvaluationGraph::new(&[0.5, 0.5])
            .label(r#"a "quoted" <label> & more"#)
            .to_string();
        let doc = parse(&text);
        let root = doc.root_element();
        assert_eq!(
            root.attribute("aria-label"),
            Some(r#"a "quoted" <label> & more"#)
        );
        assert_eq!(
            root.first_child().unwrap().text(),
            Some(r#"a "quoted" <label> & more"#)
        );
    }
}
