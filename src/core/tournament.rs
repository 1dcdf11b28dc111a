//! The tournament vocabulary the command language and the pairing code
//! share: the pairing systems. The core only names them; how each system
//! pairs and scores is pure code outside the core, which uses the core and
//! is never used by it.

/// The pairing systems, stored and typed by name ([`Named`](super::names::Named)).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum System {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
    Knockout,
    Scheveningen,
}

impl System {
    pub const ALL: [System; 5] = [
        System::RoundRobin,
        System::DoubleRoundRobin,
        System::Swiss,
        System::Knockout,
        System::Scheveningen,
    ];
}
