//! The test suite every [`Store`] implementation must pass.
//!
//! Each check gets a fresh, empty store from `make`.

use chrono::{DateTime, Duration, TimeZone, Utc};
use shakmaty::Color;

use super::*;
use crate::core::event::{GameResult, Reason};
use crate::core::game::{DrawRules, Note, NoteKind, PlayerId};
use crate::core::notation::Lang;

fn t(minutes: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 2, 1, 8, 0, 0).unwrap() + Duration::minutes(minutes)
}

fn defaults() -> ServerDefaults {
    ServerDefaults {
        language: Lang::Fr,
        time_control: "3d".to_owned(),
    }
}

/// Runs every check, each on a new store.
pub async fn run_all<S: Store>(make: impl Fn() -> S) {
    identities_are_created_once(&make()).await;
    challenges_become_games_atomically(&make()).await;
    game_updates_append_and_check_versions(&make()).await;
    acts_are_committed_once(&make()).await;
    game_lists_filter_and_order(&make()).await;
    standings_count_scored_games_only(&make()).await;
    player_language_is_set_and_cleared(&make()).await;
}

struct World {
    server: ServerRow,
    channel: ChannelRow,
    alice: PlayerRow,
    bob: PlayerRow,
    carol: PlayerRow,
}

async fn world<S: Store>(store: &S) -> World {
    let server = store
        .ensure_server(Platform::Console, "club", &defaults(), t(0))
        .await
        .expect("server");
    let channel = store
        .ensure_channel(server.id, "main")
        .await
        .expect("channel");
    let mut players = Vec::new();
    for name in ["alice", "bob", "carol"] {
        let row = store
            .ensure_player(Platform::Console, name, name, t(0))
            .await
            .expect("player");
        players.push(row);
    }
    let carol = players.pop().unwrap();
    let bob = players.pop().unwrap();
    let alice = players.pop().unwrap();
    World {
        server,
        channel,
        alice,
        bob,
        carol,
    }
}

fn new_game(w: &World, white: PlayerId, black: PlayerId) -> NewGame {
    NewGame {
        server_id: w.server.id,
        channel_id: w.channel.id,
        white,
        black,
        start_fen: None,
        time_control: "3d".to_owned(),
        rated: true,
        draw_rules: DrawRules::default(),
        turn: Color::White,
        challenge_id: None,
    }
}

async fn create_game<S: Store>(store: &S, w: &World, white: PlayerId, black: PlayerId) -> i64 {
    let commit = Commit {
        new_game: Some(new_game(w, white, black)),
        ..Commit::default()
    };
    let (committed, ()) = store.commit(commit, t(1), |_| ()).await.expect("game");
    committed.game_id.expect("id")
}

async fn finish<S: Store>(store: &S, id: i64, result: GameResult, at: i64) {
    let record = store.game(id).await.expect("read").expect("game");
    let update = GameUpdate {
        id,
        expected_version: record.version,
        new_moves: Vec::new(),
        new_notes: Vec::new(),
        state: GameState::Over {
            result,
            reason: if result == GameResult::NoResult {
                Reason::Abort
            } else {
                Reason::Resignation
            },
            ended_at: t(at),
        },
        pending_offer: None,
        turn: Color::White,
    };
    let commit = Commit {
        game_update: Some(update),
        ..Commit::default()
    };
    store.commit(commit, t(at), |_| ()).await.expect("finish");
}

async fn identities_are_created_once<S: Store>(store: &S) {
    let w = world(store).await;
    assert_eq!(w.server.language, Lang::Fr);
    assert_eq!(w.server.time_control, "3d");
    let again = store
        .ensure_server(Platform::Console, "club", &defaults(), t(5))
        .await
        .expect("server");
    assert_eq!(again, w.server);
    let other = store
        .ensure_server(Platform::Discord, "club", &defaults(), t(5))
        .await
        .expect("server");
    assert_ne!(
        other.id, w.server.id,
        "the same id on another platform is another server"
    );
    let channel = store
        .ensure_channel(w.server.id, "main")
        .await
        .expect("channel");
    assert_eq!(channel, w.channel);
    let renamed = store
        .ensure_player(Platform::Console, "alice", "Alice B.", t(5))
        .await
        .expect("player");
    assert_eq!(renamed.id, w.alice.id);
    assert_eq!(renamed.display_name, "Alice B.");
    assert_eq!(renamed.notify, Notify::Channel);
    let found = store
        .find_player(Platform::Console, "alice")
        .await
        .expect("find");
    assert_eq!(found, Some(renamed.clone()));
    assert_eq!(store.player(w.alice.id).await.expect("read"), Some(renamed));
    assert_eq!(
        store
            .find_player(Platform::Matrix, "alice")
            .await
            .expect("find"),
        None
    );
}

async fn challenges_become_games_atomically<S: Store>(store: &S) {
    let w = world(store).await;
    let challenge = NewChallenge {
        server_id: w.server.id,
        channel_id: w.channel.id,
        challenger: w.alice.id,
        challenged: Some(w.bob.id),
        color: ColorChoice::White,
        time_control: "5d".to_owned(),
        rated: false,
        start_fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_owned()),
        expires_at: t(60),
    };
    let commit = Commit {
        act_key: Some("challenge-1".into()),
        new_challenge: Some(challenge),
        ..Commit::default()
    };
    let (committed, id) = store
        .commit(commit, t(2), |c| c.challenge_id)
        .await
        .expect("challenge");
    assert_eq!(committed.challenge_id, id);
    let id = id.expect("id");
    let open = store
        .open_challenges(w.channel.id, t(3))
        .await
        .expect("open");
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].id, id);
    assert_eq!(open[0].challenged, Some(w.bob.id));
    assert_eq!(open[0].color, ColorChoice::White);
    assert!(!open[0].rated);
    assert_eq!(open[0].created_at, t(2));
    assert!(
        store
            .open_challenges(w.channel.id, t(60))
            .await
            .expect("open")
            .is_empty()
    );

    let accept = |key: &str| Commit {
        act_key: Some(key.to_owned()),
        closing_challenge: Some(ChallengeClosing {
            id,
            to: ChallengeStatus::Accepted,
        }),
        new_game: Some(NewGame {
            challenge_id: Some(id),
            ..new_game(&w, w.alice.id, w.bob.id)
        }),
        ..Commit::default()
    };
    let (committed, ()) = store
        .commit(accept("accept-1"), t(4), |_| ())
        .await
        .expect("accept");
    let game_id = committed.game_id.expect("game");
    assert!(
        store
            .open_challenges(w.channel.id, t(4))
            .await
            .expect("open")
            .is_empty()
    );
    // Accepting again conflicts and creates no second game.
    let again = store.commit(accept("accept-2"), t(5), |_| ()).await;
    assert!(matches!(again, Err(StorageError::Conflict)), "{again:?}");
    assert!(store.game(game_id + 1).await.expect("read").is_none());
    assert!(store.answer_of("accept-2").await.expect("read").is_none());
}

async fn game_updates_append_and_check_versions<S: Store>(store: &S) {
    let w = world(store).await;
    let id = create_game(store, &w, w.alice.id, w.bob.id).await;
    let record = store.game(id).await.expect("read").expect("game");
    assert_eq!(record.state, GameState::Ongoing);
    assert!(record.moves.is_empty());
    let moves = vec![
        MoveRow {
            ply: 1,
            uci: "e2e4".into(),
            san: "e4".into(),
            played_at: t(10),
            draw_offer: false,
        },
        MoveRow {
            ply: 2,
            uci: "e7e5".into(),
            san: "e5".into(),
            played_at: t(11),
            draw_offer: true,
        },
    ];
    let note = Note {
        ply: 2,
        by: Some(Color::White),
        at: t(12),
        kind: NoteKind::DrawDeclined,
    };
    let update = GameUpdate {
        id,
        expected_version: record.version,
        new_moves: moves.clone(),
        new_notes: vec![note.clone()],
        state: GameState::Ongoing,
        pending_offer: Some(Color::Black),
        turn: Color::White,
    };
    let commit = Commit {
        game_update: Some(update.clone()),
        ..Commit::default()
    };
    store.commit(commit, t(12), |_| ()).await.expect("save");
    let saved = store.game(id).await.expect("read").expect("game");
    assert_eq!(saved.moves, moves);
    assert_eq!(saved.notes, vec![note.clone()]);
    assert_eq!(saved.pending_offer, Some(Color::Black));
    assert_eq!(saved.version, record.version + 1);

    // A second writer that read the old version is refused, and nothing is written.
    let stale = Commit {
        act_key: Some("stale".into()),
        game_update: Some(update),
        ..Commit::default()
    };
    let result = store.commit(stale, t(13), |_| ()).await;
    assert!(matches!(result, Err(StorageError::Conflict)), "{result:?}");
    let unchanged = store.game(id).await.expect("read").expect("game");
    assert_eq!(unchanged, saved);
    assert!(store.answer_of("stale").await.expect("read").is_none());

    // The game ends; result, reason and instant round-trip, notes continue in order.
    let over = GameState::Over {
        result: GameResult::BlackWins,
        reason: Reason::Checkmate,
        ended_at: t(20),
    };
    let last = Note {
        ply: 2,
        by: None,
        at: t(20),
        kind: NoteKind::Adjudicated {
            note: "test".into(),
        },
    };
    let commit = Commit {
        game_update: Some(GameUpdate {
            id,
            expected_version: saved.version,
            new_moves: Vec::new(),
            new_notes: vec![last.clone()],
            state: over,
            pending_offer: None,
            turn: Color::White,
        }),
        ..Commit::default()
    };
    store.commit(commit, t(20), |_| ()).await.expect("end");
    let ended = store.game(id).await.expect("read").expect("game");
    assert_eq!(ended.state, over);
    assert_eq!(ended.notes, vec![note, last]);
    assert_eq!(ended.pending_offer, None);
}

async fn acts_are_committed_once<S: Store>(store: &S) {
    let w = world(store).await;
    let commit = || Commit {
        act_key: Some("interaction-42".into()),
        player_language: Some((w.alice.id, Some(Lang::En))),
        ..Commit::default()
    };
    let (_, first) = store
        .commit(commit(), t(1), |_| vec!["first answer".to_owned()])
        .await
        .expect("first");
    assert_eq!(first, vec!["first answer".to_owned()]);
    let second = store
        .commit(commit(), t(2), |_| vec!["second".to_owned()])
        .await;
    assert!(matches!(second, Err(StorageError::DuplicateAct(ref k)) if k == "interaction-42"));
    let stored = store.answer_of("interaction-42").await.expect("read");
    assert_eq!(stored.as_deref(), Some(r#"["first answer"]"#));
    assert!(
        store
            .answer_of("interaction-43")
            .await
            .expect("read")
            .is_none()
    );
}

async fn game_lists_filter_and_order<S: Store>(store: &S) {
    let w = world(store).await;
    let first = create_game(store, &w, w.alice.id, w.bob.id).await;
    let second = create_game(store, &w, w.carol.id, w.alice.id).await;
    let third = create_game(store, &w, w.bob.id, w.carol.id).await;
    finish(store, first, GameResult::Draw, 30).await;

    let all = store
        .games_in_channel(w.channel.id, w.alice.id, false)
        .await
        .expect("list");
    assert_eq!(
        all.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![second, first]
    );
    assert_eq!(all[0].white_name, "carol");
    assert_eq!(all[0].black_name, "alice");
    assert_eq!(all[0].turn, Color::White);
    let ongoing = store
        .games_in_channel(w.channel.id, w.alice.id, true)
        .await
        .expect("list");
    assert_eq!(
        ongoing.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![second]
    );
    let on_server = store
        .ongoing_games_on_server(w.server.id, w.carol.id)
        .await
        .expect("list");
    assert_eq!(
        on_server.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![third, second]
    );
}

async fn standings_count_scored_games_only<S: Store>(store: &S) {
    let w = world(store).await;
    let g1 = create_game(store, &w, w.alice.id, w.bob.id).await;
    let g2 = create_game(store, &w, w.bob.id, w.carol.id).await;
    let g3 = create_game(store, &w, w.carol.id, w.alice.id).await;
    let g4 = create_game(store, &w, w.alice.id, w.carol.id).await;
    let _running = create_game(store, &w, w.bob.id, w.alice.id).await;
    finish(store, g1, GameResult::WhiteWins, 10).await; // alice beats bob
    finish(store, g2, GameResult::BlackWins, 11).await; // carol beats bob
    finish(store, g3, GameResult::Draw, 12).await; // carol draws alice
    finish(store, g4, GameResult::NoResult, 13).await; // aborted: not scored
    let table = store.standings(w.server.id).await.expect("standings");
    let rows: Vec<(&str, u32, u32, u32, u32, u32)> = table
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.half_points,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("alice", 2, 1, 1, 0, 3),
            ("carol", 2, 1, 1, 0, 3),
            ("bob", 2, 0, 0, 2, 0),
        ]
    );
}

async fn player_language_is_set_and_cleared<S: Store>(store: &S) {
    let w = world(store).await;
    assert_eq!(w.alice.language, None);
    for (minute, language) in [(1, Some(Lang::Fr)), (2, None)] {
        let commit = Commit {
            player_language: Some((w.alice.id, language)),
            ..Commit::default()
        };
        store.commit(commit, t(minute), |_| ()).await.expect("set");
        let row = store.player(w.alice.id).await.expect("read").expect("row");
        assert_eq!(row.language, language);
    }
}
