//! Matrix ids as the service knows them, and who may invite the bot.
//!
//! The command parser reads `@bob:example.org` as the user `bob:example.org`
//! (it drops the `@`), so a Matrix player's platform id is their user id
//! without the leading `@`; replies turn it back.

/// The service's player id for a Matrix user id.
pub fn platform_id_of(user_id: &str) -> String {
    user_id.trim_start_matches('@').to_owned()
}

/// The Matrix user id for a player's platform id.
pub fn mxid_of(platform_id: &str) -> String {
    if platform_id.starts_with('@') {
        platform_id.to_owned()
    } else {
        format!("@{platform_id}")
    }
}

/// Whether a reply's channel is a Matrix room (the scheduler's notices for
/// other platforms pass by too). Room version 12 ids have no `:server` part.
pub fn is_room_id(channel: &str) -> bool {
    channel.len() > 1 && channel.starts_with('!')
}

/// The server part of a user id (`example.org` for `@bob:example.org`).
pub fn server_of(user_id: &str) -> &str {
    user_id.split_once(':').map_or("", |(_, server)| server)
}

/// Whether an invitation from `inviter` may be accepted: `allowed` lists
/// user ids (`@alice:example.org`) and server names (`example.org`); an
/// empty list allows everyone.
pub fn may_invite(inviter: &str, allowed: &[String]) -> bool {
    allowed.is_empty()
        || allowed.iter().any(|entry| {
            if entry.starts_with('@') {
                entry == inviter
            } else {
                entry.eq_ignore_ascii_case(server_of(inviter))
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        assert_eq!(platform_id_of("@bob:localhost"), "bob:localhost");
        assert_eq!(mxid_of("bob:localhost"), "@bob:localhost");
        assert_eq!(mxid_of("@bob:localhost"), "@bob:localhost");
        assert!(is_room_id("!abc:localhost"));
        assert!(is_room_id("!EX4SOEtG0YVZeEhdUyD15oci_y0o2np_IxEL-MXwWpk"));
        assert!(!is_room_id("123456789"));
        assert!(!is_room_id("main"));
    }

    #[test]
    fn invitations_follow_the_allow_list() {
        let allowed = vec!["@alice:example.org".to_owned(), "chess.fr".to_owned()];
        let cases = [
            ("@alice:example.org", true),
            ("@bob:example.org", false),
            ("@anyone:chess.fr", true),
            ("@anyone:CHESS.FR", true),
            ("@mallory:evil.chess.fr", false),
            ("@chess.fr:other.org", false),
        ];
        for (inviter, expected) in cases {
            assert_eq!(may_invite(inviter, &allowed), expected, "{inviter}");
        }
        assert!(may_invite("@anyone:anywhere", &[]));
    }
}
