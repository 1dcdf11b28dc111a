//! Engine slots: how many engines run reviews at once across every process
//! sharing the database (migration 0025). A slot is leased with an end, so
//! a process that dies holding one loses it when the lease runs out.

use chrono::{DateTime, Utc};

use super::super::Result;
use super::super::sql::{Conn, params};

/// Leases the first of slots `0..slots` that is free at `now` (never
/// leased, given back, or its lease over) to `holder` until `until`;
/// `None` when every one is held.
///
/// Each try is one upsert whose `WHERE` reads the slot's latest row: on
/// PostgreSQL a slot another transaction is taking is waited for and then
/// seen taken, and SQLite writes one transaction at a time, so no slot is
/// ever leased twice.
pub async fn lease_engine_slot(
    c: &impl Conn,
    slots: u32,
    holder: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<Option<u32>> {
    for slot in 0..slots {
        let taken = c
            .execute(
                "INSERT INTO engine_slots (slot, holder, leased_until) VALUES (?1, ?2, ?3)
                 ON CONFLICT (slot) DO UPDATE
                 SET holder = excluded.holder, leased_until = excluded.leased_until
                 WHERE engine_slots.leased_until <= ?4",
                &params![slot, holder, until, now],
            )
            .await?;
        if taken == 1 {
            return Ok(Some(slot));
        }
    }
    Ok(None)
}

/// Gives slot `slot` back, if `holder` still holds it (its lease may have
/// run out and gone to another).
pub async fn release_engine_slot(c: &impl Conn, slot: u32, holder: &str) -> Result<()> {
    c.execute(
        "DELETE FROM engine_slots WHERE slot = ?1 AND holder = ?2",
        &params![slot, holder],
    )
    .await?;
    Ok(())
}
