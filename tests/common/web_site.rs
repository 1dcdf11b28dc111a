//! The web pages over a service, for the web tests: the site on a free
//! loopback port, the acts that make games, and plain HTTP reads.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use pawnpost::adapters::web::{self, WebOptions};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Reply, Request, ReviewSettings, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;

/// A club on one SQLite file, its service and its site.
pub struct Site {
    pub service: Arc<Service>,
    pub address: SocketAddr,
    pub client: reqwest::Client,
    now: std::sync::Mutex<DateTime<Utc>>,
    keys: std::sync::atomic::AtomicU64,
    /// Where acts happen: (server, channel); `club`, `main` at first.
    place: std::sync::Mutex<(String, String)>,
    _dir: tempfile::TempDir,
}

/// Who acts: (name, whether they moderate the server).
pub fn user(name: &str, moderator: bool) -> User {
    User {
        id: name.to_lowercase().replace(' ', "_"),
        name: name.into(),
        locale: None,
        moderation: if moderator {
            Moderation::Server
        } else {
            Moderation::None
        },
    }
}

impl Site {
    /// A fresh club and its site, with `public_url` set to the site.
    pub async fn start() -> Site {
        Site::start_with(WebOptions::default()).await
    }

    pub async fn start_with(options: WebOptions) -> Site {
        Site::start_reviewing(options, None).await
    }

    /// A fresh club and its site, its games reviewed by `engine` when asked.
    pub async fn start_reviewing(options: WebOptions, engine: Option<std::path::PathBuf>) -> Site {
        let dir = tempfile::tempdir().expect("temp dir");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("address");
        let config = ServiceConfig {
            web_url: Some(format!("http://{address}")),
            board_images: false,
            reviews: ReviewSettings {
                engine,
                ..ReviewSettings::default()
            },
            ..ServiceConfig::default()
        };
        let store = SqliteStore::open(dir.path().join("club.db")).expect("open");
        let service = Arc::new(Service::new(store, config));
        tokio::spawn(web::serve(
            Arc::clone(&service),
            listener,
            options,
            std::future::pending(),
        ));
        let client = reqwest::Client::builder()
            .timeout(StdDuration::from_secs(10))
            .build()
            .expect("client");
        Site {
            service,
            address,
            client,
            // Real time (an hour ago), so the pages' clocks, which read
            // the real clock, show what a player would see.
            now: std::sync::Mutex::new(Utc::now() - Duration::hours(1)),
            keys: std::sync::atomic::AtomicU64::new(0),
            place: std::sync::Mutex::new(("club".into(), "main".into())),
            _dir: dir,
        }
    }

    /// `who` says `text` where acts happen (the club's main channel unless a
    /// script moved), a second after the last act.
    pub async fn act(&self, who: &User, text: &str) -> Vec<Reply> {
        let now = {
            let mut now = self.now.lock().expect("clock");
            *now += Duration::seconds(1);
            *now
        };
        let key = self.keys.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let (server, channel) = self.place.lock().expect("place").clone();
        let request = Request {
            platform: Platform::Console,
            server,
            channel,
            user: who.clone(),
            key: Some(format!("web-test-{key}")),
            input: Input::Text(text.into()),
            board_images: BoardImages::Omitted,
        };
        self.service.handle(request, now).await
    }

    /// Each line `name: text` of `script`, in turn (`name!` moderates);
    /// `:server NAME` and `:channel NAME` move where the next acts happen.
    pub async fn script(&self, script: &str) -> Vec<Reply> {
        let mut replies = Vec::new();
        for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(server) = line.strip_prefix(":server ") {
                *self.place.lock().expect("place") = (server.into(), "main".into());
                continue;
            }
            if let Some(channel) = line.strip_prefix(":channel ") {
                self.place.lock().expect("place").1 = channel.into();
                continue;
            }
            let (name, text) = line.split_once(": ").expect("name: text");
            let (name, moderator) = match name.strip_suffix('!') {
                Some(name) => (name, true),
                None => (name, false),
            };
            replies.extend(self.act(&user(name, moderator), text).await);
        }
        replies
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// GET `path`: the status and the body.
    pub async fn get(&self, path: &str) -> (u16, String) {
        let response = self.client.get(self.url(path)).send().await.expect("GET");
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }

    /// The link of game `id` that `/board` gives (public_url is set).
    pub async fn link_of(&self, who: &User, id: i64) -> String {
        let replies = self.act(who, &format!("/board {id}")).await;
        let text = replies
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        text.split_whitespace()
            .find(|word| word.starts_with("http://"))
            .expect("a link in /board")
            .to_owned()
    }

    /// The path part of `link` (`/g/<token>`).
    pub fn path_of(&self, link: &str) -> String {
        link.trim_start_matches(&format!("http://{}", self.address))
            .to_owned()
    }
}
