//! Every message a user reads, in English and French, from Fluent files.
//!
//! The `.ftl` files sit beside this module and are compiled into the
//! binary. A reader's language comes from their own setting, else their
//! chat client's locale, else the server's, else English ([`negotiate`]).
//! German readers get English messages (with German piece letters accepted
//! in their moves) until a `de.ftl` exists.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use crate::core::notation::Lang;

const ENGLISH: &str = include_str!("en.ftl");
const FRENCH: &str = include_str!("fr.ftl");

/// The message catalogues, loaded once.
pub struct I18n {
    english: FluentBundle<FluentResource>,
    french: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for I18n {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("I18n")
    }
}

impl Default for I18n {
    fn default() -> I18n {
        I18n::new()
    }
}

impl I18n {
    /// Loads the embedded catalogues. They are checked by tests, so a
    /// failure here is a build defect, not bad input.
    pub fn new() -> I18n {
        I18n {
            english: bundle("en", ENGLISH),
            french: bundle("fr", FRENCH),
        }
    }

    /// The message `id` in `lang`, with `args` filled in.
    ///
    /// A missing message falls back to English, then to the id itself, so a
    /// reader always gets some answer.
    pub fn text(&self, lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            let value = match value {
                Arg::Text(text) => FluentValue::from(text.as_str()),
                Arg::Number(n) => FluentValue::from(*n),
            };
            fluent_args.set(*name, value);
        }
        [self.bundle(lang), &self.english]
            .into_iter()
            .find_map(|bundle| format(bundle, id, &fluent_args))
            .unwrap_or_else(|| id.to_owned())
    }

    fn bundle(&self, lang: Lang) -> &FluentBundle<FluentResource> {
        match lang {
            Lang::Fr => &self.french,
            Lang::En | Lang::De | Lang::Ru => &self.english,
        }
    }
}

/// A value for a message placeholder.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Number(i64),
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_owned())
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Number(n)
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Number(i64::from(n))
    }
}

/// The language to answer in: the player's own, else the client's locale,
/// else the server's.
pub fn negotiate(player: Option<Lang>, locale: Option<&str>, server: Lang) -> Lang {
    player
        .or_else(|| locale.and_then(Lang::from_locale))
        .unwrap_or(server)
}

fn bundle(tag: &str, source: &str) -> FluentBundle<FluentResource> {
    let langid: LanguageIdentifier = tag.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![langid]);
    // Unicode isolation marks would end up in console output and test assertions.
    bundle.set_use_isolating(false);
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(resource) => resource,
        Err((resource, errors)) => {
            tracing::error!(?errors, tag, "errors in a message catalogue");
            resource
        }
    };
    if let Err(errors) = bundle.add_resource(resource) {
        tracing::error!(?errors, tag, "duplicate messages in a catalogue");
    }
    bundle
}

fn format(bundle: &FluentBundle<FluentResource>, id: &str, args: &FluentArgs) -> Option<String> {
    let pattern = bundle.get_message(id)?.value()?;
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(args), &mut errors);
    if !errors.is_empty() {
        tracing::warn!(?errors, id, "message formatted with errors");
    }
    Some(text.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_syntax::ast::Entry;
    use std::collections::BTreeSet;

    fn keys(source: &str) -> BTreeSet<String> {
        let resource = fluent_syntax::parser::parse(source).expect("catalogue parses");
        let names: Vec<String> = resource
            .body
            .iter()
            .filter_map(|entry| match entry {
                Entry::Message(message) => Some(message.id.name.to_owned()),
                _ => None,
            })
            .collect();
        let unique: BTreeSet<String> = names.iter().cloned().collect();
        assert_eq!(unique.len(), names.len(), "a message is defined twice");
        unique
    }

    #[test]
    fn catalogues_parse_and_have_the_same_keys() {
        let english = keys(ENGLISH);
        let french = keys(FRENCH);
        assert!(english.len() > 50);
        assert_eq!(english, french);
    }

    #[test]
    fn messages_fill_their_arguments() {
        let i18n = I18n::new();
        let args = [("player", Arg::from("bob"))];
        assert_eq!(i18n.text(Lang::En, "your-move", &args), "bob, your move.");
        assert_eq!(
            i18n.text(Lang::Fr, "your-move", &args),
            "bob, à vous de jouer."
        );
        let plural = [("moves", Arg::from(1u32))];
        assert!(
            i18n.text(Lang::Fr, "refused-agreement_too_early", &plural)
                .contains("un coup")
        );
        assert_eq!(i18n.text(Lang::En, "no-such-key", &[]), "no-such-key");
    }

    #[test]
    fn language_negotiation_prefers_the_player() {
        assert_eq!(negotiate(Some(Lang::Fr), Some("en-US"), Lang::En), Lang::Fr);
        assert_eq!(negotiate(None, Some("fr"), Lang::En), Lang::Fr);
        assert_eq!(negotiate(None, Some("ja"), Lang::Fr), Lang::Fr);
        assert_eq!(negotiate(None, None, Lang::En), Lang::En);
    }
}
