//! The test suite every [`Store`] implementation must pass.
//!
//! Each check is a `pub async fn` over any store; [`store_suite!`] turns
//! every check into its own `#[tokio::test]` on a fresh, empty store, so a
//! store module only says how to make one.

use chrono::{DateTime, Duration, TimeZone, Utc};
use shakmaty::Color;

use super::sql::params;
use super::*;
use crate::competition::standings::Line;
use crate::core::clock::{Clock, TimeControl};
use crate::core::conditional::Conditionals;
use crate::core::event::{ClaimKind, GameResult, Reason};
use crate::core::game::{DrawRules, Note, NoteKind, PlayerId};
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::core::variant::Variant;

/// One `#[tokio::test]` per check of this suite. `$fresh()` returns
/// `(guard, store)`: the guard (a temporary directory, say) lives as long
/// as the test. With `optional async`, `$fresh().await` returns an
/// `Option` of that, and `None` skips the check (a server that is not there).
macro_rules! store_suite {
    ($fresh:path) => {
        $crate::storage::suite::store_suite!(@checks [sync] $fresh);
    };
    (optional async $fresh:path) => {
        $crate::storage::suite::store_suite!(@checks [optional_async] $fresh);
    };
    (@checks $mode:tt $fresh:path) => {
        $crate::storage::suite::store_suite!(
            @each $mode $fresh;
            identities_are_created_once,
            challenges_become_games_atomically,
            game_updates_append_and_check_versions,
            finished_games_round_trip,
            games_from_elsewhere_keep_their_history,
            acts_are_committed_once,
            a_refusal_is_kept_under_its_key,
            a_failed_commit_writes_nothing,
            instants_keep_milliseconds,
            game_lists_filter_and_order,
            standings_count_scored_games_only,
            player_language_is_set_and_cleared,
            server_language_is_chosen_and_cleared,
            player_notation_is_kept_whole,
            deadlines_come_from_running_clocks,
            a_players_save_only_brings_the_wake_up_forward,
            conditional_moves_are_kept_with_their_game,
            private_notes_are_read_by_their_writer_only,
            reviews_and_puzzles_are_kept,
            engine_slots_are_leased_up_to_the_limit,
            teams_and_votes_are_kept,
            team_matches_keep_sign_ups_games_and_versions,
            a_takeback_shortens_the_stored_score,
            acts_open_in_one_call,
            the_only_game_in_a_channel_is_found_by_version,
            games_are_listed_by_player_for_export,
            ratings_move_with_their_game_count,
            finished_games_leave_out_running_and_aborted_ones,
            due_games_are_claimed_once,
            ladders_are_written_whole_and_check_versions,
            ladder_matches_follow_their_challenge_and_game,
            tournaments_keep_entrants_pairings_and_versions,
            tournament_entry_windows_wake_the_scheduler,
            open_challenges_are_counted_per_challenger,
            servers_are_found_by_id,
            batches_are_committed_whole,
            notices_wait_in_the_outbox_until_settled,
            a_game_whose_moves_do_not_add_up_is_refused,
            a_server_the_bot_left_and_a_deleted_channel_are_kept,
            an_answer_still_going_out_restarts_its_hold,
            a_notice_resumes_after_its_parts_that_went_out,
            games_have_page_tokens_and_servers_a_web_switch,
            link_codes_link_once_and_settings_follow_the_person,
            digests_are_due_once_and_advance_once,
            a_club_is_joined_only_by_invitation,
        );
    };
    (@each [sync] $fresh:path; $($check:ident),+ $(,)?) => {
        $(
            #[tokio::test]
            async fn $check() -> $crate::storage::Result<()> {
                let (_guard, store) = $fresh();
                $crate::storage::suite::$check(&$crate::storage::Store::from(store)).await
            }
        )+
    };
    (@each [optional_async] $fresh:path; $($check:ident),+ $(,)?) => {
        $(
            #[tokio::test]
            async fn $check() -> $crate::storage::Result<()> {
                let Some((_guard, store)) = $fresh().await else {
                    return Ok(());
                };
                $crate::storage::suite::$check(&$crate::storage::Store::from(store)).await
            }
        )+
    };
}
pub(crate) use store_suite;

// The fixtures below are shared with each backend's own tests.

/// Minute `minutes` of the suite's day.
pub(crate) fn t(minutes: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 2, 1, 8, 0, 0).unwrap() + Duration::minutes(minutes)
}

fn defaults() -> ServerDefaults {
    ServerDefaults {
        time_control: "3d".to_owned(),
    }
}

/// A server with one channel and three players.
pub(crate) struct World {
    pub server: ServerRow,
    pub channel: ChannelRow,
    pub alice: PlayerRow,
    pub bob: PlayerRow,
    pub carol: PlayerRow,
}

pub(crate) async fn world(store: &Store) -> Result<World> {
    let server = store
        .ensure_server(Platform::Console, "club", &defaults(), t(0))
        .await?;
    let channel = store.ensure_channel(server.id, "main").await?;
    let [alice, bob, carol] = [
        player(store, "alice").await?,
        player(store, "bob").await?,
        player(store, "carol").await?,
    ];
    Ok(World {
        server,
        channel,
        alice,
        bob,
        carol,
    })
}

async fn player(store: &Store, name: &str) -> Result<PlayerRow> {
    store
        .ensure_player(Platform::Console, name, name, t(0))
        .await
}

pub(crate) fn new_game(w: &World, white: PlayerId, black: PlayerId) -> NewGame {
    NewGame {
        server_id: w.server.id,
        channel_id: w.channel.id,
        white,
        black,
        variant: Variant::Standard,
        start_fen: None,
        time_control: "3d".to_owned(),
        rated: true,
        draw_rules: DrawRules::default(),
        turn: Color::White,
        challenge_id: None,
        clock: Some(three_days()),
        remind_at: None,
        history: None,
    }
}

/// A three-day-per-move clock started at `t(1)`.
fn three_days() -> Clock {
    Clock::start(
        TimeControl::PerMove {
            per_move: Duration::days(3),
        },
        Color::White,
        t(1),
    )
}

pub(crate) fn new_challenge(w: &World, channel_id: i64, expires_at: DateTime<Utc>) -> NewChallenge {
    NewChallenge {
        server_id: w.server.id,
        channel_id,
        challenger: w.alice.id,
        challenged: Some(w.bob.id),
        color: ColorChoice::White,
        time_control: "5d".to_owned(),
        rated: false,
        variant: Variant::Standard,
        start_fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_owned()),
        expires_at,
        start_moves: None,
        votes_changeable: None,
    }
}

pub(crate) async fn create_game(store: &Store, game: NewGame) -> Result<i64> {
    let commit = Commit {
        new_game: Some(game),
        ..Commit::default()
    };
    Ok(put(store, t(1), commit).await?.game_id.expect("id"))
}

/// Saves `update` on top of the stored version of game `id`.
pub(crate) async fn save(
    store: &Store,
    id: i64,
    at: DateTime<Utc>,
    update: GameUpdate,
) -> Result<()> {
    let expected_version = store.game(id).await?.expect("game").version;
    let update = GameUpdate {
        expected_version,
        ..update
    };
    put(store, at, saving(vec![update])).await.map(drop)
}

/// A save of game `id` that changes nothing a test does not set: running,
/// White to move, no clock, the wake-up set exactly.
pub(crate) fn update(id: i64) -> GameUpdate {
    GameUpdate {
        id,
        expected_version: 0,
        new_moves: Vec::new(),
        new_notes: Vec::new(),
        state: Status::Ongoing,
        pending_offer: None,
        turn: Color::White,
        clock: None,
        remind_at: None,
        wake_up: WakeUp::Exact,
        conditionals: Conditionals::default(),
        truncate_to: None,
    }
}

pub(crate) fn ending(
    id: i64,
    result: GameResult,
    reason: Reason,
    ended_at: DateTime<Utc>,
) -> GameUpdate {
    let state = Status::Over {
        result,
        reason,
        at: ended_at,
    };
    GameUpdate {
        state,
        ..update(id)
    }
}

/// A commit of these game saves alone.
pub(crate) fn saving(updates: Vec<GameUpdate>) -> Commit {
    Commit {
        game_updates: updates,
        ..Commit::default()
    }
}

/// Challenge `id` leaving the open state for `to`.
pub(crate) fn closing(id: i64, to: ChallengeStatus) -> Commit {
    Commit {
        closing_challenge: Some(ChallengeClosing { id, to }),
        ..Commit::default()
    }
}

/// Challenge `id` accepted: it closes and `game` starts from it.
pub(crate) fn accepting(id: i64, game: NewGame) -> Commit {
    Commit {
        new_game: Some(NewGame {
            challenge_id: Some(id),
            ..game
        }),
        ..closing(id, ChallengeStatus::Accepted)
    }
}

/// Commits `commit` at `at` with no answer.
pub(crate) async fn put(store: &Store, at: DateTime<Utc>, commit: Commit) -> Result<Committed> {
    Ok(store.commit(commit, at, |_| ()).await?.0)
}

/// Asserts that a write was refused as a conflict.
#[track_caller]
pub(crate) fn conflict<T: std::fmt::Debug>(result: Result<T>) {
    assert!(matches!(result, Err(StorageError::Conflict)), "{result:?}");
}

async fn finish(store: &Store, id: i64, result: GameResult, at: i64) -> Result<()> {
    let reason = match result {
        GameResult::NoResult => Reason::Abort,
        _ => Reason::Resignation,
    };
    save(store, id, t(at), ending(id, result, reason, t(at))).await
}

pub(crate) fn a_move(ply: u32, uci: &str, san: &str, played_at: DateTime<Utc>) -> MoveRow {
    MoveRow {
        ply,
        uci: uci.to_owned(),
        san: san.to_owned(),
        played_at,
        draw_offer: false,
    }
}

fn ids(games: &[GameSummary]) -> Vec<i64> {
    games.iter().map(|g| g.id).collect()
}

pub async fn identities_are_created_once(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(w.server.chosen_language, None, "no language chosen yet");
    assert_eq!(w.server.time_control, "3d");
    assert_eq!(w.server.draw_rules, DrawRules::default());
    assert_eq!(w.server.moderator_role, None);
    let again = store
        .ensure_server(Platform::Console, "club", &defaults(), t(5))
        .await?;
    assert_eq!(again, w.server);
    let other = store
        .ensure_server(Platform::Discord, "club", &defaults(), t(5))
        .await?;
    assert_ne!(
        other.id, w.server.id,
        "the same id on another platform is another server"
    );
    let channel = store.ensure_channel(w.server.id, "main").await?;
    assert_eq!(channel, w.channel);
    let elsewhere = store.ensure_channel(other.id, "main").await?;
    assert_ne!(elsewhere.id, w.channel.id);
    let orphan = store.ensure_channel(other.id + 100, "main").await;
    // The database's foreign key refuses it.
    assert!(matches!(orphan, Err(StorageError::Driver(_))), "{orphan:?}");

    let renamed = store
        .ensure_player(Platform::Console, "alice", "Alice B.", t(5))
        .await?;
    assert_eq!(renamed.id, w.alice.id);
    assert_eq!(renamed.display_name, "Alice B.");
    assert_eq!(renamed.notify, Notify::Channel);
    assert_eq!(renamed.language, None);
    let found = store.find_player(Platform::Console, "alice").await?;
    assert_eq!(found, Some(renamed.clone()));
    assert_eq!(store.player(w.alice.id).await?, Some(renamed));
    assert_eq!(store.find_player(Platform::Matrix, "alice").await?, None);
    assert_eq!(store.player(PlayerId(9999)).await?, None);
    Ok(())
}

pub async fn challenges_become_games_atomically(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let side = store.ensure_channel(w.server.id, "side").await?;
    let mut ids_made = Vec::new();
    for (key, channel, expires) in [
        ("c-1", w.channel.id, 60),
        ("c-2", side.id, 60),
        ("c-3", w.channel.id, 30),
    ] {
        let commit = Commit {
            act_key: Some(key.into()),
            new_challenge: Some(new_challenge(&w, channel, t(expires))),
            ..Commit::default()
        };
        let (committed, answered) = store.commit(commit, t(2), |c| c.challenge_id).await?;
        assert_eq!(
            committed.challenge_id, answered,
            "the answer sees the new id"
        );
        ids_made.push(answered.expect("id"));
    }
    let (id, later) = (ids_made[0], ids_made[2]);
    let open = store.open_challenges(w.channel.id, t(3)).await?;
    assert_eq!(
        open.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![id, later],
        "this channel's only, oldest first"
    );
    let expected = ChallengeRow {
        id,
        server_id: w.server.id,
        channel_id: w.channel.id,
        challenger: w.alice.id,
        challenged: Some(w.bob.id),
        color: ColorChoice::White,
        time_control: "5d".to_owned(),
        rated: false,
        variant: Variant::Standard,
        start_fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_owned()),
        status: ChallengeStatus::Open,
        created_at: t(2),
        expires_at: t(60),
        start_moves: None,
    };
    assert_eq!(open[0], expected);
    let at_expiry = store.open_challenges(w.channel.id, t(30)).await?;
    assert_eq!(
        at_expiry.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![id],
        "a challenge has lapsed at its expiry instant"
    );

    let accept = |key: &str| Commit {
        act_key: Some(key.to_owned()),
        ..accepting(id, new_game(&w, w.alice.id, w.bob.id))
    };
    let committed = put(store, t(4), accept("accept-1")).await?;
    let game_id = committed.game_id.expect("game");
    assert_eq!(committed.challenge_id, None);
    let open = store.open_challenges(w.channel.id, t(4)).await?;
    assert_eq!(open.iter().map(|c| c.id).collect::<Vec<_>>(), vec![later]);
    let game = store.game(game_id).await?.expect("game");
    assert_eq!((game.white, game.black), (w.alice.id, w.bob.id));
    assert_eq!(game.created_at, t(4));

    // Accepting again conflicts and creates no second game.
    conflict(put(store, t(5), accept("accept-2")).await);
    assert!(store.game(game_id + 1).await?.is_none());
    let games = store
        .games_in_channel(w.channel.id, w.alice.id, false)
        .await?;
    assert_eq!(ids(&games), vec![game_id]);
    assert!(store.answer_of("accept-2").await?.is_none());

    // Declining the other one closes it without a game.
    let committed = put(store, t(6), closing(later, ChallengeStatus::Declined)).await?;
    assert_eq!(committed, Committed::default());
    assert!(store.open_challenges(w.channel.id, t(6)).await?.is_empty());
    Ok(())
}

/// A player's open challenges count in every channel until they close or
/// lapse (the cap on open challenges reads this).
pub async fn open_challenges_are_counted_per_challenger(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let side = store.ensure_channel(w.server.id, "side").await?;
    let mut alice_ids = Vec::new();
    for (key, challenger, channel, expires) in [
        ("n-1", w.alice.id, w.channel.id, 60),
        ("n-2", w.alice.id, side.id, 60),
        ("n-3", w.alice.id, w.channel.id, 30),
        ("n-4", w.bob.id, w.channel.id, 60),
    ] {
        let commit = Commit {
            act_key: Some(key.into()),
            new_challenge: Some(NewChallenge {
                challenger,
                ..new_challenge(&w, channel, t(expires))
            }),
            ..Commit::default()
        };
        let committed = put(store, t(2), commit).await?;
        if challenger == w.alice.id {
            alice_ids.push(committed.challenge_id.expect("id"));
        }
    }
    let count = |player: PlayerId, at: i64| async move {
        store
            .open_challenge_count(player, t(at))
            .await
            .expect("count")
    };
    assert_eq!(count(w.alice.id, 3).await, 3, "every channel counts");
    assert_eq!(count(w.bob.id, 3).await, 1);
    assert_eq!(count(w.carol.id, 3).await, 0);
    assert_eq!(count(w.alice.id, 30).await, 2, "lapsed at its expiry");
    let cancel = closing(alice_ids[0], ChallengeStatus::Cancelled);
    put(store, t(4), cancel).await?;
    assert_eq!(
        count(w.alice.id, 5).await,
        2,
        "a closed challenge is not open"
    );
    Ok(())
}

/// A server is found by its number (a game's PGN names its community).
pub async fn servers_are_found_by_id(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(store.server(w.server.id).await?, Some(w.server.clone()));
    assert_eq!(store.server(w.server.id + 100).await?, None);
    Ok(())
}

pub async fn game_updates_append_and_check_versions(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let record = store.game(id).await?.expect("game");
    let expected = GameRecord {
        id,
        server_id: w.server.id,
        channel_id: w.channel.id,
        white: w.alice.id,
        black: w.bob.id,
        white_player: w.alice.clone(),
        black_player: w.bob.clone(),
        channel: w.channel.platform_id.clone(),
        clock: Some(three_days()),
        remind_at: None,
        conditionals: Conditionals::default(),
        variant: Variant::Standard,
        team_match: false,
        ladder_match: false,
        tournament_game: false,
        start_fen: None,
        time_control: "3d".to_owned(),
        rated: true,
        draw_rules: DrawRules::default(),
        created_at: t(1),
        state: Status::Ongoing,
        pending_offer: None,
        version: record.version,
        moves: Vec::new(),
        notes: Vec::new(),
    };
    assert_eq!(record, expected);

    let moves = vec![
        a_move(1, "e2e4", "e4", t(10)),
        MoveRow {
            draw_offer: true,
            ..a_move(2, "e7e5", "e5", t(11))
        },
    ];
    let note = Note {
        ply: 2,
        by: Some(Color::White),
        at: t(12),
        kind: NoteKind::DrawDeclined,
    };
    let first_moves = GameUpdate {
        expected_version: record.version,
        new_moves: moves.clone(),
        new_notes: vec![note.clone()],
        pending_offer: Some(Color::Black),
        ..update(id)
    };
    put(store, t(12), saving(vec![first_moves.clone()])).await?;
    let saved = store.game(id).await?.expect("game");
    assert_eq!(saved.moves, moves);
    assert_eq!(saved.notes, vec![note.clone()]);
    assert_eq!(saved.pending_offer, Some(Color::Black));
    assert_eq!(saved.version, record.version + 1);

    // A second writer that read the old version is refused, and nothing is written.
    let stale = Commit {
        act_key: Some("stale".into()),
        ..saving(vec![GameUpdate {
            new_moves: vec![a_move(3, "g1f3", "Nf3", t(13))],
            ..first_moves.clone()
        }])
    };
    conflict(put(store, t(13), stale).await);
    assert_eq!(store.game(id).await?, Some(saved.clone()));
    assert!(store.answer_of("stale").await?.is_none());

    // So is a save of a game that does not exist.
    let missing = GameUpdate {
        id: id + 100,
        ..first_moves
    };
    conflict(put(store, t(13), saving(vec![missing])).await);

    // Later moves and notes come after the earlier ones, in order.
    let notes = [
        Note {
            ply: 3,
            by: Some(Color::White),
            at: t(14),
            kind: NoteKind::ClaimRefused {
                kind: Some(ClaimKind::Threefold),
                with_move: Some("g1f3".into()),
            },
        },
        Note {
            ply: 3,
            by: Some(Color::Black),
            at: t(15),
            kind: NoteKind::ClaimUpheld {
                kind: ClaimKind::Fifty,
                with_move: None,
            },
        },
        Note {
            ply: 3,
            by: None,
            at: t(16),
            kind: NoteKind::DrawOffered,
        },
    ];
    let played = GameUpdate {
        new_moves: vec![a_move(3, "g1f3", "Nf3", t(14))],
        new_notes: notes.to_vec(),
        turn: Color::Black,
        ..update(id)
    };
    save(store, id, t(16), played).await?;

    let later = store.game(id).await?.expect("game");
    assert_eq!(later.moves.len(), 3);
    assert_eq!(later.moves[..2], moves[..]);
    assert_eq!(later.moves[2].uci, "g1f3");
    let mut all_notes = vec![note];
    all_notes.extend(notes);
    assert_eq!(later.notes, all_notes);
    assert_eq!(later.pending_offer, None);
    assert_eq!(later.version, saved.version + 1);
    Ok(())
}

/// Every result and reason survives the round trip, with the ending instant.
pub async fn finished_games_round_trip(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let results = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::NoResult,
    ];
    for (n, reason) in Reason::ALL.into_iter().enumerate() {
        let result = results[n % results.len()];
        let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
        let ended_at = t(100 + n as i64);
        let last = Note {
            ply: 0,
            by: None,
            at: ended_at,
            kind: NoteKind::Adjudicated {
                note: format!("reason {n}: « {} »", reason.as_str()),
            },
        };
        let update = GameUpdate {
            new_notes: vec![last.clone()],
            ..ending(id, result, reason, ended_at)
        };
        save(store, id, ended_at, update).await?;
        let over = store.game(id).await?.expect("game");
        let expected = Status::Over {
            result,
            reason,
            at: ended_at,
        };
        assert_eq!(over.state, expected, "{reason:?}");
        assert_eq!(over.notes, vec![last]);
        let listed = store
            .games_in_channel(w.channel.id, w.alice.id, false)
            .await?;
        assert_eq!(listed[0].id, id);
        assert_eq!(listed[0].state, expected);
    }
    Ok(())
}

/// A game imported whole (over, with its moves and notes, at its own start)
/// and one continued (going on after its recorded moves), and the challenge
/// that carries the moves to continue.
pub async fn games_from_elsewhere_keep_their_history(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let moves = vec![a_move(1, "e2e4", "e4", t(2)), a_move(2, "e7e5", "e5", t(3))];
    let note = Note {
        ply: 2,
        by: Some(Color::White),
        at: t(3),
        kind: NoteKind::DrawOffered,
    };
    let history = |ending| GameHistory {
        started_at: t(2),
        moves: moves.clone(),
        notes: vec![note.clone()],
        ending,
    };
    let imported = create_game(
        store,
        NewGame {
            clock: None,
            history: Some(Box::new(history(Some((
                GameResult::Draw,
                Reason::Recorded,
                t(4),
            ))))),
            ..new_game(&w, w.alice.id, w.bob.id)
        },
    )
    .await?;
    let record = store.game(imported).await?.expect("the imported game");
    assert_eq!(
        (record.created_at, &record.moves, &record.notes),
        (t(2), &moves, &vec![note.clone()])
    );
    let over = Status::Over {
        result: GameResult::Draw,
        reason: Reason::Recorded,
        at: t(4),
    };
    assert_eq!(record.state, over);
    assert_eq!(
        store.next_wake_up().await?,
        None,
        "an ended game wakes no one"
    );

    let continued = create_game(
        store,
        NewGame {
            history: Some(Box::new(history(None))),
            ..new_game(&w, w.alice.id, w.bob.id)
        },
    )
    .await?;
    let record = store.game(continued).await?.expect("the continued game");
    assert_eq!((record.state, record.moves.len()), (Status::Ongoing, 2));
    let listed = store
        .games_in_channel(w.channel.id, w.alice.id, true)
        .await?;
    assert_eq!(
        listed.iter().find(|g| g.id == continued).map(|g| g.plies),
        Some(2)
    );

    let challenge = NewChallenge {
        variant: Variant::Standard,
        start_fen: None,
        start_moves: Some("e2e4 e7e5".to_owned()),
        votes_changeable: None,
        ..new_challenge(&w, w.channel.id, t(60))
    };
    let commit = Commit {
        new_challenge: Some(challenge),
        ..Commit::default()
    };
    put(store, t(5), commit).await?;
    let open = store.open_challenges(w.channel.id, t(6)).await?;
    assert_eq!(open[0].start_moves.as_deref(), Some("e2e4 e7e5"));
    Ok(())
}

pub async fn acts_are_committed_once(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let commit = |language| Commit {
        act_key: Some("interaction-42".into()),
        player_language: Some((w.alice.id, Some(language))),
        ..Commit::default()
    };
    let (_, first) = store
        .commit(commit(Lang::En), t(1), |_| vec!["first answer".to_owned()])
        .await?;
    assert_eq!(first, vec!["first answer".to_owned()]);
    let second = store
        .commit(commit(Lang::De), t(2), |_| vec!["second".to_owned()])
        .await;
    assert!(
        matches!(second, Err(StorageError::DuplicateAct(ref k)) if k == "interaction-42"),
        "{second:?}"
    );
    let alice = store.player(w.alice.id).await?.expect("row");
    assert_eq!(alice.language, Some(Lang::En), "the replay wrote nothing");
    let stored = store.answer_of("interaction-42").await?;
    assert_eq!(stored.as_deref(), Some(r#"["first answer"]"#));
    assert!(store.answer_of("interaction-43").await?.is_none());
    // Acts without a key may repeat, and leave no answer behind.
    for _ in 0..2 {
        let keyless = Commit {
            player_language: Some((w.bob.id, Some(Lang::Fr))),
            ..Commit::default()
        };
        store.commit(keyless, t(3), |_| "ok").await?;
    }
    Ok(())
}

/// A refused act commits its key alone: its answer is kept, nothing else
/// changes, and the act can never be carried out later under that key.
pub async fn a_refusal_is_kept_under_its_key(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let before = store.game(id).await?.expect("game");
    let refusal = Commit {
        act_key: Some("bob-moves-first".into()),
        ..Commit::default()
    };
    let (committed, answer) = store
        .commit(refusal.clone(), t(2), |_| vec!["not your turn".to_owned()])
        .await?;
    assert_eq!(committed, Committed::default());
    assert_eq!(answer, vec!["not your turn".to_owned()]);
    let stored = store.answer_of("bob-moves-first").await?;
    assert_eq!(stored.as_deref(), Some(r#"["not your turn"]"#));
    assert_eq!(store.game(id).await?, Some(before.clone()));

    // The same act once it would succeed: refused as already answered, and
    // the move is not written.
    let request = ActRequest {
        act_key: Some("bob-moves-first".into()),
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user_id: "bob".into(),
        user_name: "bob".into(),
        client_language: None,
        defaults: defaults(),
    };
    let replay = store.open_act(request, t(3)).await?;
    assert_eq!(
        replay,
        OpenedAct::Answered(r#"["not your turn"]"#.to_owned())
    );
    let played = Commit {
        act_key: Some("bob-moves-first".into()),
        ..saving(vec![GameUpdate {
            expected_version: before.version,
            new_moves: vec![a_move(1, "e2e4", "e4", t(3))],
            turn: Color::Black,
            clock: before.clock,
            ..update(id)
        }])
    };
    let again = store.commit(played, t(3), |_| "played").await;
    assert!(
        matches!(again, Err(StorageError::DuplicateAct(ref k)) if k == "bob-moves-first"),
        "{again:?}"
    );
    assert_eq!(store.game(id).await?, Some(before));
    let second = store.commit(refusal, t(4), |_| "again").await;
    assert!(
        matches!(second, Err(StorageError::DuplicateAct(_))),
        "{second:?}"
    );
    Ok(())
}

/// An error half-way through a commit (a game naming nobody, an answer
/// without JSON) leaves no trace of the parts before it.
pub async fn a_failed_commit_writes_nothing(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let commit = Commit {
        act_key: Some("broken".into()),
        new_challenge: Some(new_challenge(&w, w.channel.id, t(60))),
        new_game: Some(new_game(&w, w.alice.id, PlayerId(w.carol.id.0 + 100))),
        ..Commit::default()
    };
    let result = put(store, t(2), commit).await;
    assert!(matches!(result, Err(StorageError::Driver(_))), "{result:?}");
    assert!(store.open_challenges(w.channel.id, t(3)).await?.is_empty());
    assert!(
        store
            .games_in_channel(w.channel.id, w.alice.id, false)
            .await?
            .is_empty()
    );
    assert!(store.answer_of("broken").await?.is_none());

    // So does an answer that cannot be stored.
    let commit = Commit {
        act_key: Some("unanswerable".into()),
        new_challenge: Some(new_challenge(&w, w.channel.id, t(60))),
        ..Commit::default()
    };
    let result = store.commit(commit, t(2), |_| Unserializable).await;
    assert!(
        matches!(result, Err(StorageError::Backend(_))),
        "{:?}",
        result.err()
    );
    assert!(store.open_challenges(w.channel.id, t(3)).await?.is_empty());
    assert!(store.answer_of("unanswerable").await?.is_none());
    Ok(())
}

/// Acts committed together are kept together, each answer under its key;
/// one refusal among them writes none of them.
pub async fn batches_are_committed_whole(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let challenge = |key: &str| Commit {
        act_key: Some(key.into()),
        new_challenge: Some(new_challenge(&w, w.channel.id, t(60))),
        ..Commit::default()
    };
    let refused = Commit {
        act_key: Some("batch-refused".into()),
        ..closing(999_999, ChallengeStatus::Accepted)
    };
    let batch = vec![challenge("batch-1"), refused];
    let batch = batch.into_iter().map(|c| (c, |_: &Committed| 1)).collect();
    let result = store.commit_all(batch, t(2)).await;
    conflict(result);
    let open = store.open_challenges(w.channel.id, t(3)).await?;
    assert!(open.is_empty(), "{open:?}");
    assert!(store.answer_of("batch-1").await?.is_none());

    let batch = vec![challenge("batch-2"), challenge("batch-3")];
    let done = store
        .commit_all(
            batch
                .into_iter()
                .map(|c| (c, |committed: &Committed| committed.challenge_id))
                .collect(),
            t(2),
        )
        .await?;
    assert_eq!(done.len(), 2);
    assert_ne!(done[0].1, done[1].1);
    let open = store.open_challenges(w.channel.id, t(3)).await?;
    assert_eq!(open.len(), 2, "{open:?}");
    for (key, (_, id)) in ["batch-2", "batch-3"].into_iter().zip(&done) {
        let stored = store.answer_of(key).await?;
        assert_eq!(stored, Some(serde_json::to_string(id).expect("json")));
    }

    // A key stored before refuses the whole batch as a replay of that act.
    let batch = vec![challenge("batch-4"), challenge("batch-2")];
    let batch = batch.into_iter().map(|c| (c, |_: &Committed| 1)).collect();
    let result = store.commit_all(batch, t(4)).await;
    assert!(
        matches!(result, Err(StorageError::DuplicateAct(ref key)) if key == "batch-2"),
        "{:?}",
        result.err()
    );
    assert!(store.answer_of("batch-4").await?.is_none());
    assert_eq!(store.open_challenges(w.channel.id, t(5)).await?.len(), 2);
    Ok(())
}

/// An answer whose JSON fails.
struct Unserializable;

impl serde::Serialize for Unserializable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("no JSON for this"))
    }
}

/// Both stores keep instants to the millisecond, truncated.
pub async fn instants_keep_milliseconds(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let fine = t(0) + Duration::nanoseconds(1_234_567_891);
    let coarse = t(0) + Duration::milliseconds(1_234);
    assert_eq!(to_stored_precision(fine), coarse);
    let commit = Commit {
        new_challenge: Some(new_challenge(&w, w.channel.id, fine + Duration::hours(1))),
        new_game: Some(new_game(&w, w.alice.id, w.bob.id)),
        ..Commit::default()
    };
    let committed = put(store, fine, commit).await?;
    let open = store.open_challenges(w.channel.id, fine).await?;
    assert_eq!(open[0].created_at, coarse);
    assert_eq!(open[0].expires_at, coarse + Duration::hours(1));
    let id = committed.game_id.expect("game");
    let update = GameUpdate {
        new_moves: vec![a_move(1, "e2e4", "e4", fine)],
        ..ending(id, GameResult::Draw, Reason::Agreement, fine)
    };
    save(store, id, fine, update).await?;
    let game = store.game(id).await?.expect("game");
    assert_eq!(game.created_at, coarse);
    assert_eq!(game.moves[0].played_at, coarse);
    assert!(matches!(game.state, Status::Over { at: ended_at, .. } if ended_at == coarse));
    Ok(())
}

pub async fn game_lists_filter_and_order(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let first = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let second = create_game(store, new_game(&w, w.carol.id, w.alice.id)).await?;
    let third = create_game(store, new_game(&w, w.bob.id, w.carol.id)).await?;
    finish(store, first, GameResult::Draw, 30).await?;
    let played = GameUpdate {
        new_moves: vec![a_move(1, "d2d4", "d4", t(31))],
        turn: Color::Black,
        ..update(second)
    };
    save(store, second, t(31), played).await?;
    let side = store.ensure_channel(w.server.id, "side").await?;
    let elsewhere = create_game(
        store,
        NewGame {
            channel_id: side.id,
            ..new_game(&w, w.alice.id, w.carol.id)
        },
    )
    .await?;

    let all = store
        .games_in_channel(w.channel.id, w.alice.id, false)
        .await?;
    assert_eq!(ids(&all), vec![second, first]);
    let expected = GameSummary {
        id: second,
        channel_id: w.channel.id,
        white: w.carol.id,
        black: w.alice.id,
        white_name: "carol".to_owned(),
        black_name: "alice".to_owned(),
        turn: Color::Black,
        plies: 1,
        state: Status::Ongoing,
    };
    assert_eq!(all[0], expected);
    assert_eq!((all[1].plies, all[1].turn), (0, Color::White));
    let ongoing = store
        .games_in_channel(w.channel.id, w.alice.id, true)
        .await?;
    assert_eq!(ids(&ongoing), vec![second]);
    let on_server = store
        .ongoing_games_on_server(w.server.id, w.carol.id)
        .await?;
    assert_eq!(ids(&on_server), vec![elsewhere, third, second]);
    let on_other_server = store
        .ongoing_games_on_server(w.server.id + 100, w.carol.id)
        .await?;
    assert!(on_other_server.is_empty());

    // Names are read at list time: a rename shows at once.
    store
        .ensure_player(Platform::Console, "carol", "Carol C.", t(40))
        .await?;
    let renamed = store
        .games_in_channel(w.channel.id, w.alice.id, true)
        .await?;
    assert_eq!(renamed[0].white_name, "Carol C.");
    Ok(())
}

pub async fn standings_count_scored_games_only(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let g1 = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let g2 = create_game(store, new_game(&w, w.bob.id, w.carol.id)).await?;
    let g3 = create_game(store, new_game(&w, w.carol.id, w.alice.id)).await?;
    let g4 = create_game(store, new_game(&w, w.alice.id, w.carol.id)).await?;
    let _running = create_game(store, new_game(&w, w.bob.id, w.alice.id)).await?;
    finish(store, g1, GameResult::WhiteWins, 10).await?; // alice beats bob
    finish(store, g2, GameResult::BlackWins, 11).await?; // carol beats bob
    finish(store, g3, GameResult::Draw, 12).await?; // carol draws alice
    finish(store, g4, GameResult::NoResult, 13).await?; // aborted: not scored

    // A game on another server counts there only.
    let other = store
        .ensure_server(Platform::Console, "other club", &defaults(), t(0))
        .await?;
    let other_channel = store.ensure_channel(other.id, "main").await?;
    let away = NewGame {
        server_id: other.id,
        channel_id: other_channel.id,
        ..new_game(&w, w.bob.id, w.alice.id)
    };
    let g5 = create_game(store, away).await?;
    finish(store, g5, GameResult::WhiteWins, 14).await?;

    let table = store.standings(w.server.id).await?;
    let row = |player: &PlayerRow, played, won, drawn, lost, half_points| {
        let line = Line {
            player: player.id,
            played,
            won,
            drawn,
            lost,
            half_points,
        };
        StandingRow {
            name: player.display_name.clone(),
            team: false,
            line,
        }
    };
    // alice and carol tie on points and wins: the name decides.
    assert_eq!(
        table,
        vec![
            row(&w.alice, 2, 1, 1, 0, 3),
            row(&w.carol, 2, 1, 1, 0, 3),
            row(&w.bob, 2, 0, 0, 2, 0),
        ]
    );
    let away_table = store.standings(other.id).await?;
    assert_eq!(
        away_table,
        vec![row(&w.bob, 1, 1, 0, 0, 2), row(&w.alice, 1, 0, 0, 1, 0)]
    );
    let empty = store.standings(other.id + 100).await?;
    assert!(empty.is_empty());
    Ok(())
}

pub async fn player_language_is_set_and_cleared(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(w.alice.language, None);
    for (minute, language) in [(1, Some(Lang::Fr)), (2, Some(Lang::De)), (3, None)] {
        let commit = Commit {
            player_language: Some((w.alice.id, language)),
            ..Commit::default()
        };
        put(store, t(minute), commit).await?;
        let row = store.player(w.alice.id).await?.expect("row");
        assert_eq!(row.language, language);
        let bob = store.player(w.bob.id).await?.expect("row");
        assert_eq!(bob.language, None, "only the named player changes");
    }
    Ok(())
}

/// A server's language is none until a moderator chooses one, and can be
/// returned to the default; what `open_act` and the deadlines read follows.
/// Every new game gets its page token in its own commit (a random one,
/// found again by the token only); an older game gets one when first
/// asked; watched games' versions are read in one call; a server's pages
/// are off until switched on.
pub async fn games_have_page_tokens_and_servers_a_web_switch(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let first = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let second = create_game(store, new_game(&w, w.bob.id, w.carol.id)).await?;
    let token = store
        .token_of(first)
        .await?
        .expect("a token from the start");
    assert!(crate::storage::is_token(&token), "{token}");
    assert_ne!(store.token_of(second).await?, Some(token.clone()));
    assert_eq!(store.game_by_token(&token).await?, Some(first));
    assert_eq!(store.game_by_token(&"0".repeat(32)).await?, None);
    // Asking again keeps the token it has; no game, no token.
    let fresh = crate::storage::fresh_token()?;
    assert_eq!(store.game_token(first, &fresh).await?, Some(token.clone()));
    assert_eq!(store.game_token(9999, &fresh).await?, None);
    assert_eq!(store.game_by_token(&fresh).await?, None);
    // A game from before the pages gets the token it is offered, once.
    store
        .execute(
            "DELETE FROM game_links WHERE game_id = ?1",
            &crate::storage::sql::params![second],
        )
        .await?;
    assert_eq!(store.token_of(second).await?, None);
    assert_eq!(store.game_token(second, &fresh).await?, Some(fresh.clone()));
    assert_eq!(store.game_by_token(&fresh).await?, Some(second));
    let mut versions = store.game_versions(&[second, first, 9999]).await?;
    versions.sort();
    assert_eq!(versions.len(), 2, "{versions:?}");
    assert_eq!(versions[0].0, first);
    assert!(store.game_versions(&[]).await?.is_empty());
    let games = store.player_games(w.server.id, w.bob.id, 10, 0).await?;
    assert_eq!(
        games.iter().map(|g| g.id).collect::<Vec<_>>(),
        [second, first]
    );
    let paged = store.player_games(w.server.id, w.bob.id, 1, 1).await?;
    assert_eq!(paged.iter().map(|g| g.id).collect::<Vec<_>>(), [first]);
    // The server's pages: off, on, off.
    assert!(!store.server(w.server.id).await?.expect("row").web_pages);
    for (minute, on) in [(2, true), (3, false)] {
        let commit = Commit {
            server_web_pages: Some((w.server.id, on)),
            ..Commit::default()
        };
        put(store, t(minute), commit).await?;
        assert_eq!(store.server(w.server.id).await?.expect("row").web_pages, on);
    }
    Ok(())
}

pub async fn server_language_is_chosen_and_cleared(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let other = store
        .ensure_server(Platform::Discord, "club", &defaults(), t(0))
        .await?;
    for (minute, language) in [(1, Some(Lang::Fr)), (2, Some(Lang::En)), (3, None)] {
        let commit = Commit {
            server_language: Some((w.server.id, language)),
            ..Commit::default()
        };
        put(store, t(minute), commit).await?;
        let row = store.server(w.server.id).await?.expect("row");
        assert_eq!(row.chosen_language, language);
        let found = store.find_server(Platform::Console, "club").await?;
        assert_eq!(found.map(|s| s.chosen_language), Some(language));
        let again = store
            .ensure_server(Platform::Console, "club", &defaults(), t(minute))
            .await?;
        assert_eq!(again.chosen_language, language, "kept at every act");
        let untouched = store.server(other.id).await?.expect("row");
        assert_eq!(
            untouched.chosen_language, None,
            "only the named server changes"
        );
    }
    Ok(())
}

/// A player's notation, settled letters and open question are written
/// whole and read back with the player, wherever the player is read.
pub async fn player_notation_is_kept_whole(store: &Store) -> Result<()> {
    use crate::core::notation::Letters;
    let w = world(store).await?;
    assert_eq!(w.alice.notation, PlayerNotation::default());
    let asked = PlayerNotation {
        notation: None,
        letters: Letters::default().with('B', shakmaty::Role::Bishop),
        question: Some(r#"{"game":3,"ply":14,"text":"Rd8"}"#.to_owned()),
    };
    let french = PlayerNotation {
        notation: Some(Lang::Fr),
        ..PlayerNotation::default()
    };
    for (minute, notation) in [(1, asked), (2, french), (3, PlayerNotation::default())] {
        let commit = Commit {
            player_notation: Some((w.alice.id, notation.clone())),
            ..Commit::default()
        };
        put(store, t(minute), commit).await?;
        let row = store.player(w.alice.id).await?.expect("row");
        assert_eq!(row.notation, notation);
        let bob = store.player(w.bob.id).await?.expect("row");
        assert_eq!(
            bob.notation,
            PlayerNotation::default(),
            "only alice changes"
        );
    }
    // The same row comes with an act and with a game's players.
    let commit = Commit {
        player_notation: Some((
            w.alice.id,
            PlayerNotation {
                notation: Some(Lang::De),
                ..PlayerNotation::default()
            },
        )),
        ..Commit::default()
    };
    put(store, t(4), commit).await?;
    let request = ActRequest {
        act_key: None,
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user_id: "alice".into(),
        user_name: "alice".into(),
        client_language: None,
        defaults: defaults(),
    };
    let OpenedAct::New { player, .. } = store.open_act(request, t(5)).await? else {
        panic!("a new act");
    };
    assert_eq!(player.notation.notation, Some(Lang::De));
    assert_eq!(
        player.notation.settled().get('L'),
        Some(shakmaty::Role::Bishop)
    );
    Ok(())
}

/// `open_act` creates what is new, and answers a replay from the store.
pub async fn acts_open_in_one_call(store: &Store) -> Result<()> {
    let request = ActRequest {
        act_key: Some("interaction-7".into()),
        platform: Platform::Discord,
        server: "guild".into(),
        channel: "chan".into(),
        user_id: "u1".into(),
        user_name: "Ursula".into(),
        client_language: Some(Lang::Fr),
        defaults: defaults(),
    };
    let OpenedAct::New {
        server,
        channel,
        player,
        ..
    } = store.open_act(request.clone(), t(0)).await?
    else {
        panic!("a new act");
    };
    assert_eq!(server.platform_id, "guild");
    assert_eq!(channel.server_id, server.id);
    assert_eq!(player.display_name, "Ursula");
    assert_eq!(
        player.client_language,
        Some(Lang::Fr),
        "her client's language is kept"
    );
    // A later act from an English client changes it; one that says nothing does not.
    for (said, kept) in [(Some(Lang::En), Lang::En), (None, Lang::En)] {
        let later = ActRequest {
            act_key: None,
            client_language: said,
            ..request.clone()
        };
        let OpenedAct::New { player, .. } = store.open_act(later, t(0)).await? else {
            panic!("a new act");
        };
        assert_eq!(player.client_language, Some(kept));
    }
    let commit = Commit {
        act_key: Some("interaction-7".into()),
        ..Commit::default()
    };
    store.commit(commit, t(1), |_| "done").await?;
    let again = store.open_act(request, t(2)).await?;
    assert_eq!(again, OpenedAct::Answered("\"done\"".to_owned()));
    Ok(())
}

/// Opening an act names the player's one game in the channel with its
/// version, or lists several.
pub async fn the_only_game_in_a_channel_is_found_by_version(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let request = ActRequest {
        act_key: None,
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user_id: "alice".into(),
        user_name: "alice".into(),
        client_language: None,
        defaults: defaults(),
    };
    let lookup = || async {
        match store.open_act(request.clone(), t(0)).await? {
            OpenedAct::New { games_here, .. } => Ok::<_, StorageError>(games_here),
            answered => panic!("a new act: {answered:?}"),
        }
    };
    assert_eq!(lookup().await?, ChannelGames::None);
    let first = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let record = store.game(first).await?.expect("game");
    assert_eq!(
        lookup().await?,
        ChannelGames::One {
            id: first,
            version: record.version,
            on_leave: false,
        }
    );
    let second = create_game(store, new_game(&w, w.carol.id, w.alice.id)).await?;
    let ChannelGames::Several(games) = lookup().await? else {
        panic!("two games");
    };
    assert_eq!(
        games.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![second, first]
    );
    Ok(())
}

/// `pawnpost games` and `export`: every game oldest first, or one player's
/// (by display name); a tournament's only when it has some.
pub async fn games_are_listed_by_player_for_export(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let first = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let second = create_game(store, new_game(&w, w.carol.id, w.bob.id)).await?;
    let ids = |games: Vec<GameSummary>| games.iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(ids(store.listed_games(None, None).await?), [first, second]);
    assert_eq!(
        ids(store.listed_games(Some("carol"), None).await?),
        [second]
    );
    assert!(store.listed_games(None, Some(99)).await?.is_empty());
    Ok(())
}

/// The scheduler's queries: the earliest deadline, and what is due, earliest first.
pub async fn deadlines_come_from_running_clocks(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(store.next_wake_up().await?, None);
    let first = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let later = NewGame {
        clock: Some(Clock::start(
            TimeControl::PerMove {
                per_move: Duration::days(5),
            },
            Color::White,
            t(1),
        )),
        ..new_game(&w, w.carol.id, w.bob.id)
    };
    let second = create_game(store, later).await?;
    let untimed = NewGame {
        clock: None,
        remind_at: None,
        ..new_game(&w, w.bob.id, w.carol.id)
    };
    create_game(store, untimed).await?;
    let three = t(1) + Duration::days(3);
    assert_eq!(store.next_wake_up().await?, Some(three));
    let due = |at| store.due_games(at, 10);
    assert!(due(three - Duration::seconds(1)).await?.is_empty());
    let ids = |games: Vec<DueGame>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(ids(due(three).await?), vec![first]);
    let both = due(t(1) + Duration::days(6)).await?;
    assert_eq!(ids(both.clone()), vec![first, second]);
    assert_eq!(
        ids(store.due_games(t(1) + Duration::days(6), 1).await?),
        vec![first]
    );
    // A finished game has no deadline any more.
    let clock = store.game(first).await?.expect("game").clock;
    let flagged = GameUpdate {
        clock,
        ..ending(first, GameResult::BlackWins, Reason::Timeout, three)
    };
    save(store, first, three, flagged).await?;
    assert_eq!(store.next_wake_up().await?, Some(t(1) + Duration::days(5)));
    Ok(())
}

/// A player's act leaves a later alarm to the scheduler (one index write
/// fewer per move); a sooner one is taken at once; the scheduler sets the
/// exact time when it wakes early, unless the game moved on meanwhile.
pub async fn a_players_save_only_brings_the_wake_up_forward(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let reminded = |at| NewGame {
        clock: None,
        remind_at: Some(at),
        ..new_game(&w, w.alice.id, w.bob.id)
    };
    let id = create_game(store, reminded(t(100))).await?;
    let move_with = |remind_at, wake_up| GameUpdate {
        turn: Color::Black,
        remind_at: Some(remind_at),
        wake_up,
        ..update(id)
    };
    let cases = [
        (t(200), WakeUp::NoLater, t(100)),
        (t(50), WakeUp::NoLater, t(50)),
        (t(300), WakeUp::Exact, t(300)),
        (t(250), WakeUp::NoLater, t(250)),
    ];
    for (alarm, how, stored) in cases {
        save(store, id, t(2), move_with(alarm, how)).await?;
        assert_eq!(store.next_wake_up().await?, Some(stored), "{alarm} {how:?}");
        let record = store.game(id).await?.expect("game");
        assert_eq!(
            record.remind_at,
            Some(alarm),
            "the reminder itself is exact"
        );
    }
    let version = store.game(id).await?.expect("game").version;
    store.rearm_wake_up(id, version - 1, Some(t(400))).await?;
    assert_eq!(
        store.next_wake_up().await?,
        Some(t(250)),
        "a stale re-arm does nothing"
    );
    store.rearm_wake_up(id, version, Some(t(400))).await?;
    assert_eq!(store.next_wake_up().await?, Some(t(400)));
    Ok(())
}

/// A takeback keeps the first moves and notes of the score and appends the
/// act's own; the stored move count follows.
pub async fn a_takeback_shortens_the_stored_score(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let note = |ply, kind| Note {
        ply,
        by: Some(Color::White),
        at: t(3),
        kind,
    };
    let update = |new_moves, new_notes, turn, truncate_to| GameUpdate {
        new_moves,
        new_notes,
        turn,
        wake_up: WakeUp::NoLater,
        truncate_to,
        ..update(id)
    };
    let played = vec![
        a_move(1, "e2e4", "e4", t(1)),
        a_move(2, "e7e5", "e5", t(2)),
        a_move(3, "g1f3", "Nf3", t(3)),
    ];
    let asked = vec![note(3, NoteKind::TakebackRequested)];
    save(store, id, t(3), update(played, asked, Color::Black, None)).await?;
    let taken = vec![note(2, NoteKind::TakenBack { plies: 1 })];
    save(
        store,
        id,
        t(4),
        update(Vec::new(), taken.clone(), Color::White, Some((2, 0))),
    )
    .await?;
    let record = store.game(id).await?.expect("game");
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5"]);
    assert_eq!(record.notes, taken);
    // Play goes on from there.
    let next = vec![a_move(3, "b1c3", "Nc3", t(5))];
    save(
        store,
        id,
        t(5),
        update(next, Vec::new(), Color::Black, None),
    )
    .await?;
    assert_eq!(store.game(id).await?.expect("game").moves.len(), 3);
    Ok(())
}

/// A private note is read back by its writer, in order, and by no one else.
pub async fn private_notes_are_read_by_their_writer_only(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    for (ply, text) in [(0, "before"), (2, "after e5")] {
        let note = PrivateNote {
            game_id: id,
            player: w.alice.id,
            ply,
            written_at: t(i64::from(ply)),
            text: text.to_owned(),
        };
        let commit = Commit {
            private_note: Some(note),
            ..Commit::default()
        };
        put(store, t(3), commit).await?;
    }
    let notes = store.private_notes(id, w.alice.id).await?;
    let read: Vec<(u32, &str)> = notes.iter().map(|n| (n.ply, n.text.as_str())).collect();
    assert_eq!(read, [(0, "before"), (2, "after e5")]);
    assert_eq!(notes[1].written_at, t(2));
    assert!(store.private_notes(id, w.bob.id).await?.is_empty());
    Ok(())
}

/// A team is created once per name (whatever its case) with its stand-in
/// player, joined and left once; its game's votes are kept per move, a
/// second vote refused unless it replaces the first, and counted only for
/// current members; it is deleted only once it plays no more, its stand-in
/// staying with its games.
pub async fn teams_and_votes_are_kept(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let create = |name: &str, by: PlayerId| Commit {
        team_change: Some(TeamChange::Create {
            server_id: w.server.id,
            platform: Platform::Console,
            name: name.to_owned(),
            name_key: name.to_lowercase(),
            created_by: by,
            at: t(1),
        }),
        ..Commit::default()
    };
    let committed = put(store, t(1), create("Rooks", w.alice.id)).await?;
    let id = committed.team_id.expect("a team");
    conflict(put(store, t(1), create("ROOKS", w.bob.id)).await);
    let team = store
        .team_by_name(w.server.id, "rooks")
        .await?
        .expect("found");
    assert_eq!((team.id, team.name.as_str()), (id, "Rooks"));
    assert_eq!(team.created_by, w.alice.id);
    let stand_in = store.player(team.player).await?.expect("stand-in");
    assert_eq!(stand_in.platform_id, format!("{STAND_IN_PREFIX}{id}"));
    assert_eq!(stand_in.display_name, "Rooks");
    assert_eq!(stand_in.notify, Notify::Off);

    let change = |change| Commit {
        team_change: Some(change),
        ..Commit::default()
    };
    let join = |player| TeamChange::Join {
        team: id,
        player,
        at: t(2),
    };
    put(store, t(2), change(join(w.bob.id))).await?;
    conflict(put(store, t(2), change(join(w.bob.id))).await);
    assert_eq!(store.team_members(id).await?, [w.alice.id, w.bob.id]);
    assert_eq!(
        store.teams_of(w.server.id, w.bob.id).await?,
        std::slice::from_ref(&team)
    );
    assert_eq!(store.team_count(w.server.id).await?, 1);
    let (listed, total) = store.teams(w.server.id, 10).await?;
    assert_eq!(total, 1);
    assert_eq!(
        listed,
        [(team.clone(), vec!["alice".to_owned(), "bob".to_owned()])]
    );

    // The team has White against carol; its votes cannot be changed.
    let challenge = NewChallenge {
        challenger: team.player,
        challenged: Some(w.carol.id),
        start_fen: None,
        votes_changeable: Some(false),
        ..new_challenge(&w, w.channel.id, t(100))
    };
    let commit = Commit {
        new_challenge: Some(challenge),
        ..Commit::default()
    };
    let made = put(store, t(3), commit).await?;
    let challenge_id = made.challenge_id.expect("a challenge");
    let game = NewGame {
        rated: false,
        ..new_game(&w, team.player, w.carol.id)
    };
    let started = put(store, t(4), accepting(challenge_id, game)).await?;
    let game = started.game_id.expect("a game");
    assert!(!store.votes_changeable(game).await?);
    let other = create_game(store, new_game(&w, w.alice.id, w.carol.id)).await?;
    assert!(
        store.votes_changeable(other).await?,
        "a game from no challenge"
    );
    assert_eq!(
        store.game_teams(game).await?,
        [(Color::White, team.clone())]
    );
    assert!(store.game_teams(other).await?.is_empty());
    assert_eq!(
        store.vote_games_in_channel(w.channel.id, w.bob.id).await?,
        [game]
    );
    assert!(
        store
            .vote_games_in_channel(w.channel.id, w.carol.id)
            .await?
            .is_empty()
    );
    assert!(store.team_plays(id).await?);
    // A vote game is its members' game to look at, not its opponent's
    // through a team; alice's own game with carol is not her team's.
    let ids = |games: Vec<GameSummary>| games.iter().map(|g| g.id).collect::<Vec<_>>();
    for member in [w.alice.id, w.bob.id] {
        let here = store.team_games_in_channel(w.channel.id, member).await?;
        assert_eq!(ids(here), [game]);
        let running = store.team_games_on_server(w.server.id, member).await?;
        assert_eq!(ids(running), [game]);
    }
    let carol_s = store.team_games_on_server(w.server.id, w.carol.id).await?;
    assert!(carol_s.is_empty());
    let elsewhere = store
        .team_games_on_server(w.server.id + 100, w.bob.id)
        .await?;
    assert!(elsewhere.is_empty());

    let vote = |player, choice: &str, offers_draw, replaces| Commit {
        vote: Some(NewVote {
            game_id: game,
            ply: 1,
            player,
            choice: choice.to_owned(),
            offers_draw,
            at: t(5),
            replaces,
        }),
        ..Commit::default()
    };
    put(store, t(5), vote(w.alice.id, "e2e4", false, false)).await?;
    put(store, t(5), vote(w.bob.id, "d2d4", true, false)).await?;
    conflict(put(store, t(6), vote(w.alice.id, "g1f3", false, false)).await);
    put(store, t(6), vote(w.alice.id, "g1f3", false, true)).await?;
    let read: Vec<(PlayerId, String, bool, i64)> = store
        .votes(game, 1, id)
        .await?
        .into_iter()
        .map(|v| (v.player, v.choice, v.offers_draw, v.seq))
        .collect();
    assert_eq!(
        read,
        [
            (w.bob.id, "d2d4".to_owned(), true, 2),
            (w.alice.id, "g1f3".to_owned(), false, 3),
        ]
    );
    assert!(store.votes(game, 2, id).await?.is_empty());
    // A member who leaves takes their vote out of the count.
    let leave = TeamChange::Leave {
        team: id,
        player: w.bob.id,
    };
    put(store, t(7), change(leave.clone())).await?;
    conflict(put(store, t(7), change(leave)).await);
    assert_eq!(store.votes(game, 1, id).await?.len(), 1);

    let delete = || change(TeamChange::Delete { team: id });
    conflict(put(store, t(8), delete()).await);
    save(
        store,
        game,
        t(9),
        ending(game, GameResult::BlackWins, Reason::Resignation, t(9)),
    )
    .await?;
    put(store, t(10), delete()).await?;
    assert!(store.team_by_name(w.server.id, "rooks").await?.is_none());
    assert!(store.team_members(id).await?.is_empty());
    assert!(
        store.player(team.player).await?.is_some(),
        "kept with its games"
    );
    assert_eq!(store.game(game).await?.expect("kept").white, team.player);
    Ok(())
}

/// A team match between two servers: proposed, accepted in the away
/// channel, signed up (again after a withdrawal, in a new order), started
/// with its games in one commit, and moved on by each game's end; stale
/// versions and changes out of turn are conflicts. The away channel lists
/// its player's match games as its own.
pub async fn team_matches_keep_sign_ups_games_and_versions(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let away_server = store
        .ensure_server(Platform::Console, "other club", &defaults(), t(0))
        .await?;
    let away_channel = store.ensure_channel(away_server.id, "hall").await?;
    let team = |server_id: i64, name: &str, by: PlayerId| Commit {
        team_change: Some(TeamChange::Create {
            server_id,
            platform: Platform::Console,
            name: name.to_owned(),
            name_key: name.to_lowercase(),
            created_by: by,
            at: t(1),
        }),
        ..Commit::default()
    };
    let apply = |changes: Vec<MatchChange>, at: i64| {
        let commit = Commit {
            match_changes: changes,
            ..Commit::default()
        };
        store.commit(commit, t(at), |_| ())
    };
    let rooks = put(store, t(1), team(w.server.id, "Rooks", w.alice.id)).await?;
    let knights = put(store, t(1), team(away_server.id, "Knights", w.bob.id)).await?;
    let (rooks, knights) = (rooks.team_id.expect("team"), knights.team_id.expect("team"));
    let (made, ()) = apply(
        vec![MatchChange::Create(NewMatch {
            home_server_id: w.server.id,
            home_channel_id: w.channel.id,
            home_team_id: rooks,
            away_server_id: away_server.id,
            away_team_id: knights,
            boards: 4,
            time_control: "3d".to_owned(),
            created_by: w.alice.id,
            at: t(2),
        })],
        2,
    )
    .await?;
    let id = made.match_id.expect("a match");
    let row = store.team_match(id).await?.expect("stored");
    assert_eq!(row.state, MatchState::Proposed);
    assert_eq!(row.home.channel, Some((w.channel.id, "main".to_owned())));
    assert_eq!(row.away.channel, None);
    assert_eq!(
        (row.home.team_name.as_str(), row.away.team_name.as_str()),
        ("Rooks", "Knights")
    );
    assert_eq!(row.side_on(away_server.id), Some(MatchSide::Away));
    assert_eq!(store.latest_match(away_server.id).await?, Some(row.clone()));
    // A team with a match is kept.
    assert!(store.team_plays(rooks).await?);

    let accept = |version: i64| MatchChange::Accept {
        id,
        expected_version: version,
        away_channel_id: away_channel.id,
    };
    conflict(apply(vec![accept(5)], 3).await);
    apply(vec![accept(row.version)], 3).await?;
    conflict(apply(vec![accept(row.version + 1)], 3).await);
    let join = |player: PlayerId, side: MatchSide, at: i64| MatchChange::Join {
        id,
        player,
        side,
        at: t(at),
    };
    apply(vec![join(w.alice.id, MatchSide::Home, 4)], 4).await?;
    apply(vec![join(w.bob.id, MatchSide::Away, 4)], 4).await?;
    apply(vec![join(w.carol.id, MatchSide::Away, 5)], 5).await?;
    conflict(apply(vec![join(w.bob.id, MatchSide::Away, 6)], 6).await);
    let withdraw = MatchChange::Withdraw {
        id,
        player: w.bob.id,
        at: t(6),
    };
    apply(vec![withdraw.clone()], 6).await?;
    conflict(apply(vec![withdraw], 6).await);
    // Back again: signed up after carol now.
    apply(vec![join(w.bob.id, MatchSide::Away, 7)], 7).await?;
    let entrants = store.match_entrants(id).await?;
    let order: Vec<(PlayerId, MatchSide, bool)> = entrants
        .iter()
        .map(|e| (e.player, e.side, e.withdrawn_at.is_some()))
        .collect();
    assert_eq!(
        order,
        [
            (w.alice.id, MatchSide::Home, false),
            (w.carol.id, MatchSide::Away, false),
            (w.bob.id, MatchSide::Away, false),
        ]
    );

    let row = store.team_match(id).await?.expect("stored");
    assert_eq!(row.state, MatchState::SignUp);
    assert_eq!(row.away.channel, Some((away_channel.id, "hall".to_owned())));
    let game = |white: PlayerId, black: PlayerId| NewGame {
        rated: false,
        ..new_game(&w, white, black)
    };
    let start = |version: i64| MatchChange::Start {
        id,
        expected_version: version,
        games: vec![
            (1, game(w.alice.id, w.carol.id)),
            (1, game(w.carol.id, w.alice.id)),
        ],
        // The second game's away player plays it from the away channel.
        places: vec![
            None,
            Some(NewGamePlace {
                player: w.carol.id,
                server_id: away_channel.server_id,
                channel_id: away_channel.id,
            }),
        ],
        at: t(8),
    };
    conflict(apply(vec![start(row.version - 1)], 8).await);
    let (started, ()) = apply(vec![start(row.version)], 8).await?;
    let [first, second] = started.match_games[..] else {
        panic!("two games: {started:?}");
    };
    // Sign-up is closed once started.
    conflict(apply(vec![join(w.bob.id, MatchSide::Away, 9)], 9).await);
    let games = store.match_games(id).await?;
    let boards: Vec<(i64, u32, PlayerId, PlayerId)> = games
        .iter()
        .map(|g| (g.game_id, g.board, g.white, g.black))
        .collect();
    assert_eq!(
        boards,
        [
            (first, 1, w.alice.id, w.carol.id),
            (second, 1, w.carol.id, w.alice.id)
        ]
    );
    assert_eq!(store.match_of_game(second).await?.map(|m| m.id), Some(id));
    assert_eq!(store.match_of_game(first + 100).await?, None);
    // Only the game given a place has one: carol's, from the hall.
    assert_eq!(store.place_of_game(first).await?, None);
    let place = store.place_of_game(second).await?.expect("a place");
    assert_eq!(
        (place.player, place.server_id, place.channel.as_str()),
        (w.carol.id, away_server.id, "hall")
    );
    // The away channel lists carol's match games; the home channel too.
    let away = store
        .games_in_channel(away_channel.id, w.carol.id, true)
        .await?;
    assert_eq!(ids(&away), [second, first]);
    let home = store
        .games_in_channel(w.channel.id, w.carol.id, true)
        .await?;
    assert_eq!(ids(&home), [second, first]);
    assert!(
        store
            .games_in_channel(away_channel.id, w.bob.id, true)
            .await?
            .is_empty()
    );

    let row = store.team_match(id).await?.expect("stored");
    assert_eq!(row.state, MatchState::Running);
    let ended = |version: i64, over: bool| MatchChange::GameEnded {
        id,
        expected_version: version,
        over_at: over.then(|| t(10)),
    };
    finish(store, first, GameResult::WhiteWins, 9).await?;
    apply(vec![ended(row.version, false)], 9).await?;
    // Another end that read the same version is refused: it must look again.
    conflict(apply(vec![ended(row.version, true)], 10).await);
    finish(store, second, GameResult::Draw, 10).await?;
    apply(vec![ended(row.version + 1, true)], 10).await?;
    let row = store.team_match(id).await?.expect("stored");
    assert_eq!(row.state, MatchState::Over);
    let states: Vec<Status> = store
        .match_games(id)
        .await?
        .iter()
        .map(|g| g.state)
        .collect();
    assert!(
        states.iter().all(|s| matches!(s, Status::Over { .. })),
        "{states:?}"
    );
    conflict(apply(vec![ended(row.version, false)], 11).await);
    Ok(())
}

/// A finished game waits for its review until one is kept (the first one
/// only); its puzzles go to the server's other members one at a time, are
/// answered once, and count in the solvers' table.
/// Engine slots (issue 42): no more holders than slots, a slot given back
/// or whose lease ran out goes to the next, and only its holder gives it back.
pub async fn engine_slots_are_leased_up_to_the_limit(store: &Store) -> Result<()> {
    let lease =
        |holder: &'static str, at: i64| store.lease_engine_slot(2, holder, t(at), t(at + 10));
    assert_eq!(lease("a", 0).await?, Some(0));
    assert_eq!(lease("b", 0).await?, Some(1));
    assert_eq!(lease("c", 1).await?, None, "both slots held");
    // Only the holder gives a slot back.
    store.release_engine_slot(0, "c").await?;
    assert_eq!(lease("c", 2).await?, None);
    store.release_engine_slot(0, "a").await?;
    assert_eq!(lease("c", 3).await?, Some(0));
    // b crashed: its lease runs out at minute 10, not before.
    assert_eq!(lease("d", 9).await?, None);
    assert_eq!(lease("d", 10).await?, Some(1));
    // The late release of a lease that ran out leaves the new holder's.
    store.release_engine_slot(1, "b").await?;
    assert_eq!(lease("e", 11).await?, None);
    // A smaller limit counts only its own slots.
    assert_eq!(store.lease_engine_slot(1, "e", t(11), t(20)).await?, None);
    Ok(())
}

pub async fn reviews_and_puzzles_are_kept(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let carol = player(store, "carol").await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let running = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let update = GameUpdate {
        new_moves: vec![a_move(1, "e2e4", "e4", t(2))],
        ..ending(id, GameResult::WhiteWins, Reason::Resignation, t(3))
    };
    save(store, id, t(3), update).await?;
    assert_eq!(store.games_awaiting_review(t(0), 10).await?, [id]);
    assert_eq!(
        store.games_awaiting_review(t(4), 10).await?,
        Vec::<i64>::new()
    );
    assert!(!store.review_waits_for_round(id).await?);
    let review = |evals: &str| NewReview {
        game_id: id,
        engine: "Stockfish 15.1".to_owned(),
        nodes: 1000,
        evals: evals.to_owned(),
        reviewed_at: t(5),
        puzzles: vec![NewPuzzle {
            ply: 1,
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_owned(),
            solution: "e7e5".to_owned(),
        }],
    };
    for evals in ["30 e2e4\n25 e7e5", "99 d2d4\n0"] {
        let commit = Commit {
            review: Some(review(evals)),
            ..Commit::default()
        };
        put(store, t(5), commit).await?;
    }
    let kept = store.review(id).await?.expect("kept");
    assert_eq!(
        (kept.engine.as_str(), kept.nodes, kept.evals.as_str()),
        ("Stockfish 15.1", 1000, "30 e2e4\n25 e7e5"),
        "the first review stays"
    );
    assert_eq!(kept.reviewed_at, t(5));
    assert_eq!(store.review(running).await?, None);
    assert!(store.games_awaiting_review(t(0), 10).await?.is_empty());
    // The game's players get none of its puzzles; carol gets it once.
    assert_eq!(store.next_puzzle(w.server.id, w.alice.id).await?, None);
    let puzzle = store
        .next_puzzle(w.server.id, carol.id)
        .await?
        .expect("one");
    assert_eq!(
        (puzzle.game_id, puzzle.ply, puzzle.solution.as_str()),
        (id, 1, "e7e5")
    );
    let attempt = |attempt: PuzzleAttempt| Commit {
        puzzle_attempt: Some(attempt),
        ..Commit::default()
    };
    let given = PuzzleAttempt::Given {
        puzzle: puzzle.id,
        player: carol.id,
        at: t(6),
    };
    put(store, t(6), attempt(given)).await?;
    assert_eq!(
        store.open_puzzle(w.server.id, carol.id).await?,
        Some(puzzle.clone())
    );
    assert_eq!(store.next_puzzle(w.server.id, carol.id).await?, None);
    let answered = PuzzleAttempt::Answered {
        puzzle: puzzle.id,
        player: carol.id,
        solved: true,
        at: t(7),
    };
    put(store, t(7), attempt(answered)).await?;
    assert_eq!(store.open_puzzle(w.server.id, carol.id).await?, None);
    // Answered once: a second answer changes nothing and is refused.
    conflict(put(store, t(8), attempt(answered)).await);
    let solvers = store.puzzle_solvers(w.server.id, 10).await?;
    assert_eq!(
        solvers,
        [PuzzleSolver {
            name: "carol".to_owned(),
            solved: 1,
            tried: 1
        }]
    );
    Ok(())
}

/// Conditional moves are saved with the game and read back with it; an
/// ended game keeps none.
pub async fn conditional_moves_are_kept_with_their_game(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let record = store.game(id).await?.expect("game");
    assert!(record.conditionals.is_empty());
    let mut lines = Conditionals::default();
    let line = ["e7e5", "g1f3", "b8c6", "f1b5"].map(String::from).to_vec();
    lines.of_mut(Color::White).add(line).expect("a line");
    let lines_kept = GameUpdate {
        clock: record.clock,
        wake_up: WakeUp::NoLater,
        conditionals: lines.clone(),
        ..update(id)
    };
    save(store, id, t(2), lines_kept).await?;
    assert_eq!(store.game(id).await?.expect("game").conditionals, lines);
    save(
        store,
        id,
        t(3),
        ending(id, GameResult::Draw, Reason::Agreement, t(3)),
    )
    .await?;
    assert!(store.game(id).await?.expect("game").conditionals.is_empty());
    Ok(())
}

fn rating_update(
    w: &World,
    player: PlayerId,
    expected_games: u32,
    rating: f64,
    game_id: i64,
) -> RatingUpdate {
    RatingUpdate {
        server_id: w.server.id,
        player,
        pool: Variant::Standard,
        expected_games,
        rating,
        deviation: 300.5,
        volatility: 0.09,
        game_id,
        at: t(30),
    }
}

pub async fn ratings_move_with_their_game_count(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(
        store
            .rating(w.server.id, w.alice.id, Variant::Standard)
            .await?,
        None
    );
    let game = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let commit = Commit {
        rating_updates: vec![
            rating_update(&w, w.alice.id, 0, 1662.25, game),
            rating_update(&w, w.bob.id, 0, 1337.75, game),
        ],
        ..Commit::default()
    };
    put(store, t(30), commit).await?;
    let alice = store
        .rating(w.server.id, w.alice.id, Variant::Standard)
        .await?
        .expect("row");
    assert_eq!(
        (alice.rating, alice.deviation, alice.games),
        (1662.25, 300.5, 1)
    );
    assert_eq!(alice.rated_at, t(30));

    // A stale count is a conflict and writes nothing, not even the other player's row.
    let stale = Commit {
        rating_updates: vec![
            rating_update(&w, w.bob.id, 1, 1400.0, game),
            rating_update(&w, w.alice.id, 0, 1700.0, game),
        ],
        ..Commit::default()
    };
    conflict(put(store, t(31), stale).await);
    let bob = store
        .rating(w.server.id, w.bob.id, Variant::Standard)
        .await?
        .expect("row");
    assert_eq!((bob.rating, bob.games), (1337.75, 1));

    let commit = Commit {
        rating_updates: vec![rating_update(&w, w.alice.id, 1, 1700.0, game)],
        ..Commit::default()
    };
    put(store, t(32), commit).await?;
    let history = store
        .rating_history(w.server.id, w.alice.id, Variant::Standard)
        .await?;
    let ratings: Vec<f64> = history.iter().map(|p| p.rating).collect();
    assert_eq!(ratings, [1662.25, 1700.0]);
    assert_eq!(history[0].game_id, game);
    assert!(
        store
            .rating_history(w.server.id, w.carol.id, Variant::Standard)
            .await?
            .is_empty()
    );

    // A Chess960 game is rated in its own pool: a first rating there,
    // counted from zero, and the standard rating and history untouched.
    let chess960 = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let in_pool = |player, expected_games, rating| RatingUpdate {
        pool: Variant::Chess960,
        ..rating_update(&w, player, expected_games, rating, chess960)
    };
    let commit = Commit {
        rating_updates: vec![in_pool(w.alice.id, 0, 1450.0), in_pool(w.bob.id, 0, 1550.0)],
        ..Commit::default()
    };
    put(store, t(33), commit).await?;
    let alice_960 = store
        .rating(w.server.id, w.alice.id, Variant::Chess960)
        .await?
        .expect("a Chess960 row");
    assert_eq!((alice_960.rating, alice_960.games), (1450.0, 1));
    assert_eq!(alice_960.pool, Variant::Chess960);
    let alice = store
        .rating(w.server.id, w.alice.id, Variant::Standard)
        .await?
        .expect("row");
    assert_eq!((alice.rating, alice.games), (1700.0, 2));
    let standard: Vec<f64> = store
        .rating_history(w.server.id, w.alice.id, Variant::Standard)
        .await?
        .iter()
        .map(|p| p.rating)
        .collect();
    assert_eq!(standard, [1662.25, 1700.0]);
    let pool: Vec<i64> = store
        .rating_history(w.server.id, w.alice.id, Variant::Chess960)
        .await?
        .iter()
        .map(|p| p.game_id)
        .collect();
    assert_eq!(pool, [chess960]);
    Ok(())
}

pub async fn finished_games_leave_out_running_and_aborted_ones(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let late = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let early = create_game(store, new_game(&w, w.bob.id, w.carol.id)).await?;
    let aborted = create_game(store, new_game(&w, w.carol.id, w.alice.id)).await?;
    let _running = create_game(store, new_game(&w, w.alice.id, w.carol.id)).await?;
    finish(store, late, GameResult::Draw, 50).await?;
    finish(store, early, GameResult::BlackWins, 40).await?;
    finish(store, aborted, GameResult::NoResult, 45).await?;
    let games = store.finished_games(w.server.id).await?;
    // Told apart by their players: early is bob–carol, late alice–bob.
    let expected = [
        (w.bob.id, w.carol.id, GameResult::BlackWins, t(40)),
        (w.alice.id, w.bob.id, GameResult::Draw, t(50)),
    ];
    let found = games
        .iter()
        .map(|g| (g.white, g.black, g.result, g.ended_at));
    assert_eq!(found.collect::<Vec<_>>(), expected);
    Ok(())
}

/// A claimed game is passed over until its lease ends or a save moves it on.
pub async fn due_games_are_claimed_once(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let first = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let second = create_game(store, new_game(&w, w.carol.id, w.bob.id)).await?;
    let three = t(1) + Duration::days(3);
    let lease = three + Duration::minutes(2);
    let ids = |games: Vec<DueGame>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
    let claim = |now, limit| store.claim_due_games(now, lease, limit);
    assert!(claim(three - Duration::seconds(1), 10).await?.is_empty());
    assert_eq!(ids(claim(three, 1).await?), vec![first]);
    assert_eq!(ids(claim(three, 10).await?), vec![second]);
    assert!(claim(three, 10).await?.is_empty(), "both taken");
    assert!(store.due_games(three, 10).await?.is_empty());
    assert_eq!(store.next_wake_up().await?, Some(lease));
    // A claimer that never came back: the games return when the lease ends.
    let back = store.claim_due_games(lease, lease + Duration::minutes(2), 10);
    assert_eq!(ids(back.await?), vec![first, second]);
    // A save gives the game its own wake-up again.
    let record = store.game(first).await?.expect("game");
    let kept = GameUpdate {
        clock: record.clock,
        ..update(first)
    };
    save(store, first, three, kept).await?;
    assert_eq!(store.next_wake_up().await?, Some(three));
    let again = claim(three, 10).await?;
    assert_eq!(
        again,
        vec![DueGame {
            id: first,
            version: record.version + 1
        }]
    );
    Ok(())
}

fn ladder_write(w: &World, expected_version: i64, entries: &[(PlayerId, i64)]) -> Commit {
    Commit {
        ladder: Some(LadderWrite {
            server_id: w.server.id,
            expected_version,
            entries: entries.iter().map(|&(p, at)| (p, t(at))).collect(),
        }),
        ..Commit::default()
    }
}

fn ladder_order(ladder: &LadderRow) -> Vec<(String, DateTime<Utc>)> {
    ladder
        .entries
        .iter()
        .map(|e| (e.name.clone(), e.active_at))
        .collect()
}

pub async fn ladders_are_written_whole_and_check_versions(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let empty = store.ladder(w.server.id).await?;
    assert_eq!((empty.version, empty.entries.len()), (0, 0));
    assert_eq!(
        store.next_ladder_deadline(Some(Duration::days(30))).await?,
        None
    );

    let first = ladder_write(&w, 0, &[(w.alice.id, 10), (w.bob.id, 20)]);
    put(store, t(20), first.clone()).await?;
    let ladder = store.ladder(w.server.id).await?;
    assert_eq!(ladder.version, 1);
    assert_eq!(
        ladder_order(&ladder),
        [("alice".to_owned(), t(10)), ("bob".to_owned(), t(20))]
    );

    // A write from a stale read is refused whole.
    conflict(put(store, t(21), first).await);
    let swapped = ladder_write(&w, 1, &[(w.bob.id, 30), (w.alice.id, 30), (w.carol.id, 25)]);
    put(store, t(30), swapped).await?;
    let ladder = store.ladder(w.server.id).await?;
    assert_eq!(ladder.version, 2);
    let names: Vec<_> = ladder_order(&ladder).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["bob", "alice", "carol"]);

    // The longest idle first; inactivity counts from the oldest activity.
    let idle = store.idle_ladder_rungs(t(30), 10).await?;
    let idle: Vec<_> = idle.iter().map(|r| (r.player, r.active_at)).collect();
    assert_eq!(
        idle,
        [(w.carol.id, t(25)), (w.bob.id, t(30)), (w.alice.id, t(30))]
    );
    assert_eq!(store.idle_ladder_rungs(t(29), 10).await?.len(), 1);
    assert_eq!(store.idle_ladder_rungs(t(30), 1).await?.len(), 1);
    assert_eq!(
        store.next_ladder_deadline(Some(Duration::days(30))).await?,
        Some(t(25) + Duration::days(30))
    );
    assert_eq!(store.next_ladder_deadline(None).await?, None);
    let other = store.ladder(w.server.id + 1).await?;
    assert!(other.entries.is_empty());
    Ok(())
}

pub async fn ladder_matches_follow_their_challenge_and_game(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let joined = ladder_write(&w, 0, &[(w.bob.id, 0), (w.alice.id, 0)]);
    put(store, t(0), joined).await?;
    let made = Commit {
        new_challenge: Some(new_challenge(&w, w.channel.id, t(60))),
        new_ladder_match: Some(NewLadderMatch {
            server_id: w.server.id,
            challenger: w.alice.id,
            defender: w.bob.id,
            accept_by: t(60),
        }),
        ..Commit::default()
    };
    let committed = put(store, t(1), made).await?;
    let challenge_id = committed.challenge_id.expect("challenge id");
    let pending = store
        .ladder_match_of_challenge(challenge_id)
        .await?
        .expect("the ladder challenge");
    // Its news goes to the server the challenge was made on.
    assert_eq!(pending.challenge_server, w.server.id);
    assert_eq!(
        (
            pending.challenger,
            pending.defender,
            pending.status,
            pending.game_id,
            pending.accept_by
        ),
        (
            w.alice.id,
            w.bob.id,
            LadderMatchStatus::Pending,
            None,
            t(60)
        )
    );
    assert_eq!(
        store.unsettled_ladder_matches(w.server.id).await?,
        std::slice::from_ref(&pending)
    );
    assert!(store.due_ladder_forfeits(t(59), 10).await?.is_empty());
    assert_eq!(
        store.due_ladder_forfeits(t(60), 10).await?,
        std::slice::from_ref(&pending)
    );
    assert_eq!(store.next_ladder_deadline(None).await?, Some(t(60)));

    let accept = |from| Commit {
        ladder_match_update: Some(LadderMatchUpdate {
            id: pending.id,
            from,
            to: LadderMatchStatus::Playing,
            link_new_game: true,
        }),
        ..accepting(challenge_id, new_game(&w, w.alice.id, w.bob.id))
    };
    // A ladder challenge that moved on refuses the whole acceptance.
    conflict(put(store, t(2), accept(LadderMatchStatus::Playing)).await);
    assert_eq!(store.open_challenges(w.channel.id, t(2)).await?.len(), 1);
    let committed = put(store, t(2), accept(LadderMatchStatus::Pending)).await?;
    let game_id = committed.game_id.expect("game");
    let playing = store.ladder_match_of_game(game_id).await?.expect("by game");
    let record = store.game(game_id).await?.expect("the game");
    assert!(record.ladder_match && !record.tournament_game && !record.team_match);
    assert_eq!(
        (playing.id, playing.status),
        (pending.id, LadderMatchStatus::Playing)
    );
    assert!(store.due_ladder_forfeits(t(90), 10).await?.is_empty());
    assert_eq!(store.next_ladder_deadline(None).await?, None);

    // The result settles the match and moves the ladder in one commit.
    let commit = Commit {
        ladder_match_update: Some(LadderMatchUpdate {
            id: pending.id,
            from: LadderMatchStatus::Playing,
            to: LadderMatchStatus::ChallengerWon,
            link_new_game: false,
        }),
        ..ladder_write(&w, 1, &[(w.alice.id, 5), (w.bob.id, 5)])
    };
    put(store, t(5), commit).await?;
    let settled = store.ladder_match_of_game(game_id).await?.expect("by game");
    assert_eq!(settled.status, LadderMatchStatus::ChallengerWon);
    assert_eq!(settled.game_id, Some(game_id), "the game stays linked");
    assert!(
        store
            .unsettled_ladder_matches(w.server.id)
            .await?
            .is_empty()
    );
    let names: Vec<_> = store
        .ladder(w.server.id)
        .await?
        .entries
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["alice", "bob"]);
    assert_eq!(
        store.ladder_match_of_challenge(challenge_id + 99).await?,
        None
    );
    Ok(())
}

fn a_tournament(w: &World, closes: Option<DateTime<Utc>>) -> NewTournament {
    NewTournament {
        server_id: w.server.id,
        channel_id: w.channel.id,
        name: "Printemps « ouvert »".to_owned(),
        system: TournamentSystem::Swiss,
        time_control: "3d".to_owned(),
        rated: false,
        rounds: Some(3),
        bye_half_points: 1,
        tie_breaks: vec![TieBreak::DirectEncounter, TieBreak::BuchholzCut1],
        max_players: Some(8),
        entry_closes_at: closes,
        created_by: w.alice.id,
        reviews_after_round: false,
    }
}

/// Tournament `id`, read at `expected_version`, moving to `state` in `round`.
fn advance(id: i64, expected_version: i64, state: TournamentState, round: u32) -> TournamentChange {
    TournamentChange::Advance {
        id,
        expected_version,
        state,
        round,
    }
}

async fn apply(store: &Store, at: i64, changes: Vec<TournamentChange>) -> Result<Committed> {
    let commit = Commit {
        tournament_changes: changes,
        ..Commit::default()
    };
    put(store, t(at), commit).await
}

pub async fn tournaments_keep_entrants_pairings_and_versions(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let created = apply(
        store,
        1,
        vec![TournamentChange::Create(a_tournament(&w, None))],
    )
    .await?;
    let id = created.tournament_id.expect("an id");
    let row = store.tournament(id).await?.expect("row");
    assert_eq!(
        (row.state, row.round, row.version, row.created_at),
        (TournamentState::Entry, 0, 0, t(1))
    );
    assert_eq!(row.name, "Printemps « ouvert »");
    assert_eq!(row.channel, "main");
    assert_eq!(
        (row.rounds, row.bye_half_points, row.max_players),
        (Some(3), 1, Some(8))
    );
    assert_eq!(
        row.tie_breaks,
        [TieBreak::DirectEncounter, TieBreak::BuchholzCut1]
    );
    assert_eq!(store.tournaments_in_channel(w.channel.id).await?, vec![row]);

    // Bob plays from another channel (of another server of a club).
    let elsewhere = store.ensure_channel(w.server.id, "elsewhere").await?;
    let join = |player: PlayerId, at: i64| TournamentChange::Join {
        tournament_id: id,
        player,
        at: t(at),
        channel_id: (player == w.bob.id).then_some(elsewhere.id),
    };
    for (n, p) in [&w.alice, &w.bob, &w.carol].into_iter().enumerate() {
        apply(store, 2 + n as i64, vec![join(p.id, 2 + n as i64)]).await?;
    }
    conflict(apply(store, 9, vec![join(w.bob.id, 9)]).await);
    apply(
        store,
        10,
        vec![TournamentChange::Leave {
            tournament_id: id,
            player: w.carol.id,
        }],
    )
    .await?;
    let entrants = store.tournament_entrants(id).await?;
    let names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"], "join order");
    assert_eq!(entrants[1].joined_at, t(3));
    let places: Vec<Option<&str>> = entrants
        .iter()
        .map(|e| e.place.as_ref().map(|p| p.channel.as_str()))
        .collect();
    assert_eq!(places, [None, Some("elsewhere")]);

    // Starting: seeds, one game, one bye, and the version moves on.
    let game = new_game(&w, w.alice.id, w.bob.id);
    let started = apply(
        store,
        11,
        vec![
            advance(id, 0, TournamentState::Running, 1),
            TournamentChange::Seed {
                tournament_id: id,
                player: w.alice.id,
                seed: 1,
            },
            TournamentChange::Seed {
                tournament_id: id,
                player: w.bob.id,
                seed: 2,
            },
            TournamentChange::Pair(NewPairing {
                tournament_id: id,
                round: 1,
                board: 1,
                white: w.alice.id,
                black: Some(w.bob.id),
                game: Some(game),
                place: Some(NewGamePlace {
                    player: w.bob.id,
                    server_id: w.server.id,
                    channel_id: elsewhere.id,
                }),
                score: None,
            }),
            TournamentChange::Pair(NewPairing {
                tournament_id: id,
                round: 1,
                board: 2,
                white: w.carol.id,
                black: None,
                game: None,
                place: None,
                score: Some(PairingScore::Bye),
            }),
        ],
    )
    .await?;
    assert_eq!(started.tournament_games.len(), 1);
    let game_id = started.tournament_games[0];
    let place = store.place_of_game(game_id).await?.expect("bob's place");
    assert_eq!(
        (place.player, place.channel.as_str()),
        (w.bob.id, "elsewhere")
    );
    let stored = store.game(game_id).await?.expect("the game exists");
    assert_eq!((stored.white, stored.black), (w.alice.id, w.bob.id));
    assert_eq!(store.tournament_of_game(game_id).await?, Some(id));
    assert!(stored.tournament_game && !stored.ladder_match && !stored.team_match);
    let row = store.tournament(id).await?.expect("row");
    assert_eq!(
        (row.state, row.round, row.version),
        (TournamentState::Running, 1, 1)
    );
    let seeds: Vec<Option<u32>> = store
        .tournament_entrants(id)
        .await?
        .iter()
        .map(|e| e.seed)
        .collect();
    assert_eq!(seeds, [Some(1), Some(2)]);

    // A stale version writes nothing, not even the other changes.
    let stale = apply(
        store,
        12,
        vec![
            TournamentChange::Withdraw {
                tournament_id: id,
                player: w.bob.id,
                at: t(12),
            },
            advance(id, 0, TournamentState::Finished, 1),
        ],
    )
    .await;
    conflict(stale);
    assert!(
        store
            .tournament_entrants(id)
            .await?
            .iter()
            .all(|e| e.withdrawn_at.is_none())
    );

    let pairings = store.tournament_pairings(id).await?;
    assert_eq!(pairings.len(), 2);
    assert_eq!(pairings[0].game_state, Some(Status::Ongoing));
    assert_eq!(
        (pairings[1].black, pairings[1].score),
        (None, Some(PairingScore::Bye))
    );

    // The game ends; a withdrawal and a forfeit score are recorded.
    save(
        store,
        game_id,
        t(13),
        ending(game_id, GameResult::Draw, Reason::Agreement, t(13)),
    )
    .await?;
    apply(
        store,
        14,
        vec![
            advance(id, 1, TournamentState::Finished, 1),
            TournamentChange::Withdraw {
                tournament_id: id,
                player: w.bob.id,
                at: t(14),
            },
            TournamentChange::Score {
                pairing_id: pairings[0].id,
                score: PairingScore::WhiteForfeitWin,
            },
        ],
    )
    .await?;
    let pairings = store.tournament_pairings(id).await?;
    assert!(matches!(
        pairings[0].game_state,
        Some(Status::Over {
            result: GameResult::Draw,
            ..
        })
    ));
    assert_eq!(pairings[0].score, Some(PairingScore::WhiteForfeitWin));
    let bob = &store.tournament_entrants(id).await?[1];
    assert_eq!(bob.withdrawn_at, Some(t(14)));
    assert_eq!(store.tournament(999).await?, None);
    Ok(())
}

pub async fn tournament_entry_windows_wake_the_scheduler(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(store.next_tournament_start().await?, None);
    let mut ids = Vec::new();
    for closes in [Some(t(60)), Some(t(30)), None] {
        let created = apply(
            store,
            1,
            vec![TournamentChange::Create(a_tournament(&w, closes))],
        )
        .await?;
        ids.push(created.tournament_id.expect("id"));
    }
    assert_eq!(store.next_tournament_start().await?, Some(t(30)));
    assert!(store.due_tournaments(t(29), 10).await?.is_empty());
    let due = store.due_tournaments(t(90), 10).await?;
    assert_eq!(
        due,
        [
            DueTournament {
                id: ids[1],
                version: 0
            },
            DueTournament {
                id: ids[0],
                version: 0
            }
        ]
    );
    assert_eq!(store.due_tournaments(t(90), 1).await?.len(), 1);
    // Started tournaments no longer wake anyone.
    apply(
        store,
        31,
        vec![advance(ids[1], 0, TournamentState::Running, 1)],
    )
    .await?;
    assert_eq!(store.next_tournament_start().await?, Some(t(60)));
    assert_eq!(store.due_tournaments(t(90), 10).await?.len(), 1);
    Ok(())
}

/// An act's notices are queued in its commit, claimed by one worker at a
/// time, and delivered item by item until settled.
pub async fn notices_wait_in_the_outbox_until_settled(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let act = |key: &str, outgoing| Commit {
        act_key: Some(key.into()),
        player_language: Some((w.alice.id, Some(Lang::En))),
        outgoing,
        ..Commit::default()
    };
    let console = Some(Outgoing {
        platform: Platform::Console,
        first: 1,
        held_until: None,
        server_id: Some(w.server.id),
    });
    let items = |_: &Committed| vec!["own reply", "notice 1", "notice 2"];
    store.commit(act("n-1", console), t(1), items).await?;
    store.commit(act("n-2", None), t(1), items).await?;
    assert_eq!(store.next_notice_due(Platform::Console).await?, Some(t(1)));

    let claimed = store
        .claim_notices(Platform::Console, t(2), t(4), 10)
        .await?;
    let expected = QueuedNotices {
        act_key: "n-1".to_owned(),
        answer: r#"["own reply","notice 1","notice 2"]"#.to_owned(),
        next_item: 1,
        next_part: 0,
        attempts: 0,
        failures: 0,
        created_at: t(1),
    };
    assert_eq!(
        claimed,
        vec![expected.clone()],
        "only the act that queued notices"
    );
    let claim = |at: i64| store.claim_notices(Platform::Console, t(at), t(at + 2), 10);
    assert!(claim(3).await?.is_empty(), "claimed until t(4)");
    assert!(
        store
            .claim_notices(Platform::Discord, t(3), t(5), 10)
            .await?
            .is_empty(),
        "another platform's worker leaves them"
    );

    let retry = NoticeProgress {
        next_item: 2,
        attempts: 1,
        failures: 0,
        last_error: Some("rate limited".to_owned()),
        due_at: Some(t(10)),
    };
    store.settle_notices("n-1", &retry).await?;
    let trouble = |at: i64| store.notice_trouble(w.server.id, t(at));
    let waiting = NoticeTrouble {
        refused: 0,
        last_error: None,
        waiting: 1,
    };
    assert_eq!(trouble(0).await?, waiting);
    assert!(claim(9).await?.is_empty(), "not before its next try");
    let again = claim(10).await?;
    assert_eq!(
        (again.len(), again[0].next_item, again[0].attempts),
        (1, 2, 1)
    );

    // A replay queues nothing twice and is refused as before.
    let replay = store.commit(act("n-1", console), t(11), items).await;
    assert!(
        matches!(replay, Err(StorageError::DuplicateAct(_))),
        "{replay:?}"
    );
    let done = NoticeProgress {
        next_item: 3,
        attempts: 0,
        failures: 1,
        last_error: Some("Missing Access".to_owned()),
        due_at: None,
    };
    store.settle_notices("n-1", &done).await?;
    let refused = NoticeTrouble {
        refused: 1,
        last_error: Some("Missing Access".to_owned()),
        waiting: 0,
    };
    assert_eq!(trouble(0).await?, refused, "a moderator sees the refusal");
    assert_eq!(
        trouble(2).await?,
        NoticeTrouble::default(),
        "only since then"
    );
    assert!(claim(100).await?.is_empty(), "settled");
    assert_eq!(store.next_notice_due(Platform::Console).await?, None);

    let keyless = Commit {
        outgoing: console,
        ..Commit::default()
    };
    let refused = put(store, t(12), keyless).await;
    assert!(
        matches!(refused, Err(StorageError::Backend(_))),
        "{refused:?}"
    );

    // A user's act: its own process has until t(30) to answer it.
    let held = |key: &str| {
        act(
            key,
            Some(Outgoing {
                platform: Platform::Console,
                first: 0,
                held_until: Some(t(30)),
                server_id: Some(w.server.id),
            }),
        )
    };
    store.commit(held("u-1"), t(20), items).await?;
    store.commit(held("u-2"), t(20), items).await?;
    // Where the hold waits in the row, the worker's look says when it ends.
    let running = store.release_ended_holds(t(29)).await?;
    assert!(running.is_none_or(|end| end == t(30)), "{running:?}");
    assert!(claim(29).await?.is_empty(), "held for its own process");
    // More keys than one statement takes: u-1 comes in the second batch.
    let mut answered: Vec<String> = (0..40).map(|n| format!("unknown-{n}")).collect();
    answered.insert(35, "u-1".to_owned());
    store.settle_answered(&answered).await?;
    assert_eq!(
        store.release_ended_holds(t(30)).await?,
        None,
        "none running"
    );
    let left = claim(30).await?;
    assert_eq!(
        left.iter().map(|q| q.act_key.as_str()).collect::<Vec<_>>(),
        vec!["u-2"],
        "the unanswered one goes to the worker"
    );
    // Answered after all (a slow send): nothing is left for the worker.
    store.settle_answered(&["u-2".to_owned()]).await?;
    assert_eq!(store.next_notice_due(Platform::Console).await?, None);
    Ok(())
}

/// A server the bot was removed from is marked once and found again; its
/// notices wait untried (claimed and counted due only once it is back); a
/// deleted channel is marked once; the running games of each are listed.
pub async fn a_server_the_bot_left_and_a_deleted_channel_are_kept(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let game = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let other = store
        .ensure_server(Platform::Console, "elsewhere", &defaults(), t(0))
        .await?;
    let notice = |key: &str, server: i64| Commit {
        act_key: Some(key.into()),
        player_language: Some((w.alice.id, Some(Lang::En))),
        outgoing: Some(Outgoing {
            platform: Platform::Console,
            first: 0,
            held_until: None,
            server_id: Some(server),
        }),
        ..Commit::default()
    };
    store
        .commit(notice("left-1", w.server.id), t(2), |_| vec!["a notice"])
        .await?;
    store
        .commit(notice("here-1", other.id), t(3), |_| vec!["a notice"])
        .await?;

    assert_eq!(
        store
            .set_server_absent(Platform::Console, "club", t(5))
            .await?,
        Some(w.server.id)
    );
    assert_eq!(
        store
            .set_server_absent(Platform::Console, "club", t(6))
            .await?,
        None,
        "once"
    );
    assert_eq!(
        store.absent_servers(Platform::Console).await?,
        vec!["club".to_owned()]
    );
    assert!(store.absent_servers(Platform::Discord).await?.is_empty());
    assert_eq!(store.server_absent_since(w.server.id).await?, Some(t(5)));
    assert_eq!(
        store.next_notice_due(Platform::Console).await?,
        Some(t(3)),
        "the absent server's waits"
    );
    let claimed = store
        .claim_notices(Platform::Console, t(10), t(12), 10)
        .await?;
    let keys: Vec<&str> = claimed.iter().map(|q| q.act_key.as_str()).collect();
    assert_eq!(
        keys,
        ["here-1"],
        "nothing is tried for a server the bot left"
    );
    let done = NoticeProgress {
        next_item: 1,
        attempts: 0,
        failures: 0,
        last_error: None,
        due_at: None,
    };
    store.settle_notices("here-1", &done).await?;
    assert_eq!(
        store.running_games_on_server(w.server.id, 0, 10).await?,
        vec![game]
    );
    assert!(
        store
            .running_games_on_server(w.server.id, game, 10)
            .await?
            .is_empty()
    );

    assert_eq!(
        store.set_server_present(Platform::Console, "club").await?,
        Some((w.server.id, t(5)))
    );
    assert_eq!(
        store.set_server_present(Platform::Console, "club").await?,
        None
    );
    assert_eq!(store.server_absent_since(w.server.id).await?, None);
    let claimed = store
        .claim_notices(Platform::Console, t(13), t(15), 10)
        .await?;
    assert_eq!(claimed.len(), 1, "back: its notices go");
    assert_eq!(claimed[0].act_key, "left-1");

    assert!(!store.channel_gone(Platform::Console, "main").await?);
    assert_eq!(
        store.set_channel_gone(w.server.id, "main", t(20)).await?,
        Some(w.channel.id)
    );
    assert_eq!(
        store.set_channel_gone(w.server.id, "main", t(21)).await?,
        None,
        "once"
    );
    assert!(store.channel_gone(Platform::Console, "main").await?);
    assert!(!store.channel_gone(Platform::Discord, "main").await?);
    assert_eq!(
        store.running_games_in_channel(w.channel.id, 10).await?,
        vec![game]
    );
    Ok(())
}

/// A held act whose own process is still sending its answer: the parts
/// delivered are recorded, and the hold restarts, so the worker neither
/// takes it over early nor sends those parts again.
pub async fn an_answer_still_going_out_restarts_its_hold(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let held = Commit {
        act_key: Some("burst".into()),
        player_language: Some((w.alice.id, Some(Lang::En))),
        outgoing: Some(Outgoing {
            platform: Platform::Console,
            first: 0,
            held_until: Some(t(30)),
            server_id: Some(w.server.id),
        }),
        ..Commit::default()
    };
    store
        .commit(held, t(20), |_| vec!["one", "two", "three"])
        .await?;
    store.delivering("burst", 2, 0, t(40)).await?;
    store.delivering("burst", 1, 3, t(35)).await?;
    let claim = |at: i64| store.claim_notices(Platform::Console, t(at), t(at + 1), 10);
    store.release_ended_holds(t(31)).await?;
    assert!(
        claim(31).await?.is_empty(),
        "the hold runs from the last part sent"
    );
    store.release_ended_holds(t(41)).await?;
    let claimed = claim(41).await?;
    assert_eq!(claimed.len(), 1);
    assert_eq!(claimed[0].next_item, 2, "what went out is not sent again");
    Ok(())
}

/// The parts of a notice (its text, then files) recorded as sent: the next
/// claim resumes after them, only for the notice still to settle, never
/// going back; settling past it starts the next notice at its first part.
pub async fn a_notice_resumes_after_its_parts_that_went_out(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let held = Commit {
        act_key: Some("parts".into()),
        player_language: Some((w.alice.id, Some(Lang::En))),
        outgoing: Some(Outgoing {
            platform: Platform::Console,
            first: 0,
            held_until: Some(t(30)),
            server_id: Some(w.server.id),
        }),
        ..Commit::default()
    };
    store.commit(held, t(20), |_| vec!["one", "two"]).await?;
    // The act's own process: item 0 out, then item 1's text.
    store.delivering("parts", 1, 0, t(30)).await?;
    store.delivering("parts", 1, 1, t(30)).await?;
    store.release_ended_holds(t(31)).await?;
    let claim = |at: i64| store.claim_notices(Platform::Console, t(at), t(at + 1), 10);
    let claimed = claim(31).await?;
    let at = |c: &[QueuedNotices]| (c[0].next_item, c[0].next_part);
    assert_eq!(at(&claimed), (1, 1), "after item 1's text");
    // A worker: item 1's first file went out; older news changes nothing.
    store.notice_part_sent("parts", 1, 2).await?;
    store.notice_part_sent("parts", 1, 1).await?;
    store.notice_part_sent("parts", 0, 5).await?;
    let retry = NoticeProgress {
        next_item: 1,
        attempts: 1,
        failures: 0,
        last_error: Some("rate limited".into()),
        due_at: Some(t(40)),
    };
    store.settle_notices("parts", &retry).await?;
    assert_eq!(at(&claim(40).await?), (1, 2), "a retry keeps the parts");
    let past = NoticeProgress {
        next_item: 2,
        due_at: Some(t(50)),
        ..retry
    };
    store.settle_notices("parts", &past).await?;
    assert_eq!(
        at(&claim(50).await?),
        (2, 0),
        "the next notice from its start"
    );
    Ok(())
}

/// A game whose stored moves do not add up (a row numbered out of place, a
/// lost row, as a damaged page gives) is refused as corrupt when loaded,
/// never played on, and so when read in a page for the check, which the
/// games around it still pass.
pub async fn a_game_whose_moves_do_not_add_up_is_refused(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let id = create_game(store, new_game(&w, w.alice.id, w.bob.id)).await?;
    let moves = vec![
        a_move(1, "e2e4", "e4", t(2)),
        a_move(2, "e7e5", "e5", t(3)),
        a_move(3, "g1f3", "Nf3", t(4)),
    ];
    let played = GameUpdate {
        new_moves: moves,
        turn: Color::Black,
        ..update(id)
    };

    save(store, id, t(4), played).await?;
    assert_eq!(store.game(id).await?.expect("game").moves.len(), 3);
    let after = create_game(store, new_game(&w, w.bob.id, w.alice.id)).await?;
    let page_of = |page: Vec<PagedGame>| -> Vec<(i64, Option<String>)> {
        page.into_iter()
            .map(|g| (g.id, g.record.err().map(|e| e.to_string())))
            .collect()
    };
    assert_eq!(
        page_of(store.game_page(id - 1, 10).await?),
        [(id, None), (after, None)]
    );
    assert_eq!(page_of(store.game_page(id, 10).await?), [(after, None)]);
    assert_eq!(page_of(store.game_page(id - 1, 1).await?), [(id, None)]);
    // The damage, what loading the game says, the mend.
    for (spoil, on_load, mend) in [
        (
            "UPDATE moves SET ply = 5 WHERE game_id = ?1 AND ply = 3",
            "move 3 stored as ply 5",
            Some("UPDATE moves SET ply = 3 WHERE game_id = ?1 AND ply = 5"),
        ),
        (
            "DELETE FROM moves WHERE game_id = ?1 AND ply = 2",
            "3 counted, 2 stored",
            None,
        ),
    ] {
        store.execute(spoil, &params![id]).await?;
        let loaded = store.game(id).await;
        let refusal = format!("game {id} moves: {on_load}");
        assert!(
            matches!(&loaded, Err(StorageError::Corrupt(m)) if *m == refusal),
            "{spoil}: {loaded:?}"
        );
        let paged = store.game_page(id - 1, 10).await?;
        assert_eq!(
            page_of(paged),
            [
                (id, Some(format!("stored data is corrupt: {refusal}"))),
                (after, None)
            ],
            "{spoil}"
        );
        if let Some(mend) = mend {
            store.execute(mend, &params![id]).await?;
            assert_eq!(store.game(id).await?.expect("game").moves.len(), 3);
        }
    }
    Ok(())
}

/// A link code links one account once, before it expires; the linked
/// account takes the person's settings, and a setting written on either
/// account holds for both; unlinking gives each its own again.
pub async fn link_codes_link_once_and_settings_follow_the_person(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let ann_matrix = store
        .ensure_player(Platform::Matrix, "@ann:hs", "ann", t(0))
        .await?;
    let code = |hash: &str| LinkChange::NewCode {
        hash: hash.to_owned(),
        player: w.alice.id,
        expires_at: t(10),
    };
    put(
        store,
        t(0),
        Commit {
            link: Some(code("h1")),
            ..Commit::default()
        },
    )
    .await?;
    put(
        store,
        t(0),
        Commit {
            player_language: Some((w.alice.id, Some(Lang::Fr))),
            ..Commit::default()
        },
    )
    .await?;
    let kept = store.link_code("h1").await?.expect("kept");
    assert_eq!(
        (kept.player, kept.used, kept.expires_at),
        (w.alice.id, false, t(10))
    );
    let redeem = |hash: &str, account: PlayerId| Commit {
        link: Some(LinkChange::Redeem {
            hash: hash.to_owned(),
            account,
            person: w.alice.id,
        }),
        ..Commit::default()
    };
    // Expired at t(10): refused, nothing written.
    conflict(put(store, t(10), redeem("h1", ann_matrix.id)).await);
    assert_eq!(
        store.player(ann_matrix.id).await?.expect("row").person,
        ann_matrix.id
    );
    put(store, t(9), redeem("h1", ann_matrix.id)).await?;
    let linked = store.player(ann_matrix.id).await?.expect("row");
    assert_eq!(
        (linked.person, linked.language),
        (w.alice.id, Some(Lang::Fr))
    );
    // Used: refused for anyone.
    conflict(put(store, t(9), redeem("h1", w.carol.id)).await);
    assert!(store.link_code("h1").await?.expect("kept").used);
    let accounts = store.accounts_of(w.alice.id).await?;
    assert_eq!(
        accounts.iter().map(|a| a.id).collect::<Vec<_>>(),
        [w.alice.id, ann_matrix.id]
    );
    // A setting on the linked account is the person's.
    put(
        store,
        t(11),
        Commit {
            player_notify: Some((ann_matrix.id, Notify::Direct)),
            ..Commit::default()
        },
    )
    .await?;
    assert_eq!(
        store.player(w.alice.id).await?.expect("row").notify,
        Notify::Direct
    );
    assert_eq!(
        store.player(w.bob.id).await?.expect("row").notify,
        Notify::Channel
    );
    // Wrong codes are counted per account and in all, over the hour.
    for (minute, player) in [(20, w.bob.id), (21, w.bob.id), (22, w.carol.id)] {
        put(
            store,
            t(minute),
            Commit {
                link: Some(LinkChange::WrongCode { player }),
                ..Commit::default()
            },
        )
        .await?;
    }
    assert_eq!(store.wrong_link_codes(w.bob.id, t(0)).await?, (2, 3));
    assert_eq!(store.wrong_link_codes(w.bob.id, t(21)).await?, (0, 1));
    // The first account leaves: the other is a person of its own again.
    put(
        store,
        t(30),
        Commit {
            link: Some(LinkChange::Unlink {
                account: w.alice.id,
            }),
            ..Commit::default()
        },
    )
    .await?;
    for account in [w.alice.id, ann_matrix.id] {
        assert_eq!(store.player(account).await?.expect("row").person, account);
    }
    Ok(())
}

/// A digest set on one account is due there only; made once: a second
/// commit naming the same due instant is refused.
pub async fn digests_are_due_once_and_advance_once(store: &Store) -> Result<()> {
    let w = world(store).await?;
    assert_eq!(store.next_digest().await?, None);
    let setting = Commit {
        digest: Some(DigestWrite::Setting {
            player: w.alice.id,
            time_zone: Some("Europe/Paris".to_owned()),
            minute: Some(8 * 60),
            next: Some(t(60)),
        }),
        ..Commit::default()
    };
    put(store, t(0), setting).await?;
    let alice = store.player(w.alice.id).await?.expect("row");
    assert_eq!(
        (alice.time_zone.as_deref(), alice.digest_minute),
        (Some("Europe/Paris"), Some(480))
    );
    assert_eq!(store.next_digest().await?, Some(t(60)));
    assert!(store.due_digests(t(59), 10).await?.is_empty());
    let due = store.due_digests(t(60), 10).await?;
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].player.id, due[0].due, due[0].last),
        (w.alice.id, t(60), None)
    );
    let made = || Commit {
        digest: Some(DigestWrite::Made {
            player: w.alice.id,
            was: t(60),
            next: t(60 + 24 * 60),
            at: t(61),
        }),
        ..Commit::default()
    };
    put(store, t(61), made()).await?;
    conflict(put(store, t(61), made()).await);
    let due = store.due_digests(t(24 * 60 + 60), 10).await?;
    assert_eq!((due[0].due, due[0].last), (t(60 + 24 * 60), Some(t(61))));
    // Leave and challenges, as the digest reads them.
    assert!(!store.person_on_leave(w.alice.id, t(61)).await?);
    assert!(
        store
            .challenges_to_person(w.alice.id, t(61), 10)
            .await?
            .is_empty()
    );
    Ok(())
}

/// A club's invited server becomes a member only by its own join; a
/// server is in one club at most; quitting removes it.
pub async fn a_club_is_joined_only_by_invitation(store: &Store) -> Result<()> {
    let w = world(store).await?;
    let space = store
        .ensure_server(Platform::Matrix, "!space:hs", &defaults(), t(0))
        .await?;
    let other = store
        .ensure_server(Platform::Discord, "9", &defaults(), t(0))
        .await?;
    conflict(
        put(
            store,
            t(1),
            Commit {
                club: Some(ClubChange::Join {
                    club: 1,
                    server: space.id,
                }),
                ..Commit::default()
            },
        )
        .await,
    );
    let invite = Commit {
        club: Some(ClubChange::Invite {
            club: None,
            home: w.server.id,
            guest: space.id,
        }),
        ..Commit::default()
    };
    let club = put(store, t(1), invite).await?.club_id.expect("a club");
    assert_eq!(store.club_of_server(w.server.id).await?, Some(club));
    assert_eq!(store.club_of_server(space.id).await?, None, "invited only");
    conflict(
        put(
            store,
            t(2),
            Commit {
                club: Some(ClubChange::Join {
                    club,
                    server: other.id,
                }),
                ..Commit::default()
            },
        )
        .await,
    );
    put(
        store,
        t(2),
        Commit {
            club: Some(ClubChange::Join {
                club,
                server: space.id,
            }),
            ..Commit::default()
        },
    )
    .await?;
    assert_eq!(store.club_of_server(space.id).await?, Some(club));
    let servers = store.club_servers(club).await?;
    assert_eq!(
        servers
            .iter()
            .map(|s| (s.server.id, s.member))
            .collect::<Vec<_>>(),
        [(w.server.id, true), (space.id, true)]
    );
    // One team list: the asking server's teams first, then the club's.
    let team = |server_id, name: &str, by| Commit {
        team_change: Some(TeamChange::Create {
            server_id,
            platform: Platform::Console,
            name: name.to_owned(),
            name_key: name.to_lowercase(),
            created_by: by,
            at: t(2),
        }),
        ..Commit::default()
    };
    put(store, t(2), team(w.server.id, "Rooks", w.alice.id)).await?;
    put(store, t(2), team(space.id, "Knights", w.bob.id)).await?;
    let listed = |server| async move {
        let (teams, total) = store.teams(server, 10).await?;
        let names: Vec<(String, Vec<String>)> = teams
            .into_iter()
            .map(|(t, members)| (t.name, members))
            .collect();
        Ok::<_, StorageError>((names, total))
    };
    let knights = ("Knights".to_owned(), vec!["bob".to_owned()]);
    let rooks = ("Rooks".to_owned(), vec!["alice".to_owned()]);
    assert_eq!(
        listed(space.id).await?,
        (vec![knights.clone(), rooks.clone()], 2)
    );
    assert_eq!(
        listed(w.server.id).await?,
        (vec![rooks.clone(), knights.clone()], 2)
    );
    put(
        store,
        t(3),
        Commit {
            club: Some(ClubChange::Quit {
                club,
                server: space.id,
            }),
            ..Commit::default()
        },
    )
    .await?;
    assert_eq!(store.club_of_server(space.id).await?, None);
    assert_eq!(listed(space.id).await?, (vec![knights], 1));
    Ok(())
}
