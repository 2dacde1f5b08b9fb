//! The reference: plain minimax recursion, each player maximizing his own total.

/// (mover's total, other's total) of `cards` under optimal play, by full recursion.
pub fn totals(cards: &[u32]) -> (u64, u64) {
    let Some((&first, rest)) = cards.split_first() else { return (0, 0) };
    let (&last, init) = cards.split_last().expect("non-empty");
    let (m1, o1) = totals(rest);
    let (m2, o2) = totals(init);
    let left = (u64::from(first) + o1, m1);
    let right = (u64::from(last) + o2, m2);
    if left.0 >= right.0 {
        left
    } else {
        right
    }
}

/// The first player's total.
pub fn first_total(cards: &[u32]) -> u64 {
    totals(cards).0
}
