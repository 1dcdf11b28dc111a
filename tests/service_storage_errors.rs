//! A failing database reads as what it is: a user whose act meets a
//! read-only SQLite file is told so, in their language, and nothing changes.

use chrono::{TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Reply, Request, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;

fn act(user: &str, locale: Option<&str>, text: &str) -> Request {
    Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: locale.map(str::to_owned),
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.into()),
        board_images: BoardImages::Omitted,
    }
}

/// The single ephemeral answer to `user`.
fn only_answer(replies: &[Reply], user: &str) -> String {
    match replies {
        [reply] if reply.ephemeral && reply.to.as_deref() == Some(user) => reply.text.clone(),
        _ => panic!("not one private answer: {replies:?}"),
    }
}

#[tokio::test]
async fn a_read_only_database_is_named_in_the_askers_language() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bot.db");
    let now = Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap();
    // A database with the schema, then the same file opened read-only.
    drop(SqliteStore::open(&path).expect("create"));
    let uri = format!("file:{}?mode=ro", path.display());
    let service = Service::new(
        SqliteStore::open(&uri).expect("open read-only"),
        ServiceConfig::default(),
    );
    // (user, client locale, their answer)
    let rows = [
        (
            "alice",
            None,
            "Refused: my database is read-only right now, so I changed nothing. \
             The bot's operator must make it writable again.",
        ),
        (
            "claire",
            Some("fr-FR"),
            "Refusé : ma base de données est en lecture seule pour l’instant, je n’ai donc \
             rien modifié. L’opérateur du bot doit la rendre de nouveau accessible en écriture.",
        ),
    ];
    for (user, locale, expected) in rows {
        let replies = service.handle(act(user, locale, "/challenge"), now).await;
        assert_eq!(only_answer(&replies, user), expected, "{user}");
    }
    let writable = pawnpost::storage::Store::from(SqliteStore::open(&path).expect("reopen"));
    assert!(
        writable
            .find_player(Platform::Console, "alice")
            .await
            .expect("read")
            .is_none(),
        "nothing was written"
    );
}
