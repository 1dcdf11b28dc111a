//! `/gif` on a long game: time and peak heap memory of the game GIF of a
//! 2,000-ply game at the bot's GIF size (360 px, names in the strips).
//!
//! Rows: the way the first version drew it (every ply a frame, all frames
//! held in memory, then encoded), rebuilt here from the public drawing
//! pieces; every ply streamed a frame at a time; and the renderer as `/gif`
//! calls it, with [`GifLimits::DEFAULT`] (positions sampled evenly, the
//! file bounded).
//!
//! `cargo bench --bench gif`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use pawnpost::render::{self, BoardOptions, Caption, GifLimits, PlayerLine, Scene, board, encode};
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Counts live heap bytes and remembers the highest count since the last reset.
struct PeakAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded to the system allocator with the caller's layout.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

const PLIES: usize = 2000;

/// One way of drawing the GIF: its bytes and its frame count.
type Run<'a> = dyn Fn() -> (Vec<u8>, usize) + 'a;
const RUNS: usize = 3;

/// `plies` legal moves, chosen pseudo-randomly among those that do not end the game.
fn long_game(plies: usize) -> Vec<Move> {
    let mut position = Chess::default();
    let mut moves = Vec::with_capacity(plies);
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    while moves.len() < plies {
        let legal = position.legal_moves();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let first = (seed % legal.len() as u64) as usize;
        let next = (0..legal.len())
            .map(|k| legal[(first + k) % legal.len()])
            .find(|m| !position.clone().play(*m).expect("legal").is_game_over());
        let Some(m) = next else {
            // A dead end: start again from the beginning position.
            position = Chess::default();
            moves.clear();
            continue;
        };
        position = position.play(m).expect("legal");
        moves.push(m);
    }
    moves
}

fn options() -> BoardOptions {
    BoardOptions {
        size: 360,
        caption: Some(Caption {
            white: PlayerLine::new("alice"),
            black: PlayerLine::new("bob"),
            turn: None,
        }),
        ..BoardOptions::default()
    }
}

/// The first version's `game_gif`: every ply a frame, all held, then encoded.
fn every_ply_held(start: &Chess, moves: &[Move], options: &BoardOptions) -> Vec<u8> {
    let mut position = start.clone();
    let mut frames = Vec::with_capacity(moves.len() + 1);
    let first = Scene {
        board: position.board(),
        last_move: None,
        check: render::check_square(&position),
    };
    frames.push((board::draw(&first, options).expect("draws"), 80));
    for m in moves {
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        position = position.play(*m).expect("legal");
        let scene = Scene {
            board: position.board(),
            last_move: render::move_squares(&uci).ok(),
            check: render::check_square(&position),
        };
        frames.push((board::draw(&scene, options).expect("draws"), 80));
    }
    if let Some(last) = frames.last_mut() {
        last.1 = 400;
    }
    encode::gif(&frames).expect("encodes")
}

/// Median time (ms), peak heap (MB) above the start, and the output's size.
fn measure(run: impl Fn() -> (Vec<u8>, usize)) -> (f64, f64, usize, usize) {
    let mut times = Vec::with_capacity(RUNS);
    let mut peak = 0;
    let mut out = (0, 0);
    for _ in 0..RUNS {
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let start = Instant::now();
        let (bytes, frames) = run();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        peak = peak.max(PEAK.load(Ordering::Relaxed) - base);
        out = (bytes.len(), frames);
    }
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2], peak as f64 / 1e6, out.0, out.1)
}

fn main() {
    let moves = long_game(PLIES);
    let start = Chess::default();
    let options = options();
    // Prepare the sprites for this size outside the measurements.
    every_ply_held(&start, &moves[..2], &options);

    println!("GIF of a {PLIES}-ply game at 360 px, median of {RUNS} runs:");
    println!("| how | time | peak heap | bytes | frames |");
    println!("|---|---|---|---|---|");
    let unbounded = GifLimits {
        max_frames: usize::MAX,
        max_bytes: usize::MAX,
    };
    let rows: [(&str, Box<Run>); 3] = [
        (
            "before: every ply, frames held",
            Box::new(|| {
                let gif = every_ply_held(&start, &moves, &options);
                (gif, moves.len() + 1)
            }),
        ),
        (
            "every ply, streamed (no limits)",
            Box::new(|| {
                let gif = render::game_gif(&start, &moves, &options, unbounded).expect("renders");
                (gif.bytes, gif.frames)
            }),
        ),
        (
            "after: /gif's limits (GifLimits::DEFAULT)",
            Box::new(|| {
                let gif = render::game_gif(&start, &moves, &options, GifLimits::DEFAULT)
                    .expect("renders");
                (gif.bytes, gif.frames)
            }),
        ),
    ];
    for (name, run) in rows {
        let (ms, mb, bytes, frames) = measure(run);
        println!("| {name} | {ms:.0} ms | {mb:.1} MB | {bytes} | {frames} |");
    }
}
