//! Where a club's tournament is played (issue 44): a member of another
//! server of the club, on either platform, joins from their own channel
//! and plays their games from there, as a game between the club's servers
//! is played (`cross`).
//!
//! A game lives in the tournament's channel when one of its players plays
//! there; the other, if they play elsewhere, gets a place (`game_places`).
//! When both play elsewhere it lives in White's channel, Black placed if
//! theirs is another. The tournament's own messages stay in its channel;
//! once its entrants are on more than one platform, each message is marked
//! with the platform it is for and the act keeps a copy for the other
//! platform's outbox worker.

use crate::core::platform::Platform;
use crate::storage::{EntrantRow, NewGamePlace, Outgoing, TournamentRow};

/// Where a tournament game lives, and its other player's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GameHome {
    pub server_id: i64,
    pub channel_id: i64,
    pub place: Option<NewGamePlace>,
}

/// Where the game of `white` and `black` in tournament `row` lives.
pub(super) fn game_home(row: &TournamentRow, white: &EntrantRow, black: &EntrantRow) -> GameHome {
    let placed = |entrant: &EntrantRow| {
        entrant.place.as_ref().map(|p| NewGamePlace {
            player: entrant.player,
            server_id: p.server_id,
            channel_id: p.channel_id,
        })
    };
    match (&white.place, &black.place) {
        (None, _) => GameHome {
            server_id: row.server_id,
            channel_id: row.channel_id,
            place: placed(black),
        },
        (Some(_), None) => GameHome {
            server_id: row.server_id,
            channel_id: row.channel_id,
            place: placed(white),
        },
        (Some(w), Some(b)) => GameHome {
            server_id: w.server_id,
            channel_id: w.channel_id,
            place: (b.channel_id != w.channel_id)
                .then(|| placed(black))
                .flatten(),
        },
    }
}

/// Where an entrant is told of their games: their platform and channel.
pub(super) fn told_at(row: &TournamentRow, entrant: &EntrantRow) -> (Platform, String) {
    match &entrant.place {
        Some(place) => (place.platform, place.channel.clone()),
        None => (row.platform, row.channel.clone()),
    }
}

/// The channels of other servers its entrants play from, each once: they
/// hear the tournament's start, rounds and end too.
pub(super) fn channels_elsewhere(entrants: &[EntrantRow]) -> Vec<(Platform, String)> {
    let mut all: Vec<(Platform, String)> = Vec::new();
    for place in entrants.iter().filter_map(|e| e.place.as_ref()) {
        let told = (place.platform, place.channel.clone());
        if !all.contains(&told) {
            all.push(told);
        }
    }
    all
}

/// The platforms a tournament's messages go to, when more than its own:
/// its own first. Empty for a tournament played on one platform (its
/// messages then stay unmarked, for the act's own platform).
pub(super) fn platforms(row: &TournamentRow, entrants: &[EntrantRow]) -> Vec<Platform> {
    let mut all = vec![row.platform];
    for place in entrants.iter().filter_map(|e| e.place.as_ref()) {
        if !all.contains(&place.platform) {
            all.push(place.platform);
        }
    }
    if all.len() > 1 { all } else { Vec::new() }
}

/// The outbox row for the platform of `platforms` other than `here`, if
/// any: what the act says there is delivered by that platform's worker.
pub(super) fn relay(platforms: &[Platform], here: Platform, server_id: i64) -> Option<Outgoing> {
    let other = platforms.iter().find(|p| **p != here)?;
    Some(Outgoing::due_now(*other, Some(server_id)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::PlayerId;
    use crate::storage::EntrantPlace;
    use chrono::Utc;

    fn tournament(platform: Platform) -> TournamentRow {
        TournamentRow {
            id: 1,
            server_id: 10,
            platform,
            channel_id: 100,
            channel: "2002".into(),
            name: String::new(),
            system: crate::storage::TournamentSystem::RoundRobin,
            time_control: "3d".into(),
            rated: true,
            rounds: None,
            bye_half_points: 2,
            tie_breaks: Vec::new(),
            max_players: None,
            entry_closes_at: None,
            state: crate::storage::TournamentState::Running,
            round: 1,
            created_by: PlayerId(1),
            created_at: Utc::now(),
            version: 0,
        }
    }

    /// An entrant; `place`: (server, channel, platform) when elsewhere.
    fn entrant(player: i64, place: Option<(i64, i64, Platform)>) -> EntrantRow {
        EntrantRow {
            player: PlayerId(player),
            name: format!("p{player}"),
            platform_id: format!("u{player}"),
            language: None,
            joined_at: Utc::now(),
            seed: None,
            withdrawn_at: None,
            place: place.map(|(server_id, channel_id, platform)| EntrantPlace {
                channel_id,
                server_id,
                platform,
                channel: format!("c{channel_id}"),
            }),
        }
    }

    #[test]
    fn a_game_lives_where_one_of_its_players_plays() {
        let row = tournament(Platform::Discord);
        let m = Some((20, 200, Platform::Matrix));
        let m2 = Some((20, 201, Platform::Matrix));
        // (white's place, black's place, the game's server and channel, who is placed where).
        let table = [
            (None, None, (10, 100), None),
            (None, m, (10, 100), Some((2, 200))),
            (m, None, (10, 100), Some((1, 200))),
            (m, m, (20, 200), None),
            (m, m2, (20, 200), Some((2, 201))),
        ];
        for (white, black, (server, channel), placed) in table {
            let home = game_home(&row, &entrant(1, white), &entrant(2, black));
            assert_eq!((home.server_id, home.channel_id), (server, channel));
            let got = home.place.map(|p| (p.player.0, p.channel_id));
            assert_eq!(got, placed, "{white:?} {black:?}");
        }
    }

    #[test]
    fn messages_are_marked_only_when_entrants_are_on_two_platforms() {
        let row = tournament(Platform::Discord);
        let same = [
            entrant(1, None),
            entrant(2, Some((11, 110, Platform::Discord))),
        ];
        assert!(platforms(&row, &same).is_empty());
        let two = [
            entrant(1, None),
            entrant(2, Some((20, 200, Platform::Matrix))),
        ];
        let marked = platforms(&row, &two);
        assert_eq!(marked, [Platform::Discord, Platform::Matrix]);
        let relayed = |here| relay(&marked, here, 10).map(|o| o.platform);
        assert_eq!(relayed(Platform::Discord), Some(Platform::Matrix));
        assert_eq!(relayed(Platform::Matrix), Some(Platform::Discord));
        assert_eq!(relay(&[], Platform::Matrix, 10), None);
    }
}
