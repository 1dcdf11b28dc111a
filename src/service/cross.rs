//! Games between two servers of a club, maybe on two platforms (issue 44):
//! a Matrix member challenges a Discord member (`/challenge
//! @discord:<id>`), who accepts in a channel of a Discord server of the
//! club; the game lives in the challenger's channel and the other player
//! plays it from the channel where they accepted (`game_places`), as a
//! team match's away side does.
//!
//! Every message about such a game that its channel sees is copied to the
//! other side's channel, and a message addressed to a player goes to that
//! player's side only ([`Spread`]): each player acts and is told on their
//! own platform, in their own language. What is for the other platform is
//! marked with it and put last in the act's answer, which the commit keeps
//! a second time for that platform's outbox worker (`Commit::relay`); each
//! adapter and worker sends only the replies for its platform
//! ([`Reply::is_for`]).

use super::{Context, Reply, Service};
use crate::core::platform::Platform;
use crate::storage::{GameRecord, Outgoing, StorageError};

/// One side of a game between a club's servers: where it is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Side {
    pub platform: Platform,
    /// The channel's platform id.
    pub channel: String,
    /// The player's platform id there.
    pub player: String,
}

/// How an act's replies reach both sides of a game between servers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Spread {
    /// The acting player's side.
    pub mine: Side,
    /// The other side.
    pub theirs: Side,
}

impl Spread {
    /// The replies for both sides: the acting side's as they are (a
    /// mention of the other side's player dropped), then copies for the
    /// other side of what the channel sees, and what is addressed to its
    /// player, marked with its platform.
    /// A reply already marked with a platform (a club tournament's) goes
    /// only there.
    pub fn apply(&self, replies: Vec<Reply>) -> Vec<Reply> {
        let mut mine = Vec::with_capacity(replies.len());
        let mut theirs = Vec::new();
        for mut reply in replies {
            if let Some(platform) = reply.platform {
                match platform == self.mine.platform {
                    true => mine.push(reply),
                    false => theirs.push(reply),
                }
                continue;
            }
            let to_them = reply.to.as_deref() == Some(self.theirs.player.as_str());
            let private = reply.ephemeral || reply.secret;
            if reply.direct && to_them {
                reply.platform = Some(self.theirs.platform);
                theirs.push(reply);
                continue;
            }
            if !private && !reply.direct && reply.channel == self.mine.channel {
                let mut copy = reply.clone();
                copy.channel = self.theirs.channel.clone();
                copy.platform = Some(self.theirs.platform);
                if !to_them {
                    copy.to = None;
                }
                theirs.push(copy);
                if to_them {
                    reply.to = None;
                }
            }
            reply.platform = Some(self.mine.platform);
            mine.push(reply);
        }
        mine.extend(theirs);
        mine
    }

    /// The outbox row the other side's platform delivers from.
    pub fn relay(&self, server_id: Option<i64>) -> Outgoing {
        Outgoing::due_now(self.theirs.platform, server_id)
    }
}

impl Service {
    /// How an act on game `record` by `ctx`'s player reaches both sides,
    /// if the game is played between two servers of a club.
    pub(super) async fn spread_of(
        &self,
        ctx: &Context,
        record: &GameRecord,
    ) -> Result<Option<Spread>, StorageError> {
        let Some((home, away, placed)) = self.sides(record).await? else {
            return Ok(None);
        };
        Ok(Some(if ctx.player.id == placed {
            Spread {
                mine: away,
                theirs: home,
            }
        } else {
            Spread {
                mine: home,
                theirs: away,
            }
        }))
    }

    /// How what the scheduler says in game `record`'s channel (a flag
    /// fall, a reminder) reaches the other side, if it has one.
    pub(super) async fn home_spread(
        &self,
        record: &GameRecord,
    ) -> Result<Option<Spread>, StorageError> {
        Ok(self.sides(record).await?.map(|(home, away, _)| Spread {
            mine: home,
            theirs: away,
        }))
    }

    /// A game between a club's servers: its home side (its channel), its
    /// away side, and the player who plays from there.
    async fn sides(
        &self,
        record: &GameRecord,
    ) -> Result<Option<(Side, Side, crate::core::game::PlayerId)>, StorageError> {
        let Some(place) = self.store.place_of_game(record.id).await? else {
            return Ok(None);
        };
        let (placed, home) = if record.white == place.player {
            (&record.white_player, &record.black_player)
        } else {
            (&record.black_player, &record.white_player)
        };
        let away = Side {
            platform: place.platform,
            channel: place.channel,
            player: placed.platform_id.clone(),
        };
        let home = Side {
            platform: home.platform,
            channel: record.channel.clone(),
            player: home.platform_id.clone(),
        };
        Ok(Some((home, away, place.player)))
    }

    /// How an act on game `record` reaches the other side of a game
    /// between a club's servers, its relay set in `commit`; `None` for
    /// other games.
    pub(super) async fn relayed(
        &self,
        ctx: &Context,
        record: &GameRecord,
        commit: &mut crate::storage::Commit,
    ) -> Result<Option<Spread>, StorageError> {
        let spread = self.spread_of(ctx, record).await?;
        commit.relay = spread.as_ref().map(|s| s.relay(Some(record.server_id)));
        Ok(spread)
    }

    /// The channel where `ctx`'s player plays game `record`: the place they
    /// accepted it from, for a game between a club's servers.
    pub(super) async fn placed_channel(
        &self,
        ctx: &Context,
        record: &GameRecord,
    ) -> Result<Option<String>, StorageError> {
        let place = self.store.place_of_game(record.id).await?;
        Ok(place
            .filter(|p| p.player == ctx.player.id)
            .map(|p| p.channel))
    }
}

/// The outbox row of what the scheduler says in game `record`'s channel:
/// on the platform of the game's own side.
pub(super) fn home_notices(record: &GameRecord, spread: Option<&Spread>) -> Option<Outgoing> {
    let platform = spread.map_or(record.white_player.platform, |s| s.mine.platform);
    super::outbox::notices_on(platform, record.server_id)
}

/// `replies` with those `here`'s adapter sends first: the act's own
/// process numbers what it delivers in that order (see `Service::handle`).
pub(super) fn own_first(replies: Vec<Reply>, here: Platform) -> Vec<Reply> {
    let (mut mine, theirs): (Vec<Reply>, Vec<Reply>) =
        replies.into_iter().partition(|r| r.is_for(here));
    mine.extend(theirs);
    mine
}

/// `replies` for both sides with `spread`, or as they are without one.
pub(super) fn spread_all(spread: Option<&Spread>, replies: Vec<Reply>) -> Vec<Reply> {
    match spread {
        Some(spread) => spread.apply(replies),
        None => replies,
    }
}

/// A challenge to a member on another platform: the channel sees it
/// without the mention, and the challenged player gets it, with `hint`, as
/// a direct message on their platform (put last, as `Spread` does).
pub(super) fn challenge_elsewhere(
    replies: Vec<Reply>,
    here: Platform,
    to: &crate::storage::PlayerRow,
    hint: &str,
) -> Vec<Reply> {
    let mut mine = Vec::with_capacity(replies.len());
    let mut theirs = Vec::new();
    for mut reply in replies {
        if reply.to.as_deref() == Some(to.platform_id.as_str()) && !reply.ephemeral {
            theirs.push(Reply {
                channel: to.platform_id.clone(),
                direct: true,
                platform: Some(to.platform),
                prompt: super::Prompt::None,
                text: format!("{}\n{hint}", reply.text),
                ..reply.clone()
            });
            reply.to = None;
        }
        reply.platform = Some(here);
        mine.push(reply);
    }
    mine.extend(theirs);
    mine
}

/// `platform:id` (`discord:5100…`, `matrix:@ann:example.org`): a member
/// of a club server on another platform than `here`, named in a challenge.
pub(super) fn other_platform_member(text: &str, here: Platform) -> Option<(Platform, &str)> {
    let (platform, id) = text.split_once(':')?;
    let platform = match platform.to_ascii_lowercase().as_str() {
        "discord" => Platform::Discord,
        "matrix" => Platform::Matrix,
        "console" => Platform::Console,
        _ => return None,
    };
    let id = id.trim();
    (platform != here && !id.is_empty()).then_some((platform, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(platform: Platform, channel: &str, player: &str) -> Side {
        Side {
            platform,
            channel: channel.to_owned(),
            player: player.to_owned(),
        }
    }

    fn reply(channel: &str, to: Option<&str>) -> Reply {
        Reply {
            channel: channel.to_owned(),
            to: to.map(str::to_owned),
            text: format!("to {to:?}"),
            ..Reply::default()
        }
    }

    /// (the reply, what the acting side gets, what the other side gets).
    #[test]
    fn each_side_is_told_on_its_platform() {
        let spread = Spread {
            mine: side(Platform::Matrix, "!room", "@ann:hs"),
            theirs: side(Platform::Discord, "2002", "5100"),
        };
        let private = Reply {
            ephemeral: true,
            ..reply("!room", Some("@ann:hs"))
        };
        let dm = Reply {
            direct: true,
            ..reply("!room", Some("5100"))
        };
        let out = spread.apply(vec![
            reply("!room", Some("5100")),
            private.clone(),
            reply("!room", None),
            dm.clone(),
        ]);
        let seen: Vec<(Option<Platform>, &str, Option<&str>)> = out
            .iter()
            .map(|r| (r.platform, r.channel.as_str(), r.to.as_deref()))
            .collect();
        assert_eq!(
            seen,
            [
                // The opponent's notice: in the room without the mention…
                (Some(Platform::Matrix), "!room", None),
                (Some(Platform::Matrix), "!room", Some("@ann:hs")),
                (Some(Platform::Matrix), "!room", None),
                // …and with it in their channel, on their platform, last.
                (Some(Platform::Discord), "2002", Some("5100")),
                (Some(Platform::Discord), "2002", None),
                (Some(Platform::Discord), "!room", Some("5100")),
            ]
        );
    }

    /// A reply already marked (a club match's result, one per side's
    /// channel) keeps its platform, the other side's put last.
    #[test]
    fn replies_already_marked_keep_their_platform() {
        let spread = Spread {
            mine: side(Platform::Matrix, "!room", "@ann:hs"),
            theirs: side(Platform::Discord, "2002", "5100"),
        };
        let marked = |channel: &str, platform| Reply {
            platform: Some(platform),
            ..reply(channel, None)
        };
        let out = spread.apply(vec![
            marked("2002", Platform::Discord),
            marked("!room", Platform::Matrix),
        ]);
        let seen: Vec<(Option<Platform>, &str)> = out
            .iter()
            .map(|r| (r.platform, r.channel.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                (Some(Platform::Matrix), "!room"),
                (Some(Platform::Discord), "2002"),
            ]
        );
    }

    #[test]
    fn members_of_other_platforms_are_named_with_theirs() {
        let table = [
            (
                "discord:510",
                Platform::Matrix,
                Some((Platform::Discord, "510")),
            ),
            (
                "matrix:@ann:hs",
                Platform::Discord,
                Some((Platform::Matrix, "@ann:hs")),
            ),
            (
                "Matrix:@ann:hs",
                Platform::Discord,
                Some((Platform::Matrix, "@ann:hs")),
            ),
            ("discord:510", Platform::Discord, None),
            ("ann:hs", Platform::Discord, None),
            ("discord:", Platform::Matrix, None),
            ("bob", Platform::Matrix, None),
        ];
        for (text, here, expected) in table {
            assert_eq!(other_platform_member(text, here), expected, "{text}");
        }
    }
}
