//! Size orders for the search for the smallest failing input ([`super::smallest`]): keys and
//! the streams that list every input in key order, smallest first, shared by the games.
//!
//! A list of values (piles, heaps, bridge lengths) is ordered by its total, then its length,
//! then its values sorted ([`list_key`]); [`lists_by_size`] lists every such list in that
//! order: each multiset of values ([`multisets`]), then its distinct orders ([`orders`]).

/// The size key of a list of values: the total, the length, then the values sorted.
pub fn list_key(items: &[u64]) -> Vec<u64> {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    let total = items.iter().fold(0u64, |t, &v| t.saturating_add(v));
    [total, items.len() as u64].into_iter().chain(sorted).collect()
}

/// Every non-decreasing list of values in `lo..=hi` (`lo` ≥ 1) with at most `max_len` items,
/// by total, then length, then lexicographically: the multisets in [`list_key`] order.
pub fn multisets(lo: u64, hi: u64, max_len: usize) -> impl Iterator<Item = Vec<u64>> + Send {
    let lo = lo.max(1);
    (lo..=hi.saturating_mul(max_len as u64)).flat_map(move |total| {
        let lens = 1..=(max_len as u64).min(total / lo);
        lens.flat_map(move |len| Partitions::new(total, len as usize, lo, hi))
    })
}

/// The distinct orders of the sorted list `sorted`, lexicographically (the first is itself).
pub fn orders(sorted: Vec<u64>) -> impl Iterator<Item = Vec<u64>> + Send {
    std::iter::successors(Some(sorted), |now| {
        let mut next = now.clone();
        next_permutation(&mut next).then_some(next)
    })
}

/// Every list of `len` values in `lo..=hi` summing to `total` (multisets in order, each in
/// its distinct orders).
pub fn lists_of(total: u64, len: usize, lo: u64, hi: u64) -> impl Iterator<Item = Vec<u64>> + Send {
    Partitions::new(total, len, lo, hi).flat_map(orders)
}

/// Every list of values in `lo..=hi` with at most `max_len` items, in [`list_key`] order.
pub fn lists_by_size(lo: u64, hi: u64, max_len: usize) -> impl Iterator<Item = Vec<u64>> + Send {
    multisets(lo, hi, max_len).flat_map(orders)
}

/// The masks of `bits` bits (< 64) with `ones` bits set, increasing (Gosper's hack).
pub fn masks(bits: usize, ones: usize) -> impl Iterator<Item = u64> + Send {
    let first = (1u64 << ones) - 1;
    std::iter::successors(Some(first), |&m| {
        let low = m & m.wrapping_neg();
        let ripple = m.checked_add(low)?;
        (m != 0).then(|| (((ripple ^ m) >> 2) / low) | ripple)
    })
    .take_while(move |&m| m >> bits == 0)
}

/// Rearranges `items` into the next larger order; false (and sorted again) after the last.
fn next_permutation(items: &mut [u64]) -> bool {
    let Some(i) = items.windows(2).rposition(|w| w[0] < w[1]) else {
        items.reverse();
        return false;
    };
    let j = items.iter().rposition(|&v| v > items[i]).expect("a larger item after i");
    items.swap(i, j);
    items[i + 1..].reverse();
    true
}

/// The non-decreasing lists of `len` values in `lo..=hi` summing to `total`, lexicographically.
struct Partitions {
    next: Option<Vec<u64>>,
    hi: u64,
}

impl Partitions {
    fn new(total: u64, len: usize, lo: u64, hi: u64) -> Self {
        Partitions { next: smallest_partition(total, len, lo, hi), hi }
    }
}

impl Iterator for Partitions {
    type Item = Vec<u64>;
    fn next(&mut self) -> Option<Vec<u64>> {
        let now = self.next.take()?;
        self.next = following_partition(&now, self.hi);
        Some(now)
    }
}

/// The lexicographically first non-decreasing list of `len` values ≥ `lo` and ≤ `hi` summing
/// to `total` (each value as small as the rest allows), if there is one.
fn smallest_partition(total: u64, len: usize, lo: u64, hi: u64) -> Option<Vec<u64>> {
    if len == 0 || total < lo * len as u64 || total > hi.saturating_mul(len as u64) {
        return None;
    }
    let mut out = Vec::with_capacity(len);
    let (mut left, mut floor) = (total, lo);
    for k in (1..=len as u64).rev() {
        // The least value v ≥ floor such that the k − 1 items after it (each ≥ v, ≤ hi) can
        // take the rest: left − v ≤ hi·(k − 1).
        let v = floor.max(left.saturating_sub(hi.saturating_mul(k - 1)));
        out.push(v);
        left -= v;
        floor = v;
    }
    Some(out)
}

/// The next non-decreasing list after `now` with its length, total and bound `hi`.
fn following_partition(now: &[u64], hi: u64) -> Option<Vec<u64>> {
    let len = now.len();
    // Raise item i by one and refill the items after it as small as possible.
    for i in (0..len.saturating_sub(1)).rev() {
        let rest: u64 = now[i..].iter().sum::<u64>() - (now[i] + 1);
        if let Some(tail) = smallest_partition(rest, len - i - 1, now[i] + 1, hi) {
            let mut next = now[..i].to_vec();
            next.push(now[i] + 1);
            next.extend(tail);
            return Some(next);
        }
    }
    None
}

/// For the games' tests: the inputs `game.by_size(case)` lists while `within`, checked to come
/// in non-decreasing size keys, each once, each answered by the trusted side, and to include
/// every input of the exhaustive generator `within`; their number.
#[cfg(test)]
pub(crate) fn check_by_size<G: super::Generator>(game: &G, case: &G::Case, within: impl Fn(&G::Case) -> bool) -> usize {
    let listed: Vec<G::Case> = game.by_size(case).take_while(&within).collect();
    let keys: Vec<Vec<u64>> = listed.iter().map(|c| game.size_key(c).expect("a size key")).collect();
    assert!(keys.windows(2).all(|k| k[0] <= k[1]), "size keys out of order");
    let texts: std::collections::HashSet<Vec<u8>> = listed.iter().map(|c| game.input_text(c)).collect();
    assert_eq!(texts.len(), listed.len(), "an input listed twice");
    listed.iter().for_each(|c| drop(game.answer(c)));
    for c in game.cases(super::Source::Exhaustive, 0).filter(|c| within(c)) {
        assert!(texts.contains(&game.input_text(&c)), "missing {}", String::from_utf8_lossy(&game.input_text(&c)));
    }
    listed.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_by_ones() {
        assert_eq!(masks(4, 2).collect::<Vec<_>>(), [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(masks(3, 0).collect::<Vec<_>>(), [0]);
        assert_eq!(masks(63, 63).count(), 1);
    }

    #[test]
    fn multisets_and_their_orders() {
        let first: Vec<Vec<u64>> = multisets(1, 9, 3).take(8).collect();
        assert_eq!(first, vec![vec![1], vec![2], vec![1, 1], vec![3], vec![1, 2], vec![1, 1, 1], vec![4], vec![1, 3]]);
        assert_eq!(Partitions::new(7, 3, 1, 3).collect::<Vec<_>>(), vec![vec![1, 3, 3], vec![2, 2, 3]]);
        assert_eq!(orders(vec![1, 1, 2]).collect::<Vec<_>>(), vec![vec![1, 1, 2], vec![1, 2, 1], vec![2, 1, 1]]);
        assert_eq!(list_key(&[3, 1, 2]), [6, 3, 1, 2, 3]);
    }

    #[test]
    fn lists_come_once_each_in_key_order() {
        // Every list of values 2..=4, at most 3 items, total ≤ 10: each once, keys non-decreasing.
        let all: Vec<Vec<u64>> = lists_by_size(2, 4, 3).take_while(|l| l.iter().sum::<u64>() <= 10).collect();
        assert!(all.windows(2).all(|p| list_key(&p[0]) <= list_key(&p[1])), "{all:?}");
        let expected = (1..=3u32).map(|len| (0..3u64.pow(len)).filter(|code| (0..len).map(|k| 2 + code / 3u64.pow(k) % 3).sum::<u64>() <= 10).count()).sum::<usize>();
        assert_eq!(all.len(), expected);
        assert_eq!(all.iter().collect::<std::collections::HashSet<_>>().len(), all.len());
    }
}
