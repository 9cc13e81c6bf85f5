//! A game's status and how its turns are reviewed.

use super::text_enum::text_enum;

text_enum! {
    /// Whether a game is still played (`games.status`).
    pub enum GameStatus {
        /// Turns are played.
        Active => "active",
        /// The rules ended the game.
        Finished => "finished",
    }
}

text_enum! {
    /// How a turn's draft becomes public (`games.review`).
    pub enum Review {
        /// The GM reviews the draft and publishes it.
        Gm => "gm",
        /// The draft is published as soon as it is adjudicated.
        Auto => "auto",
    }
}

/// Text that is neither `gm` nor `auto`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("review must be \"gm\" or \"auto\", not \"{0}\"")]
pub struct ReviewError(pub String);

impl std::str::FromStr for Review {
    type Err = ReviewError;
    /// Parses `gm` or `auto` (any case, surrounding blanks ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        Review::ALL.iter().copied().find(|r| r.as_str() == word).ok_or(ReviewError(word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn review_words_parse_in_any_case_and_nothing_else_does() {
        assert_eq!(" AUTO ".parse::<Review>(), Ok(Review::Auto));
        assert_eq!("gm".parse::<Review>(), Ok(Review::Gm));
        assert!("manual".parse::<Review>().is_err());
    }
}
