//! Who acted and where, from an interaction's fields: the guild and the
//! channel (a thread or forum post is a place of its own: a game started
//! there lives there), the member's name, language and moderation, the
//! bot's permissions there, whether the interaction came too late to be
//! answered directly, and whether it came from a place the bot is
//! installed in at all.

use serenity::all::{
    AuthorizingIntegrationOwner, AuthorizingIntegrationOwners, ChannelType, GuildId,
    InteractionContext, InteractionId, Member, PartialChannel, Permissions, User as DiscordUser,
};

use crate::core::notation::Lang;
use crate::service::{Moderation, User};

/// The longest display name passed on (Discord's nicknames are 32).
const MAX_NAME: usize = 64;
/// Discord's epoch, in milliseconds since the Unix one (ids count from it).
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Who acted and where, as the service sees it.
#[derive(Clone, Debug)]
pub struct Origin {
    pub server: String,
    pub guild: Option<u64>,
    /// The place the act is for: the channel the interaction came from (a
    /// thread or a forum post is its own place, so its games' notices go
    /// there), except in a thread the bot opened for a game (its parent).
    pub channel: String,
    /// The channel the interaction came from.
    pub channel_id: u64,
    /// A thread or a forum post.
    pub thread: bool,
    pub user: User,
    pub user_id: u64,
    /// Labels and the adapter's own messages: the client's locale, else the server's.
    pub lang: Lang,
    /// The bot's permissions in the channel (`app_permissions`).
    pub permissions: Option<Permissions>,
}

/// An interaction's fields that say who and where.
pub struct Fields<'a> {
    pub guild: Option<GuildId>,
    pub channel_id: u64,
    pub channel: Option<&'a PartialChannel>,
    pub member: Option<&'a Member>,
    pub user: &'a DiscordUser,
    pub locale: &'a str,
    pub guild_locale: Option<&'a str>,
    pub permissions: Option<Permissions>,
}

impl Origin {
    pub fn new(fields: Fields<'_>, moderator_roles: &[u64], default_language: Lang) -> Origin {
        let thread = fields.channel.is_some_and(|c| {
            matches!(
                c.kind,
                ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
            )
        });
        // A thread the bot opened for a game started in its channel (with
        // `threads`): acts in it are the channel's, where the game lives.
        let channel = match fields.channel.and_then(|c| c.parent_id) {
            Some(parent) if thread && fields.channel.is_some_and(game_thread) => parent.get(),
            _ => fields.channel_id,
        };
        let server = match fields.guild {
            Some(guild) => guild.get().to_string(),
            // Direct messages with the bot: each conversation is its own place.
            None => format!("dm-{channel}"),
        };
        // Discord vouches for the member's permissions and roles in this
        // guild only, and the service acts only on this guild's games: a
        // moderator here moderates the whole guild and nothing else.
        let moderator = fields.member.is_some_and(|m| {
            m.permissions
                .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD))
                || m.roles
                    .iter()
                    .any(|role| moderator_roles.contains(&role.get()))
        });
        let user = fields.user;
        let name = fields
            .member
            .and_then(|m| m.nick.as_deref())
            .or(user.global_name.as_deref())
            .unwrap_or(&user.name);
        let lang = Lang::from_locale(fields.locale)
            .or_else(|| fields.guild_locale.and_then(Lang::from_locale))
            .unwrap_or(default_language);
        let locale: String = fields.locale.chars().take(16).collect();
        Origin {
            server,
            guild: fields.guild.map(GuildId::get),
            channel: channel.to_string(),
            channel_id: fields.channel_id,
            thread,
            user: User {
                id: user.id.get().to_string(),
                name: name.chars().take(MAX_NAME).collect(),
                locale: Some(locale).filter(|l| !l.is_empty()),
                moderation: if moderator {
                    Moderation::Server
                } else {
                    Moderation::None
                },
            },
            user_id: user.id.get(),
            lang,
            permissions: fields.permissions,
        }
    }
}

/// Whether `channel` is a thread the bot opened for a game of its parent
/// channel: named `#<game> <white> – <black>`. A game started in any other
/// thread or forum post lives in it.
pub fn game_thread(channel: &PartialChannel) -> bool {
    let Some(name) = channel.name.as_deref() else {
        return false;
    };
    let Some((number, rest)) = name.strip_prefix('#').and_then(|n| n.split_once(' ')) else {
        return false;
    };
    !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) && rest.contains(" – ")
}

/// Why an interaction is not for the bot to act on, if it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotHere {
    /// A direct message or a group chat: games live in servers.
    NotAServer,
    /// A server the bot is not installed in (a user install used there):
    /// no notice could ever be posted.
    NotInstalled,
}

/// Whether an interaction comes from a server the bot is installed in.
pub fn place_check(
    guild: Option<GuildId>,
    context: Option<InteractionContext>,
    owners: &AuthorizingIntegrationOwners,
) -> Result<(), NotHere> {
    let Some(guild) = guild else {
        return Err(NotHere::NotAServer);
    };
    if matches!(
        context,
        Some(InteractionContext::BotDm | InteractionContext::PrivateChannel)
    ) {
        return Err(NotHere::NotAServer);
    }
    // Older payloads name no owner: nothing says the bot is not there.
    if owners.0.is_empty() {
        return Ok(());
    }
    let installed = owners.0.iter().any(
        |owner| matches!(owner, AuthorizingIntegrationOwner::GuildInstall(Some(g)) if *g == guild),
    );
    if installed {
        Ok(())
    } else {
        Err(NotHere::NotInstalled)
    }
}

/// How old an interaction is at `now` (Unix milliseconds), from the
/// instant its id records.
pub fn age(id: InteractionId, now_ms: u64) -> std::time::Duration {
    let created = (id.get() >> 22) + DISCORD_EPOCH_MS;
    std::time::Duration::from_millis(now_ms.saturating_sub(created))
}

/// The time now in Unix milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::all::UserId;

    #[test]
    fn an_interaction_s_age_comes_from_its_id() {
        let now = 1_800_000_000_000u64;
        let id = |ms_ago: u64| InteractionId::new(((now - ms_ago - DISCORD_EPOCH_MS) << 22) | 7);
        assert_eq!(age(id(1200), now).as_millis(), 1200);
        assert_eq!(age(id(4000), now).as_millis(), 4000);
        assert_eq!(
            age(InteractionId::new(u64::MAX), now).as_millis(),
            0,
            "from the future"
        );
    }

    #[test]
    fn a_game_s_own_thread_is_known_by_its_name() {
        let thread = |name: &str| -> PartialChannel {
            serde_json::from_value(serde_json::json!({
                "id": "5", "type": 11, "name": name, "parent_id": "4"
            }))
            .expect("a channel")
        };
        assert!(game_thread(&thread("#12 alice – bob")));
        for name in [
            "#x alice – bob",
            "12 alice – bob",
            "#12 openings",
            "#",
            "# – ",
        ] {
            assert!(!game_thread(&thread(name)), "{name:?}");
        }
    }

    #[test]
    fn only_a_server_with_the_bot_installed_is_a_place() {
        let guild = GuildId::new(5);
        let installed =
            AuthorizingIntegrationOwners(vec![AuthorizingIntegrationOwner::GuildInstall(Some(
                guild,
            ))]);
        let user_only =
            AuthorizingIntegrationOwners(vec![AuthorizingIntegrationOwner::UserInstall(
                UserId::new(9),
            )]);
        let context = Some(InteractionContext::Guild);
        assert_eq!(place_check(Some(guild), context, &installed), Ok(()));
        assert_eq!(
            place_check(Some(guild), context, &user_only),
            Err(NotHere::NotInstalled)
        );
        assert_eq!(
            place_check(None, context, &installed),
            Err(NotHere::NotAServer)
        );
        let dm = Some(InteractionContext::BotDm);
        assert_eq!(
            place_check(Some(guild), dm, &installed),
            Err(NotHere::NotAServer)
        );
        let other = AuthorizingIntegrationOwners(vec![AuthorizingIntegrationOwner::GuildInstall(
            Some(GuildId::new(6)),
        )]);
        assert_eq!(
            place_check(Some(guild), context, &other),
            Err(NotHere::NotInstalled)
        );
    }
}
