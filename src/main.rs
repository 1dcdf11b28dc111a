//! The `pawnpost` binary: parse the command line, load the configuration,
//! open the store and run what was asked.

use std::io::{BufReader, IsTerminal};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Duration, Utc};
use clap::{Parser, Subcommand};
use std::sync::Arc;

use pawnpost::adapters::console::{self, ConsoleOptions};
use pawnpost::adapters::discord::{Bot, DiscordOptions};
use pawnpost::adapters::web;
use pawnpost::config::{Config, Database};
use pawnpost::render::{BoardOptions, Theme};
use pawnpost::scheduler;
use pawnpost::service::{Service, ServiceConfig, SystemTime, TimeSource, check};
use pawnpost::storage::Store;
use pawnpost::storage::postgres::PgStore;
use pawnpost::storage::sqlite::SqliteStore;
use pawnpost::storage::transfer;

/// The version and the commit the binary was built from (see `build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("PAWNPOST_COMMIT"),
    ")"
);

/// A correspondence chess bot for Discord, Matrix and the console.
#[derive(Parser)]
#[command(version = VERSION, about)]
struct Cli {
    /// The configuration file (default: pawnpost.toml if it exists).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// How log lines are written on stderr: `text` for people (coloured
    /// only on a terminal), `json` for a log collector (one object a line).
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot on the configured chat platforms.
    Serve,
    /// Play from the terminal or a script.
    Console(ConsoleArgs),
    /// Create or upgrade the database, then exit; with --from and --to,
    /// copy everything from a SQLite file into an empty PostgreSQL database.
    Migrate {
        /// The SQLite file (default: from the configuration).
        #[arg(long, conflicts_with_all = ["from", "to"])]
        db: Option<PathBuf>,
        /// The database to copy from: sqlite:FILE.
        #[arg(long, requires = "to")]
        from: Option<String>,
        /// The database to copy into: postgres://user@host:port/db.
        #[arg(long, requires = "from")]
        to: Option<String>,
    },
    /// Read FENs on stdin, one per line, and print for each who can still
    /// mate: `WB`, `W-`, `-B` or `--`, then each side's helpmate in UCI.
    /// Quick by default (cheap, presumes a mate with plenty of material:
    /// `?`); `--full` searches for a proof either way with a larger budget.
    Unwinnable {
        #[arg(long)]
        full: bool,
    },
    /// Draw a position as a PNG board image.
    Render(RenderArgs),
    /// Check the database for damage, then exit (status 1 if any is
    /// found): SQLite's full integrity_check and rows naming missing rows,
    /// then every game replayed from its start (only the replay on
    /// PostgreSQL): a lost move or one the rules refuse is named by game and ply.
    Check {
        /// The SQLite file (default: from the configuration).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Copy the SQLite database into FILE while the bot runs (SQLite's
    /// online backup: the copy is the database as it was when the backup
    /// began, checked with integrity_check). For PostgreSQL, use pg_dump.
    Backup {
        /// The file to write (replaced if it exists).
        file: PathBuf,
        /// The SQLite file to copy (default: from the configuration).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// List the stored games: number, players, moves and state.
    Games(GameSelection),
    /// Write the stored games as one PGN file (to stdout without --output).
    Export {
        #[command(flatten)]
        selection: GameSelection,
        /// The PGN file to write.
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Store the finished games of a PGN file (lichess, chess.com, another
    /// bot, `pawnpost export`) as unrated games of a channel, with their
    /// results and how they ended as recorded. Players are named by the
    /// record. Unfinished games are listed, to be continued in chat
    /// (`/challenge @opponent pgn:"…"`). Importing a file again adds only
    /// what it did not hold before.
    Import(ImportArgs),
    /// Run the web pages alone over the database (beside bots in other
    /// processes, or to look at console games): `[web]` in the configuration.
    Web {
        /// The SQLite file (default: from the configuration).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The address to listen on (default: `[web] listen`); port 0
        /// picks a free one. The address taken is printed on stdout.
        #[arg(long)]
        listen: Option<String>,
    },
    /// Print a game as PGN.
    Pgn {
        game: i64,
        /// The SQLite file (default: from the configuration).
        #[arg(long)]
        db: Option<PathBuf>,
    },
}

/// Which games `games` and `export` take: all of them by default.
#[derive(clap::Args)]
struct GameSelection {
    /// Only the games this player (by display name) played.
    #[arg(long)]
    player: Option<String>,
    /// Only the games of this tournament (its number).
    #[arg(long)]
    tournament: Option<i64>,
    /// The SQLite file (default: from the configuration).
    #[arg(long)]
    db: Option<PathBuf>,
}

#[derive(clap::Args)]
struct ImportArgs {
    /// The PGN file (UTF-8; any number of games).
    file: PathBuf,
    /// The platform whose players the record's names are: console, discord
    /// or matrix.
    #[arg(long, default_value = "console")]
    platform: String,
    /// The server the games count for, as the platform names it (a Discord
    /// guild id; `console` for the console's).
    #[arg(long, default_value = "console")]
    server: String,
    /// The channel the games belong to, as the platform names it.
    #[arg(long, default_value = "main")]
    channel: String,
    /// The SQLite file (default: from the configuration).
    #[arg(long)]
    db: Option<PathBuf>,
}

#[derive(clap::Args)]
struct RenderArgs {
    /// The position.
    #[arg(long)]
    fen: String,
    /// The board's width in pixels (240 to 1024).
    #[arg(long, default_value_t = 480)]
    size: u32,
    /// Show the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// The move that led to the position, in UCI (e2e4), highlighted; refused
    /// unless the piece on its destination could have come from its origin.
    #[arg(long)]
    last_move: Option<String>,
    /// brown, blue, green or colorblind.
    #[arg(long, default_value = "brown")]
    theme: String,
    /// Leave out the file letters and rank digits.
    #[arg(long)]
    no_coordinates: bool,
    /// The PNG file to write.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
}

#[derive(clap::Args, Default)]
struct ConsoleArgs {
    /// The SQLite file (default: from the configuration).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Read acts from this file instead of the terminal.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Print one JSON object per reply.
    #[arg(long)]
    json: bool,
    /// Simulate the clock, starting at this RFC 3339 instant.
    #[arg(long)]
    now: Option<String>,
    /// Write every file the bot would send (board PNGs, GIFs, standings and
    /// rating charts) into this directory, as `line-NNNN-R-NAME`.
    #[arg(long, visible_alias = "files")]
    boards: Option<PathBuf>,
}

/// What a running bot logs when `RUST_LOG` is not set: its own progress
/// (connected, ready, flags attended), the libraries' warnings, and none of
/// matrix-sdk's routine noise: every failed request is an ERROR in its HTTP
/// client (a 404 for account data not set yet at each start; failures that
/// matter are logged by the bot itself, with what was being sent), and the
/// key backup the bot does not use warns on every room key.
const SERVE_LOG: &str = "info,matrix_sdk=warn,matrix_sdk_base=warn,matrix_sdk_crypto=warn,\
    matrix_sdk::http_client=off,matrix_sdk_crypto::backups=error,\
    matrix_sdk::encryption::backups=error,serenity=warn";

fn main() -> Result<()> {
    let cli = Cli::parse();
    if let Some(Command::Unwinnable { full }) = cli.command {
        // Pure analysis: no configuration, store or runtime.
        return run_unwinnable(full);
    }
    let config = Config::load(cli.config.as_deref())?;
    let serving = match &cli.command {
        Some(Command::Serve) => true,
        None => config.discord.token.is_some() || config.matrix.is_configured(),
        Some(_) => false,
    };
    init_logging(cli.log_format, if serving { SERVE_LOG } else { "warn" });
    for name in
        Config::unknown_variables(std::env::vars_os().filter_map(|(k, _)| k.into_string().ok()))
    {
        tracing::warn!(
            variable = name,
            "no configuration key has this name: ignored"
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
    match runtime.block_on(run(cli.command, config)) {
        // `pawnpost games | head`: the reader had enough, nothing failed.
        Err(error) if reader_left(&error) => Ok(()),
        result => result,
    }
}

/// Whether `error` comes from writing to a pipe whose reader closed it.
fn reader_left(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes `text` to standard output as a `Result` (`print!` panics when
/// the reader of a pipe has gone).
fn emit(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Logs go to stderr, filtered by `RUST_LOG` or else by `default_filter`;
/// colours only when stderr is a terminal (not in a journal or a file).
fn init_logging(format: LogFormat, default_filter: &str) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| default_filter.into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => logs.json().init(),
    }
}

async fn run(command: Option<Command>, config: Config) -> Result<()> {
    match command {
        Some(Command::Serve) => serve(&config).await,
        Some(Command::Unwinnable { full }) => run_unwinnable(full),
        Some(Command::Console(args)) => run_console(&config, args).await,
        Some(Command::Migrate { db, from, to }) => match (from, to) {
            (Some(from), Some(to)) => copy_database(&config, &from, &to).await,
            _ => {
                let version = match open_store(&config, db.as_ref()).await? {
                    Opened::Sqlite(store) => store.schema_version()?,
                    Opened::Postgres(store) => store.schema_version().await?,
                };
                println!("database schema version {version}");
                Ok(())
            }
        },
        Some(Command::Render(args)) => render(&args),
        Some(Command::Check { db }) => check(&config, db.as_ref()).await,
        Some(Command::Backup { file, db }) => backup(&config, db, &file),
        Some(Command::Games(selection)) => list_games(&config, &selection).await,
        Some(Command::Export { selection, output }) => {
            export_games(&config, &selection, output.as_deref()).await
        }
        Some(Command::Import(args)) => import_games(&config, &args).await,
        Some(Command::Web { db, listen }) => web_alone(&config, db.as_ref(), listen).await,
        Some(Command::Pgn { game, db }) => {
            let store = open_store(&config, db.as_ref()).await?.into_store();
            print_pgn(&service(&config, store)?, game).await
        }
        None if config.discord.token.is_some() || config.matrix.is_configured() => {
            serve(&config).await
        }
        None => {
            eprintln!(
                "No Discord token configured: playing in the console on {}.\n\
                 Type `alice: /challenge @bob`, then `bob: /accept`, `alice: /move e4` ... \
                 (`alice: /help` lists the commands; Ctrl-D quits).\n\
                 To run the bot, set DISCORD_TOKEN (see README.md).",
                database_label(&config)?
            );
            run_console(&config, ConsoleArgs::default()).await
        }
    }
}

fn render(args: &RenderArgs) -> Result<()> {
    let theme = Theme::from_name(&args.theme).with_context(|| {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        format!("no theme {:?}; themes: {}", args.theme, names.join(", "))
    })?;
    let options = BoardOptions {
        size: args.size,
        orientation: if args.flip {
            shakmaty::Color::Black
        } else {
            shakmaty::Color::White
        },
        coordinates: !args.no_coordinates,
        theme,
        caption: None,
    };
    let png = pawnpost::render::board_png(&args.fen, args.last_move.as_deref(), &options)?;
    std::fs::write(&args.output, png).with_context(|| format!("writing {}", args.output.display()))
}

async fn serve(config: &Config) -> Result<()> {
    let discord = config.discord.token.is_some();
    let matrix = config.matrix.is_configured();
    if !discord && !matrix {
        bail!(
            "no chat platform is configured: set DISCORD_TOKEN or the [matrix] section (see README.md)"
        );
    }
    let opened = open_store(config, None).await?;
    let database = database_label(config)?;
    let schema = match &opened {
        Opened::Sqlite(store) => store.schema_version()?,
        Opened::Postgres(store) => store.schema_version().await?,
    };
    tracing::info!(
        version = VERSION,
        database,
        schema,
        platform = match (discord, matrix) {
            (true, true) => "discord and matrix",
            (true, false) => "discord",
            _ => "matrix",
        },
        "database ready; connecting"
    );
    let service = Arc::new(service(config, opened.into_store())?);
    if config.web.enabled {
        let listener = web_listener(&config.web.listen).await?;
        let stop = wait_for(shutdown_signal());
        let options = web_options(config);
        tokio::spawn(web::serve(Arc::clone(&service), listener, options, stop));
    }
    serve_platform(service, config).await
}

/// The site's limits from `[web]`.
fn web_options(config: &Config) -> web::WebOptions {
    web::WebOptions {
        max_viewers: config.web.max_viewers as usize,
        max_viewers_per_address: config.web.max_viewers_per_address as usize,
        ..web::WebOptions::default()
    }
}

/// Binds the site's address and says where it is (stdout and the log).
async fn web_listener(address: &str) -> Result<tokio::net::TcpListener> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("[web] listen: cannot listen on {address}"))?;
    let bound = listener.local_addr()?;
    tracing::info!(%bound, "web pages listening");
    println!("web pages listening on http://{bound}");
    Ok(listener)
}

/// `pawnpost web`: the site alone over the database, until Ctrl-C or SIGTERM.
async fn web_alone(config: &Config, db: Option<&PathBuf>, listen: Option<String>) -> Result<()> {
    let store = open_store(config, db).await?.into_store();
    let service = Arc::new(service(config, store)?);
    let listener = web_listener(listen.as_deref().unwrap_or(&config.web.listen)).await?;
    web::serve(
        service,
        listener,
        web_options(config),
        wait_for(shutdown_signal()),
    )
    .await
    .context("serving the web pages")
}

/// Runs the configured platforms' bots on `service`: both in one process
/// when both are configured (each with its scheduler delivering its own
/// platform's notices; a game between the two is told on both at once).
async fn serve_platform(service: Arc<Service>, config: &Config) -> Result<()> {
    #[cfg(feature = "matrix")]
    if config.matrix.is_configured() && config.discord.token.is_some() {
        let options = DiscordOptions::from_config(&config.discord, config.defaults.language)?;
        // One failing stops the process (for its supervisor to restart it):
        // the outbox keeps what the other had not delivered.
        tokio::try_join!(
            serve_on(Arc::clone(&service), config, options),
            serve_matrix(service, config)
        )?;
        return Ok(());
    }
    #[cfg(feature = "matrix")]
    if config.matrix.is_configured() {
        return serve_matrix(service, config).await;
    }
    #[cfg(not(feature = "matrix"))]
    if config.matrix.is_configured() {
        bail!("this build has no Matrix adapter (the cargo feature `matrix` is off)");
    }
    let options = DiscordOptions::from_config(&config.discord, config.defaults.language)?;
    serve_on(service, config, options).await
}

/// The Discord bot and its scheduler on one store, until Ctrl-C or
/// SIGTERM: then no new interaction is taken, those taken are answered, the
/// scheduler delivers what the outbox can, and the process exits 0.
async fn serve_on(service: Arc<Service>, config: &Config, options: DiscordOptions) -> Result<()> {
    let time: Arc<dyn TimeSource> = Arc::new(SystemTime);
    let bot = Bot::connect(Arc::clone(&service), options, time).await?;
    let settings = scheduler::SchedulerSettings {
        outage_threshold: Duration::minutes(i64::from(config.clocks.outage_threshold_minutes)),
        poll_every: std::time::Duration::from_secs(u64::from(
            config.delivery.poll_seconds.clamp(1, 3600),
        )),
        ..scheduler::SchedulerSettings::default()
    };
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let reviews = tokio::spawn(scheduler::run_reviews(
        Arc::clone(&service),
        SystemTime,
        wait_for(stopped.clone()),
    ));
    let scheduler = tokio::spawn(scheduler::run(
        service,
        bot.notifier(),
        SystemTime,
        settings,
        wait_for(stopped.clone()),
    ));
    let signal = shutdown_signal();
    let shutdown = async move {
        wait_for(signal).await;
        tracing::info!("shutting down: answering what was taken, then delivering the outbox");
    };
    let result = bot.run(shutdown).await;
    let _ = stop.send(true);
    let _ = scheduler.await;
    let _ = reviews.await;
    tracing::info!("stopped");
    result
}

/// Becomes `true` on Ctrl-C or SIGTERM (systemd's stop).
fn shutdown_signal() -> tokio::sync::watch::Receiver<bool> {
    let (tell, listen) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        #[cfg(unix)]
        let terminate = async {
            use tokio::signal::unix::{SignalKind, signal};
            match signal(SignalKind::terminate()) {
                Ok(mut term) => {
                    term.recv().await;
                }
                Err(_) => std::future::pending().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate => {}
        }
        let _ = tell.send(true);
    });
    listen
}

/// Completes once `flag` turns true (or its sender is gone).
async fn wait_for(mut flag: tokio::sync::watch::Receiver<bool>) {
    let _ = flag.wait_for(|stop| *stop).await;
}

/// Runs the Matrix bot and the deadline scheduler (its notices go to the
/// games' rooms) until Ctrl-C or SIGTERM.
#[cfg(feature = "matrix")]
async fn serve_matrix(service: Arc<Service>, config: &Config) -> Result<()> {
    use pawnpost::adapters::matrix::MatrixBot;

    let bot = MatrixBot::connect(&config.matrix).await?;
    let stop = shutdown_signal();
    let settings = scheduler::SchedulerSettings {
        outage_threshold: Duration::minutes(i64::from(config.clocks.outage_threshold_minutes)),
        poll_every: std::time::Duration::from_secs(u64::from(
            config.delivery.poll_seconds.clamp(1, 3600),
        )),
        ..scheduler::SchedulerSettings::default()
    };
    let deadlines = tokio::spawn(scheduler::run(
        Arc::clone(&service),
        bot.notifier(Arc::clone(&service)),
        SystemTime,
        settings,
        wait_for(stop.clone()),
    ));
    let reviews = tokio::spawn(scheduler::run_reviews(
        Arc::clone(&service),
        SystemTime,
        wait_for(stop.clone()),
    ));
    bot.run(&service, wait_for(stop)).await?;
    deadlines.await.context("the scheduler stopped")?;
    reviews.await.context("the reviewer stopped")?;
    Ok(())
}

async fn run_console(config: &Config, args: ConsoleArgs) -> Result<()> {
    // A terminal shows text: boards are drawn only when they go to a directory.
    let mut config = config.clone();
    config.board.images &= args.boards.is_some();
    let store = open_store(&config, args.db.as_ref()).await?.into_store();
    console_on(&service(&config, store)?, args).await
}

async fn print_pgn(service: &Service, game: i64) -> Result<()> {
    match service.export_pgn(game).await? {
        Some(pgn) => emit(&pgn),
        None => bail!("no game {game}"),
    }
}

/// The serde name of a result or a reason ("1-0", "checkmate").
fn serde_word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(word)) => word,
        other => format!("{other:?}"),
    }
}

async fn list_games(config: &Config, selection: &GameSelection) -> Result<()> {
    let store = open_store(config, selection.db.as_ref())
        .await?
        .into_store();
    let games = service(config, store)?
        .listed_games(selection.player.as_deref(), selection.tournament)
        .await?;
    // PGN's and the console's words: "ongoing", "1-0 (checkmate)".
    for game in games {
        let state = match game.state {
            pawnpost::storage::Status::Ongoing => "ongoing".to_owned(),
            pawnpost::storage::Status::Over { result, reason, .. } => {
                format!("{} ({})", serde_word(&result), serde_word(&reason))
            }
        };
        let plies = match game.plies {
            1 => "1 ply".to_owned(),
            n => format!("{n} plies"),
        };
        emit(&format!(
            "{}\t{} - {}\t{plies}\t{state}\n",
            game.id, game.white_name, game.black_name
        ))?;
    }
    Ok(())
}

async fn export_games(
    config: &Config,
    selection: &GameSelection,
    output: Option<&std::path::Path>,
) -> Result<()> {
    let store = open_store(config, selection.db.as_ref())
        .await?
        .into_store();
    let pgn = service(config, store)?
        .export_games(selection.player.as_deref(), selection.tournament)
        .await?;
    match output {
        Some(path) => {
            std::fs::write(path, pgn).with_context(|| format!("writing {}", path.display()))
        }
        None => emit(&pgn),
    }
}

/// The largest PGN file `pawnpost import` reads (a few hundred thousand games).
const MAX_IMPORT_BYTES: u64 = 256 << 20;

/// `pawnpost import`: one line per game of the file, then a summary.
async fn import_games(config: &Config, args: &ImportArgs) -> Result<()> {
    use pawnpost::core::names::Named;
    use pawnpost::core::platform::Platform;
    use pawnpost::service::{ImportOutcome, ImportTarget};
    let platform = Platform::from_name(&args.platform).with_context(|| {
        format!(
            "unknown platform {:?}: console, discord or matrix",
            args.platform
        )
    })?;
    let size = std::fs::metadata(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?
        .len();
    if size > MAX_IMPORT_BYTES {
        bail!(
            "{} is larger than {} MiB: split it",
            args.file.display(),
            MAX_IMPORT_BYTES >> 20
        );
    }
    let bytes =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let store = open_store(config, args.db.as_ref()).await?.into_store();
    let target = ImportTarget {
        platform,
        server: args.server.clone(),
        channel: args.channel.clone(),
    };
    let report = service(config, store)?
        .import_games(&target, &text, chrono::Utc::now())
        .await?;
    let (mut imported, mut there, mut unfinished, mut refused) = (0, 0, 0, 0);
    for game in &report {
        let what = match &game.outcome {
            ImportOutcome::Imported { game } => {
                imported += 1;
                format!("imported as game {game}")
            }
            ImportOutcome::AlreadyThere => {
                there += 1;
                "imported before".to_owned()
            }
            ImportOutcome::Unfinished => {
                unfinished += 1;
                "unfinished: continue it in chat with /challenge @opponent pgn:\"…\"".to_owned()
            }
            ImportOutcome::Refused(error) => {
                refused += 1;
                format!("not imported: {error}")
            }
        };
        let note = match game.skipped_variations {
            0 => String::new(),
            n => format!(" ({n} variation(s) left out)"),
        };
        println!(
            "{}\t{} - {}\t{what}{note}",
            game.number, game.white, game.black
        );
    }
    eprintln!(
        "{imported} imported, {there} imported before, {unfinished} unfinished, {refused} not imported"
    );
    if refused > 0 {
        bail!("{refused} game(s) could not be imported");
    }
    Ok(())
}

/// `pawnpost backup`: the SQLite file copied while the bot may be writing.
fn backup(config: &Config, db: Option<PathBuf>, file: &std::path::Path) -> Result<()> {
    let source = match db.map(Database::Sqlite) {
        Some(target) => target,
        None => config.database.target()?,
    };
    let Database::Sqlite(source) = source else {
        bail!("the database is PostgreSQL: back it up with pg_dump (see docs/hosting.md)");
    };
    if !source.exists() {
        bail!("{} does not exist", source.display());
    }
    refuse_backup_target(file)?;
    pawnpost::storage::sqlite::backup_file(&source, file)
        .with_context(|| format!("backing up {} into {}", source.display(), file.display()))?;
    println!("{} backed up into {}", source.display(), file.display());
    Ok(())
}

/// A backup goes into a folder that exists, and never over an earlier file
/// (which may be the only good copy).
fn refuse_backup_target(file: &std::path::Path) -> Result<()> {
    if file.exists() {
        bail!(
            "{} already exists: choose another name, or remove it first",
            file.display()
        );
    }
    let folder = match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        bail!(
            "the folder {} does not exist: create it first",
            folder.display()
        );
    }
    Ok(())
}

/// `pawnpost check`: every problem found, one a line, and what to do.
/// First the database's own check (SQLite's; PostgreSQL checks its pages
/// itself), then every game replayed from its start.
async fn check(config: &Config, db: Option<&PathBuf>) -> Result<()> {
    let target = match db {
        Some(path) => Database::Sqlite(path.clone()),
        None => config.database.target()?,
    };
    let (name, store, mut problems) = match target {
        Database::Sqlite(path) => {
            if !path.exists() {
                bail!("{} does not exist", path.display());
            }
            let problems = pawnpost::storage::sqlite::check_file(&path)
                .with_context(|| format!("checking {}", path.display()))?;
            // Reading rows of a damaged file may give anything: games are
            // replayed only from a sound file of this binary's schema.
            let store = match problems.is_empty() {
                true => sqlite_to_check(&path),
                false => None,
            };
            (path.display().to_string(), store, problems)
        }
        Database::Postgres(url) => {
            let store = PgStore::connect(url.expose(), 1)
                .await
                .context("connecting to PostgreSQL")?;
            (
                "the PostgreSQL database".to_owned(),
                Some(store.into()),
                Vec::new(),
            )
        }
    };
    let mut unlisted = 0;
    if let Some(store) = store {
        let started = std::time::Instant::now();
        let games = check::check_games(&store, check::CHECK_PAGE)
            .await
            .context("replaying the games")?;
        eprintln!(
            "{} game(s) replayed in {:.1} s",
            games.games,
            started.elapsed().as_secs_f64()
        );
        unlisted = games.unlisted;
        problems.extend(games.problems);
    }
    if problems.is_empty() {
        println!("{name}: no problem found");
        return Ok(());
    }
    for problem in &problems {
        println!("{problem}");
    }
    if unlisted > 0 {
        println!("and {unlisted} more damaged game(s)");
    }
    bail!(
        "{name}: {} problem(s) found; stop every pawnpost using it and restore it from a backup",
        problems.len() as u64 + unlisted
    )
}

/// The SQLite file as a store whose games `pawnpost check` can replay, or
/// `None` (said on stderr) when its schema is not this binary's.
fn sqlite_to_check(path: &std::path::Path) -> Option<Store> {
    match SqliteStore::open_to_check(path) {
        Ok(store) => Some(store.into()),
        Err(why) => {
            eprintln!("games not replayed: {why} (`pawnpost migrate` upgrades an older file)");
            None
        }
    }
}

/// `pawnpost migrate --from sqlite:FILE --to postgres://...`
async fn copy_database(config: &Config, from: &str, to: &str) -> Result<()> {
    let Database::Sqlite(path) = Database::from_url(from)? else {
        bail!("--from takes sqlite:FILE");
    };
    let Database::Postgres(url) = Database::from_url(to)? else {
        bail!("--to takes postgres://user@host:port/db");
    };
    if !path.exists() {
        bail!("{} does not exist", path.display());
    }
    let source = SqliteStore::open(&path).with_context(|| format!("opening {}", path.display()))?;
    let target = PgStore::connect(url.expose(), config.database.pool_size)
        .await
        .context("connecting to PostgreSQL")?;
    let copied = transfer::copy_sqlite_to_postgres(&source, &target)
        .await
        .context("copying")?;
    println!("{:<16} {:>10} {:>10}", "table", "sqlite", "postgres");
    for table in &copied {
        println!(
            "{:<16} {:>10} {:>10}",
            table.table, table.source, table.target
        );
    }
    println!("every table has the same number of rows on both sides");
    Ok(())
}

/// The configured store, or the SQLite file `db` when given.
enum Opened {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

impl Opened {
    /// The store the service runs on, whichever the database.
    fn into_store(self) -> Store {
        match self {
            Opened::Sqlite(db) => db.into(),
            Opened::Postgres(db) => db.into(),
        }
    }
}

/// The configured database as logs and messages name it: the SQLite file's
/// full path, or just "PostgreSQL" (its URL may hold a password).
fn database_label(config: &Config) -> Result<String> {
    Ok(match config.database.target()? {
        Database::Sqlite(path) => std::path::absolute(&path)
            .unwrap_or(path)
            .display()
            .to_string(),
        Database::Postgres(_) => "PostgreSQL".to_owned(),
    })
}

async fn open_store(config: &Config, db: Option<&PathBuf>) -> Result<Opened> {
    let target = match db {
        Some(path) => Database::Sqlite(path.clone()),
        None => config.database.target()?,
    };
    Ok(match target {
        Database::Sqlite(path) => Opened::Sqlite(
            SqliteStore::open(&path).with_context(|| format!("opening {}", path.display()))?,
        ),
        // The error never repeats the URL: it may hold a password.
        Database::Postgres(url) => Opened::Postgres(
            PgStore::connect(url.expose(), config.database.pool_size)
                .await
                .context("connecting to PostgreSQL")?,
        ),
    })
}

async fn console_on(service: &Service, args: ConsoleArgs) -> Result<()> {
    let now = args
        .now
        .as_deref()
        .map(DateTime::parse_from_rfc3339)
        .transpose()
        .context("--now expects an RFC 3339 instant such as 2026-01-01T12:00:00Z")?
        .map(|t| t.with_timezone(&Utc));
    if now.is_some_and(|at| !console::is_simulable(&at)) {
        bail!("--now: {}", console::CLOCK_RANGE);
    }
    let mut options = ConsoleOptions {
        json: args.json,
        now,
        script_name: None,
        boards: args.boards.clone(),
        // Colours only for a person at a terminal that shows them.
        pretty: !args.json
            && std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none()
            && std::env::var("TERM").is_ok_and(|term| term != "dumb"),
    };
    if let Some(dir) = &args.boards {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let stdout = std::io::stdout();
    match &args.script {
        Some(path) => {
            let file =
                std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
            options.script_name = Some(path.display().to_string());
            console::run(service, BufReader::new(file), stdout.lock(), &options).await?;
        }
        None => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                // A person typing: a prompt, line editing and history.
                let typed = BufReader::new(console::TypedLines::new()?);
                console::run(service, typed, stdout.lock(), &options).await?;
            } else {
                // Piped input is a script too, but without a stable name: no keys.
                tracing::debug!("reading acts from a pipe");
                console::run(service, stdin.lock(), stdout.lock(), &options).await?;
            }
        }
    }
    Ok(())
}

fn service(config: &Config, store: Store) -> Result<Service> {
    let service_config = ServiceConfig {
        default_language: config.defaults.language,
        default_time_control: config.defaults.time_control.clone(),
        challenge_expiry: Duration::days(i64::from(config.defaults.challenge_expiry_days)),
        remind_when_used: Some(config.clocks.remind_when_used).filter(|f| *f > 0.0),
        remind_before_flag: Some(config.clocks.remind_hours_before_flag)
            .filter(|h| *h > 0)
            .map(|h| Duration::hours(i64::from(h))),
        leave_days_per_year: config.clocks.leave_days_per_year,
        ratings: config.ratings.to_settings(),
        seasons: config.seasons.iter().map(|s| s.to_season()).collect(),
        board_images: config.board.images,
        board_size: config.board.size,
        board_theme: Theme::from_name(&config.board.theme)
            .with_context(|| format!("[board] theme: no theme {:?}", config.board.theme))?,
        ladder: config
            .ladder
            .to_settings()
            .map_err(|message| anyhow::anyhow!("[ladder] {message}"))?,
        max_open_challenges: config.limits.open_challenges_per_player,
        renders: config
            .limits
            .to_render_limits()
            .map_err(|message| anyhow::anyhow!("[limits] {message}"))?,
        notice_handoff: Duration::seconds(i64::from(config.delivery.handoff_seconds)),
        reviews: config
            .analysis
            .to_settings()
            .map_err(|message| anyhow::anyhow!("[analysis] {message}"))?,
        tournament_limits: config
            .tournaments
            .to_limits()
            .map_err(|message| anyhow::anyhow!("[tournaments] max_{message}"))?,
        web_url: config.web.public_url(),
    };
    if !(pawnpost::render::MIN_SIZE..=pawnpost::render::MAX_SIZE).contains(&config.board.size) {
        bail!(
            "[board] size: {} is not between 240 and 1024",
            config.board.size
        );
    }
    Ok(Service::new(store, service_config))
}

fn run_unwinnable(full: bool) -> Result<()> {
    use pawnpost::core::unwinnable::{Mode, class};
    use std::io::{BufRead, Write};
    let mode = if full { Mode::Full } else { Mode::Quick };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match class::describe_line(&line, mode) {
            Ok(text) => writeln!(out, "{text}")?,
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
    Ok(())
}
