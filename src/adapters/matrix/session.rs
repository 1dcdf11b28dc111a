//! Logging in once and staying the same device.
//!
//! The first start logs in with the password (or takes the configured
//! access token and device) and writes the session to `session.json` in the
//! store directory, beside matrix-sdk's SQLite state and crypto stores. Later
//! starts restore that session, so the device id and its keys stay the same
//! and encrypted rooms keep working. Secrets are never logged.

use std::path::{Path, PathBuf};

use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::ruma::{OwnedDeviceId, OwnedUserId};
use matrix_sdk::{Client, SessionMeta, SessionTokens};

use crate::config::MatrixConfig;

use super::MatrixError;

const SESSION_FILE: &str = "session.json";
const SDK_STORE_DIR: &str = "sdk";

/// A client logged in as the configured account, with its stores open.
pub async fn connect(config: &MatrixConfig) -> Result<Client, MatrixError> {
    let homeserver = config
        .homeserver
        .as_deref()
        .ok_or(MatrixError::Config("matrix.homeserver is not set"))?;
    let user_id: OwnedUserId = config
        .user_id
        .as_deref()
        .ok_or(MatrixError::Config("matrix.user_id is not set"))?
        .try_into()
        .map_err(|_| MatrixError::Config("matrix.user_id is not a user id (@name:server)"))?;
    std::fs::create_dir_all(&config.store_path).map_err(MatrixError::Io)?;
    let passphrase = config.store_passphrase.as_ref().map(|s| s.expose());
    let client = Client::builder()
        .homeserver_url(homeserver)
        .sqlite_store(config.store_path.join(SDK_STORE_DIR), passphrase)
        .build()
        .await
        .map_err(|e| MatrixError::Client(e.to_string()))?;
    let session_path = session_file(&config.store_path);
    if let Some(session) = read_session(&session_path)? {
        if session.meta.user_id != user_id {
            return Err(MatrixError::Config(
                "the saved session belongs to another account than matrix.user_id",
            ));
        }
        tracing::info!(device = %session.meta.device_id, "restoring the Matrix session");
        client.restore_session(session).await?;
        return Ok(client);
    }
    if let (Some(token), Some(device)) = (&config.access_token, &config.device_id) {
        let session = MatrixSession {
            meta: SessionMeta {
                user_id,
                device_id: OwnedDeviceId::from(device.as_str()),
            },
            tokens: SessionTokens {
                access_token: token.expose().to_owned(),
                refresh_token: None,
            },
        };
        client.restore_session(session.clone()).await?;
        write_session(&session_path, &session)?;
        return Ok(client);
    }
    let password = config.password.as_ref().ok_or(MatrixError::Config(
        "set MATRIX_PASSWORD (or MATRIX_ACCESS_TOKEN with matrix.device_id) for the first login",
    ))?;
    client
        .matrix_auth()
        .login_username(&user_id, password.expose())
        .initial_device_display_name(&config.device_name)
        .send()
        .await?;
    let session = client
        .matrix_auth()
        .session()
        .ok_or(MatrixError::Config("the login returned no session"))?;
    tracing::info!(device = %session.meta.device_id, "logged in to Matrix");
    write_session(&session_path, &session)?;
    Ok(client)
}

fn session_file(store: &Path) -> PathBuf {
    store.join(SESSION_FILE)
}

fn read_session(path: &Path) -> Result<Option<MatrixSession>, MatrixError> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|_| MatrixError::Config("the saved session file is not valid")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(MatrixError::Io(e)),
    }
}

/// Writes the session readable by its owner only: it holds the access token.
fn write_session(path: &Path, session: &MatrixSession) -> Result<(), MatrixError> {
    use std::io::Write;
    let json = serde_json::to_vec(session).map_err(|e| MatrixError::Io(e.into()))?;
    let temporary = path.with_extension("json.tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temporary).map_err(MatrixError::Io)?;
    file.write_all(&json).map_err(MatrixError::Io)?;
    file.sync_all().map_err(MatrixError::Io)?;
    std::fs::rename(&temporary, path).map_err(MatrixError::Io)
}
