//! The names enums are stored and typed by (`"discord"`, `"dead_position"`,
//! `"+-"`): derived with strum (`IntoStaticStr` one way, `EnumString` the
//! other) rather than written twice by hand, and read through one trait.
//!
//! Stored names are in databases: they never change. `tests/stored_names.rs`
//! lists every variant's name.

use std::str::FromStr;

/// An enum known by a fixed name per variant.
///
/// Every `Copy` type with derived `IntoStaticStr` and `EnumString` has it:
///
/// ```
/// use pawnpost::core::names::Named;
/// use pawnpost::core::platform::Platform;
///
/// assert_eq!(Platform::Discord.as_str(), "discord");
/// assert_eq!(Platform::from_name("matrix"), Some(Platform::Matrix));
/// assert_eq!(Platform::from_name("Matrix"), None);
/// ```
pub trait Named: Sized {
    /// The variant's name.
    // By value, like every `as_str` of these small `Copy` enums before it.
    #[allow(clippy::wrong_self_convention)]
    fn as_str(self) -> &'static str;
    /// The variant of this exact name (case matters), if any.
    fn from_name(name: &str) -> Option<Self>;
}

impl<T> Named for T
where
    T: Copy + Into<&'static str> + FromStr,
{
    fn as_str(self) -> &'static str {
        self.into()
    }

    fn from_name(name: &str) -> Option<T> {
        name.parse().ok()
    }
}
