//! The search: principal-variation search with iterative deepening, aspiration windows,
//! a transposition table, move ordering, late-move reductions, a quiescence search of
//! captures and returns, and repetition handling; optionally on several threads (lazy
//! SMP) sharing the table.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use agon_core::{
    Cell, CellSet, EmptyThroneRing, Game, Move, MoveList, MoveSet, Position, Repetition, Ring, Side,
};

use super::eval::{evaluate_given, NUM_FEATURES};
use super::ordering::{History, Killers};
use super::techniques::{Technique, Techniques};
use super::tt::Table;
use crate::search_core::{loss_at, pick_best, to_table, win_at, Bound, INF, WIN, WIN_BOUND};

/// The half-width of the first aspiration window, in centipoints. Scores here swing by
/// 40 to 60 between odd and even depths, so a window of 25 failed often enough to cost
/// 12% more nodes to depth 8 than no window at all; 100 measured best (the `ablation`
/// example, README).
const ASPIRATION_WINDOW: i32 = 100;

/// The deepest ply the search reaches (main search and quiescence together).
pub(crate) const MAX_PLY: usize = 120;
/// The longest quiescence line, in plies past the horizon.
const MAX_QPLY: usize = 10;
/// Nodes between two looks at the clock (fewer in a debug build, where nodes are slow).
const CLOCK_EVERY: u64 = if cfg!(debug_assertions) { 16 } else { 256 };

/// What stops a search (all optional; the search stops at the first reached).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Stops {
    pub(crate) time: Option<Duration>,
    pub(crate) nodes: Option<u64>,
    pub(crate) depth: Option<u32>,
    /// A deadline besides `time` (the earlier one holds).
    pub(crate) hard: Option<Instant>,
    /// No new iteration starts past it (without it: half of `time`).
    pub(crate) soft: Option<Instant>,
}

/// What a caller outside the search adds to it: a stop flag it may raise at any time
/// (looked at with the clock, every [`CLOCK_EVERY`] nodes of the main thread) and a
/// report of every completed iteration.
pub(crate) struct External<'a> {
    pub(crate) stop: &'a AtomicBool,
    pub(crate) on_depth: &'a mut dyn FnMut(&Report),
}

/// One principal variation.
#[derive(Clone, Debug)]
pub(crate) struct RootLine {
    pub(crate) score: i32,
    pub(crate) pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    pub(crate) lines: Vec<RootLine>,
    pub(crate) depth: u32,
    pub(crate) seldepth: u32,
    pub(crate) nodes: u64,
    pub(crate) elapsed: Duration,
    pub(crate) hashfull: u32,
}

/// Settings of a search besides its stops.
#[derive(Copy, Clone)]
pub(crate) struct Settings {
    pub(crate) multipv: usize,
    pub(crate) threads: usize,
    /// How much worse than an even position a draw is for the side that searches.
    pub(crate) contempt: i32,
    /// Entries of earlier searches are ignored (for deterministic searches).
    pub(crate) fresh: bool,
    /// The evaluation's weights.
    pub(crate) weights: [i32; NUM_FEATURES],
    /// The techniques in use.
    pub(crate) techniques: Techniques,
}

struct Clock {
    start: Instant,
    hard: Option<Instant>,
    soft: Option<Instant>,
    max_nodes: u64,
    max_depth: i32,
}

/// Searches the current position of `game`, which must not be over.
/// The clock runs from `start`.
pub(crate) fn think(
    table: &mut Table,
    game: &Game,
    stops: Stops,
    settings: Settings,
    start: Instant,
    external: Option<External<'_>>,
) -> Report {
    table.new_search();
    let earliest = |a: Option<Instant>, b: Option<Instant>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let hard = earliest(stops.time.and_then(|t| start.checked_add(t)), stops.hard);
    let clock = Clock {
        start,
        hard,
        // A new iteration rarely finishes when over half the time is gone.
        soft: earliest(
            stops.soft,
            stops.time.and_then(|t| start.checked_add(t / 2)),
        )
        .map(|s| hard.map_or(s, |h| s.min(h))),
        max_nodes: stops.nodes.unwrap_or(u64::MAX),
        max_depth: stops.depth.map_or(MAX_PLY as i32 - 1, |d| {
            (d.min(MAX_PLY as u32 - 1) as i32).max(1)
        }),
    };
    let mut game_counts: HashMap<u64, u32> = HashMap::new();
    for p in game.positions() {
        *game_counts.entry(p.hash()).or_insert(0) += 1;
    }
    let position = *game.position();
    let stop = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    let table: &Table = table;
    let threads = settings.threads.max(1);
    let root_moves = game.legal_moves();
    let (external_stop, mut on_depth) = match external {
        Some(e) => (Some(e.stop), Some(e.on_depth)),
        None => (None, None),
    };
    let multipv = settings.multipv.clamp(1, root_moves.len().max(1));
    let make_worker = |id: usize| Worker {
        table,
        stop: &stop,
        external_stop: if id == 0 { external_stop } else { None },
        clock: &clock,
        fresh: settings.fresh,
        main: id == 0,
        nodes: 0,
        seldepth: 0,
        killers: Killers::new(MAX_PLY + 1),
        history: History::new(),
        path: Vec::with_capacity(MAX_PLY + 2),
        game_counts: &game_counts,
        root_side: position.chooser(),
        repetition: position.rules().repetition() == Repetition::Third,
        ring_draw: position.rules().empty_throne_ring() == EmptyThroneRing::Draw,
        limit: position.rules().limit().map(|n| {
            (n as usize)
                .saturating_sub(game.moves().len())
                .min(MAX_PLY + 1)
        }),
        passed: {
            let mut passed = [false; MAX_PLY + 2];
            passed[0] = game.moves().last().is_some_and(|m| m.is_pass());
            passed
        },
        contempt: settings.contempt,
        weights: settings.weights,
        techniques: settings.techniques,
        excluded: Vec::new(),
        pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
        pv_len: [0; MAX_PLY + 1],
        root_best: None,
        lists: (0..MAX_PLY + 2).map(|_| None).collect(),
        game_repeats: game_counts.values().any(|&c| c >= 2),
    };
    let mut main = make_worker(0);
    let report = std::thread::scope(|scope| {
        for id in 1..threads {
            let mut helper = make_worker(id);
            let helper_nodes = &helper_nodes;
            let root_moves = &root_moves;
            scope.spawn(move || {
                // Helpers search the same root at staggered depths, filling the table.
                // A helper that finishes its depths leaves the main thread searching.
                helper.iterate(&position, root_moves, 1, id, None);
                helper_nodes.fetch_add(helper.nodes, Ordering::Relaxed);
            });
        }
        let mut report_depth = on_depth.as_mut().map(|f| {
            move |r: &Report| {
                let mut r = r.clone();
                r.elapsed = clock.start.elapsed();
                r.hashfull = table.hashfull();
                f(&r);
            }
        });
        let report = main.iterate(
            &position,
            &root_moves,
            multipv,
            0,
            report_depth.as_mut().map(|f| f as &mut dyn FnMut(&Report)),
        );
        stop.store(true, Ordering::Relaxed);
        report
    });
    let mut report = report.unwrap_or_else(|| Report {
        lines: vec![RootLine {
            score: 0,
            pv: root_moves.first().copied().into_iter().collect(),
        }],
        depth: 0,
        seldepth: 0,
        nodes: main.nodes,
        elapsed: Duration::ZERO,
        hashfull: 0,
    });
    report.nodes = main.nodes + helper_nodes.load(Ordering::Relaxed);
    report.elapsed = clock.start.elapsed();
    report.hashfull = table.hashfull();
    report
}

struct Worker<'a> {
    table: &'a Table,
    stop: &'a AtomicBool,
    /// The caller's stop flag (main thread only): it raises `stop` when set.
    external_stop: Option<&'a AtomicBool>,
    clock: &'a Clock,
    fresh: bool,
    main: bool,
    nodes: u64,
    seldepth: usize,
    killers: Killers,
    history: History,
    /// Hashes of the positions from the root (index 0) to the current one.
    path: Vec<u64>,
    /// Occurrences of each position in the game before the search, the root included.
    game_counts: &'a HashMap<u64, u32>,
    /// The root's chooser, for whom a draw is worth the contempt less.
    root_side: Side,
    /// Whether repetition draws (R11; not under `repetition=off`).
    repetition: bool,
    /// Whether a ring without its queen draws (`empty-throne-ring=draw`).
    ring_draw: bool,
    /// The move limit (V9) as plies from the root, if any.
    limit: Option<usize>,
    /// Whether the move into the node at each ply was a pass (ply 0: the game's last
    /// move), for the two-pass draw (V7).
    passed: [bool; MAX_PLY + 2],
    contempt: i32,
    weights: [i32; NUM_FEATURES],
    techniques: Techniques,
    /// Root moves left out (the lines already found, for multi-PV).
    excluded: Vec<Move>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The best root move of the current iteration so far, with its score.
    root_best: Option<(Move, i32)>,
    /// The move and key lists of each ply, kept from node to node so that no node fills
    /// fresh arrays of the largest size: a node takes its ply's and gives them back
    /// before it returns (see [`Worker::take_lists`]).
    lists: Vec<Option<Lists>>,
    /// Whether a position of the game before the search occurred twice already (else
    /// no node needs to look the game's counts up).
    game_repeats: bool,
}

/// A list of moves and their keys (boxed: a node takes it from its ply and gives it
/// back, which moves only the box).
type Lists = Box<(MoveList, [i32; agon_core::MAX_LEGAL_MOVES])>;

impl Worker<'_> {
    /// The lists of `ply`, emptied (made on first use).
    fn take_lists(&mut self, ply: usize) -> Lists {
        let mut lists = self.lists[ply]
            .take()
            .unwrap_or_else(|| Box::new((MoveList::new(), [0; agon_core::MAX_LEGAL_MOVES])));
        lists.0.clear();
        lists
    }

    /// The static evaluation, for the chooser of `position`.
    fn evaluate(&self, position: &Position) -> i32 {
        self.evaluate_given(position, None)
    }

    /// [`Worker::evaluate`], given the moves of the side to move (`position.actions()`)
    /// if the caller has them.
    fn evaluate_given(&self, position: &Position, actions: Option<&MoveSet>) -> i32 {
        let score = evaluate_given(position, &self.weights, actions);
        if position.chooser() == position.turn() {
            score
        } else {
            -score
        }
    }

    /// The score of `next` (reached from a node whose chooser is `chooser`) for that
    /// chooser, by [`Worker::search`] with the window `alpha..beta` of that chooser: the
    /// sign and the window turn only when the chooser changes (not after a queen's return
    /// placed by her captor, `queen-placer=captor`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        chooser: Side,
        next: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        if next.chooser() == chooser {
            self.search(next, depth, ply, alpha, beta, pv_node, None)
        } else {
            -self.search(next, depth, ply, -beta, -alpha, pv_node, None)
        }
    }

    /// [`Worker::child`] for the quiescence search.
    #[inline]
    fn quiet_child(
        &mut self,
        chooser: Side,
        next: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        qply: usize,
    ) -> i32 {
        if next.chooser() == chooser {
            self.quiesce(next, ply, alpha, beta, qply)
        } else {
            -self.quiesce(next, ply, -beta, -alpha, qply)
        }
    }

    /// The end of the game at the node at `ply` (reached last on the path) that needs the
    /// game's history or rules: repetition (R11, under `repetition=third`), two passes in
    /// a row (V7) and the move limit (V9), all draws; `None` when the game goes on. R10
    /// is checked before, and R12 (no action) comes before the two last: a side that
    /// cannot act at the limit still loses.
    #[inline]
    fn history_end(&self, position: &Position, ply: usize) -> Option<i32> {
        if self.repetition && self.is_repetition() {
            return Some(self.draw_score(position.chooser()));
        }
        if self.passed[ply] && ply > 0 && self.passed[ply - 1] {
            return Some(self.draw_score(position.chooser()));
        }
        if self.limit.is_some_and(|n| ply >= n) {
            return Some(if position.has_legal_move() {
                self.draw_score(position.chooser())
            } else {
                loss_at(ply)
            });
        }
        None
    }

    /// Iterative deepening; the main worker returns what it found (`None` from helpers).
    fn iterate(
        &mut self,
        position: &Position,
        root_moves: &MoveList,
        multipv: usize,
        id: usize,
        mut on_depth: Option<&mut dyn FnMut(&Report)>,
    ) -> Option<Report> {
        let mut lines: Vec<RootLine> = Vec::new();
        let mut completed_depth = 0;
        // With one legal move there is nothing to choose: one shallow look for a score.
        let max_depth = if root_moves.len() == 1 && self.clock.hard.is_some() {
            1
        } else {
            self.clock.max_depth
        };
        let mut depth = 1 + (id as i32 % 2);
        while depth <= max_depth {
            let mut new_lines: Vec<RootLine> = Vec::new();
            self.excluded.clear();
            for k in 0..multipv {
                let previous = lines.get(k);
                let Some(line) = self.aspiration(position, depth, previous) else {
                    break;
                };
                self.excluded.push(line.pv[0]);
                new_lines.push(line);
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                // An unfinished iteration searched the previous best move first, so a
                // move that raised alpha in it is at least as good: keep it (one line),
                // or what the iteration found if no iteration finished.
                if lines.is_empty() {
                    lines = new_lines;
                } else if multipv == 1 {
                    if let Some(line) = new_lines.pop() {
                        lines[0] = line;
                    }
                }
                break;
            }
            new_lines.sort_by_key(|l| -l.score);
            lines = new_lines;
            completed_depth = depth;
            if let Some(f) = on_depth.as_mut() {
                f(&Report {
                    lines: lines.clone(),
                    depth: depth as u32,
                    seldepth: self.seldepth as u32,
                    nodes: self.nodes,
                    elapsed: Duration::ZERO,
                    hashfull: 0,
                });
            }
            if self.main {
                if let Some(soft) = self.clock.soft {
                    if Instant::now() >= soft {
                        break;
                    }
                }
                let best = lines.first().map_or(0, |l| l.score);
                if best.abs() >= WIN_BOUND && depth > WIN - best.abs() + 1 {
                    // A forced result within the horizon: deeper search cannot change it.
                    break;
                }
            }
            depth += 1;
        }
        if !self.main {
            return None;
        }
        if lines.is_empty() {
            return None;
        }
        Some(Report {
            lines,
            depth: completed_depth.max(0) as u32,
            seldepth: self.seldepth as u32,
            nodes: self.nodes,
            elapsed: Duration::ZERO,
            hashfull: 0,
        })
    }

    /// One root search of `depth` within a window around the previous score, widened
    /// until the score falls inside. `None` when stopped before any root move finished,
    /// or when every root move is excluded.
    fn aspiration(
        &mut self,
        position: &Position,
        depth: i32,
        previous: Option<&RootLine>,
    ) -> Option<RootLine> {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = match previous.map(|l| l.score) {
            Some(s)
                if self.techniques.contains(Technique::Aspiration)
                    && depth >= 4
                    && s.abs() < WIN_BOUND =>
            {
                (s - delta, s + delta)
            }
            _ => (-INF, INF),
        };
        let hint = previous.map(|l| l.pv[0]);
        loop {
            self.root_best = None;
            self.path.clear();
            self.path.push(position.hash());
            let score = self.search_root(position, depth, alpha, beta, hint);
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]]
                .iter()
                .flatten()
                .copied()
                .collect();
            if self.stopped() {
                let (m, score) = self.root_best?;
                let pv = if pv.first() == Some(&m) { pv } else { vec![m] };
                return Some(RootLine { score, pv });
            }
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                if pv.is_empty() {
                    return None;
                }
                return Some(RootLine { score, pv });
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Counts a node and tells whether the search must stop now. A stopped search counts
    /// no more: a caller may still try a child (a re-search, the next move) before it
    /// looks at the stop, and a node budget is the exact count of a search that used it.
    fn tick(&mut self) -> bool {
        if self.stopped() {
            return true;
        }
        self.nodes += 1;
        if self.main {
            if self.nodes >= self.clock.max_nodes {
                self.stop.store(true, Ordering::Relaxed);
            } else if self.nodes % CLOCK_EVERY == 0 {
                if let Some(hard) = self.clock.hard {
                    if Instant::now() >= hard {
                        self.stop.store(true, Ordering::Relaxed);
                    }
                }
                if self
                    .external_stop
                    .is_some_and(|s| s.load(Ordering::Relaxed))
                {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped()
    }

    /// The score of a draw for `side` (the chooser of the node).
    fn draw_score(&self, side: Side) -> i32 {
        if side == self.root_side {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Whether the position just reached (last on the path) is a draw by repetition:
    /// its third occurrence counting the game and the path (R11), or a return to a
    /// position already on the search path (a cycle gains nothing, so it is scored as the
    /// draw it can be made into).
    fn is_repetition(&self) -> bool {
        let n = self.path.len();
        let hash = self.path[n - 1];
        // Only positions with the same side to move, two plies apart, can be equal.
        let on_path = self.path[..n - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash);
        on_path || (self.game_repeats && self.game_counts.get(&hash).is_some_and(|&c| c >= 2))
    }

    /// A decided position (R10): the score for its chooser.
    fn throne_ring_score(&self, position: &Position, side: Side, ply: usize) -> i32 {
        let winner = if position.queen(side) == Cell::THRONE {
            side
        } else if self.ring_draw {
            return self.draw_score(position.chooser());
        } else {
            side.other()
        };
        if winner == position.chooser() {
            win_at(ply)
        } else {
            loss_at(ply)
        }
    }

    fn search_root(
        &mut self,
        position: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        hint: Option<Move>,
    ) -> i32 {
        self.search(position, depth, 0, alpha, beta, true, hint)
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        position: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
        hint: Option<Move>,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply > 0 {
            if let Some(side) = position.throne_ring_side() {
                return self.throne_ring_score(position, side, ply);
            }
            if let Some(score) = self.history_end(position, ply) {
                return score;
            }
            // Mate-distance pruning: no line here beats a win on the spot.
            alpha = alpha.max(loss_at(ply));
            beta = beta.min(win_at(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - MAX_QPLY - 1 {
            if !self.techniques.contains(Technique::Quiescence) {
                return self.evaluate(position);
            }
            return self.quiesce(position, ply, alpha, beta, 0);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = position.hash();
        let mut tt_move = hint.filter(|_| ply == 0);
        let table = self.techniques.contains(Technique::TranspositionTable);
        let entry = if table {
            self.table.probe(key, self.fresh)
        } else {
            None
        };
        if let Some(e) = entry {
            if tt_move.is_none() {
                tt_move = e.best;
            }
            if !pv_node && e.depth >= depth {
                if let Some(s) = e.bound.cutoff(e.score, ply, alpha, beta) {
                    return s;
                }
            }
        }
        let mut lists = self.take_lists(ply);
        let (moves, scores) = &mut *lists;
        position.append_legal_moves(moves);
        if moves.is_empty() {
            // R12: no legal action loses (the side to move, the chooser: a side that must
            // return always can). Under stuck=pass the pass is the move.
            self.lists[ply] = Some(lists);
            return loss_at(ply);
        }
        let chooser = position.chooser();
        super::ordering::score_moves(
            position,
            moves,
            tt_move,
            self.killers.at(ply),
            &self.history,
            scores,
        );
        let n = moves.len();
        let score = 'moves: {
            let original_alpha = alpha;
            let mut best_score = -INF;
            let mut best_move = None;
            let mut searched = 0;
            let captured_before = position.captured().len();
            for i in 0..n {
                let m = pick_best(moves.as_mut_slice(), &mut scores[..n], i);
                if ply == 0 && self.excluded.contains(&m) {
                    continue;
                }
                let next = position.play_unchecked(m);
                let quiet = !m.is_return() && next.captured().len() == captured_before;
                let killer = self.killers.at(ply).contains(&Some(m));
                self.path.push(next.hash());
                self.passed[ply + 1] = m.is_pass();
                let new_depth = depth - 1;
                let mut score;
                if searched == 0 {
                    score = self.child(chooser, &next, new_depth, ply + 1, alpha, beta, pv_node);
                } else {
                    // Late-move reductions for quiet moves ordered late.
                    let mut r = 0;
                    if self.techniques.contains(Technique::LateMoveReductions)
                        && depth >= 3
                        && searched >= 3
                        && (quiet || m.is_return())
                        && !killer
                    {
                        r = 1 + i32::from(searched >= 10 && depth >= 5);
                    }
                    // PVS: a null window first; without it, the full window.
                    let pvs = self.techniques.contains(Technique::Pvs);
                    let (upper, child_pv) = if pvs {
                        (alpha + 1, false)
                    } else {
                        (beta, pv_node)
                    };
                    score = self.child(
                        chooser,
                        &next,
                        new_depth - r,
                        ply + 1,
                        alpha,
                        upper,
                        child_pv,
                    );
                    if score > alpha && r > 0 {
                        score =
                            self.child(chooser, &next, new_depth, ply + 1, alpha, upper, child_pv);
                    }
                    if pvs && score > alpha && score < beta {
                        score = self.child(chooser, &next, new_depth, ply + 1, alpha, beta, true);
                    }
                }
                self.path.pop();
                if self.stopped() {
                    break 'moves 0;
                }
                searched += 1;
                if score > best_score {
                    best_score = score;
                    best_move = Some(m);
                    if score > alpha {
                        alpha = score;
                        if ply == 0 {
                            self.root_best = Some((m, score));
                        }
                        self.pv[ply][0] = Some(m);
                        let child_len = self.pv_len[ply + 1];
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
                        self.pv_len[ply] = child_len + 1;
                        if alpha >= beta {
                            if quiet && self.techniques.contains(Technique::KillersHistory) {
                                self.killers.add(ply, m);
                                self.history.reward(m, depth);
                            }
                            break;
                        }
                    }
                }
            }
            if searched == 0 {
                // Every root move is excluded.
                break 'moves -INF;
            }
            if table {
                let bound = Bound::of(best_score, original_alpha, beta);
                self.table
                    .store(key, best_move, to_table(best_score, ply), depth, bound);
            }
            best_score
        };
        self.lists[ply] = Some(lists);
        score
    }

    /// The quiescence search: the static evaluation unless a capture does better; at its
    /// first ply, every return of a side that must return.
    fn quiesce(
        &mut self,
        position: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(side) = position.throne_ring_side() {
            return self.throne_ring_score(position, side, ply);
        }
        if qply > 0 {
            // The path holds the search's nodes only: repetition is left to it, but a
            // limit or two passes reached in the quiescence search end the game there.
            if self.limit.is_some_and(|n| ply >= n) || (self.passed[ply] && self.passed[ply - 1]) {
                return if position.has_legal_move() {
                    self.draw_score(position.chooser())
                } else {
                    loss_at(ply)
                };
            }
        }
        if qply >= MAX_QPLY || ply >= MAX_PLY - 1 {
            return self.evaluate(position);
        }
        // The move set, not the list: most moves are not candidates here.
        let actions = position.actions();
        if actions.is_empty() {
            return loss_at(ply);
        }
        let chooser = position.chooser();
        let stand = self.evaluate_given(position, Some(&actions));
        // A captor placing the queen (queen-placer=captor) cannot decline to: where the
        // returns are searched, she stands on no static score.
        let placing = chooser != position.turn() && qply == 0;
        if stand >= beta && !placing {
            return stand;
        }
        let mut best = if placing { -INF } else { stand };
        alpha = alpha.max(best);
        let mut lists = self.take_lists(ply);
        let (candidates, keys) = &mut *lists;
        if position.must_return() {
            // The returner's static score stands (a return only helps it); the returns
            // themselves are searched once, where the horizon falls on them, so that a
            // capture at the horizon is answered.
            if qply == 0 {
                for m in actions.iter() {
                    keys[candidates.len()] = i32::from(m.to() == Some(Cell::THRONE));
                    candidates.push(m);
                }
            }
        } else {
            // Captures and steps that complete the throne ring around the own queen, in
            // the order of the legal moves (a pass is quiet: never a candidate).
            let us = position.turn();
            let ring = Ring::THRONE_RING.cells();
            let completing =
                if position.queen(us) == Cell::THRONE && (position.guards(us) & ring).len() == 5 {
                    ring
                } else {
                    CellSet::EMPTY
                };
            let capturing = position.capturing_cells();
            for (from, targets) in actions.entries() {
                for to in targets & (capturing | completing) {
                    let m = Move::Step { from, to };
                    let captured = if capturing.contains(to) {
                        position.captures(m).len() as i32
                    } else {
                        0
                    };
                    let completes = completing.contains(to) && !ring.contains(from);
                    if captured > 0 || completes {
                        keys[candidates.len()] = captured + 100 * i32::from(completes);
                        candidates.push(m);
                    }
                }
            }
        }
        let n = candidates.len();
        let best = 'moves: {
            for i in 0..n {
                let m = pick_best(candidates.as_mut_slice(), &mut keys[..n], i);
                let next = position.play_unchecked(m);
                self.passed[ply + 1] = false; // a pass is quiet: never searched here
                let score = self.quiet_child(chooser, &next, ply + 1, alpha, beta, qply + 1);
                if self.stopped() {
                    break 'moves 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            best
        };
        self.lists[ply] = Some(lists);
        best
    }
}
