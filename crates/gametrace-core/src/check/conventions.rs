//! The SML conventions Python and Java students trip on when printing a handout's trace,
//! recognised on the first divergent line and explained in one sentence: `~3` for -3, S14's
//! `It's a draw!` for a guess of 0, and the space in `Guess: 3` (S14) that S12 leaves out.

/// `-3` -> `~3` wherever a minus sign starts a number.
fn sml_negatives(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '-' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            out.push('~');
        } else {
            out.push(c);
        }
    }
    out
}

/// The one-sentence hint for the convention that makes `actual` differ from `expected`, if
/// one does.
pub fn hint(expected: &str, actual: &str) -> Option<String> {
    let negated = sml_negatives(actual);
    if negated != actual && expected.contains('~') {
        let example = actual
            .split(|c: char| !(c == '-' || c.is_ascii_digit()))
            .find(|t| t.starts_with('-') && t.len() > 1)
            .unwrap_or("-3");
        return Some(format!(
            "SML writes negative numbers with a tilde: the handout prints `~{}` where your program prints `{example}` (print `\"~\" + str(-n)` in Python, `\"~\" + (-n)` in Java, for n < 0)",
            &example[1..]
        ));
    }
    let s14_zero = ["Guess: 0)", "Guess: 0 ", "Guess: 0,"];
    if expected.contains("It's a draw!")
        && (s14_zero.iter().any(|z| actual.contains(z)) || actual.ends_with("Guess: 0"))
    {
        return Some(
            "S14 prints a guess of 0 as `It's a draw!` (its estimate's toString treats 0 as a draw), not `Guess: 0`"
                .to_owned(),
        );
    }
    if expected.contains("Guess:0") && actual.contains("It's a draw!") {
        return Some(
            "S12 prints a guess of 0 as `Guess:0`; only S14 writes it as `It's a draw!`".to_owned(),
        );
    }
    if expected.contains("Guess: ") && actual.contains("Guess:") && !actual.contains("Guess: ") {
        return Some(
            "S14 writes `Guess: 3` with a space after the colon; `Guess:3` is S12's spelling (check the case's dialect)"
                .to_owned(),
        );
    }
    if expected.contains("Guess:") && !expected.contains("Guess: ") && actual.contains("Guess: ") {
        return Some(
            "S12 writes `Guess:3` with no space after the colon; `Guess: 3` is S14's spelling (check the case's dialect)"
                .to_owned(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::hint;

    #[test]
    fn each_convention_is_named_and_a_real_difference_is_not() {
        let h = hint(
            "Result of (Maxie,e) is Leaf(Guess: ~2)",
            "Result of (Maxie,e) is Leaf(Guess: -2)",
        )
        .unwrap();
        assert!(h.contains("`~2`") && h.contains("`-2`"), "{h}");
        let h = hint(
            "Result of (Maxie,c) is Leaf(It's a draw!)",
            "Result of (Maxie,c) is Leaf(Guess: 0)",
        )
        .unwrap();
        assert!(h.contains("It's a draw!"), "{h}");
        let h = hint(
            "Result of (Maxie,c) is Leaf(Guess:0)",
            "Result of (Maxie,c) is Leaf(It's a draw!)",
        )
        .unwrap();
        assert!(h.starts_with("S12"), "{h}");
        let h = hint(
            "Result of (Maxie,c) is Leaf(Guess: 3)",
            "Result of (Maxie,c) is Leaf(Guess:3)",
        )
        .unwrap();
        assert!(h.starts_with("S14 writes `Guess: 3`"), "{h}");
        let h = hint(
            "Result of (Maxie,c) is Guess:3",
            "Result of (Maxie,c) is Guess: 3",
        )
        .unwrap();
        assert!(h.starts_with("S12 writes `Guess:3`"), "{h}");
        assert_eq!(
            hint(
                "Result of (Maxie,c) is Leaf(Guess: 3)",
                "Result of (Maxie,c) is Leaf(Guess: 4)"
            ),
            None
        );
        assert_eq!(hint("Terminals visited: 7", "Terminals visited: 9"), None);
    }
}
