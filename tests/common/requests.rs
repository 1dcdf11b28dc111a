//! Requests built for tests that call the service directly.

#![allow(dead_code)]

use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, User};

/// `user`'s `text` on `platform`, in `server`'s `channel`: no key, no
/// client locale, no moderation, no pictures (see the builders below).
pub fn request(
    platform: Platform,
    server: &str,
    channel: &str,
    user: &str,
    input: Input,
) -> Request {
    Request {
        platform,
        server: server.into(),
        channel: channel.into(),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input,
        board_images: BoardImages::Omitted,
    }
}

/// Text typed by a user.
pub fn text(text: &str) -> Input {
    Input::Text(text.into())
}

/// Builders for what most tests leave out.
pub trait RequestExt {
    fn keyed(self, key: &str) -> Self;
    fn locale(self, locale: &str) -> Self;
    fn moderating(self, moderation: Moderation) -> Self;
}

impl RequestExt for Request {
    fn keyed(mut self, key: &str) -> Request {
        self.key = Some(key.into());
        self
    }

    fn locale(mut self, locale: &str) -> Request {
        self.user.locale = Some(locale.into());
        self
    }

    fn moderating(mut self, moderation: Moderation) -> Request {
        self.user.moderation = moderation;
        self
    }
}
