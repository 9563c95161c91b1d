//! SVG pictures of Agon positions: the one drawing of the board that the Python package
//! (`agon.svg`, and the notebook pictures of positions and games) and the web game share
//! (how the crates fit together: `ARCHITECTURE.md` at the repository root).
//!
//! [`Svg`] draws the hexagonal board of a [`Position`]: 91 flat-topped cells shaded by
//! ring, the throne marked with a star, each empty cell labelled with its name, the pieces
//! (discs; queens with a crown, guards with an inner ring; White light, Black dark),
//! captured pieces faded and crossed out (the crown or ring drawn over the cross, so it
//! stays readable), the last move highlighted and any number of
//! arrows. It is a builder: set the options, then format it (it implements
//! [`Display`](core::fmt::Display)).
//!
//! ```
//! use agon_core::{Move, Position};
//! use agon_svg::Svg;
//!
//! let m: Move = "f1-e1".parse()?;
//! let pos = Position::start().play(m)?;
//! let text = Svg::new(&pos)
//!     .size(Some(400))
//!     .last_move(Some(m))
//!     .arrow("f11".parse()?, "g10".parse()?)
//!     .to_string();
//! assert!(text.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg""#));
//! assert!(text.contains(r#"<g class="piece white queen" data-cell="e1">"#));
//! assert_eq!(text.matches(r#"class="last-move""#).count(), 2);
//! assert!(text.contains(r#"<line class="arrow" data-from="f11" data-to="g10""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The picture
//!
//! Pages style and script the picture through these classes and attributes, which are
//! stable:
//!
//! | element | what it is |
//! |---|---|
//! | `<svg role="img" aria-label="TEXT">` and `<title>TEXT</title>` | the root; `TEXT` is the position's one-line text |
//! | `<polygon class="cell ring-N" data-cell="f6">` | every cell, `N` its ring (0 to 5) |
//! | `<polygon class="throne" data-cell="f6">` | the star on the throne |
//! | `<polygon class="last-move" data-cell="…">` | the two cells of the last move |
//! | `<text class="coordinate" data-cell="…">` | the name of an empty cell |
//! | `<g class="piece white\|black queen\|guard [captured]" data-cell="…">` | a piece |
//! | `<path class="captured-mark" data-cell="…">` | the cross over a captured piece's disc, inside its group, under its crown or ring |
//! | `<line class="arrow" data-from="…" data-to="…">` | an arrow (`pointer-events="none"`) |
//!
//! Every element drawn over a cell either carries that cell's `data-cell` or lets clicks
//! through, so `event.target.closest('[data-cell]')` finds the cell clicked. Colours and
//! lines are set by presentation attributes only (`fill=`, `stroke=`, `opacity=`...):
//! there are no `style` attributes or elements, so the picture works under a
//! Content-Security-Policy without `'unsafe-inline'` styles, and a page's CSS rules
//! override its colours.
//!
//! The picture is in units where a cell's radius is 20, with White at the bottom (or Black,
//! [flipped](Svg::flipped)); numbers are written with two decimals. The output is
//! deterministic and the same on every platform: it uses no trigonometry, only
//! arithmetic and square roots, which IEEE 754 rounds exactly.
//!
//! [`EvaluationGraph`] draws a reviewed game's evaluation, White's expected score from
//! the start to the end, with its marked actions ([`Mark`]).
//!
//! Geometry comes from [`agon_core::Cell`] (cube coordinates and rings); nothing of the
//! rules is used beyond reading the pieces and captured marks of the position.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use core::fmt;
use std::sync::OnceLock;

use agon_core::{Cell, Kind, Move, Position, Side};

mod graph;
pub use graph::{EvaluationGraph, Mark};

/// The fill of the cells of each ring, the throne (ring 0) first.
///
/// ```
/// use agon_core::Position;
/// use agon_svg::{Svg, RING_COLOURS};
///
/// let text = Svg::new(&Position::start()).to_string();
/// let throne = format!(r#"data-cell="f6" points="20.00,0.00 10.00,17.32 -10.00,17.32 -20.00,0.00 -10.00,-17.32 10.00,-17.32" fill="{}""#, RING_COLOURS[0]);
/// assert!(text.contains(&throne));
/// ```
pub const RING_COLOURS: [&str; 6] = [
    "#e0b43c", "#f8ecd0", "#f0dfb5", "#e7d19b", "#ddc282", "#cfae6a",
];

const EDGE: &str = "#8a6d3b";
const LABEL: &str = "#7d6541";
const HIGHLIGHT: &str = "#f5d830";
const ARROW: &str = "#2e7d32";
const CAPTURED: &str = "#c62828";
const THRONE_FILL: &str = "#fff3c4";

/// The radius of a cell (centre to corner) in picture units.
const R: f64 = 20.0;
/// Space around the board.
const MARGIN: f64 = 6.0;
/// √3, the nearest `f64` (what `3f64.sqrt()` gives; a literal so it can be a constant).
const SQRT3: f64 = 1.732_050_807_568_877_2;
/// sin 60°.
const S60: f64 = SQRT3 / 2.0;
/// Unit vectors every 30°, from the x axis towards y (down the picture): entry `k` is
/// `(cos 30k°, sin 30k°)`. Exact tables keep the output free of platform-dependent
/// trigonometry.
const UNIT30: [(f64, f64); 12] = [
    (1.0, 0.0),
    (S60, 0.5),
    (0.5, S60),
    (0.0, 1.0),
    (-0.5, S60),
    (-S60, 0.5),
    (-1.0, 0.0),
    (-S60, -0.5),
    (-0.5, -S60),
    (0.0, -1.0),
    (0.5, -S60),
    (S60, -0.5),
];
/// Half the width of the picture: the board spans 7.5 radii each side of the throne's
/// centre to the centres of files a and l, plus one radius to their outer corners.
const HALF_WIDTH: f64 = 7.5 * R + R + MARGIN;
/// Half the height: 5.5 cell heights (√3 radii each) from the throne's centre.
const HALF_HEIGHT: f64 = 5.5 * SQRT3 * R + MARGIN;
/// The corners of the queen's crown, in radii from the centre of her cell.
const CROWN: [(f64, f64); 7] = [
    (-0.36, 0.2),
    (0.36, 0.2),
    (0.42, -0.24),
    (0.18, -0.02),
    (0.0, -0.3),
    (-0.18, -0.02),
    (-0.42, -0.24),
];

/// A picture of a position, as SVG text: a builder that borrows the position; set the
/// options, then format it with [`Display`](fmt::Display) (`to_string()`, `write!`).
///
/// Options and their defaults: [`size`](Svg::size) `None` (a `viewBox` only, so the
/// picture fills its container), [`flipped`](Svg::flipped) `false` (White at the bottom),
/// [`last_move`](Svg::last_move) `None`, [`coordinates`](Svg::coordinates) `true`, no
/// [`arrow`](Svg::arrow)s.
///
/// ```
/// use agon_core::Position;
/// use agon_svg::Svg;
///
/// let pos = Position::start();
/// let picture = Svg::new(&pos);
/// let text = picture.to_string();
/// assert_eq!(text.matches(r#"<polygon class="cell "#).count(), 91);
/// assert_eq!(text.matches(r#"<g class="piece "#).count(), 14);
/// assert!(!text.contains(" width=") && !text.contains(" height="));
/// assert!(text.ends_with("</svg>"));
/// // The same options always give the same text.
/// assert_eq!(picture.clone().to_string(), text);
/// ```
#[derive(Clone, Debug)]
pub struct Svg<'a> {
    position: &'a Position,
    size: Option<u32>,
    flipped: bool,
    last_move: Option<Move>,
    coordinates: bool,
    arrows: Vec<(Cell, Cell)>,
}

impl<'a> Svg<'a> {
    /// A picture of `position` with the default options (see [`Svg`]).
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_svg::Svg;
    ///
    /// let pos: Position = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf10*,ga2,gb7,gd1*,gh1,gk7,gl2 b".parse()?;
    /// let text = Svg::new(&pos).to_string();
    /// assert!(text.contains(r#"<title>Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf10*,ga2,gb7,gd1*,gh1,gk7,gl2 b</title>"#));
    /// assert!(text.contains(r#"<g class="piece black queen captured" data-cell="f10">"#));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    #[must_use]
    pub fn new(position: &'a Position) -> Self {
        Svg {
            position,
            size: None,
            flipped: false,
            last_move: None,
            coordinates: true,
            arrows: Vec::new(),
        }
    }

    /// The width in pixels (`width=` and `height=` attributes; the height follows the
    /// board's shape), or `None` (the default) for no size: only the `viewBox`, so the
    /// picture takes the size its container gives it.
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_svg::Svg;
    ///
    /// let pos = Position::start();
    /// let sized = Svg::new(&pos).size(Some(400)).to_string();
    /// assert!(sized.contains(r#" width="400" height="447" viewBox="-176.00 -196.53 352.00 393.05""#));
    /// let bare = Svg::new(&pos).size(None).to_string();
    /// assert!(!bare.contains(" width=") && !bare.contains(" height="));
    /// ```
    #[must_use]
    pub fn size(mut self, width: Option<u32>) -> Self {
        self.size = width;
        self
    }

    /// Whether to turn the board half round, Black at the bottom (default `false`).
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_svg::Svg;
    ///
    /// let pos = Position::start();
    /// // White's queen on f1: at the bottom, or at the top when flipped.
    /// let bottom = r#"<circle cx="0.00" cy="173.21""#;
    /// let top = r#"<circle cx="0.00" cy="-173.21""#;
    /// let plain = Svg::new(&pos).to_string();
    /// let flipped = Svg::new(&pos).flipped(true).to_string();
    /// assert!(plain.contains(&format!("data-cell=\"f1\">\n{bottom}")));
    /// assert!(flipped.contains(&format!("data-cell=\"f1\">\n{top}")));
    /// ```
    #[must_use]
    pub fn flipped(mut self, flipped: bool) -> Self {
        self.flipped = flipped;
        self
    }

    /// A move whose two cells are highlighted (default `None`). The move is only drawn,
    /// not checked against the position.
    ///
    /// ```
    /// use agon_core::{Move, Position};
    /// use agon_svg::Svg;
    ///
    /// let m: Move = "f1-e1".parse()?;
    /// let pos = Position::start().play(m)?;
    /// let text = Svg::new(&pos).last_move(Some(m)).to_string();
    /// assert!(text.contains(r#"<polygon class="last-move" data-cell="e1""#));
    /// assert!(text.contains(r#"<polygon class="last-move" data-cell="f1""#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn last_move(mut self, last_move: Option<Move>) -> Self {
        self.last_move = last_move;
        self
    }

    /// Whether to write each empty cell's name in it (default `true`).
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_svg::Svg;
    ///
    /// let pos = Position::start();
    /// let labelled = Svg::new(&pos).to_string();
    /// assert_eq!(labelled.matches(r#"<text class="coordinate""#).count(), 77);
    /// let bare = Svg::new(&pos).coordinates(false).to_string();
    /// assert!(!bare.contains("coordinate"));
    /// ```
    #[must_use]
    pub fn coordinates(mut self, coordinates: bool) -> Self {
        self.coordinates = coordinates;
        self
    }

    /// Adds an arrow from the centre of `from` towards `to`; call it once per arrow.
    /// Arrows are drawn in the order they were added, above everything else, and let
    /// clicks through (`pointer-events="none"`). An arrow from a cell to itself draws
    /// nothing.
    ///
    /// ```
    /// use agon_core::{Cell, Position};
    /// use agon_svg::Svg;
    ///
    /// let pos = Position::start();
    /// let (f1, e1, f2): (Cell, Cell, Cell) = ("f1".parse()?, "e1".parse()?, "f2".parse()?);
    /// let text = Svg::new(&pos).arrow(f1, e1).arrow(f1, f2).arrow(f1, f1).to_string();
    /// assert_eq!(text.matches(r#"<line class="arrow""#).count(), 2);
    /// assert!(text.contains(r#"data-from="f1" data-to="e1""#));
    /// assert!(text.contains(r#"data-from="f1" data-to="f2""#));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    #[must_use]
    pub fn arrow(mut self, from: Cell, to: Cell) -> Self {
        self.arrows.push((from, to));
        self
    }

    /// The centre of `cell` in picture units.
    fn centre(&self, cell: Cell) -> (f64, f64) {
        centre(cell, self.flipped)
    }

    fn write_header(&self, f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
        let (width, height) = (2.0 * HALF_WIDTH, 2.0 * HALF_HEIGHT);
        write!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1""#
        )?;
        if let Some(size) = self.size {
            let h = (f64::from(size) * height / width).round_ties_even() as u64;
            write!(f, r#" width="{size}" height="{h}""#)?;
        }
        writeln!(
            f,
            r#" viewBox="{} {} {} {}" role="img" aria-label="{}">"#,
            Num(-HALF_WIDTH),
            Num(-HALF_HEIGHT),
            Num(width),
            Num(height),
            Escaped(text),
        )?;
        writeln!(f, "<title>{}</title>", Escaped(text))?;
        writeln!(
            f,
            "<defs>\
             <marker id=\"agon-arrowhead\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" \
             markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">\
             <path d=\"M0,0 L10,5 L0,10 z\" fill=\"{ARROW}\"/></marker>\
             </defs>"
        )
    }

    fn write_cell(&self, f: &mut fmt::Formatter<'_>, cell: Cell) -> fmt::Result {
        let (cx, cy) = self.centre(cell);
        let fixed = &fixed_parts(self.flipped)[cell.index()];
        f.write_str(&fixed.cell)?;
        if self
            .last_move
            .is_some_and(|m| m.from() == Some(cell) || m.to() == Some(cell))
        {
            writeln!(
                f,
                r#"<polygon class="last-move" data-cell="{cell}" points="{}" fill="{HIGHLIGHT}" fill-opacity="0.85"/>"#,
                Hexagon(cx, cy, R * 0.94),
            )?;
        }
        if cell == Cell::THRONE {
            writeln!(
                f,
                r#"<polygon class="throne" data-cell="{cell}" points="{}" fill="{THRONE_FILL}" fill-opacity="0.7" stroke="{EDGE}" stroke-width="0.8"/>"#,
                Star(cx, cy, R * 0.8, R * 0.45),
            )?;
        }
        if self.coordinates && self.position.piece_at(cell).is_none() {
            f.write_str(&fixed.coordinate)?;
        }
        Ok(())
    }

    fn write_piece(
        &self,
        f: &mut fmt::Formatter<'_>,
        cell: Cell,
        side: Side,
        kind: Kind,
    ) -> fmt::Result {
        let (cx, cy) = self.centre(cell);
        let (side_name, body, line, mark) = match side {
            Side::White => ("white", "#fbfaf5", "#222222", "#262626"),
            Side::Black => ("black", "#262626", "#000000", "#f2f2f2"),
        };
        let kind_name = match kind {
            Kind::Queen => "queen",
            Kind::Guard => "guard",
        };
        let captured = self.position.is_captured(cell);
        // A captured piece: its disc faded, the cross over the disc, and its sign (crown or
        // ring) over the cross at full strength, so a captured queen still reads as a
        // queen on either colour.
        let (extra_class, opacity) = if captured {
            (" captured", r#" opacity="0.55""#)
        } else {
            ("", "")
        };
        writeln!(
            f,
            r#"<g class="piece {side_name} {kind_name}{extra_class}" data-cell="{cell}">"#
        )?;
        writeln!(
            f,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{body}" stroke="{line}" stroke-width="1.5"{opacity}/>"#,
            Num(cx),
            Num(cy),
            Num(R * 0.66),
        )?;
        if captured {
            let d = R * 0.5;
            writeln!(
                f,
                r#"<path class="captured-mark" data-cell="{cell}" d="M{},{} L{},{} M{},{} L{},{}" stroke="{CAPTURED}" stroke-width="3" stroke-linecap="round"/>"#,
                Num(cx - d),
                Num(cy - d),
                Num(cx + d),
                Num(cy + d),
                Num(cx - d),
                Num(cy + d),
                Num(cx + d),
                Num(cy - d),
            )?;
        }
        // Over the cross, the sign is edged in the disc's colour to stand out from it.
        let edge = if captured {
            format!(
                r#" stroke="{body}" stroke-width="1.5" stroke-linejoin="round" paint-order="stroke""#
            )
        } else {
            String::new()
        };
        match kind {
            Kind::Queen => {
                let crown = CROWN.map(|(dx, dy)| (cx + dx * R, cy + dy * R));
                writeln!(
                    f,
                    r#"<polygon points="{}" fill="{mark}"{edge}/>"#,
                    Points(&crown)
                )?;
            }
            Kind::Guard => writeln!(
                f,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{mark}" stroke-width="1.6"/>"#,
                Num(cx),
                Num(cy),
                Num(R * 0.36),
            )?,
        }
        writeln!(f, "</g>")
    }

    fn write_arrow(&self, f: &mut fmt::Formatter<'_>, from: Cell, to: Cell) -> fmt::Result {
        if from == to {
            return Ok(());
        }
        let ((x1, y1), (x2, y2)) = (self.centre(from), self.centre(to));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = (dx * dx + dy * dy).sqrt();
        // Stop short of the target's centre, so that the head points at the cell.
        let shorten = (R * 0.45).min(length / 3.0);
        let (x2, y2) = (x2 - dx / length * shorten, y2 - dy / length * shorten);
        writeln!(
            f,
            r#"<line class="arrow" data-from="{from}" data-to="{to}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{ARROW}" stroke-width="{}" stroke-opacity="0.8" stroke-linecap="round" pointer-events="none" marker-end="url(#agon-arrowhead)"/>"#,
            Num(x1),
            Num(y1),
            Num(x2),
            Num(y2),
            Num(R * 0.2),
        )
    }
}

impl fmt::Display for Svg<'_> {
    /// Writes the picture: the root element, then each cell (with its highlight, the
    /// throne's star and its label), then the pieces, then the arrows, one element a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.position.to_text().to_string();
        self.write_header(f, &text)?;
        for cell in Cell::all() {
            self.write_cell(f, cell)?;
        }
        for (cell, piece) in self.position.pieces() {
            self.write_piece(f, cell, piece.side, piece.kind)?;
        }
        for &(from, to) in &self.arrows {
            self.write_arrow(f, from, to)?;
        }
        write!(f, "</svg>")
    }
}

/// A number with two decimals; `-0.00` is written `0.00`.
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = if self.0.abs() < 0.005 { 0.0 } else { self.0 };
        write!(f, "{v:.2}")
    }
}

/// Points `x,y` separated by spaces, as in `points=`.
struct Points<'p>(&'p [(f64, f64)]);

impl fmt::Display for Points<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(x, y)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{},{}", Num(x), Num(y))?;
        }
        Ok(())
    }
}

/// The corners of a flat-topped hexagon: centre and radius, from the rightmost corner on,
/// clockwise on screen.
struct Hexagon(f64, f64, f64);

impl fmt::Display for Hexagon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Hexagon(cx, cy, radius) = *self;
        let corners: [(f64, f64); 6] = core::array::from_fn(|k| {
            (cx + radius * UNIT30[2 * k].0, cy + radius * UNIT30[2 * k].1)
        });
        Points(&corners).fmt(f)
    }
}

/// A six-pointed star: centre, outer and inner radius, the first point straight up.
struct Star(f64, f64, f64, f64);

impl fmt::Display for Star {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Star(cx, cy, outer, inner) = *self;
        let points: [(f64, f64); 12] = core::array::from_fn(|k| {
            let radius = if k % 2 == 0 { outer } else { inner };
            // Straight up is 270°, entry 9.
            let (ux, uy) = UNIT30[(k + 9) % 12];
            (cx + radius * ux, cy + radius * uy)
        });
        Points(&points).fmt(f)
    }
}

/// Text escaped for XML character data and attribute values.
struct Escaped<'t>(&'t str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..i])?;
            f.write_str(match rest.as_bytes()[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&apos;",
            })?;
            rest = &rest[i + 1..];
        }
        f.write_str(rest)
    }
}

/// The centre of `cell` in picture units, turned half round when `flipped`.
fn centre(cell: Cell, flipped: bool) -> (f64, f64) {
    let (q, r, _) = cell.cube();
    let (q, r) = (f64::from(q), f64::from(r));
    let x = 1.5 * R * q;
    let y = SQRT3 * R * (r + q / 2.0);
    if flipped {
        (-x, -y)
    } else {
        (x, y)
    }
}

/// The text of a cell that does not depend on the position: its hexagon and its name.
struct FixedParts {
    cell: String,
    coordinate: String,
}

/// The fixed parts of every cell, by index, for one orientation: formatted once, since
/// they are most of the picture and a web server draws a board on every request.
fn fixed_parts(flipped: bool) -> &'static [FixedParts] {
    static PARTS: [OnceLock<Vec<FixedParts>>; 2] = [OnceLock::new(), OnceLock::new()];
    PARTS[usize::from(flipped)].get_or_init(|| {
        Cell::all()
            .map(|cell| {
                let (cx, cy) = centre(cell, flipped);
                let ring = usize::from(cell.ring().distance());
                let font = R * 0.42;
                FixedParts {
                    cell: format!(
                        "<polygon class=\"cell ring-{ring}\" data-cell=\"{cell}\" points=\"{}\" fill=\"{}\" stroke=\"{EDGE}\" stroke-width=\"1\"/>\n",
                        Hexagon(cx, cy, R),
                        RING_COLOURS[ring],
                    ),
                    coordinate: format!(
                        "<text class=\"coordinate\" data-cell=\"{cell}\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"{font:.1}\" text-anchor=\"middle\" fill=\"{LABEL}\">{cell}</text>\n",
                        Num(cx),
                        Num(cy + font * 0.35),
                    ),
                }
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        let text = Escaped(r#"a<b & "c" 'd'>e"#).to_string();
        assert_eq!(text, "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;e");
        assert_eq!(Escaped("Qf1 w").to_string(), "Qf1 w");
    }

    #[test]
    fn numbers_have_two_decimals_and_no_negative_zero() {
        assert_eq!(Num(-0.0).to_string(), "0.00");
        assert_eq!(Num(-0.004).to_string(), "0.00");
        assert_eq!(Num(-0.006).to_string(), "-0.01");
        assert_eq!(Num(173.205_08).to_string(), "173.21");
        assert_eq!(Num(-176.0).to_string(), "-176.00");
    }

    #[test]
    fn square_root_of_three() {
        assert_eq!(SQRT3, 3f64.sqrt());
    }

    #[test]
    fn unit_vectors_are_on_the_circle_30_degrees_apart() {
        for (k, &(x, y)) in UNIT30.iter().enumerate() {
            assert!((x * x + y * y - 1.0).abs() < 1e-15, "{k}");
            let (nx, ny) = UNIT30[(k + 1) % 12];
            // cos 30° between neighbours.
            assert!((x * nx + y * ny - S60).abs() < 1e-15, "{k}");
            // Clockwise on screen (y down): the cross product is positive.
            assert!(x * ny - y * nx > 0.0, "{k}");
        }
    }
}
