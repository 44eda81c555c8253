//! Ratings: a difficulty that is either integral (SudoRules' W[n], B[n],
//! subset sizes) or has one decimal (Sudoku Explainer's 1.0–11.9).
//!
//! A [`Rating`] is held in tenths, so ratings compare, add (SE's chain
//! length increments of 0.1) and hash exactly; it remembers whether it was
//! written with a decimal so it prints back the way it was given
//! (`3` for a level, `3.0` for an SE rating).

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// A difficulty in tenths, printed as an integer or with one decimal.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rating {
    tenths: i64,
    decimal: bool,
}

impl Rating {
    /// The integral rating `n` (a level).
    pub const fn level(n: i64) -> Rating {
        Rating {
            tenths: n.saturating_mul(10),
            decimal: false,
        }
    }

    /// A rating with one decimal, given in tenths (`75` is 7.5).
    pub const fn tenths(t: i64) -> Rating {
        Rating {
            tenths: t,
            decimal: true,
        }
    }

    /// Parses `7`, `7.5` or `11.9` (at most one decimal).
    pub fn parse(s: &str) -> Option<Rating> {
        let s = s.trim();
        match s.split_once('.') {
            None => s.parse::<i64>().ok().map(Rating::level),
            Some((i, d)) if d.len() == 1 && d.bytes().all(|b| b.is_ascii_digit()) => {
                if i.is_empty() || !i.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let i: i64 = i.parse().ok()?;
                Some(Rating::tenths(
                    i.checked_mul(10)?
                        .checked_add(i64::from(d.as_bytes()[0] - b'0'))?,
                ))
            }
            _ => None,
        }
    }

    /// The integral part (a level's value).
    pub fn whole(self) -> i64 {
        self.tenths.div_euclid(10)
    }

    /// The value of a level written without a decimal (`None` for `7.5`
    /// or `3.0`).
    pub fn integral(self) -> Option<i64> {
        (!self.decimal).then(|| self.whole())
    }

    /// This rating plus `t` tenths (SE's length increment), printed with a decimal.
    pub fn plus_tenths(self, t: i64) -> Rating {
        Rating {
            tenths: self.tenths.saturating_add(t),
            decimal: true,
        }
    }

    /// The value as a float (for JSON and plots).
    pub fn as_f64(self) -> f64 {
        self.tenths as f64 / 10.0
    }
}

impl PartialEq for Rating {
    fn eq(&self, o: &Rating) -> bool {
        self.tenths == o.tenths
    }
}
impl Eq for Rating {}
impl PartialOrd for Rating {
    fn partial_cmp(&self, o: &Rating) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Rating {
    fn cmp(&self, o: &Rating) -> Ordering {
        self.tenths.cmp(&o.tenths)
    }
}
impl std::hash::Hash for Rating {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.tenths.hash(h)
    }
}

/// Honours width and alignment (`{:>5}`), so tables line up.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if self.decimal {
            let sign = if self.tenths < 0 { "-" } else { "" };
            let a = self.tenths.unsigned_abs();
            format!("{sign}{}.{}", a / 10, a % 10)
        } else {
            self.whole().to_string()
        };
        f.pad(&text)
    }
}

/// Levels serialise as integers, decimal ratings as numbers with a decimal.
impl Serialize for Rating {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.decimal {
            s.serialize_f64(self.as_f64())
        } else {
            s.serialize_i64(self.whole())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_decimals_print_as_written() {
        assert_eq!(Rating::level(3).to_string(), "3");
        assert_eq!(Rating::tenths(30).to_string(), "3.0");
        assert_eq!(Rating::parse("7.5"), Some(Rating::tenths(75)));
        assert_eq!(Rating::parse("11.9").unwrap().to_string(), "11.9");
        assert_eq!(Rating::parse("4").unwrap().to_string(), "4");
        assert_eq!(Rating::parse("4.25"), None);
        assert_eq!(Rating::parse("x"), None);
        assert_eq!(Rating::parse("-1.5"), None);
        // The largest rating in tenths, and one more (it used to wrap
        // round to a negative rating).
        assert_eq!(
            Rating::parse("922337203685477580.7"),
            Some(Rating::tenths(i64::MAX))
        );
        assert_eq!(Rating::parse("922337203685477580.8"), None);
        assert_eq!(Rating::level(3), Rating::tenths(30));
        assert!(Rating::tenths(75) > Rating::level(7));
        assert_eq!(Rating::tenths(70).plus_tenths(3).to_string(), "7.3");
        assert_eq!(
            format!("{:>5}|{:<4}|", Rating::level(3), Rating::tenths(75)),
            "    3|7.5 |"
        );
        assert_eq!(serde_json::to_string(&Rating::level(2)).unwrap(), "2");
        assert_eq!(serde_json::to_string(&Rating::tenths(85)).unwrap(), "8.5");
    }
}
