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
    // French elision: `{ INITIAL($player) -> [vowel] d’{ $player } *[other] de { $player } }`.
    let added = bundle.add_function("INITIAL", |positional, _named| match positional.first() {
        Some(FluentValue::String(name)) if starts_with_vowel(name) => "vowel".into(),
        _ => "other".into(),
    });
    if let Err(error) = added {
        tracing::error!(?error, tag, "the INITIAL function");
    }
    // English possessives: "bob's flag", "Knights' flag" (a team's name is plural).
    let added = bundle.add_function("POSSESSIVE", |positional, _named| {
        match positional.first() {
            Some(FluentValue::String(name)) => possessive(name).into(),
            Some(FluentValue::Number(n)) => possessive(&n.as_string()).into(),
            _ => FluentValue::Error,
        }
    });
    if let Err(error) = added {
        tracing::error!(?error, tag, "the POSSESSIVE function");
    }
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

/// A name's English possessive: `bob's`, but `Knights'` (an s already
/// ends it, as in a team's plural name).
fn possessive(name: &str) -> String {
    match name.ends_with(['s', 'S']) {
        true => format!("{name}'"),
        false => format!("{name}'s"),
    }
}

/// Whether a name begins with a vowel letter (accents and case aside), so
/// that French elides before it: "d’alice", "d’Émile". A leading `h` is
/// left alone: whether it is mute depends on the name.
fn starts_with_vowel(name: &str) -> bool {
    name.trim_start()
        .chars()
        .next()
        .and_then(|c| c.to_lowercase().next())
        .is_some_and(|c| "aeiouyàâäéèêëîïôöùûüÿœæ".contains(c))
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
mod counts;

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
                .contains("1 coup")
        );
        assert_eq!(i18n.text(Lang::En, "no-such-key", &[]), "no-such-key");
    }

    /// Each French message's variables, by message id.
    fn french_variables() -> Vec<(String, BTreeSet<String>)> {
        use fluent_syntax::ast::{Expression, InlineExpression, Pattern, PatternElement};
        fn pattern(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
            for element in &p.elements {
                if let PatternElement::Placeable { expression } = element {
                    expr(expression, out);
                }
            }
        }
        fn expr(e: &Expression<&str>, out: &mut BTreeSet<String>) {
            match e {
                Expression::Select { selector, variants } => {
                    inline(selector, out);
                    for variant in variants {
                        pattern(&variant.value, out);
                    }
                }
                Expression::Inline(i) => inline(i, out),
            }
        }
        fn inline(i: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
            match i {
                InlineExpression::VariableReference { id } => {
                    out.insert(id.name.to_owned());
                }
                InlineExpression::Placeable { expression } => expr(expression, out),
                InlineExpression::FunctionReference { arguments, .. } => {
                    for argument in &arguments.positional {
                        inline(argument, out);
                    }
                }
                _ => {}
            }
        }
        let resource = fluent_syntax::parser::parse(FRENCH).expect("catalogue parses");
        resource
            .body
            .iter()
            .filter_map(|entry| match entry {
                Entry::Message(message) => {
                    let mut names = BTreeSet::new();
                    if let Some(value) = &message.value {
                        pattern(value, &mut names);
                    }
                    Some((message.id.name.to_owned(), names))
                }
                _ => None,
            })
            .collect()
    }

    /// Words that end in s or x in the singular too, and words that may
    /// follow a number without counting anything ("joué 1 dans").
    const INVARIABLE: [&str; 14] = [
        "fois", "mois", "pas", "temps", "prix", "choix", "dans", "sans", "sous", "vous", "nous",
        "plus", "les", "des",
    ];
    /// The variables that hold a person's name; every other one is given
    /// a number.
    const NAMES: [&str; 9] = [
        "player", "opponent", "white", "black", "winner", "loser", "turn", "a", "b",
    ];

    fn arguments(variables: &BTreeSet<String>, n: i64, name: &str) -> Vec<(String, Arg)> {
        variables
            .iter()
            .map(|v| {
                let value = match NAMES.contains(&v.as_str()) {
                    true => Arg::from(name),
                    false => Arg::from(n),
                };
                (v.clone(), value)
            })
            .collect()
    }

    /// Every French message, with every variable 0, 1 or 2, or a name that
    /// starts with a vowel: "0 point", "1 partie", "2 parties", "d’alice",
    /// never "1 pts", "1 parties", "de alice".
    #[test]
    fn french_counts_agree_and_names_elide() {
        let i18n = I18n::new();
        let mut slips = Vec::new();
        for (id, variables) in french_variables() {
            for n in [0i64, 1, 2] {
                let owned = arguments(&variables, n, "bob");
                let args: Vec<(&str, Arg)> =
                    owned.iter().map(|(v, a)| (v.as_str(), a.clone())).collect();
                let text = i18n.text(Lang::Fr, &id, &args);
                let words: Vec<&str> = text.split_whitespace().collect();
                for pair in words.windows(2) {
                    let number = pair[0].trim_start_matches('(');
                    let word = pair[1]
                        .trim_end_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase();
                    let plural = word.len() > 2
                        && (word.ends_with('s') || word.ends_with('x'))
                        && !INVARIABLE.contains(&word.as_str());
                    let singular_count = n < 2 && number == n.to_string();
                    if singular_count && plural {
                        slips.push(format!("{id} ({n}): {text}"));
                    }
                    if n == 2 && number == "2" && word == "pts" {
                        slips.push(format!("{id} ({n}): {text}"));
                    }
                }
            }
            for name in ["alice", "Émile", "Yves"] {
                let owned = arguments(&variables, 2, name);
                let args: Vec<(&str, Arg)> =
                    owned.iter().map(|(v, a)| (v.as_str(), a.clone())).collect();
                let text = i18n.text(Lang::Fr, &id, &args);
                for word in ["de", "De", "que", "Que", "le", "la", "ne", "je", "ce", "se"] {
                    if text.contains(&format!("{word} {name}")) {
                        slips.push(format!("{id} ({name}): {text}"));
                    }
                }
            }
        }
        assert!(
            slips.is_empty(),
            "{} slips:\n{}",
            slips.len(),
            slips.join("\n")
        );
    }

    #[test]
    fn language_negotiation_prefers_the_player() {
        assert_eq!(negotiate(Some(Lang::Fr), Some("en-US"), Lang::En), Lang::Fr);
        assert_eq!(negotiate(None, Some("fr"), Lang::En), Lang::Fr);
        assert_eq!(negotiate(None, Some("ja"), Lang::Fr), Lang::Fr);
        assert_eq!(negotiate(None, None, Lang::En), Lang::En);
    }
}
