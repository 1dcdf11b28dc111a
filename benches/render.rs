//! Board rendering speed and size: the standard test position (Qxf7+,
//! last move h5f7, check, coordinates) at 480, 720 and 1024 px; median time
//! and PNG bytes. With `PYTHON_CHESS_MS` set (see
//! `benches/compare-python-chess.sh`), also the ratio to python-chess +
//! cairosvg at 480 px.
//!
//! `cargo bench --bench render`

use std::time::{Duration, Instant};

use pawnpost::render::{BoardOptions, board_png};

const FEN: &str = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4";
const RUNS: usize = 300;

fn main() {
    let python_ms: Option<f64> = std::env::var("PYTHON_CHESS_MS")
        .ok()
        .and_then(|v| v.trim().parse().ok());
    println!("| size | median | p90 | bytes | target |");
    println!("|---|---|---|---|---|");
    for (size, target) in [(480, "≤ 2 ms"), (720, "≤ 3 ms, ≤ 25 KB"), (1024, "≤ 6 ms")] {
        let options = BoardOptions {
            size,
            ..BoardOptions::default()
        };
        // The first render prepares the sprites for this size.
        let bytes = board_png(FEN, Some("h5f7"), &options)
            .expect("renders")
            .len();
        let mut times: Vec<Duration> = (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let png = board_png(FEN, Some("h5f7"), &options).expect("renders");
                std::hint::black_box(png);
                start.elapsed()
            })
            .collect();
        times.sort();
        let median = times[RUNS / 2].as_secs_f64() * 1e3;
        let p90 = times[RUNS * 9 / 10].as_secs_f64() * 1e3;
        println!("| {size} px | {median:.3} ms | {p90:.3} ms | {bytes} | {target} |");
        if size == 480
            && let Some(python) = python_ms
        {
            println!(
                "| python-chess + cairosvg, 480 px | {python:.1} ms | | | ratio {:.0}× (target ≥ 40×) |",
                python / median
            );
        }
    }
}
