//! Which shards a process runs: `auto`, a total (`4`), or a range of a
//! total (`0-3/8`: shards 0 to 3 of 8), so several processes can split a
//! bot's guilds between them.

use std::fmt;
use std::ops::Range;

/// The shards to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardPlan {
    /// As many as Discord recommends, all in this process.
    Auto,
    /// `shards` of `total` (the range is empty of nothing: start < end ≤ total).
    Range { shards: Range<u32>, total: u32 },
}

/// Why a `discord.shards` value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("discord.shards: {0:?} is not `auto`, a total such as `4`, or a range such as `0-3/8`")]
pub struct ShardPlanError(pub String);

impl std::str::FromStr for ShardPlan {
    type Err = ShardPlanError;

    fn from_str(text: &str) -> Result<ShardPlan, ShardPlanError> {
        let error = || ShardPlanError(text.chars().take(40).collect());
        let text = text.trim();
        if text.eq_ignore_ascii_case("auto") || text.is_empty() {
            return Ok(ShardPlan::Auto);
        }
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| error());
        let (shards, total) = match text.split_once('/') {
            None => {
                let total = number(text)?;
                (0..total, total)
            }
            Some((range, total)) => {
                let total = number(total)?;
                let (first, last) = match range.split_once('-') {
                    Some((first, last)) => (number(first)?, number(last)?),
                    None => (number(range)?, number(range)?),
                };
                if first > last {
                    return Err(error());
                }
                (first..last + 1, total)
            }
        };
        if total == 0 || shards.is_empty() || shards.end > total {
            return Err(error());
        }
        Ok(ShardPlan::Range { shards, total })
    }
}

impl fmt::Display for ShardPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardPlan::Auto => f.write_str("auto"),
            ShardPlan::Range { shards, total } => {
                write!(f, "{}-{}/{}", shards.start, shards.end - 1, total)
            }
        }
    }
}

/// The shard a guild's events arrive on (Discord's rule).
pub fn shard_of(guild_id: u64, total: u32) -> u32 {
    ((guild_id >> 22) % u64::from(total.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_parse() {
        let range = |shards: Range<u32>, total| Ok(ShardPlan::Range { shards, total });
        let cases: &[(&str, Result<ShardPlan, ()>)] = &[
            ("auto", Ok(ShardPlan::Auto)),
            ("AUTO", Ok(ShardPlan::Auto)),
            ("", Ok(ShardPlan::Auto)),
            ("4", range(0..4, 4)),
            ("0-3/8", range(0..4, 8)),
            ("4-7/8", range(4..8, 8)),
            ("2/3", range(2..3, 3)),
            (" 0 - 1 / 2 ", range(0..2, 2)),
            ("0", Err(())),
            ("3-1/8", Err(())),
            ("0-8/8", Err(())),
            ("0-3/0", Err(())),
            ("many", Err(())),
            ("-1/2", Err(())),
        ];
        for (text, expected) in cases {
            let got = text.parse::<ShardPlan>().map_err(|_| ());
            assert_eq!(&got, expected, "{text:?}");
        }
        assert_eq!("4-7/8".parse::<ShardPlan>().unwrap().to_string(), "4-7/8");
    }

    #[test]
    fn guilds_map_to_shards_by_their_id() {
        assert_eq!(shard_of(41771983423143937, 1), 0);
        assert_eq!(shard_of(5 << 22, 4), 1);
        assert_eq!(shard_of(7 << 22, 0), 0, "no division by zero");
    }
}
