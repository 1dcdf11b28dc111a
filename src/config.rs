//! Configuration: defaults, then a TOML file, then `PAWNPOST_*` variables.
//!
//! Secrets (bot tokens) come only from the file or the environment and are
//! wrapped in [`Secret`], whose `Debug` never shows them, so they cannot
//! end up in logs by accident.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

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

/// Written as `***`: the configuration is serialized only to list its keys.
impl Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str("***")
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
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
    pub tournaments: TournamentsConfig,
    pub limits: LimitsConfig,
    pub delivery: DeliveryConfig,
    pub analysis: AnalysisConfig,
    pub web: WebConfig,
}

/// The web pages (`[web]`): a page per game, and the server-wide pages
/// each server's moderators turn on.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// Whether `pawnpost serve` runs the site beside the bot.
    pub enabled: bool,
    /// The address the site listens on; behind a reverse proxy (TLS),
    /// keep it on the loopback.
    pub listen: String,
    /// The site's address as readers reach it (`https://chess.example.org`):
    /// replies then carry a game's link. Empty: no links.
    pub public_url: String,
    /// Live pages open at once, in all.
    pub max_viewers: u32,
    /// Live pages open at once from one address (behind a proxy, the
    /// proxy's: raise it there).
    pub max_viewers_per_address: u32,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            enabled: false,
            listen: "127.0.0.1:8080".to_owned(),
            public_url: String::new(),
            max_viewers: 5000,
            max_viewers_per_address: 20,
        }
    }
}

impl WebConfig {
    /// The public address, if one is set.
    pub fn public_url(&self) -> Option<String> {
        let url = self.public_url.trim().trim_end_matches('/');
        (!url.is_empty()).then(|| url.to_owned())
    }
}

/// Engine reviews of finished games (`[analysis]`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AnalysisConfig {
    /// The UCI engine (Debian's `stockfish` package installs it at
    /// /usr/games/stockfish); empty: no reviews. A path that does not exist
    /// turns reviews off too, and the commands say so.
    pub engine: String,
    /// Nodes searched per position: fixed, so a review gives the same numbers.
    pub nodes: u64,
    /// Engine threads (1 keeps fixed-node results reproducible).
    pub threads: u32,
    /// Engine hash table in MB.
    pub hash: u32,
    /// Reviews waiting or running at once; more are refused until one ends.
    pub max_queue: u32,
    /// Engines running at once across every process sharing the database
    /// (a process runs one at a time); more reviews are refused until one ends.
    pub max_engines: u32,
    /// The longest one review may take, engine start included: an engine
    /// still busy then is killed and the review refused.
    pub timeout_seconds: u64,
    /// Review every game when it ends and post the review in its channel.
    pub auto_review: bool,
}

impl Default for AnalysisConfig {
    fn default() -> AnalysisConfig {
        let settings = crate::service::ReviewSettings::default();
        AnalysisConfig {
            engine: "/usr/games/stockfish".to_owned(),
            nodes: settings.nodes,
            threads: settings.threads,
            hash: settings.hash_mb,
            max_queue: settings.max_queue as u32,
            max_engines: settings.max_engines,
            timeout_seconds: settings.deadline.as_secs(),
            auto_review: settings.automatic,
        }
    }
}

impl AnalysisConfig {
    /// The review settings the service uses, or why they make no sense.
    /// An engine that is not there means no reviews (said once, at start).
    pub fn to_settings(&self) -> Result<crate::service::ReviewSettings, String> {
        if !(1_000..=100_000_000).contains(&self.nodes) {
            return Err(format!(
                "nodes: {} is not between 1000 and 100000000",
                self.nodes
            ));
        }
        if !(1..=64).contains(&self.threads) || !(1..=4096).contains(&self.hash) {
            return Err("threads must be 1 to 64 and hash 1 to 4096 (MB)".to_owned());
        }
        if self.max_queue == 0 {
            return Err("max_queue must be at least 1".to_owned());
        }
        if !(1..=256).contains(&self.max_engines) {
            return Err("max_engines must be 1 to 256".to_owned());
        }
        if !(1..=86_400).contains(&self.timeout_seconds) {
            return Err("timeout_seconds must be 1 to 86400".to_owned());
        }
        let engine = Some(std::path::PathBuf::from(self.engine.trim()))
            .filter(|path| !path.as_os_str().is_empty());
        let engine = match engine {
            Some(path) if path.is_file() => Some(path),
            Some(path) => {
                tracing::info!(engine = %path.display(), "no engine there: /review is off");
                None
            }
            None => None,
        };
        Ok(crate::service::ReviewSettings {
            engine,
            nodes: self.nodes,
            threads: self.threads,
            hash_mb: self.hash,
            max_queue: self.max_queue as usize,
            max_engines: self.max_engines,
            deadline: std::time::Duration::from_secs(self.timeout_seconds),
            automatic: self.auto_review,
            ..crate::service::ReviewSettings::default()
        })
    }
}

/// How notices reach people (`[delivery]`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DeliveryConfig {
    /// Seconds a user's act is left to the process that received it to
    /// answer, before the outbox delivers what others had to receive (after
    /// a crash, a restart or a failed send).
    pub handoff_seconds: u32,
    /// Seconds at most between two looks for notices other processes
    /// queued for this process's platform (another platform's process
    /// relays the messages of a game between two platforms).
    pub poll_seconds: u32,
}

impl Default for DeliveryConfig {
    fn default() -> DeliveryConfig {
        DeliveryConfig {
            handoff_seconds: 30,
            poll_seconds: 60,
        }
    }
}

/// Bounds on the work one player can make the bot do (`[limits]`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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
        let rules = crate::competition::ladder::LadderSettings::default();
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
    pub fn to_settings(&self) -> Result<crate::competition::ladder::LadderSettings, String> {
        use crate::competition::ladder::{Inactivity, LadderSettings};
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
        Ok(LadderSettings {
            max_places_up: self.max_places_up as usize,
            accept_days: self.accept_days,
            inactive_days: self.inactive_days,
            inactivity,
            time_control: self.time_control.clone(),
            rated: self.rated,
        })
    }
}

/// The most players each tournament system takes (`[tournaments]`); the
/// defaults and the rule are in `competition::tournament::Limits`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TournamentsConfig {
    pub max_round_robin: u32,
    pub max_double_round_robin: u32,
    pub max_scheveningen: u32,
    pub max_swiss: u32,
    pub max_knockout: u32,
}

impl Default for TournamentsConfig {
    fn default() -> TournamentsConfig {
        let limits = crate::competition::tournament::Limits::default();
        TournamentsConfig {
            max_round_robin: limits.round_robin,
            max_double_round_robin: limits.double_round_robin,
            max_scheveningen: limits.scheveningen,
            max_swiss: limits.swiss,
            max_knockout: limits.knockout,
        }
    }
}

impl TournamentsConfig {
    /// The limits the service enforces, or why they make no sense.
    pub fn to_limits(&self) -> Result<crate::competition::tournament::Limits, String> {
        let limits = crate::competition::tournament::Limits {
            round_robin: self.max_round_robin,
            double_round_robin: self.max_double_round_robin,
            scheveningen: self.max_scheveningen,
            swiss: self.max_swiss,
            knockout: self.max_knockout,
        };
        limits.check().map(|()| limits)
    }
}

/// A season: games that ended from `from` to `to` (both days included, UTC).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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
        let glicko = crate::competition::glicko2::RatingSettings::default();
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
    pub fn to_settings(&self) -> crate::competition::glicko2::RatingSettings {
        crate::competition::glicko2::RatingSettings {
            initial_rating: self.initial_rating,
            initial_deviation: self.initial_deviation,
            initial_volatility: self.initial_volatility,
            tau: self.tau,
            min_deviation: self.min_deviation,
            max_deviation: self.max_deviation,
            provisional_deviation: self.provisional_deviation,
            ..crate::competition::glicko2::RatingSettings::default()
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DefaultsConfig {
    /// Language of servers that have not chosen one: `en` or `fr`.
    pub language: Lang,
    /// Time control of challenges that do not name one.
    pub time_control: String,
    /// Days an unanswered challenge stays open.
    pub challenge_expiry_days: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
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

/// Variables read besides `PAWNPOST_<SECTION>_<KEY>`: the names other
/// tools give the same secrets. The `PAWNPOST_` name wins over these.
const ALIASES: &[(&str, &str, &str)] = &[
    ("DISCORD_TOKEN", "discord", "token"),
    ("MATRIX_PASSWORD", "matrix", "password"),
    ("MATRIX_ACCESS_TOKEN", "matrix", "access_token"),
    ("MATRIX_STORE_PASSPHRASE", "matrix", "store_passphrase"),
];

/// `PAWNPOST_` variables that are not configuration: the tests' and
/// benchmarks' own.
const NOT_CONFIGURATION: &[&str] = &[
    "PAWNPOST_TEST_POSTGRES",
    "PAWNPOST_BLESS",
    "PAWNPOST_BENCH_IMAGES",
    "PAWNPOST_TEST_PAUSE_BETWEEN_PARTS",
];

/// One variable that sets a key: its name, the key's section and name, and
/// the key's default (which says what type of value to read).
struct Variable {
    name: String,
    section: String,
    key: String,
    default: serde_json::Value,
}

/// Every variable that sets a key, aliases first (so the `PAWNPOST_` name
/// is applied last and wins). The keys come from the configuration's own
/// structure, so a new key has its variable without being listed here;
/// arrays of tables (`[[seasons]]`) have none.
fn variables() -> Vec<Variable> {
    let sections = match serde_json::to_value(Config::default()) {
        Ok(serde_json::Value::Object(sections)) => sections,
        _ => unreachable!("the configuration serializes to a map of sections"),
    };
    let mut found: Vec<Variable> = ALIASES
        .iter()
        .map(|(name, section, key)| Variable {
            name: (*name).to_owned(),
            section: (*section).to_owned(),
            key: (*key).to_owned(),
            default: serde_json::Value::Null,
        })
        .collect();
    for (section, keys) in sections {
        let serde_json::Value::Object(keys) = keys else {
            continue;
        };
        for (key, default) in keys {
            found.push(Variable {
                name: format!(
                    "PAWNPOST_{}_{}",
                    section.to_ascii_uppercase(),
                    key.to_ascii_uppercase()
                ),
                section: section.clone(),
                key,
                default,
            });
        }
    }
    found
}

/// The TOML values `raw` may stand for, the one the key's default suggests
/// first: the first the configuration accepts is taken.
fn readings(raw: &str, default: &serde_json::Value) -> Vec<toml::Value> {
    use toml::Value;
    let integer = raw.trim().parse::<i64>().ok().map(Value::Integer);
    let float = raw.trim().parse::<f64>().ok().map(Value::Float);
    let boolean = raw.trim().parse::<bool>().ok().map(Value::Boolean);
    let items: Vec<&str> = raw
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .collect();
    let strings = Value::Array(items.iter().map(|i| Value::String((*i).into())).collect());
    let numbers = items
        .iter()
        .map(|i| i.parse::<i64>().ok().map(Value::Integer))
        .collect::<Option<Vec<_>>>()
        .map(Value::Array);
    let text = Some(Value::String(raw.to_owned()));
    let ordered = match default {
        serde_json::Value::Bool(_) => [boolean, text, integer, float, numbers, Some(strings)],
        serde_json::Value::Number(_) => [integer, float, text, boolean, numbers, Some(strings)],
        serde_json::Value::Array(_) => [numbers, Some(strings), text, integer, float, boolean],
        _ => [text, integer, float, boolean, numbers, Some(strings)],
    };
    ordered.into_iter().flatten().collect()
}

fn decode(table: &toml::Table) -> Result<Config, toml::de::Error> {
    Config::deserialize(toml::Value::Table(table.clone()))
}

fn read_table(path: &Path) -> Result<toml::Table, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    text.parse().map_err(|source| ConfigError::Parse {
        path: path.to_path_buf(),
        source: Box::new(source),
    })
}

impl Config {
    /// Loads `path` (or `pawnpost.toml` if present), then applies the environment.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let file = match path {
            Some(path) => Some(path.to_path_buf()),
            None => Some(PathBuf::from(DEFAULT_CONFIG_FILE)).filter(|p| p.exists()),
        };
        let table = match &file {
            None => toml::Table::new(),
            Some(path) => read_table(path)?,
        };
        let file = file.unwrap_or_else(|| PathBuf::from(DEFAULT_CONFIG_FILE));
        Config::from_table(table, &file, |name| std::env::var(name).ok())
    }

    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        Config::from_table(read_table(path)?, path, |_| None)
    }

    /// The configuration `table` holds (read from `file`, or empty), with
    /// every key the environment sets through `var`:
    /// `PAWNPOST_<SECTION>_<KEY>` for any key (lists comma-separated), and
    /// `DISCORD_TOKEN`, `MATRIX_PASSWORD`, `MATRIX_ACCESS_TOKEN` and
    /// `MATRIX_STORE_PASSPHRASE`.
    pub fn from_table(
        mut table: toml::Table,
        file: &Path,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let from_file = |source| ConfigError::Parse {
            path: file.to_path_buf(),
            source: Box::new(source),
        };
        decode(&table).map_err(from_file)?;
        for variable in variables() {
            let Some(raw) = var(&variable.name) else {
                continue;
            };
            let mut refusal = None;
            let accepted = readings(&raw, &variable.default).into_iter().any(|value| {
                set(&mut table, &variable.section, &variable.key, value);
                decode(&table)
                    .map_err(|error| refusal.get_or_insert(error).clone())
                    .is_ok()
            });
            if !accepted {
                return Err(ConfigError::Env {
                    name: variable.name,
                    message: refusal.map(|e| e.message().to_owned()).unwrap_or_default(),
                });
            }
        }
        decode(&table).map_err(from_file)
    }

    /// The names among `names` that look like ours (`PAWNPOST_…`) but set
    /// nothing: a typo the bot would otherwise silently ignore.
    pub fn unknown_variables(names: impl IntoIterator<Item = String>) -> Vec<String> {
        let known: std::collections::HashSet<String> =
            variables().into_iter().map(|v| v.name).collect();
        let mut unknown: Vec<String> = names
            .into_iter()
            .filter(|name| name.starts_with("PAWNPOST_"))
            .filter(|name| !known.contains(name) && !NOT_CONFIGURATION.contains(&name.as_str()))
            .collect();
        unknown.sort();
        unknown
    }
}

/// Sets `section.key` in `table`, making the section if the file has none.
fn set(table: &mut toml::Table, section: &str, key: &str, value: toml::Value) {
    let section = table
        .entry(section)
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(keys) = section {
        keys.insert(key.to_owned(), value);
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
    fn the_web_section_is_set_from_the_environment_too() {
        let env: HashMap<&str, &str> = [
            ("PAWNPOST_WEB_PUBLIC_URL", "https://chess.example.org/"),
            ("PAWNPOST_WEB_LISTEN", "127.0.0.1:9000"),
            ("PAWNPOST_WEB_ENABLED", "true"),
            ("PAWNPOST_WEB_MAX_VIEWERS_PER_ADDRESS", "100"),
        ]
        .into();
        let config = from_env(|name| env.get(name).map(|v| v.to_string())).expect("valid");
        assert!(config.web.enabled);
        assert_eq!(config.web.listen, "127.0.0.1:9000");
        assert_eq!(config.web.max_viewers_per_address, 100);
        assert_eq!(
            config.web.public_url().as_deref(),
            Some("https://chess.example.org")
        );
        assert_eq!(Config::default().web.public_url(), None);
    }

    #[test]
    fn environment_overrides_the_file() {
        let env: HashMap<&str, &str> = [
            ("PAWNPOST_DATABASE_PATH", "/tmp/x.db"),
            ("PAWNPOST_DEFAULTS_LANGUAGE", "fr"),
            ("DISCORD_TOKEN", "abc.def"),
        ]
        .into();
        let config = from_env(|name| env.get(name).map(|v| v.to_string())).expect("valid");
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
            Ok(crate::competition::ladder::LadderSettings::default())
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
    fn tournament_limits_are_read_and_checked() {
        let config: Config =
            toml::from_str("[tournaments]\nmax_round_robin = 12\n").expect("config");
        let limits = config.tournaments.to_limits().expect("limits");
        assert_eq!(limits.round_robin, 12);
        assert_eq!(limits.swiss, 2_000);
        let env: HashMap<&str, &str> = [("PAWNPOST_TOURNAMENTS_MAX_SWISS", "5000")].into();
        let config = from_env(|name| env.get(name).map(|v| v.to_string())).expect("valid");
        assert_eq!(config.tournaments.to_limits().map(|l| l.swiss), Ok(5_000));
        for bad in [
            "max_swiss = 10001",
            "max_round_robin = 2",
            "max_knockout = 1",
        ] {
            let config: Config = toml::from_str(&format!("[tournaments]\n{bad}\n")).expect("toml");
            assert!(config.tournaments.to_limits().is_err(), "{bad}");
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
        assert!(!Config::default().matrix.is_configured());
        let config = from_env(|name| env.get(name).map(|v| v.to_string())).expect("valid");
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

    /// The review's deadline and the database-wide engine limit (issue 42).
    #[test]
    fn analysis_limits_come_from_the_environment_and_are_checked() {
        let env: HashMap<&str, &str> = [
            ("PAWNPOST_ANALYSIS_TIMEOUT_SECONDS", "7"),
            ("PAWNPOST_ANALYSIS_MAX_ENGINES", "3"),
            ("PAWNPOST_ANALYSIS_ENGINE", ""),
        ]
        .into();
        let config = from_env(|name| env.get(name).map(|v| v.to_string())).expect("valid");
        let settings = config.analysis.to_settings().expect("settings");
        assert_eq!(settings.deadline, std::time::Duration::from_secs(7));
        assert_eq!(settings.max_engines, 3);
        for (key, value) in [
            ("timeout_seconds", 0),
            ("max_engines", 0),
            ("max_engines", 257),
        ] {
            let config: Config =
                toml::from_str(&format!("[analysis]\n{key} = {value}\n")).expect("toml");
            assert!(config.analysis.to_settings().is_err(), "{key} = {value}");
        }
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
        let config = from_env(env).expect("valid");
        assert!(matches!(
            config.database.target(),
            Ok(Database::Postgres(_))
        ));
        assert!(
            !format!("{config:?}").contains("secret"),
            "the URL is never shown"
        );
    }

    /// The configuration with no file and the environment `var`.
    fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        Config::from_table(toml::Table::new(), Path::new("pawnpost.toml"), var)
    }

    #[test]
    fn bad_environment_values_are_refused_by_name() {
        for (name, value) in [
            ("PAWNPOST_DEFAULTS_LANGUAGE", "klingon"),
            ("PAWNPOST_BOARD_SIZE", "big"),
            ("PAWNPOST_DISCORD_GUILDS", "12,x"),
        ] {
            let result = from_env(|n| (n == name).then(|| value.to_owned()));
            assert!(
                matches!(&result, Err(ConfigError::Env { name: refused, .. }) if refused == name),
                "{name}={value}: {result:?}"
            );
        }
    }

    /// Every key of every section has its variable, typed as the key is.
    #[test]
    fn every_key_is_set_by_its_variable() {
        let env: HashMap<&str, &str> = [
            ("PAWNPOST_BOARD_SIZE", "240"),
            ("PAWNPOST_BOARD_THEME", "blue"),
            ("PAWNPOST_BOARD_IMAGES", "false"),
            ("PAWNPOST_MATRIX_ALLOWED_INVITERS", "@a:x, @b:y"),
            ("PAWNPOST_DISCORD_GUILDS", "12,34"),
            ("PAWNPOST_DISCORD_THREADS", "true"),
            ("PAWNPOST_RATINGS_TAU", "0.5"),
            ("PAWNPOST_CLOCKS_REMIND_WHEN_USED", "1"),
            ("PAWNPOST_LADDER_TIME_CONTROL", "5d"),
            ("PAWNPOST_MATRIX_PASSWORD", "wins over the alias"),
            ("MATRIX_PASSWORD", "alias"),
        ]
        .into();
        let config = from_env(|name| env.get(name).map(|v| v.to_string())).expect("valid");
        assert_eq!(config.board.size, 240);
        assert_eq!(config.board.theme, "blue");
        assert!(!config.board.images);
        assert_eq!(config.matrix.allowed_inviters, ["@a:x", "@b:y"]);
        assert_eq!(config.discord.guilds, [12, 34]);
        assert!(config.discord.threads);
        assert_eq!(config.ratings.tau, 0.5);
        assert_eq!(config.clocks.remind_when_used, 1.0);
        assert_eq!(config.ladder.time_control, "5d");
        let password = config.matrix.password.expect("password");
        assert_eq!(password.expose(), "wins over the alias");
        let known = variables();
        for section in [
            "database", "defaults", "clocks", "board", "discord", "matrix",
        ] {
            assert!(
                known.iter().any(|v| v.section == section),
                "{section} has variables"
            );
        }
    }

    #[test]
    fn a_variable_that_sets_nothing_is_named() {
        let names = [
            "PAWNPOST_BORAD_SIZE",
            "PAWNPOST_BOARD_SIZE",
            "PAWNPOST_TEST_POSTGRES",
            "HOME",
            "DISCORD_TOKEN",
        ]
        .map(String::from);
        assert_eq!(Config::unknown_variables(names), ["PAWNPOST_BORAD_SIZE"]);
    }

    #[test]
    fn the_environment_overrides_a_file_s_key_and_keeps_the_others() {
        let table: toml::Table = "[board]\nsize = 600\ntheme = \"green\"\n"
            .parse()
            .expect("toml");
        let config = Config::from_table(table, Path::new("f.toml"), |name| {
            (name == "PAWNPOST_BOARD_SIZE").then(|| "300".to_owned())
        })
        .expect("valid");
        assert_eq!(
            (config.board.size, config.board.theme.as_str()),
            (300, "green")
        );
    }
}
