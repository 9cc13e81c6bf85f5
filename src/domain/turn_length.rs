//! Turn lengths as players write them: `48h`, `2d`, `90m`, `1d12h`.

use std::fmt;
use std::str::FromStr;

/// A positive duration in whole minutes, at most a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnLength {
    minutes: i64,
}

/// Text that is not a turn length.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a turn length (expected e.g. 48h, 2d, 90m or 1d12h, between 1 minute and 365 days)")]
pub struct TurnLengthError(pub String);

impl TurnLength {
    /// The length in seconds.
    pub fn seconds(self) -> i64 {
        self.minutes * 60
    }
    /// A length from whole seconds (rounded down to minutes, at least one minute).
    pub fn from_seconds(s: i64) -> Self {
        TurnLength { minutes: (s / 60).max(1) }
    }
}

impl FromStr for TurnLength {
    type Err = TurnLengthError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || TurnLengthError(s.chars().take(40).collect());
        let t = s.trim().to_ascii_lowercase();
        let (mut total, mut num, mut seen_unit) = (0i64, String::new(), false);
        for c in t.chars() {
            if c.is_ascii_digit() {
                num.push(c);
                continue;
            }
            let per = match c {
                'd' => 1440,
                'h' => 60,
                'm' => 1,
                _ => return Err(bad()),
            };
            let n: i64 = num.parse().map_err(|_| bad())?;
            total = total.checked_add(n.checked_mul(per).ok_or_else(bad)?).ok_or_else(bad)?;
            num.clear();
            seen_unit = true;
        }
        if !num.is_empty() || !seen_unit || !(1..=365 * 1440).contains(&total) {
            return Err(bad());
        }
        Ok(TurnLength { minutes: total })
    }
}

impl fmt::Display for TurnLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (d, h, m) = (self.minutes / 1440, self.minutes % 1440 / 60, self.minutes % 60);
        let mut out = String::new();
        for (n, u) in [(d, 'd'), (h, 'h'), (m, 'm')] {
            if n > 0 {
                out.push_str(&format!("{n}{u}"));
            }
        }
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_lengths_read_as_players_write_them() {
        assert_eq!("48h".parse::<TurnLength>().unwrap().seconds(), 48 * 3600);
        assert_eq!("1d12h".parse::<TurnLength>().unwrap().to_string(), "1d12h");
        assert_eq!("90M".parse::<TurnLength>().unwrap().to_string(), "1h30m");
        for bad in ["", "48", "h", "0h", "-1h", "2w", "400d", "99999999999999999999h"] {
            assert!(bad.parse::<TurnLength>().is_err(), "{bad}");
        }
    }
}
