//! Offers a ✅ reaction accepts: a challenge announcement (vote chess's
//! too) or a draw offer.
//!
//! When the bot posts such a notice it remembers, under the notice's event
//! id, what accepting means; a ✅ on that notice then becomes the command.
//! The memory lives in matrix-sdk's state store (a custom value), so it
//! survives restarts along with the sync token.

use serde::{Deserialize, Serialize};

use crate::core::command::{ChallengeCommand, Command, DrawAction};
use crate::core::event::Event;
use crate::service::Reply;

/// What a ✅ on a notice accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offer {
    /// The challenge announced in the notice (the service finds the one
    /// addressed to the reacting player, or the open one, in the room).
    Challenge,
    /// The draw offered in this game.
    Draw { game: i64 },
}

impl Offer {
    /// The command accepting the offer.
    pub fn accept(self) -> Command {
        match self {
            Offer::Challenge => Command::Challenge(ChallengeCommand::Accept { challenge: None }),
            Offer::Draw { game } => Command::Draw {
                action: DrawAction::Accept,
                game: Some(game),
            },
        }
    }

    /// The state-store key under which the offer in `event_id` is kept.
    pub fn store_key(event_id: &str) -> Vec<u8> {
        format!("pawnpost.offer.{event_id}").into_bytes()
    }
}

/// The offer a reply makes, given the command that produced it.
pub fn offer_in(reply: &Reply, command: Option<&Command>) -> Option<Offer> {
    if reply.ephemeral || reply.direct {
        return None;
    }
    let draw = reply.events.iter().find(|e| {
        matches!(
            e.event,
            Event::DrawOffered { .. }
                | Event::MovePlayed {
                    draw_offered: true,
                    ..
                }
        )
    });
    if let Some(draw) = draw {
        return Some(Offer::Draw { game: draw.game });
    }
    // A vote chess challenge (`team:` or `vs:`) is accepted as any other.
    let announces_challenge = matches!(
        command,
        Some(Command::Challenge { .. } | Command::TeamChallenge(_))
    ) && reply.events.is_empty();
    announces_challenge.then_some(Offer::Challenge)
}

/// Whether a reaction's key means "yes".
pub fn is_accept_reaction(key: &str) -> bool {
    matches!(key.trim_end_matches('\u{fe0f}'), "✅" | "✔" | "☑" | "👍")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::GameEvent;
    use shakmaty::Color;

    fn reply(events: Vec<Event>, ephemeral: bool) -> Reply {
        Reply {
            channel: "!r:localhost".into(),
            to: None,
            ephemeral,
            text: "x".into(),
            events: events
                .into_iter()
                .map(|event| GameEvent { game: 7, event })
                .collect(),
            prompt: Default::default(),
            ..Reply::default()
        }
    }

    #[test]
    fn draw_offers_and_challenges_can_be_accepted() {
        let challenge = crate::core::command::parse("challenge @bob:localhost").expect("parses");
        let team_challenge =
            crate::core::command::parse("challenge team:Rooks @bob:localhost").expect("parses");
        assert!(matches!(team_challenge, Command::TeamChallenge(_)));
        let offered = Event::DrawOffered { by: Color::White };
        let moved_offering = Event::MovePlayed {
            ply: 3,
            san: "Nf3".into(),
            uci: "g1f3".into(),
            by: Color::White,
            check: false,
            draw_offered: true,
            conditional: false,
        };
        let cases = [
            (
                reply(vec![offered.clone()], false),
                None,
                Some(Offer::Draw { game: 7 }),
            ),
            (
                reply(vec![moved_offering], false),
                None,
                Some(Offer::Draw { game: 7 }),
            ),
            (reply(vec![offered], true), None, None),
            (
                reply(vec![], false),
                Some(&challenge),
                Some(Offer::Challenge),
            ),
            (reply(vec![], true), Some(&challenge), None),
            (
                reply(vec![], false),
                Some(&team_challenge),
                Some(Offer::Challenge),
            ),
            (reply(vec![], false), None, None),
        ];
        for (reply, command, expected) in cases {
            assert_eq!(offer_in(&reply, command), expected, "{reply:?}");
        }
        assert_eq!(
            Offer::Draw { game: 7 }.accept(),
            Command::Draw {
                action: DrawAction::Accept,
                game: Some(7)
            }
        );
        assert_eq!(
            Offer::Challenge.accept(),
            Command::Challenge(ChallengeCommand::Accept { challenge: None })
        );
    }

    #[test]
    fn offers_survive_serialization() {
        for offer in [Offer::Challenge, Offer::Draw { game: 12 }] {
            let json = serde_json::to_vec(&offer).expect("serializes");
            let back: Offer = serde_json::from_slice(&json).expect("parses");
            assert_eq!(back, offer);
        }
    }

    #[test]
    fn only_yes_reactions_accept() {
        for key in ["✅", "✔️", "☑️", "👍"] {
            assert!(is_accept_reaction(key), "{key}");
        }
        for key in ["❌", "👎", "", "ok"] {
            assert!(!is_accept_reaction(key), "{key}");
        }
    }
}
