#!/usr/bin/env bash
# Times python-chess + cairosvg (what most chess bots use) on the benchmark
# position at 480 px, then runs `cargo bench --bench render`, which prints
# the ratio. Installs `chess` and `cairosvg` from PyPI into a venv (cairosvg
# needs the system's libcairo2: `apt-get install libcairo2`).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-target/python-chess-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet chess cairosvg
fi
PYTHON_CHESS_MS=$("$VENV/bin/python" - <<'PY'
import statistics, time
import cairosvg, chess, chess.svg

board = chess.Board("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
lastmove = chess.Move.from_uci("h5f7")
check = board.king(board.turn)

def render():
    svg = chess.svg.board(board, size=480, lastmove=lastmove, check=check, coordinates=True)
    return cairosvg.svg2png(bytestring=svg.encode())

render()
times = []
for _ in range(30):
    start = time.perf_counter()
    png = render()
    times.append(time.perf_counter() - start)
print(f"{statistics.median(times) * 1000:.2f}")
import sys
print(f"python-chess + cairosvg 480 px: median {statistics.median(times) * 1000:.1f} ms, {len(png)} bytes", file=sys.stderr)
PY
)
export PYTHON_CHESS_MS
cargo bench --bench render
