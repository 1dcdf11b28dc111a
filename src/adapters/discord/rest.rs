//! REST calls with retries: a failed call is tried again after a growing
//! pause, unless Discord refused it for good (a 4xx other than 429).

use std::future::Future;
use std::time::Duration;

use serenity::Error;
use serenity::http::HttpError;

/// Tries after the first one.
const RETRIES: u32 = 3;
const FIRST_PAUSE: Duration = Duration::from_millis(200);

/// Whether trying again could help.
pub fn is_transient(error: &Error) -> bool {
    match error {
        Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            status == 429 || status >= 500
        }
        Error::Http(HttpError::Request(_)) => true,
        _ => false,
    }
}

/// Discord's JSON error code of a refused call (50013: Missing
/// Permissions, 50001: Missing Access, 50007: cannot message this user…).
pub fn error_code(error: &Error) -> Option<isize> {
    match error {
        Error::Http(HttpError::UnsuccessfulRequest(response)) => Some(response.error.code),
        _ => None,
    }
}

/// Runs `call` until it succeeds, fails for good, or the tries are spent;
/// failures are logged with `what` (never with a token).
pub async fn with_retries<T, F, Fut>(what: &str, mut call: F) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let mut pause = FIRST_PAUSE;
    let mut attempt = 0;
    loop {
        match call().await {
            Ok(value) => return Ok(value),
            Err(error) if attempt < RETRIES && is_transient(&error) => {
                attempt += 1;
                // Said once, with the outcome, below; each try only in debug.
                tracing::debug!(%error, what, attempt, "Discord call failed; retrying");
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
            Err(error) => {
                tracing::error!(%error, what, "Discord call failed");
                return Err(error);
            }
        }
    }
}
