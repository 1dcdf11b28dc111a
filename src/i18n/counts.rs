//! Every count of every message, in English and French: the number shown
//! is the number given, and the words around it agree with it.
//!
//! Each message is rendered once with a variable set to a marker number
//! (where the marker shows, the variable is printed), then with the same
//! variable 0, 1, 2 and 5, the other variables held. The numbers that
//! appear only in the second text must all be the number given, as many
//! times as the marker showed: a variant that writes "1 gaffe" for 0, or
//! "one more day" for 1, fails; numbers the message writes itself ("e4",
//! "1/2-1/2") appear in both texts and are ignored.

use std::collections::BTreeSet;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

use super::{Arg, ENGLISH, FRENCH, I18n};
use crate::core::notation::Lang;

/// The counts every numeric variable is given.
const COUNTS: [i64; 4] = [0, 1, 2, 5];
/// Shows where a variable is printed (in the plural "other" of both languages).
const MARKER: i64 = 9876;
/// The variables that hold a person's or a team's name; every other one is
/// given numbers (a text given a number shows it, which changes nothing).
const NAMES: [&str; 13] = [
    "player", "opponent", "white", "black", "winner", "loser", "turn", "a", "b", "team", "home",
    "away", "members",
];

/// Each message of a catalogue with the variables it uses.
fn messages(source: &str) -> Vec<(String, BTreeSet<String>)> {
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
    let resource = fluent_syntax::parser::parse(source).expect("catalogue parses");
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

/// The runs of digits in a text, as a sorted list (a multiset).
fn numbers(text: &str) -> Vec<String> {
    let mut runs: Vec<String> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .map(str::to_owned)
        .collect();
    runs.sort();
    runs
}

/// `id` rendered with `variable` set to `value`, names as `name`, and
/// every other variable its own number (11, 12…: "other" in both languages).
fn render(
    i18n: &I18n,
    lang: Lang,
    id: &str,
    variables: &BTreeSet<String>,
    (variable, value): (&str, i64),
    name: &str,
) -> String {
    let args: Vec<(&str, Arg)> = variables
        .iter()
        .zip(11i64..)
        .map(|(v, own)| {
            let arg = match (v.as_str(), NAMES.contains(&v.as_str())) {
                (v, _) if v == variable => Arg::from(value),
                (_, true) => Arg::from(name),
                (_, false) => Arg::from(own),
            };
            (v.as_str(), arg)
        })
        .collect();
    i18n.text(lang, id, &args)
}

/// What is wrong with the counts of `id` in `lang`, if anything.
fn count_slips(i18n: &I18n, lang: Lang, id: &str, variables: &BTreeSet<String>) -> Vec<String> {
    let mut slips = Vec::new();
    // Names too: a team's vote count or White's wins share their names.
    for variable in variables {
        let name = NAMES.contains(&variable.as_str());
        let marked = render(i18n, lang, id, variables, (variable, MARKER), "bob");
        let mut before = numbers(&marked);
        let shown = before.iter().filter(|n| **n == MARKER.to_string()).count();
        before.retain(|n| *n != MARKER.to_string());
        for n in COUNTS {
            let text = render(i18n, lang, id, variables, (variable, n), "bob");
            let mut new = numbers(&text);
            for old in &before {
                if let Some(at) = new.iter().position(|x| x == old) {
                    new.remove(at);
                }
            }
            if new.len() != shown || new.iter().any(|x| *x != n.to_string()) {
                slips.push(format!("{lang:?} {id} (${variable} = {n}): {text}"));
            }
            let counted = !name && !WRITTEN.contains(&variable.as_str());
            if n == 1 && lang == Lang::En && counted {
                slips.extend(english_plural_after_one(&text).map(|w| format!("{id}: 1 {w}")));
            }
        }
    }
    slips
}

/// English words that end in s without being plurals (verbs after a name
/// or a move given a number, "1 wins").
const NOT_PLURAL: [&str; 14] = [
    "is", "was", "has", "its", "this", "plus", "as", "us", "less", "yes", "wins", "waits", "needs",
    "starts",
];
/// Numbers the code writes as text (`1½`), agreed by another variable.
const WRITTEN: [&str; 1] = ["points"];

/// A plural noun right after a standalone "1" ("1 players").
fn english_plural_after_one(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).find_map(|pair| {
        let number = pair[0].trim_start_matches(['(', '+', '=']);
        let word = pair[1]
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        let plural = word.len() > 2 && word.ends_with('s') && !NOT_PLURAL.contains(&word.as_str());
        (number == "1" && plural).then_some(word)
    })
}

#[test]
fn every_count_shows_the_number_given_in_both_languages() {
    let i18n = I18n::new();
    let mut slips = Vec::new();
    let mut checked = 0;
    for (lang, source) in [(Lang::En, ENGLISH), (Lang::Fr, FRENCH)] {
        for (id, variables) in messages(source) {
            checked += variables.len();
            slips.extend(count_slips(&i18n, lang, &id, &variables));
        }
    }
    assert!(checked > 300, "only {checked} variables");
    assert!(
        slips.is_empty(),
        "{} slips:\n{}",
        slips.len(),
        slips.join("\n")
    );
}

/// A name that ends in s takes only an apostrophe in English: "Knights'
/// flag", never "Knights's flag".
#[test]
fn english_possessives_of_names_ending_in_s() {
    let i18n = I18n::new();
    let mut slips = Vec::new();
    for (id, variables) in messages(ENGLISH) {
        for name in ["Knights", "bob"] {
            let text = render(&i18n, Lang::En, &id, &variables, ("", 2), name);
            if text.contains("Knights's") {
                slips.push(format!("{id}: {text}"));
            }
        }
    }
    assert!(slips.is_empty(), "{}", slips.join("\n"));
    let flag = i18n.text(
        Lang::En,
        "clock-flag",
        &[
            ("player", Arg::from("Knights")),
            ("deadline", Arg::from("x")),
        ],
    );
    assert_eq!(flag, "Knights' flag falls at x UTC.");
}

/// The test cannot be fooled: a variant that shows another number, or none,
/// is caught; a number the message writes itself is not one of its counts.
#[test]
fn the_check_catches_a_wrong_variant_and_ignores_literal_numbers() {
    let i18n = I18n::new();
    let variables: BTreeSet<String> = ["blunders".to_owned()].into();
    let one_hard_coded =
        "m = 1. e4 { $blunders ->\n    [one] 1 gaffe\n   *[other] { $blunders } gaffes\n}\n";
    let spelled =
        "m = { $blunders ->\n    [one] one blunder\n   *[other] { $blunders } blunders\n}\n";
    let right = "m = 1. e4 { $blunders ->\n    [one] { $blunders } gaffe\n   *[other] { $blunders } gaffes\n}\n";
    let with = |source: &str, lang: Lang| {
        let bundle = |tag, text: &str| super::bundle(tag, text);
        let mut own = I18n::new();
        match lang {
            Lang::Fr => own.french = bundle("fr", source),
            _ => own.english = bundle("en", source),
        }
        count_slips(&own, lang, "m", &variables)
    };
    assert!(!with(one_hard_coded, Lang::Fr).is_empty(), "0 is not 1");
    assert!(
        !with(spelled, Lang::En).is_empty(),
        "1 is shown as a number"
    );
    assert!(
        with(right, Lang::Fr).is_empty(),
        "{:?}",
        with(right, Lang::Fr)
    );
    assert_eq!(
        count_slips(&i18n, Lang::En, "no-such-key", &variables),
        Vec::<String>::new()
    );
}
