//! The daily digest through the real binary's console (issue 44): each
//! `:advance 1d` past the player's hour shows it once, as a direct message;
//! none when there is nothing to say.

mod common;

use common::Console;
use serde_json::Value;

fn digests<'a>(replies: &'a [Value], user: &str) -> Vec<&'a Value> {
    replies
        .iter()
        .filter(|r| r["to"] == user && r["direct"] == true)
        .filter(|r| {
            r["text"]
                .as_str()
                .is_some_and(|t| t.contains("digest") || t.contains("résumé"))
        })
        .collect()
}

#[test]
fn a_script_sees_one_digest_a_day() {
    let console = Console::new();
    // The run starts at 12:00 UTC: the 08:00 digest comes each next morning.
    let out = console.run(
        "alice: /settings timezone UTC
         alice: /settings digest 08:00
         carol: /reglages resume 09:30
         bob: /challenge @alice color:white time:10d
         alice: /accept
         bob: /move e4
         :advance 1d
         :advance 1d
         alice: /move e5
         :advance 1d",
    );
    let got = digests(&out, "alice");
    // Days 1 and 2 (her move); day 3 she had moved and has nothing waiting.
    assert_eq!(got.len(), 2, "{got:#?}");
    for digest in &got {
        let text = digest["text"].as_str().unwrap();
        assert!(text.contains("1 game where it is your move"), "{text}");
        assert!(text.contains("#1 bob – alice"), "{text}");
    }
    // Carol asked in French and has nothing to be told.
    assert!(digests(&out, "carol").is_empty());
}
