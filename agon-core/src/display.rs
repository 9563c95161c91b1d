//! The board drawn for humans, like the diagram of RULES.md.

use core::fmt;

use crate::{Cell, Position};

/// Rows of the drawing: cell `(file, rank)` sits on line `20 - 2 * (rank - 1) - |q|`, at
/// column `4 + 5 * file`, so each cell is drawn between its neighbours.
const LINES: usize = 21;

const fn line_of(cell: Cell) -> usize {
    let q = cell.file() as i32 - 5;
    (20 - 2 * (cell.rank() as i32 - 1) - q.abs()) as usize
}

/// Draws the board as RULES.md does: every cell by name, followed by the letter of the
/// piece on it (`Q`/`G` White, `q`/`g` Black) and `*` if that piece is captured; then a
/// line naming the side to move.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in 0..LINES {
            let mut column = 0;
            for cell in Cell::all().filter(|&c| line_of(c) == line) {
                let start = 4 + 5 * cell.file() as usize;
                write!(f, "{:width$}{}", "", cell, width = start - column)?;
                column = start + if cell.rank() >= 10 { 3 } else { 2 };
                if let Some(piece) = self.piece_at(cell) {
                    write!(f, "{}", piece.char())?;
                    column += 1;
                    if self.is_captured(cell) {
                        f.write_str("*")?;
                        column += 1;
                    }
                }
            }
            f.write_str("\n")?;
        }
        write!(f, "{} to move", self.turn())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{}\")", self.to_text())
    }
}
