"""The web pages in a real browser (Debian's chromium, driven by Playwright).

Run by tests/web_browser.rs, which serves the pages and plays the moves:
it passes a JSON file naming the pages, the positions the game went
through, the crosstable the service gives and the secrets no page may
hold. This script talks back on stdout (one line per step) and waits on
stdin when it needs the service to act. Exits 3 when Playwright is not
installed (the Rust test then says it was skipped).
"""

import json
import os
import sys
import time

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sys.exit(3)

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def say(line):
    print(line, flush=True)


def placement(fen):
    """Square -> piece ('wK') of a FEN's placement."""
    found = {}
    for r, rank in enumerate(fen.split(" ")[0].split("/")):
        file = 0
        for c in rank:
            if c.isdigit():
                file += int(c)
                continue
            found["abcdefgh"[file] + str(8 - r)] = ("w" if c.isupper() else "b") + c.upper()
            file += 1
    return found


def board_of(page):
    """Square -> piece as the page's board shows it (empty squares left out)."""
    cells = page.eval_on_selector_all(
        "#board [data-sq]", "els => els.map(e => [e.dataset.sq, e.dataset.piece])")
    assert len(cells) == 64, cells
    return {sq: piece for sq, piece in cells if piece}


def check_board(page, fen, what):
    shown, expected = board_of(page), placement(fen)
    assert shown == expected, f"{what}: the board shows {shown}, the position is {expected}"


def no_secrets(html, secrets, what):
    for secret in secrets:
        assert secret not in html, f"{what}: the page holds the secret {secret!r}"


def game_steps(page, setup):
    fens = setup["fens"]
    last = len(fens) - 1
    check_board(page, fens[last], "the last position")
    for ply in range(last - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        check_board(page, fens[ply], f"back to ply {ply}")
    page.keyboard.press("ArrowLeft")
    check_board(page, fens[0], "no step before the start")
    for ply in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        check_board(page, fens[ply], f"forward to ply {ply}")
    page.keyboard.press("Home")
    check_board(page, fens[0], "Home")
    page.keyboard.press("End")
    check_board(page, fens[last], "End")
    # A click on a move shows its position.
    page.click(f'#moves .mv[data-ply="{1}"]')
    check_board(page, fens[1], "a click on the first move")
    page.keyboard.press("End")
    # Flipping shows Black at the bottom: h1 first.
    page.click("#flip")
    first = page.eval_on_selector("#board [data-sq]", "e => e.dataset.sq")
    assert first == "h1", first
    check_board(page, fens[last], "flipped")
    page.click("#flip")
    say("STEPPED")


def live_move(page, setup):
    fens = setup["fens"]
    page.wait_for_selector("#live:not([hidden])", timeout=5000)
    say("PLAY")
    line = sys.stdin.readline().strip()
    assert line.startswith("PLAYED "), line
    after = line.split(" ", 1)[1]
    start = time.monotonic()
    # A selector, not a script: the page's CSP forbids evaluating strings.
    page.wait_for_selector(f'#board[data-ply="{len(fens)}"]', timeout=5000)
    latency = time.monotonic() - start
    check_board(page, after, "after the live move")
    assert latency < 2.0, f"the move showed after {latency:.2f} s"
    moves = page.eval_on_selector_all("#moves .mv", "els => els.map(e => e.textContent)")
    assert len(moves) == len(fens), moves
    say(f"LIVE {latency * 1000:.0f} ms")


def crosstable(page, setup):
    header = page.eval_on_selector_all(
        "#table-crosstable thead th", "els => els.map(e => e.textContent.trim())")
    rows = page.eval_on_selector_all(
        "#table-crosstable tbody tr",
        "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
    expected = setup["crosstable"]
    assert [header] + rows == expected, f"page {[header] + rows} != service {expected}"
    say(f"CROSSTABLE {len(rows)} rows")


def main():
    setup = json.load(open(sys.argv[1]))
    shots = setup["screenshots"]
    os.makedirs(shots, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1100, "height": 760},
                                      locale="en-GB", timezone_id="Europe/Paris")
        page = context.new_page()
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(setup["game"])
        page.wait_for_selector("#board [data-piece]")
        game_steps(page, setup)
        live_move(page, setup)
        page.screenshot(path=os.path.join(shots, "game.png"), full_page=True)
        pages = [("game", setup["game"])]
        for kind in ["tournament", "server", "player", "team_match", "reviewed_game",
                     "finished_game", "french_game"]:
            if kind not in setup:
                continue
            page.goto(setup[kind])
            page.wait_for_load_state("load")
            if kind == "tournament":
                crosstable(page, setup)
            if kind == "reviewed_game":
                assert page.query_selector(".review svg.evals polygon"), "no evaluation graph"
                say("REVIEW graph shown")
            page.screenshot(path=os.path.join(shots, f"{kind}.png"), full_page=True)
            pages.append((kind, setup[kind]))
        for kind, url in pages + [(k, u) for k, u in setup.get("more_pages", {}).items()]:
            if "pgn" not in kind:  # a download, not a page to show
                page.goto(url)
                no_secrets(page.content(), setup["secrets"], kind)
            response = page.request.get(url)
            no_secrets(response.text(), setup["secrets"], kind + " (as served)")
        say(f"SECRETS none in {len(pages) + len(setup.get('more_pages', {}))} pages")
        assert not problems, f"the pages logged errors: {problems}"
        browser.close()
    say("DONE")


if __name__ == "__main__":
    main()
