//! Every kind of picture the bot sends, in English and in French, against
//! reference images in `tests/fixtures/pictures/` (within a small
//! tolerance): the final board of a game with its result, a game GIF's
//! first and last frames, the standings, a tournament crosstable and a
//! rating chart. The pictures come from the real binary (`console --files`)
//! at a fixed instant, so their dates are the same on every run.
//! `PAWNPOST_BLESS=1 cargo test --test picture_golden` rewrites the
//! references after a deliberate change; look at them before committing.

mod common;

use std::path::{Path, PathBuf};

use common::{Console, START};
use image::{AnimationDecoder, RgbaImage};

/// A tournament played to its end, then a rated game won by mate, and the
/// pictures asked for, by players who all read `lang`.
fn script(lang: &str) -> String {
    let mut lines: Vec<String> = ["alice", "bob", "carol", "dave"]
        .iter()
        .map(|player| format!(":lang {player} {lang}"))
        .collect();
    lines.extend(
        "alice: /tournament create round_robin name:\"Club\" unrated
        alice: /tournament join
        bob: /tournament join
        carol: /tournament join
        dave: /tournament join
        alice: /tournament start
        alice: /move e4 game:1
        dave: /resign game:1
        bob: /move e4 game:2
        carol: /move e5 offer_draw game:2
        bob: /draw accept game:2
        dave: /move e4 game:3
        carol: /move e5 game:3
        dave: /resign game:3
        alice: /move d4 game:4
        bob: /move d5 offer_draw game:4
        alice: /draw accept game:4
        bob: /move e4 game:5
        dave: /resign game:5
        carol: /move e4 game:6
        alice: /move e5 game:6
        carol: /resign game:6
        alice: /tournament standings
        :channel casual
        alice: /challenge @bob color:white
        bob: /accept
        alice: /move e4
        bob: /move e5
        alice: /move Qh5
        bob: /move Nc6
        alice: /move Bc4
        bob: /move Nf6
        alice: /move Qxf7
        alice: /board
        alice: /gif
        alice: /standings
        alice: /rating"
            .lines()
            .map(|line| line.trim().to_owned()),
    );
    lines.join("\n")
}

/// The pictures of one run, by the end of their file name.
fn pictures(lang: &str) -> Vec<(String, RgbaImage)> {
    let console = Console::new();
    let files = tempfile::tempdir().expect("files dir");
    let output = console
        .command()
        .args(["console", "--json", "--now", START, "--files"])
        .arg(files.path())
        .arg("--script")
        .arg(console.script(&script(lang)))
        .output()
        .expect("run pawnpost");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let find = |suffix: &str| -> PathBuf {
        let mut names: Vec<PathBuf> = std::fs::read_dir(files.path())
            .expect("files")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.to_string_lossy().ends_with(suffix))
            .collect();
        names.sort();
        names
            .pop()
            .unwrap_or_else(|| panic!("no {suffix} in {lang}"))
    };
    let png = |suffix: &str| image::open(find(suffix)).expect(suffix).to_rgba8();
    let gif = std::fs::File::open(find("game-7.gif")).expect("the GIF");
    let decoder = image::codecs::gif::GifDecoder::new(std::io::BufReader::new(gif)).expect("a GIF");
    let frames = decoder.into_frames().collect_frames().expect("frames");
    let first = frames.first().expect("a first frame").buffer().clone();
    let last = frames.last().expect("a last frame").buffer().clone();
    vec![
        ("board".to_owned(), png("board.png")),
        ("gif-first".to_owned(), first),
        ("gif-last".to_owned(), last),
        ("standings".to_owned(), png("standings.png")),
        ("crosstable".to_owned(), png("tournament-1.png")),
        ("rating".to_owned(), png("rating-1.png")),
    ]
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pictures")
        .join(name)
}

#[test]
fn every_picture_matches_its_reference_in_both_languages() {
    let bless = std::env::var_os("PAWNPOST_BLESS").is_some();
    let mut failures = Vec::new();
    for lang in ["en", "fr"] {
        for (kind, actual) in pictures(lang) {
            let name = format!("{lang}-{kind}.png");
            if bless {
                std::fs::create_dir_all(fixture("")).expect("fixture dir");
                actual.save(fixture(&name)).expect("save");
                continue;
            }
            let reference = image::open(fixture(&name)).expect(&name).to_rgba8();
            if reference.dimensions() != actual.dimensions() {
                failures.push(format!(
                    "{name}: {:?}, not {:?}",
                    actual.dimensions(),
                    reference.dimensions()
                ));
                continue;
            }
            // Rasterizer updates may move edge pixels a little: allow 0.5%
            // of pixels to differ by more than a small amount.
            let differing = reference
                .pixels()
                .zip(actual.pixels())
                .filter(|(a, b)| (0..3).any(|i| a.0[i].abs_diff(b.0[i]) > 24))
                .count();
            let total = (reference.width() * reference.height()) as usize;
            if differing * 200 > total {
                failures.push(format!("{name}: {differing} of {total} pixels differ"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The French and English pictures differ where they have words, so the
/// references really cover both languages.
#[test]
fn french_pictures_are_not_the_english_ones() {
    for kind in ["standings", "crosstable", "rating"] {
        let en = image::open(fixture(&format!("en-{kind}.png")))
            .expect("en")
            .to_rgba8();
        let fr = image::open(fixture(&format!("fr-{kind}.png")))
            .expect("fr")
            .to_rgba8();
        assert!(en.dimensions() != fr.dimensions() || en != fr, "{kind}");
    }
}
