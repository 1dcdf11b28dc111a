//! Throwaway schemas, so tests and benchmarks on one PostgreSQL database
//! never see each other's rows.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio_postgres::NoTls;

use super::{PgStore, backend};
use crate::storage::{Result, StorageError};

/// The variable naming the PostgreSQL server the tests may use.
pub const TEST_URL_VARIABLE: &str = "PAWNPOST_TEST_POSTGRES";

/// The test server's URL, or `None` (said once on stderr, which the test
/// harness does not capture) when the variable is not set.
pub fn test_url() -> Option<String> {
    static SAID: std::sync::Once = std::sync::Once::new();
    let url = std::env::var(TEST_URL_VARIABLE)
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        SAID.call_once(|| {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "note: {TEST_URL_VARIABLE} is not set: the PostgreSQL tests are skipped \
                 (docs/development.md, \"PostgreSQL\", starts a throwaway server)"
            );
        });
    }
    url
}

/// A schema made for one test, dropped with everything in it when this
/// value is dropped.
pub struct ScratchSchema {
    url: String,
    name: String,
}

impl ScratchSchema {
    /// A new, empty schema on `url`, named after `label` and made unique.
    pub async fn create(url: &str, label: &str) -> Result<ScratchSchema> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let label: String = label
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(30)
            .collect::<String>()
            .to_ascii_lowercase();
        let name = format!(
            "t_{label}_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let schema = ScratchSchema {
            url: url.to_owned(),
            name,
        };
        execute(url, &format!("CREATE SCHEMA \"{}\"", schema.name)).await?;
        Ok(schema)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// A store on this schema (migrated), with `pool_size` connections.
    pub async fn store(&self, pool_size: usize) -> Result<PgStore> {
        PgStore::open(self.config()?, pool_size).await
    }

    /// The URL's configuration with this schema first on the search path.
    pub fn config(&self) -> Result<tokio_postgres::Config> {
        let mut config: tokio_postgres::Config = self
            .url
            .parse()
            .map_err(|e| StorageError::Backend(format!("database URL: {e}")))?;
        config.options(format!("-c search_path={}", self.name));
        Ok(config)
    }
}

/// Runs `sql` on a connection of its own.
async fn execute(url: &str, sql: &str) -> Result<()> {
    let config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| StorageError::Backend(format!("database URL: {e}")))?;
    let (client, connection) = config.connect(NoTls).await.map_err(backend)?;
    let driver = tokio::spawn(connection);
    let done = client.batch_execute(sql).await.map_err(backend);
    drop(client);
    let _ = driver.await;
    done
}

impl Drop for ScratchSchema {
    fn drop(&mut self) {
        // Drop runs inside a runtime: the clean-up gets a thread and a runtime of its own.
        let url = self.url.clone();
        let sql = format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.name);
        let cleanup = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            if let Ok(runtime) = runtime {
                let _ = runtime.block_on(execute(&url, &sql));
            }
        });
        let _ = cleanup.join();
    }
}
