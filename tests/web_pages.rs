//! The web pages over HTTP, without a browser: a game's page is reached
//! only through its link (its number, a wrong token or a malformed one
//! answer the same 404 as a page that never existed), every string from
//! chat is escaped, the headers are strict, nothing is written by a read,
//! and server-wide pages open only when moderators say so.

#![allow(dead_code)]

#[path = "common/web_site.rs"]
mod web_site;

use web_site::{Site, user};

/// Names and a tournament name as hostile as chat allows.
const HOSTILE: &str = "<script>alert(1)</script>";

async fn a_game(site: &Site) -> String {
    site.script(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5",
    )
    .await;
    site.link_of(&user("alice", false), 1).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_reached_only_through_its_link() {
    let site = Site::start().await;
    let link = a_game(&site).await;
    let path = site.path_of(&link);
    let token = path.trim_start_matches("/g/").to_owned();
    assert_eq!(token.len(), 32, "{link}");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()), "{token}");
    let (status, page) = site.get(&path).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("data-sq=\"e4\" data-piece=\"wP\""), "{page}");

    let (missing_status, missing) = site.get("/g/00000000000000000000000000000000").await;
    assert_eq!(missing_status, 404);
    // Its number, a token one digit off, a prefix, odd shapes: the same 404.
    let mut wrong = token.clone();
    let last = wrong.pop().expect("a digit");
    wrong.push(if last == '0' { '1' } else { '0' });
    let short: String = token.chars().take(31).collect();
    let upper = token.to_uppercase();
    for probe in [
        "/g/1".to_owned(),
        "/g/0001".to_owned(),
        format!("/g/{wrong}"),
        format!("/g/{short}"),
        format!("/g/{upper}"),
        format!("/g/{token}x"),
        "/g/1/pgn".to_owned(),
        "/g/1/events".to_owned(),
        "/game/1".to_owned(),
        "/g/%3Cscript%3E".to_owned(),
        "/".to_owned(),
    ] {
        let (status, body) = site.get(&probe).await;
        assert_eq!((status, body.as_str()), (404, missing.as_str()), "{probe}");
    }
    // Its PGN comes through the link alone, without anyone's notes.
    let (status, pgn) = site.get(&format!("{path}/pgn")).await;
    assert_eq!(status, 200);
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    // And its GIF.
    let gif = site
        .client
        .get(site.url(&format!("{path}/gif")))
        .send()
        .await
        .expect("GET");
    assert_eq!(gif.status(), 200);
    assert_eq!(gif.headers()["content-type"], "image/gif");
    let bytes = gif.bytes().await.expect("the GIF");
    assert!(bytes.starts_with(b"GIF89a"), "{} bytes", bytes.len());

    // A game's start and its end carry its link too (as /board does).
    let started = site
        .script(
            "carol: /challenge @dave color:white
             dave: /accept",
        )
        .await;
    let link_line = |replies: &[pawnpost::service::Reply]| {
        replies
            .iter()
            .flat_map(|r| r.text.lines())
            .find(|line| line.starts_with("Page: http://"))
            .map(str::to_owned)
    };
    let start_link = link_line(&started).expect("the start's link");
    let ended = site
        .script(
            "carol: /move e4 game:2
             dave: /resign game:2",
        )
        .await;
    assert_eq!(link_line(&ended), Some(start_link.clone()), "{ended:?}");
    let (status, _) = site
        .get(&site.path_of(start_link.trim_start_matches("Page: ")))
        .await;
    assert_eq!(status, 200);
    // A tournament's start gives each player their games with their pages.
    let started = site
        .script(
            "carol: /tournament create round_robin
             carol: /tournament join
             dave: /tournament join
             erin: /tournament join
             carol: /tournament start",
        )
        .await;
    let own = started
        .iter()
        .find(|r| r.to.as_deref() == Some("dave") && r.text.starts_with("Your games"))
        .unwrap_or_else(|| panic!("dave's games: {started:#?}"));
    let page = link_line(std::slice::from_ref(own)).expect("the game's page");
    let (status, body) = site
        .get(&site.path_of(page.trim_start_matches("Page: ")))
        .await;
    assert_eq!(status, 200);
    assert!(body.contains("dave"), "the tournament game's page");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_strict_headers_and_only_reads() {
    let site = Site::start().await;
    let link = a_game(&site).await;
    let path = site.path_of(&link);
    for probe in [
        path.as_str(),
        "/g/1",
        "/static/app.js",
        "/static/pieces/wK.svg",
    ] {
        let response = site.client.get(site.url(probe)).send().await.expect("GET");
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe"),
            "{csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "no-referrer");
    }
    // No inline script or style anywhere in the page.
    let (_, page) = site.get(&path).await;
    assert!(
        !page.contains("<script>") && !page.contains("style="),
        "{page}"
    );
    assert!(!page.contains("<style"), "{page}");
    // Writing methods are not routed.
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let status = site
            .client
            .request(method.clone(), site.url(&path))
            .send()
            .await
            .expect("request")
            .status();
        assert!(status == 405 || status == 404, "{method}: {status}");
    }
    let head = site
        .client
        .head(site.url(&path))
        .send()
        .await
        .expect("HEAD");
    assert_eq!(head.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_from_chat_is_escaped() {
    let site = Site::start().await;
    let hostile_names = [
        format!("{HOSTILE}\"q'"),
        "Ali\u{202E}ce \u{200F}&amp;".to_owned(),
    ];
    let (white, black) = (
        user(&hostile_names[0], true),
        user(&hostile_names[1], false),
    );
    let black_id = black.id.clone();
    site.act(&white, &format!("/challenge @{black_id} color:white"))
        .await;
    site.act(&black, "/accept").await;
    site.act(&white, "/move d4").await;
    site.act(&white, "/settings web on").await;
    site.act(
        &white,
        &format!("/tournament create round_robin name:\"{HOSTILE} 'x'\" unrated"),
    )
    .await;
    let link = site.link_of(&white, 1).await;
    let mut pages = vec![site.path_of(&link), "/s/1".to_owned()];
    for p in 1..=2 {
        pages.push(format!("/s/1/p/{p}"));
    }
    pages.push("/t/1".to_owned());
    for path in &pages {
        let (status, page) = site.get(path).await;
        if path == "/t/1" && status == 404 {
            // The hostile tournament name was refused by chat: nothing to escape.
            continue;
        }
        assert_eq!(status, 200, "{path}: {page}");
        assert!(!page.contains(HOSTILE), "{path}: raw script in\n{page}");
        assert!(!page.contains("\"q'"), "{path}: raw quotes in\n{page}");
        // Every right-to-left mark that reaches a page sits in an isolate.
        for (at, _) in page.match_indices(['\u{202E}', '\u{200F}']) {
            let before = page.get(..at).unwrap_or("");
            let open = before.rfind("<bdi").unwrap_or(0);
            let close = before.rfind("</bdi>").unwrap_or(0);
            assert!(open > close, "{path}: a bidi mark outside <bdi>:\n{page}");
        }
    }
    let (_, game) = site.get(&pages[0]).await;
    assert!(
        game.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
            || game.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{game}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_pages_open_only_when_moderators_turn_them_on() {
    let site = Site::start().await;
    a_game(&site).await;
    site.script(
        "alice: /tournament create round_robin name:\"Spring\" unrated
         alice: /tournament join",
    )
    .await;
    let (_, missing) = site.get("/s/999").await;
    for path in ["/s/1", "/t/1", "/s/1/p/1"] {
        let (status, body) = site.get(path).await;
        assert_eq!((status, body.as_str()), (404, missing.as_str()), "{path}");
    }
    // A player is no moderator.
    site.script("alice: /settings web on").await;
    assert_eq!(site.get("/s/1").await.0, 404);
    let on = site.script("alice!: /settings web on").await;
    assert!(
        on.iter().any(|r| r.text.contains(&site.url("/s/1"))),
        "{on:?}"
    );
    for path in ["/s/1", "/t/1", "/s/1/p/1", "/s/1/p/2"] {
        let (status, body) = site.get(path).await;
        assert_eq!(status, 200, "{path}: {body}");
    }
    let (_, french) = site.get("/t/1?lang=fr").await;
    assert!(
        french.contains("lang=\"fr\"") && french.contains("Grille"),
        "{french}"
    );
    site.script("alice!: /reglages web non").await;
    assert_eq!(site.get("/t/1").await.0, 404);
}
