//! The documentation's links resolve: README.md, ARCHITECTURE.md and every
//! Markdown file under docs/. A relative link must name a file or folder of
//! the repository, and a `#anchor` must be a heading of the Markdown file it
//! points into, by GitHub's slugs; an http(s) link is only checked to be
//! well-formed (no network). Links inside fenced code blocks and inline
//! code spans are text, not links.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files checked: README.md, ARCHITECTURE.md, docs/**/*.md.
fn documents() -> Vec<PathBuf> {
    let mut found = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("reading {}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// One link as written: its line and its target.
#[derive(Debug, PartialEq)]
struct Link {
    line: usize,
    target: String,
}

/// Whether `line` opens or closes a fenced code block (``` or ~~~,
/// indented by at most three spaces).
fn is_fence(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line.trim_start_matches(' ');
    indent <= 3 && (rest.starts_with("```") || rest.starts_with("~~~"))
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if is_fence(line) {
            fenced = !fenced;
        } else if !fenced {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// `line` without its inline code spans (`` `[a](b)` `` is not a link).
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let fence = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        match after.find(fence) {
            Some(end) => rest = &after[end + ticks..],
            // An unclosed backtick is a backtick.
            None => {
                out.push_str(fence);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of `[text](target)` and `![alt](target)` in one line, and of
/// autolinks `<https://…>`.
fn targets_in(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        // The target ends at the parenthesis that closes the link's own.
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let inside = after[..end].trim();
        // `(target "title")`: the target is the first word, `<…>` unwrapped.
        let target = if let Some(wrapped) = inside.strip_prefix('<') {
            wrapped.split('>').next().unwrap_or_default()
        } else {
            inside.split_whitespace().next().unwrap_or_default()
        };
        targets.push(target.to_owned());
        rest = &after[end + 1..];
    }
    let mut rest = line;
    while let Some(at) = rest.find("<http") {
        let after = &rest[at + 1..];
        match after.find('>') {
            Some(end) => {
                targets.push(after[..end].to_owned());
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
    targets
}

/// Every link of a Markdown text.
fn links(text: &str) -> Vec<Link> {
    prose_lines(text)
        .into_iter()
        .flat_map(|(line, content)| {
            targets_in(&without_code_spans(content))
                .into_iter()
                .map(move |target| Link { line, target })
        })
        .collect()
}

/// A heading's anchor as GitHub makes it: the rendered text in lower case,
/// without punctuation (letters, digits, `-`, `_` and spaces stay), spaces
/// turned into hyphens.
fn slug(heading: &str) -> String {
    // A link in a heading shows its text only.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").map(|i| open + i) {
            Some(middle) => match rest[middle..].find(')').map(|i| middle + i) {
                Some(close) => {
                    text.push_str(&rest[..open]);
                    text.push_str(&rest[open + 1..middle]);
                    rest = &rest[close + 1..];
                }
                None => break,
            },
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings, a repeated one numbered as
/// GitHub does (`name`, `name-1`, `name-2`).
fn anchors(text: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let title = line[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(title);
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

/// Whether an http(s) address is well-formed: a host, no spaces.
fn is_well_formed_url(target: &str) -> bool {
    let Some(rest) = target
        .strip_prefix("https://")
        .or_else(|| target.strip_prefix("http://"))
    else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !host.is_empty()
        && host.contains('.')
        && !target.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// `path` with `.` and `..` worked out, without touching the disk; `None`
/// if it climbs above where it starts.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(name) => out.push(name),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Why a link of `document` (relative to the root) does not resolve.
fn problem(document: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("an empty target".to_owned());
    }
    if target.starts_with("http://") || target.starts_with("https://") {
        return (!is_well_formed_url(target)).then(|| "a malformed address".to_owned());
    }
    if target.contains("://") || target.starts_with("mailto:") {
        return Some("a scheme other than http(s)".to_owned());
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        document.to_path_buf()
    } else {
        let from = document.parent().unwrap_or(Path::new(""));
        match normalize(&from.join(path)) {
            Some(file) => file,
            None => return Some("a path outside the repository".to_owned()),
        }
    };
    let on_disk = root().join(&file);
    if !on_disk.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    let anchor = anchor?;
    if on_disk.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "an anchor into {}, which is not Markdown",
            file.display()
        ));
    }
    let text = std::fs::read_to_string(&on_disk).ok()?;
    (!anchors(&text).contains(anchor))
        .then(|| format!("{} has no heading #{anchor}", file.display()))
}

#[test]
fn every_link_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for path in documents() {
        let relative = path.strip_prefix(root()).expect("under the root");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", relative.display()));
        for link in links(&text) {
            checked += 1;
            if let Some(why) = problem(relative, &link.target) {
                broken.push(format!(
                    "{}:{}: ({}) {why}",
                    relative.display(),
                    link.line,
                    link.target
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} of {checked} links do not resolve:\n{}",
        broken.len(),
        broken.join("\n")
    );
    // The reader above finds links at all: the docs hold dozens.
    assert!(checked > 20, "only {checked} links found");
}

#[test]
fn the_reader_sees_links_as_markdown_does() {
    let text = "# Title\n\
                See [a](docs/a.md#part) and ![b](img.png \"title\") and <https://x.org/y>.\n\
                `[not](a-link)`\n\
                ```\n[not](either)\n```\n\
                [nested](https://e.org/a_(b)) end\n";
    let found: Vec<String> = links(text).into_iter().map(|l| l.target).collect();
    assert_eq!(
        found,
        [
            "docs/a.md#part",
            "img.png",
            "https://x.org/y",
            "https://e.org/a_(b)"
        ]
    );
    assert_eq!(links(text)[3].line, 7);
}

#[test]
fn anchors_are_githubs_slugs() {
    let text = "# pawnpost\n## Swiss pairing: the Dutch system\n### `[discord]` settings\n\
                ## Notes\n## Notes\n## Tie-breaks (FIDE C.07)\n## Échecs à l'école\n\
                ```\n# not a heading\n```\n";
    let found = anchors(text);
    for anchor in [
        "pawnpost",
        "swiss-pairing-the-dutch-system",
        "discord-settings",
        "notes",
        "notes-1",
        "tie-breaks-fide-c07",
        "échecs-à-lécole",
    ] {
        assert!(found.contains(anchor), "{anchor} in {found:?}");
    }
    assert!(!found.contains("not-a-heading"));
}

#[test]
fn broken_links_are_named() {
    let readme = Path::new("README.md");
    assert_eq!(problem(readme, "LICENSE"), None);
    assert_eq!(problem(readme, "https://discord.com/developers"), None);
    assert!(problem(readme, "no-such-file.md").is_some());
    assert!(problem(readme, "#no-such-heading").is_some());
    assert!(problem(readme, "../outside.md").is_some());
    assert!(problem(readme, "https://").is_some());
    assert!(problem(readme, "LICENSE#anchor").is_some());
}
