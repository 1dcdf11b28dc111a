//! The web pages (issue 43): a page for every game (reached only by its
//! link's token), and, when a server's moderators turn them on, its
//! tournaments, team matches, standings, ladder, openings and players.
//!
//! Server-rendered HTML ([`pages`], compile-time checked templates that
//! escape everything they are given), a little plain JavaScript and CSS
//! from `assets/web/`, English or French by `Accept-Language` (`?lang=`
//! wins). Open game pages follow the game live through server-sent events
//! fed by one watcher per process ([`live`]). Read-only: only GET and HEAD
//! are routed, and nothing a request does writes. Every answer carries a
//! strict Content-Security-Policy (no inline script or style), and
//! anything unknown, or not public, is the same 404.
//!
//! Like the other adapters it only translates: what a page shows comes
//! from the service's view functions (`service::web`).

mod live;
mod pages;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::Utc;
use futures_util::stream::{self, Stream};
use serde::Deserialize;

pub use live::Live;

use crate::core::notation::Lang;
use crate::service::Service;

/// The Content-Security-Policy of every answer: scripts, styles and
/// pictures only from the site itself, nothing inline, no framing, no forms.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

/// The longest any page takes before it is answered 503 (live streams apart).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Server pages worked out at once (see `Site::heavy`).
const HEAVY_AT_ONCE: usize = 2;

/// How the site runs.
#[derive(Clone, Debug)]
pub struct WebOptions {
    /// Live pages open at once, in all.
    pub max_viewers: usize,
    /// Live pages open at once from one address.
    pub max_viewers_per_address: usize,
    /// How often the watcher looks for changed games.
    pub tick: Duration,
}

impl Default for WebOptions {
    fn default() -> WebOptions {
        WebOptions {
            max_viewers: 5000,
            max_viewers_per_address: 20,
            tick: Duration::from_millis(250),
        }
    }
}

/// What every handler reads.
struct Site {
    service: Arc<Service>,
    live: Arc<Live>,
    options: WebOptions,
    viewers: Mutex<HashMap<IpAddr, usize>>,
    /// Server pages (standings, openings over up to 2,000 games) read at
    /// once; more wait their turn, bounded by the request's time limit.
    heavy: tokio::sync::Semaphore,
}

type Shared = State<Arc<Site>>;

/// Serves the site on `listener` until `stop` completes (open live pages
/// are then closed).
pub async fn serve(
    service: Arc<Service>,
    listener: tokio::net::TcpListener,
    options: WebOptions,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let live = Arc::new(Live::new(options.tick));
    let (stopped, stopping) = tokio::sync::watch::channel(false);
    let watcher = tokio::spawn(Arc::clone(&live).run(Arc::clone(&service), {
        let mut stopping = stopping.clone();
        async move {
            let _ = stopping.wait_for(|s| *s).await;
        }
    }));
    let app = router(service, live, options);
    let result = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        stop.await;
        let _ = stopped.send(true);
    })
    .await;
    let _ = watcher.await;
    result
}

/// The site's routes over `service`, its pages fed by `live`.
fn router(service: Arc<Service>, live: Arc<Live>, options: WebOptions) -> Router {
    let site = Arc::new(Site {
        service,
        live,
        options,
        viewers: Mutex::new(HashMap::new()),
        heavy: tokio::sync::Semaphore::new(HEAVY_AT_ONCE),
    });
    Router::new()
        .route("/g/{token}", get(game))
        .route("/g/{token}/events", get(game_events))
        .route("/g/{token}/pgn", get(game_pgn))
        .route("/g/{token}/gif", get(game_gif))
        .route("/t/{id}", get(tournament))
        .route("/m/{id}", get(team_match))
        .route("/s/{id}", get(server))
        .route("/s/{id}/p/{player}", get(player))
        .route("/static/{file}", get(asset))
        .route("/static/pieces/{file}", get(piece))
        .fallback(|| async { not_found() })
        .layer(middleware::from_fn(guard))
        .with_state(site)
}

/// Every answer's headers, and the time limit of every page.
async fn guard(request: Request, next: Next) -> Response {
    let live = request.uri().path().ends_with("/events");
    let mut response = if live {
        next.run(request).await
    } else {
        match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
            Ok(response) => response,
            Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
        }
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Game links hold their token: it must never leave in a Referer.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// `?lang=fr` or `?page=2`.
#[derive(Deserialize, Default)]
struct Wish {
    lang: Option<String>,
    page: Option<u32>,
    /// The version the live page shows.
    v: Option<i64>,
}

/// The reader's language: `?lang=` if it names one, else the first of
/// English and French their browser prefers, else English.
fn language(wish: &Wish, headers: &HeaderMap) -> Lang {
    let chosen = wish.lang.as_deref().and_then(page_lang);
    chosen.unwrap_or_else(|| {
        let accepted = headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        accept_language(accepted)
    })
}

fn page_lang(tag: &str) -> Option<Lang> {
    let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
    match primary.as_str() {
        "fr" => Some(Lang::Fr),
        "en" => Some(Lang::En),
        _ => None,
    }
}

/// The language an `Accept-Language` header prefers among ours (at most
/// its first 20 entries are read).
fn accept_language(value: &str) -> Lang {
    let mut best: Option<(f32, Lang)> = None;
    for entry in value.split(',').take(20) {
        let mut parts = entry.split(';');
        let Some(lang) = parts.next().and_then(page_lang) else {
            continue;
        };
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if best.is_none_or(|(b, _)| q > b) {
            best = Some((q, lang));
        }
    }
    best.map_or(Lang::En, |(_, lang)| lang)
}

/// The one answer for anything unknown or not public.
fn not_found() -> Response {
    let mut response = (StatusCode::NOT_FOUND, pages::NOT_FOUND).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// A failure of ours: logged, and answered without details.
fn failed(error: impl std::fmt::Display) -> Response {
    tracing::warn!(%error, "web: a page failed");
    StatusCode::INTERNAL_SERVER_ERROR.into_response()
}

/// A page's HTML, never cached (it changes with the game).
fn html(body: Result<String, askama::Error>) -> Response {
    match body {
        Ok(body) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        Err(error) => failed(error),
    }
}

/// The game a token names, if any.
async fn game_of(site: &Site, token: &str) -> Result<Option<i64>, Response> {
    site.service.game_of_token(token).await.map_err(failed)
}

async fn game(
    State(site): Shared,
    Path(token): Path<String>,
    Query(wish): Query<Wish>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&wish, &headers);
    let id = match game_of(&site, &token).await {
        Ok(Some(id)) => id,
        Ok(None) => return not_found(),
        Err(response) => return response,
    };
    match site.service.game_page(id, lang, Utc::now()).await {
        Ok(Some(page)) => html(pages::game(&page, &token, lang)),
        Ok(None) => not_found(),
        Err(error) => failed(error),
    }
}

async fn game_pgn(State(site): Shared, Path(token): Path<String>) -> Response {
    let id = match game_of(&site, &token).await {
        Ok(Some(id)) => id,
        Ok(None) => return not_found(),
        Err(response) => return response,
    };
    match site.service.game_page_pgn(id).await {
        Ok(Some(pgn)) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8",
                ),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"game.pgn\"",
                ),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            pgn,
        )
            .into_response(),
        Ok(None) => not_found(),
        Err(error) => failed(error),
    }
}

async fn game_gif(State(site): Shared, Path(token): Path<String>) -> Response {
    let id = match game_of(&site, &token).await {
        Ok(Some(id)) => id,
        Ok(None) => return not_found(),
        Err(response) => return response,
    };
    match site.service.game_page_gif(id).await {
        Ok(Some(gif)) => (
            [
                (header::CONTENT_TYPE, "image/gif"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"game.gif\"",
                ),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            gif,
        )
            .into_response(),
        // One GIF is drawn at a time for every page: try again shortly.
        Ok(None) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "5")],
        )
            .into_response(),
        Err(error) => failed(error),
    }
}

/// One live page counted against the limits while it is open.
struct Viewer {
    site: Arc<Site>,
    address: IpAddr,
}

impl Viewer {
    /// Counts a new live page from `address`, unless a limit is reached.
    fn admit(site: &Arc<Site>, address: IpAddr) -> Option<Viewer> {
        let mut viewers = site.viewers.lock().unwrap_or_else(|e| e.into_inner());
        let total: usize = viewers.values().sum();
        let mine = viewers.get(&address).copied().unwrap_or(0);
        if total >= site.options.max_viewers || mine >= site.options.max_viewers_per_address {
            return None;
        }
        *viewers.entry(address).or_default() += 1;
        Some(Viewer {
            site: Arc::clone(site),
            address,
        })
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let mut viewers = self.site.viewers.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = viewers.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                viewers.remove(&self.address);
            }
        }
    }
}

async fn game_events(
    State(site): Shared,
    Path(token): Path<String>,
    Query(wish): Query<Wish>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&wish, &headers);
    let id = match game_of(&site, &token).await {
        Ok(Some(id)) => id,
        Ok(None) => return not_found(),
        Err(response) => return response,
    };
    let Some(viewer) = Viewer::admit(&site, peer.ip()) else {
        return (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, "30")]).into_response();
    };
    let subscription = site.live.subscribe(id, wish.v.unwrap_or(-1));
    Sse::new(updates(subscription, lang, viewer))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(20)))
        .into_response()
}

/// A live page's events: the update it missed, then each next one (a page
/// too slow to take them all skips to the latest).
fn updates(
    subscription: live::Subscription,
    lang: Lang,
    viewer: Viewer,
) -> impl Stream<Item = Result<Event, std::convert::Infallible>> {
    let live::Subscription { missed, updates } = subscription;
    stream::unfold(
        (missed, updates, viewer),
        move |(mut missed, mut updates, viewer)| async move {
            let update = match missed.take() {
                Some(update) => update,
                None => loop {
                    match updates.recv().await {
                        Ok(update) => break update,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    }
                },
            };
            let event = Event::default().event("update").data(update.in_lang(lang));
            Some((Ok(event), (missed, updates, viewer)))
        },
    )
}

/// Path ids are numbers; anything else is unknown.
fn number(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().filter(|n| *n > 0)
}

async fn tournament(
    State(site): Shared,
    Path(id): Path<String>,
    Query(wish): Query<Wish>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&wish, &headers);
    let Some(id) = number(&id) else {
        return not_found();
    };
    match site.service.tournament_page(id, lang).await {
        Ok(Some(page)) => html(pages::tournament(&page, lang)),
        Ok(None) => not_found(),
        Err(error) => failed(error),
    }
}

async fn team_match(
    State(site): Shared,
    Path(id): Path<String>,
    Query(wish): Query<Wish>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&wish, &headers);
    let Some(id) = number(&id) else {
        return not_found();
    };
    match site.service.match_page(id).await {
        Ok(Some(page)) => html(pages::team_match(&page, lang)),
        Ok(None) => not_found(),
        Err(error) => failed(error),
    }
}

async fn server(
    State(site): Shared,
    Path(id): Path<String>,
    Query(wish): Query<Wish>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&wish, &headers);
    let Some(id) = number(&id) else {
        return not_found();
    };
    let Ok(_turn) = site.heavy.acquire().await else {
        return not_found();
    };
    match site.service.server_page(id).await {
        Ok(Some(page)) => html(pages::server(&page, lang)),
        Ok(None) => not_found(),
        Err(error) => failed(error),
    }
}

async fn player(
    State(site): Shared,
    Path((id, player)): Path<(String, String)>,
    Query(wish): Query<Wish>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&wish, &headers);
    let (Some(id), Some(player)) = (number(&id), number(&player)) else {
        return not_found();
    };
    let page = wish.page.unwrap_or(0).min(10_000);
    match site.service.player_page(id, player, page).await {
        Ok(Some(found)) => html(pages::player(&found, player, page, lang)),
        Ok(None) => not_found(),
        Err(error) => failed(error),
    }
}

/// The site's own script and style, cached for a day.
async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body): (&str, &'static [u8]) = match file.as_str() {
        "app.js" => ("text/javascript; charset=utf-8", pages::APP_JS.as_bytes()),
        "app.css" => ("text/css; charset=utf-8", pages::APP_CSS.as_bytes()),
        _ => return not_found(),
    };
    cached(kind, body)
}

/// The lichess (cburnett) pieces the board images use too.
async fn piece(Path(file): Path<String>) -> Response {
    match pages::piece(&file) {
        Some(svg) => cached("image/svg+xml", svg.as_bytes()),
        None => not_found(),
    }
}

fn cached(kind: &'static str, body: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_the_browsers_first_of_ours() {
        let cases = [
            ("fr-FR,fr;q=0.9,en;q=0.8", Lang::Fr),
            ("en-GB,en;q=0.9,fr;q=0.8", Lang::En),
            ("de-DE,fr;q=0.5,en;q=0.4", Lang::Fr),
            ("de-DE", Lang::En),
            ("", Lang::En),
            ("en;q=0.2, fr;q=0.7", Lang::Fr),
            ("fr;q=abc", Lang::Fr),
        ];
        for (header, expected) in cases {
            assert_eq!(accept_language(header), expected, "{header}");
        }
    }

    #[test]
    fn lang_in_the_query_wins() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
        let wish = Wish {
            lang: Some("en".into()),
            ..Wish::default()
        };
        assert_eq!(language(&wish, &headers), Lang::En);
        assert_eq!(language(&Wish::default(), &headers), Lang::Fr);
        let odd = Wish {
            lang: Some("klingon".into()),
            ..Wish::default()
        };
        assert_eq!(language(&odd, &headers), Lang::Fr);
    }
}
