//! Comparing a program's output with the reference's, token by token: the same number of
//! whitespace-separated tokens, each equal, or with a tolerance both numbers within it
//! (absolute or relative: |got − expected| ≤ tolerance · max(1, |expected|)).

/// Why `got` differs from `expected` (`None`: they agree).
pub fn difference(expected: &str, got: &str, tolerance: Option<f64>) -> Option<String> {
    let (mut want, mut have) = (expected.split_whitespace(), got.split_whitespace());
    for index in 1.. {
        match (want.next(), have.next()) {
            (None, None) => return None,
            (Some(w), None) => return Some(format!("token {index}: expected {w:?}, found the end of the output")),
            (None, Some(h)) => return Some(format!("token {index}: expected the end of the output, found {h:?}")),
            (Some(w), Some(h)) if !same(w, h, tolerance) => return Some(format!("token {index}: expected {w:?}, found {h:?}")),
            _ => {}
        }
    }
    unreachable!("the loop returns at the end of both outputs")
}

fn same(expected: &str, got: &str, tolerance: Option<f64>) -> bool {
    if expected == got {
        return true;
    }
    let number = |t: &str| t.parse::<f64>().ok().filter(|v| v.is_finite());
    match (tolerance, number(expected), number(got)) {
        (Some(tol), Some(e), Some(g)) => (g - e).abs() <= tol * e.abs().max(1.0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_must_match_exactly_without_a_tolerance() {
        assert_eq!(difference("1 2\n3\n", " 1\n2 3 ", None), None, "blanks and line ends do not matter");
        assert!(difference("1 2", "1 3", None).unwrap().contains("token 2"));
        assert!(difference("1 2", "1", None).unwrap().contains("end of the output"));
        assert!(difference("1", "1 2", None).unwrap().contains("found \"2\""));
        assert!(difference("0.5", "0.50", None).is_some());
        assert!(difference("Yes", "yes", Some(1.0)).is_some(), "words are never numbers");
    }

    #[test]
    fn numbers_within_an_absolute_or_relative_tolerance() {
        let tol = Some(1e-6);
        assert_eq!(difference("0.5", "0.50000049", tol), None);
        assert!(difference("0.5", "0.5000011", tol).is_some());
        assert_eq!(difference("1000000", "1000000.9", tol), None, "relative for large values");
        assert!(difference("1000000", "1000002", tol).is_some());
        assert_eq!(difference("3.14159265 2", "3.1415930 2", tol), None);
        assert!(difference("nan", "nan", tol).is_none() && difference("1", "inf", tol).is_some());
    }
}
