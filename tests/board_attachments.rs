//! `handle` gives every reply that shows a position its board PNG, oriented
//! for the reader, also when an act is replayed; `/gif` answers with the
//! game as a GIF; images can be turned off, and a request whose readers see
//! no images gets none drawn.

use chrono::{DateTime, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Reply, Request, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

async fn act(service: &Service, user: &str, text: &str, key: &str) -> Vec<Reply> {
    let act = Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: Some(key.into()),
        input: Input::Text(text.into()),
        board_images: BoardImages::Drawn,
    };
    service.handle(act, now()).await
}

fn board_png(reply: &Reply) -> Option<&[u8]> {
    reply
        .attachments
        .iter()
        .find(|a| a.filename == "board.png" && a.content_type == "image/png")
        .map(|a| &a.bytes[..])
}

/// After 1. e4 the fifth column of the fifth row holds a pawn (e4) when seen
/// by White, nothing (d5) when seen by Black. Boards are 480 px with a 36 px strip.
fn pawn_on_e4_side(png: &[u8]) -> bool {
    let image = image::load_from_memory(png).unwrap().to_rgb8();
    let (x, y) = (4 * 60 + 30, 36 + 4 * 60 + 40);
    image.get_pixel(x, y).0 == [255, 255, 255]
}

#[tokio::test]
async fn boards_are_attached_oriented_and_rebuilt_on_replay() {
    let service = Service::new(
        SqliteStore::open_in_memory().expect("SQLite in memory"),
        ServiceConfig::default(),
    );
    act(&service, "alice", "/challenge @bob color:white", "1").await;
    let accepted = act(&service, "bob", "/accept", "2").await;
    assert!(
        accepted
            .iter()
            .any(|r| r.board.is_some() && board_png(r).is_some())
    );
    let moved = act(&service, "alice", "/move e4", "3").await;
    let png = moved
        .iter()
        .find_map(board_png)
        .expect("a board after a move");
    assert!(
        !pawn_on_e4_side(png),
        "bob, asked to move, sees from Black's side"
    );
    let black_view = act(&service, "bob", "/board", "4").await;
    assert!(
        !pawn_on_e4_side(board_png(&black_view[0]).unwrap()),
        "bob sees from Black's side"
    );
    let white_view = act(&service, "alice", "/board", "4a").await;
    assert!(
        pawn_on_e4_side(board_png(&white_view[0]).unwrap()),
        "alice sees from White's side"
    );
    // The same act again: the stored answer, with its image drawn again.
    let replayed = act(&service, "alice", "/move e4", "3").await;
    assert_eq!(replayed.iter().find_map(board_png), Some(png));
    // Replies without a position carry no image.
    let help = act(&service, "alice", "/help", "5").await;
    assert!(help.iter().all(|r| r.attachments.is_empty()));
    let gif = act(&service, "bob", "/gif", "6").await;
    let file = &gif[0].attachments[0];
    assert_eq!(file.content_type, "image/gif");
    assert!(file.bytes.starts_with(b"GIF89a"));
}

#[tokio::test]
async fn board_images_can_be_turned_off() {
    let config = ServiceConfig {
        board_images: false,
        ..ServiceConfig::default()
    };
    let service = Service::new(
        SqliteStore::open_in_memory().expect("SQLite in memory"),
        config,
    );
    act(&service, "alice", "/challenge @bob color:white", "1").await;
    act(&service, "bob", "/accept", "2").await;
    let moved = act(&service, "alice", "/move e4", "3").await;
    assert!(moved.iter().any(|r| r.board.is_some()));
    assert!(moved.iter().all(|r| r.attachments.is_empty()));
}

#[tokio::test]
async fn a_request_without_board_images_draws_none() {
    let service = Service::new(
        SqliteStore::open_in_memory().expect("SQLite in memory"),
        ServiceConfig::default(),
    );
    act(&service, "alice", "/challenge @bob color:white", "1").await;
    act(&service, "bob", "/accept", "2").await;
    let board = Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user: User {
            id: "alice".into(),
            name: "alice".into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: Some("3".into()),
        input: Input::Text("/board".into()),
        board_images: BoardImages::Omitted,
    };
    let shown = service.handle(board, now()).await;
    assert!(shown[0].board.is_some());
    assert!(shown[0].attachments.is_empty(), "drawn only when seen");
}
