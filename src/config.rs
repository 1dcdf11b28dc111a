//! Configuration: defaults, then a TOML file, then `PAWNPOST_*` variables.
//!
//! Secrets (bot tokens) come only from the file or the environment and are
//! wrapped in [`Secret`], whose `Debug` never shows them, so they cannot
//! end up in logs by accident.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::core::notation::Lang;

/// The file read when `--config` is not given, if it exists.
pub const DEFAULT_CONFIG_FILE: &str = "pawnpost.toml";

/// A value that must never be printed.
#[derive(Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub database: DatabaseConfig,
    pub defaults: DefaultsConfig,
    pub clocks: ClocksConfig,
    pub board: BoardConfig,
    pub discord: DiscordConfig,
    pub matrix: MatrixConfig,
    pub ratings: RatingsConfig,
    /// `[[seasons]]`: named date ranges for `standings season:NAME`.
    pub seasons: Vec<SeasonConfig>,
    pub ladder: LadderConfig,
    pub limits: LimitsConfig,
    pub delivery: DeliveryConfig,
}

/// How notices reach people (`[delivery]`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DeliveryConfig {
    /// Seconds a user's act is left to the process that received it to
    /// answer, before the outbox delivers what others had to receive (after
    /// a crash, a restart or a failed send).
    pub handoff_seconds: u32,
}

impl Default for DeliveryConfig {
    fn default() -> DeliveryConfig {
        DeliveryConfig {
            handoff_seconds: 30,
        }
    }
}

/// Bounds on the work one player can make the bot do (`[limits]`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// Open challenges one player may have at once, in every channel and
    /// server; 0 lifts the limit.
    pub open_challenges_per_player: u32,
    /// Game GIFs (`/gif`) one player may ask for per hour; 0 lifts the
    /// limit. A player never has two drawn at once.
    pub gifs_per_player_per_hour: u32,
    /// Game GIFs this process draws at once, each on its own thread.
    pub concurrent_gifs: u32,
}

impl Default for LimitsConfig {
    fn default() -> LimitsConfig {
        let renders = crate::service::RenderLimits::default();
        LimitsConfig {
            open_challenges_per_player: 20,
            gifs_per_player_per_hour: renders.per_player_per_hour,
            concurrent_gifs: renders.concurrent as u32,
        }
    }
}

impl LimitsConfig {
    /// The render bounds the service uses, or why they make no sense.
    pub fn to_render_limits(&self) -> Result<crate::service::RenderLimits, String> {
        if self.concurrent_gifs == 0 {
            return Err("concurrent_gifs must be at least 1".to_owned());
        }
        Ok(crate::service::RenderLimits {
            per_player_per_hour: self.gifs_per_player_per_hour,
            concurrent: self.concurrent_gifs as usize,
        })
    }
}

/// The challenge ladder (`[ladder]`); the rules are in `competition::ladder`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct LadderConfig {
    /// How many places up a player may challenge.
    pub max_places_up: u32,
    /// Days the challenged player has to accept before forfeiting their place.
    pub accept_days: u32,
    /// Days without a ladder game before a player is inactive; 0: never.
    pub inactive_days: u32,
    /// `drop` (down `inactive_drop` places) or `remove` (off the ladder).
    pub inactive_action: String,
    /// Places an inactive player drops.
    pub inactive_drop: u32,
    /// The time control of ladder games (`3d`, `30d+1d`, ...).
    pub time_control: String,
    /// Whether ladder games are rated.
    pub rated: bool,
}

impl Default for LadderConfig {
    fn default() -> LadderConfig {
        let rules = crate::competition::ladder::Settings::default();
        LadderConfig {
            max_places_up: rules.max_places_up as u32,
            accept_days: rules.accept_days,
            inactive_days: rules.inactive_days,
            inactive_action: "drop".to_owned(),
            inactive_drop: match rules.inactivity {
                crate::competition::ladder::Inactivity::Drop(places) => places as u32,
                crate::competition::ladder::Inactivity::Remove => 3,
            },
            time_control: rules.time_control,
            rated: rules.rated,
        }
    }
}

impl LadderConfig {
    /// The settings the ladder code uses, or why they make no sense.
    pub fn to_settings(&self) -> Result<crate::competition::ladder::Settings, String> {
        use crate::competition::ladder::{Inactivity, Settings};
        let inactivity = match self.inactive_action.as_str() {
            "drop" => Inactivity::Drop(self.inactive_drop as usize),
            "remove" => Inactivity::Remove,
            other => {
                return Err(format!(
                    "inactive_action: expected drop or remove, not {other:?}"
                ));
            }
        };
        if self.max_places_up == 0 || self.accept_days == 0 {
            return Err("max_places_up and accept_days must be at least 1".to_owned());
        }
        if self
            .time_control
            .parse::<crate::core::clock::TimeControl>()
            .is_err()
        {
            return Err(format!("time_control: cannot read {:?}", self.time_control));
        }
        Ok(Settings {
            max_places_up: self.max_places_up as usize,
            accept_days: self.accept_days,
            inactive_days: self.inactive_days,
            inactivity,
            time_control: self.time_control.clone(),
            rated: self.rated,
        })
    }
}

/// A season: games that ended from `from` to `to` (both days included, UTC).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SeasonConfig {
    pub name: String,
    pub from: chrono::NaiveDate,
    pub to: chrono::NaiveDate,
}

impl SeasonConfig {
    pub fn to_season(&self) -> crate::competition::standings::Season {
        let start = |day: chrono::NaiveDate| day.and_time(chrono::NaiveTime::MIN).and_utc();
        crate::competition::standings::Season {
            name: self.name.clone(),
            from: start(self.from),
            to: start(self.to) + chrono::Duration::days(1),
        }
    }
}

/// Glicko-2 settings (`[ratings]`); the defaults are lichess's.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RatingsConfig {
    pub initial_rating: f64,
    pub initial_deviation: f64,
    pub initial_volatility: f64,
    pub tau: f64,
    pub min_deviation: f64,
    pub max_deviation: f64,
    /// A rating shows as provisional (`1620?`) while its deviation is above this.
    pub provisional_deviation: f64,
}

impl Default for RatingsConfig {
    fn default() -> RatingsConfig {
        let glicko = crate::competition::glicko2::Settings::default();
        RatingsConfig {
            initial_rating: glicko.initial_rating,
            initial_deviation: glicko.initial_deviation,
            initial_volatility: glicko.initial_volatility,
            tau: glicko.tau,
            min_deviation: glicko.min_deviation,
            max_deviation: glicko.max_deviation,
            provisional_deviation: glicko.provisional_deviation,
        }
    }
}

impl RatingsConfig {
    /// The settings the rating code uses.
    pub fn to_settings(&self) -> crate::competition::glicko2::Settings {
        crate::competition::glicko2::Settings {
            initial_rating: self.initial_rating,
            initial_deviation: self.initial_deviation,
            initial_volatility: self.initial_volatility,
            tau: self.tau,
            min_deviation: self.min_deviation,
            max_deviation: self.max_deviation,
            provisional_deviation: self.provisional_deviation,
            ..crate::competition::glicko2::Settings::default()
        }
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct BoardConfig {
    /// Attach a PNG of the board to every reply that shows a position.
    pub images: bool,
    /// The board's width in pixels, 240 to 1024.
    pub size: u32,
    /// `brown`, `blue`, `green` or `colorblind`.
    pub theme: String,
}

impl Default for BoardConfig {
    fn default() -> BoardConfig {
        BoardConfig {
            images: true,
            size: 480,
            theme: "brown".to_owned(),
        }
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ClocksConfig {
    /// Remind the player to move when this share of the time for the move is
    /// used (0.8 = 80%); 0 turns this reminder off.
    pub remind_when_used: f64,
    /// Remind the player to move this many hours before the flag; 0 turns it off.
    pub remind_hours_before_flag: u32,
    /// A gap longer than this many minutes since the bot last ran is an
    /// outage: running clocks get the time back.
    pub outage_threshold_minutes: u32,
    /// Days of leave each player may take per server and calendar year.
    pub leave_days_per_year: u32,
}

impl Default for ClocksConfig {
    fn default() -> ClocksConfig {
        ClocksConfig {
            remind_when_used: 0.8,
            remind_hours_before_flag: 24,
            outage_threshold_minutes: 10,
            leave_days_per_year: 45,
        }
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// The SQLite file (when `url` is not set).
    pub path: PathBuf,
    /// `sqlite:FILE` or `postgres://user:password@host:port/db`; takes the
    /// place of `path`. A secret: it may hold a password.
    pub url: Option<Secret>,
    /// Connections each process keeps to PostgreSQL.
    pub pool_size: usize,
}

/// Which database the configuration names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    /// The URL, kept away from logs.
    Postgres(Secret),
}

impl DatabaseConfig {
    /// The database `url` names, else the SQLite file at `path`.
    pub fn target(&self) -> Result<Database, ConfigError> {
        match &self.url {
            None => Ok(Database::Sqlite(self.path.clone())),
            Some(url) => Database::from_url(url.expose()),
        }
    }
}

impl Database {
    /// `sqlite:FILE` (or `sqlite://FILE`), `postgres://...` or `postgresql://...`.
    pub fn from_url(url: &str) -> Result<Database, ConfigError> {
        if let Some(file) = url.strip_prefix("sqlite:") {
            let file = file.strip_prefix("//").unwrap_or(file);
            if file.is_empty() {
                return Err(ConfigError::Url("sqlite: needs a file name".to_owned()));
            }
            return Ok(Database::Sqlite(PathBuf::from(file)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Database::Postgres(Secret::new(url)));
        }
        Err(ConfigError::Url(
            "expected sqlite:FILE or postgres://user@host/db".to_owned(),
        ))
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DefaultsConfig {
    /// Language of servers that have not chosen one: `en` or `fr`.
    pub language: Lang,
    /// Time control of challenges that do not name one.
    pub time_control: String,
    /// Days an unanswered challenge stays open.
    pub challenge_expiry_days: u32,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// The bot token; prefer the `DISCORD_TOKEN` variable.
    pub token: Option<Secret>,
    /// Where REST calls and the gateway lookup go instead of Discord
    /// (`http://127.0.0.1:8080`): a proxy, or a fake Discord in tests.
    pub api_base: Option<String>,
    /// Which shards this process runs: `auto` (Discord's recommendation),
    /// a total (`4`: all of 4), or a range of a total (`0-3/8`).
    pub shards: String,
    /// Register the commands in these guilds only (instant, for testing);
    /// empty registers them globally.
    pub guilds: Vec<u64>,
    /// Commands one user may send per minute; 0 lifts the limit.
    pub rate_limit_per_minute: u32,
    /// Role ids whose members moderate (besides Manage Server holders).
    pub moderator_roles: Vec<u64>,
    /// Open a thread for each new game, named after its players.
    pub threads: bool,
}

impl Default for DiscordConfig {
    fn default() -> DiscordConfig {
        DiscordConfig {
            token: None,
            api_base: None,
            shards: "auto".to_owned(),
            guilds: Vec::new(),
            rate_limit_per_minute: 20,
            moderator_roles: Vec::new(),
            threads: false,
        }
    }
}

/// The Matrix bot account. Matrix runs when `homeserver` and `user_id` are set.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MatrixConfig {
    /// The homeserver's client URL (`https://matrix.example.org`).
    pub homeserver: Option<String>,
    /// The bot's account (`@pawnpost:example.org`).
    pub user_id: Option<String>,
    /// The account's password, used for the first login only; prefer the
    /// `MATRIX_PASSWORD` variable.
    pub password: Option<Secret>,
    /// An access token instead of a password (with `device_id`); prefer the
    /// `MATRIX_ACCESS_TOKEN` variable.
    pub access_token: Option<Secret>,
    /// The device the access token belongs to.
    pub device_id: Option<String>,
    /// The name other users see for the bot's device.
    pub device_name: String,
    /// The directory for the session and matrix-sdk's state and crypto stores.
    pub store_path: PathBuf,
    /// Encrypts the stores at rest when set; prefer `MATRIX_STORE_PASSPHRASE`.
    pub store_passphrase: Option<Secret>,
    /// The word that starts a command (`!chess move e4`).
    pub prefix: String,
    /// Invitations accepted only from these users (`@alice:example.org`) or
    /// servers (`example.org`); empty accepts every invitation.
    pub allowed_inviters: Vec<String>,
    /// The community for standings of rooms outside any space (default: the
    /// bot's homeserver name).
    pub server: Option<String>,
}

impl MatrixConfig {
    /// Whether the Matrix bot should run.
    pub fn is_configured(&self) -> bool {
        self.homeserver.is_some() && self.user_id.is_some()
    }
}

impl Default for MatrixConfig {
    fn default() -> MatrixConfig {
        MatrixConfig {
            homeserver: None,
            user_id: None,
            password: None,
            access_token: None,
            device_id: None,
            device_name: "pawnpost".to_owned(),
            store_path: PathBuf::from("matrix-store"),
            store_passphrase: None,
            prefix: "!chess".to_owned(),
            allowed_inviters: Vec::new(),
            server: None,
        }
    }
}

impl Default for DatabaseConfig {
    fn default() -> DatabaseConfig {
        DatabaseConfig {
            path: PathBuf::from("pawnpost.db"),
            url: None,
            pool_size: 16,
        }
    }
}

impl Default for DefaultsConfig {
    fn default() -> DefaultsConfig {
        DefaultsConfig {
            language: Lang::En,
            time_control: "3d".to_owned(),
            challenge_expiry_days: 7,
        }
    }
}

/// Why the configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Parse {
        path: PathBuf,
        source: Box<toml::de::Error>,
    },
    #[error("database url: {0}")]
    Url(String),
    #[error("environment variable {name}: {message}")]
    Env { name: String, message: String },
}

impl Config {
    /// Loads `path` (or `pawnpost.toml` if present), then applies the environment.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let file = match path {
            Some(path) => Some(path.to_path_buf()),
            None => Some(PathBuf::from(DEFAULT_CONFIG_FILE)).filter(|p| p.exists()),
        };
        let mut config = match file {
            None => Config::default(),
            Some(path) => Config::from_file(&path)?,
        };
        config.apply_env(|name| std::env::var(name).ok())?;
        Ok(config)
    }

    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        toml::from_str(&text).map_err(|source| ConfigError::Parse {
            path: path.to_path_buf(),
            source: Box::new(source),
        })
    }

    /// Applies `PAWNPOST_*` overrides (and `DISCORD_TOKEN`) read through `var`.
    pub fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(path) = var("PAWNPOST_DATABASE_PATH") {
            self.database.path = PathBuf::from(path);
        }
        if let Some(url) = var("PAWNPOST_DATABASE_URL") {
            self.database.url = Some(Secret::new(url));
        }
        if let Some(size) = var("PAWNPOST_DATABASE_POOL_SIZE") {
            self.database.pool_size = size.parse().map_err(|_| ConfigError::Env {
                name: "PAWNPOST_DATABASE_POOL_SIZE".to_owned(),
                message: format!("not a number of connections: {size:?}"),
            })?;
        }
        if let Some(tag) = var("PAWNPOST_DEFAULTS_LANGUAGE") {
            self.defaults.language = Lang::from_locale(&tag).ok_or_else(|| ConfigError::Env {
                name: "PAWNPOST_DEFAULTS_LANGUAGE".to_owned(),
                message: format!("unknown language {tag:?}"),
            })?;
        }
        if let Some(control) = var("PAWNPOST_DEFAULTS_TIME_CONTROL") {
            self.defaults.time_control = control;
        }
        if let Some(days) = var("PAWNPOST_DEFAULTS_CHALLENGE_EXPIRY_DAYS") {
            self.defaults.challenge_expiry_days = days.parse().map_err(|_| ConfigError::Env {
                name: "PAWNPOST_DEFAULTS_CHALLENGE_EXPIRY_DAYS".to_owned(),
                message: format!("not a number of days: {days:?}"),
            })?;
        }
        if let Some(seconds) = var("PAWNPOST_DELIVERY_HANDOFF_SECONDS") {
            self.delivery.handoff_seconds = seconds.parse().map_err(|_| ConfigError::Env {
                name: "PAWNPOST_DELIVERY_HANDOFF_SECONDS".to_owned(),
                message: format!("not a number of seconds: {seconds:?}"),
            })?;
        }
        if let Some(base) = var("PAWNPOST_DISCORD_API_BASE") {
            self.discord.api_base = Some(base);
        }
        if let Some(shards) = var("PAWNPOST_DISCORD_SHARDS") {
            self.discord.shards = shards;
        }
        if let Some(token) = var("PAWNPOST_DISCORD_TOKEN").or_else(|| var("DISCORD_TOKEN")) {
            self.discord.token = Some(Secret::new(token));
        }
        self.apply_matrix_env(&var);
        Ok(())
    }

    /// `PAWNPOST_MATRIX_*`, and the usual `MATRIX_PASSWORD`,
    /// `MATRIX_ACCESS_TOKEN` and `MATRIX_STORE_PASSPHRASE` for secrets.
    fn apply_matrix_env(&mut self, var: &impl Fn(&str) -> Option<String>) {
        let matrix = &mut self.matrix;
        let either = |name: &str| var(&format!("PAWNPOST_{name}")).or_else(|| var(name));
        if let Some(url) = var("PAWNPOST_MATRIX_HOMESERVER") {
            matrix.homeserver = Some(url);
        }
        if let Some(user) = var("PAWNPOST_MATRIX_USER_ID") {
            matrix.user_id = Some(user);
        }
        if let Some(device) = var("PAWNPOST_MATRIX_DEVICE_ID") {
            matrix.device_id = Some(device);
        }
        if let Some(path) = var("PAWNPOST_MATRIX_STORE_PATH") {
            matrix.store_path = PathBuf::from(path);
        }
        if let Some(prefix) = var("PAWNPOST_MATRIX_PREFIX") {
            matrix.prefix = prefix;
        }
        if let Some(password) = either("MATRIX_PASSWORD") {
            matrix.password = Some(Secret::new(password));
        }
        if let Some(token) = either("MATRIX_ACCESS_TOKEN") {
            matrix.access_token = Some(Secret::new(token));
        }
        if let Some(passphrase) = either("MATRIX_STORE_PASSPHRASE") {
            matrix.store_passphrase = Some(Secret::new(passphrase));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn the_example_file_parses_and_matches_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
        let config = Config::from_file(&path).expect("example parses");
        assert_eq!(config, Config::default());
    }

    #[test]
    fn environment_overrides_the_file() {
        let env: HashMap<&str, &str> = [
            ("PAWNPOST_DATABASE_PATH", "/tmp/x.db"),
            ("PAWNPOST_DEFAULTS_LANGUAGE", "fr"),
            ("DISCORD_TOKEN", "abc.def"),
        ]
        .into();
        let mut config = Config::default();
        config
            .apply_env(|name| env.get(name).map(|v| v.to_string()))
            .expect("valid");
        assert_eq!(config.database.path, PathBuf::from("/tmp/x.db"));
        assert_eq!(config.defaults.language, Lang::Fr);
        let token = config.discord.token.expect("token");
        assert_eq!(token.expose(), "abc.def");
        // The token never shows in debug output.
        assert!(!format!("{token:?}").contains("abc"));
    }

    #[test]
    fn ladder_settings_are_read_and_checked() {
        use crate::competition::ladder::Inactivity;
        let config: Config = toml::from_str(
            "[ladder]\nmax_places_up = 2\ninactive_action = \"remove\"\ntime_control = \"5d\"\n",
        )
        .expect("config");
        let settings = config.ladder.to_settings().expect("settings");
        assert_eq!(settings.max_places_up, 2);
        assert_eq!(settings.inactivity, Inactivity::Remove);
        assert_eq!(settings.accept_days, 3);
        assert_eq!(
            LadderConfig::default().to_settings(),
            Ok(crate::competition::ladder::Settings::default())
        );
        for bad in [
            "inactive_action = \"fly\"",
            "time_control = \"soon\"",
            "accept_days = 0",
        ] {
            let config: Config = toml::from_str(&format!("[ladder]\n{bad}\n")).expect("toml");
            assert!(config.ladder.to_settings().is_err(), "{bad}");
        }
    }

    #[test]
    fn matrix_comes_from_the_environment_and_hides_its_secrets() {
        let env: HashMap<&str, &str> = [
            ("PAWNPOST_MATRIX_HOMESERVER", "http://127.0.0.1:8008"),
            ("PAWNPOST_MATRIX_USER_ID", "@bot:localhost"),
            ("MATRIX_PASSWORD", "hunter2"),
            ("PAWNPOST_MATRIX_PREFIX", "!echecs"),
        ]
        .into();
        let mut config = Config::default();
        assert!(!config.matrix.is_configured());
        config
            .apply_env(|name| env.get(name).map(|v| v.to_string()))
            .expect("valid");
        assert!(config.matrix.is_configured());
        assert_eq!(config.matrix.prefix, "!echecs");
        assert!(!format!("{config:?}").contains("hunter2"));
    }

    #[test]
    fn limits_are_read_and_checked() {
        let config: Config = toml::from_str(
            "[limits]\nopen_challenges_per_player = 5\ngifs_per_player_per_hour = 0\n",
        )
        .expect("config");
        assert_eq!(config.limits.open_challenges_per_player, 5);
        let renders = config.limits.to_render_limits().expect("limits");
        assert_eq!(renders.per_player_per_hour, 0);
        assert_eq!(renders.concurrent, 2);
        assert_eq!(LimitsConfig::default().open_challenges_per_player, 20);
        let none: Config = toml::from_str("[limits]\nconcurrent_gifs = 0\n").expect("toml");
        assert!(none.limits.to_render_limits().is_err());
    }

    #[test]
    fn seasons_include_both_end_days() {
        let config: Config = toml::from_str(
            "[[seasons]]\nname = \"2026\"\nfrom = \"2026-01-01\"\nto = \"2026-12-31\"\n",
        )
        .expect("parses");
        let season = config.seasons[0].to_season();
        assert_eq!(season.from.to_rfc3339(), "2026-01-01T00:00:00+00:00");
        assert_eq!(season.to.to_rfc3339(), "2027-01-01T00:00:00+00:00");
    }

    #[test]
    fn the_database_url_picks_the_store() {
        let cases = [
            ("sqlite:games.db", Some(Database::Sqlite("games.db".into()))),
            (
                "sqlite:///srv/p.db",
                Some(Database::Sqlite("/srv/p.db".into())),
            ),
            (
                "postgres://bot:pw@127.0.0.1:5432/pawnpost",
                Some(Database::Postgres(Secret::new(
                    "postgres://bot:pw@127.0.0.1:5432/pawnpost",
                ))),
            ),
            (
                "postgresql://db/pawnpost",
                Some(Database::Postgres(Secret::new("postgresql://db/pawnpost"))),
            ),
            ("sqlite:", None),
            ("mysql://db", None),
            ("games.db", None),
        ];
        for (url, expected) in cases {
            assert_eq!(Database::from_url(url).ok(), expected, "{url}");
        }
        // Without a url, the old `path` key still names the SQLite file.
        let config: Config = toml::from_str("[database]\npath = \"old.db\"").expect("parse");
        assert_eq!(
            config.database.target().expect("target"),
            Database::Sqlite("old.db".into())
        );
        let env = |name: &str| {
            (name == "PAWNPOST_DATABASE_URL").then(|| "postgres://u:secret@h/db".to_owned())
        };
        let mut config = Config::default();
        config.apply_env(env).expect("valid");
        assert!(matches!(
            config.database.target(),
            Ok(Database::Postgres(_))
        ));
        assert!(
            !format!("{config:?}").contains("secret"),
            "the URL is never shown"
        );
    }

    #[test]
    fn bad_environment_values_are_refused() {
        let mut config = Config::default();
        let result = config
            .apply_env(|name| (name == "PAWNPOST_DEFAULTS_LANGUAGE").then(|| "klingon".to_owned()));
        assert!(result.is_err());
    }
}
