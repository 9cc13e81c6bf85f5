//! A count with its noun agreeing in number (issue 36: "1 cards"), for the views, drawings and
//! events of every engine.

/// `n` and `noun`, the noun plural when `n` is not 1 (by adding "s": every noun counted in our
/// views makes its plural so; "Special Event" → "Special Events").
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_card_is_singular_and_none_or_many_are_plural() {
        assert_eq!(counted(1, "card"), "1 card");
        assert_eq!(counted(0, "card"), "0 cards");
        assert_eq!(counted(8, "Special Event"), "8 Special Events");
    }
}
