//! `pawnpost serve` as a child process, for tests that kill it (SIGKILL)
//! or stop it (SIGTERM) and start it again on the same database.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `pawnpost serve`, killed when dropped.
pub struct BotProcess(Child);

impl BotProcess {
    /// Starts the bot in `dir` on `dir/pawnpost.db`, logging to
    /// `dir/<name>.log`, with `env` and nothing else from this process's
    /// environment. The outbox takes over an unanswered act after 2 s.
    pub fn spawn(dir: &Path, name: &str, env: &[(&str, String)]) -> BotProcess {
        let log = std::fs::File::create(dir.join(format!("{name}.log"))).expect("log file");
        let err = log.try_clone().expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
            .arg("serve")
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("RUST_LOG", "warn")
            .env("NO_COLOR", "1")
            .env("PAWNPOST_DATABASE_PATH", dir.join("pawnpost.db"))
            .env("PAWNPOST_DELIVERY_HANDOFF_SECONDS", "2")
            .envs(env.iter().map(|(name, value)| (name, value)))
            .stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(err))
            .spawn()
            .expect("start pawnpost serve");
        BotProcess(child)
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }

    /// SIGTERM, as systemd stops a service.
    pub fn terminate(&self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success(), "kill -TERM failed");
    }

    /// Waits (at most `patience`) for the process to end, and how it ended.
    pub fn wait_exit(&mut self, patience: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + patience;
        loop {
            if let Ok(Some(status)) = self.0.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL: no destructor, no flush, nothing the process could tidy.
    pub fn kill(mut self) {
        self.0.kill().expect("SIGKILL");
        let _ = self.0.wait();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits (at most `patience`) until the act `key` is committed in the
/// SQLite database at `db`.
pub async fn until_committed(db: &Path, key: &str, patience: Duration) {
    let deadline = Instant::now() + patience;
    loop {
        let committed = rusqlite::Connection::open(db)
            .and_then(|reader| {
                reader.query_row(
                    "SELECT count(*) FROM acts WHERE act_key = ?1",
                    [key],
                    |row| row.get::<_, i64>(0),
                )
            })
            .unwrap_or(0);
        if committed == 1 {
            return;
        }
        assert!(Instant::now() < deadline, "{key} never committed");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}
