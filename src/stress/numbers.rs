//! Numbers and lists for the games' contest sides: smaller candidates (shorter lists, lower
//! values), seeded draws that favour the boundaries, every list up to a total, and lists whose
//! Grundy values XOR to zero.

use rand::Rng;

/// Values below `value` and not below `min`, largest cut first: `min` and `min + 1`, the
/// two values halfway, `value − 2` and `value − 1` (both parities at every scale).
pub fn lower(value: u64, min: u64) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    if value <= min {
        return out;
    }
    let half = min + (value - min) / 2;
    for v in [min, min + 1, half, half + 1, value.saturating_sub(2), value - 1] {
        if (min..value).contains(&v) && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Shorter lists of at least `min_len` items, largest cut first: the first and the second
/// half, then each item dropped in turn.
pub fn shorter<T: Clone>(items: &[T], min_len: usize) -> Vec<Vec<T>> {
    let n = items.len();
    let mut out = Vec::new();
    if n / 2 >= min_len.max(1) && n >= 2 {
        out.push(items[..n / 2].to_vec());
        out.push(items[n / 2..].to_vec());
    }
    if n > min_len {
        out.extend((0..n).map(|skip| items.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, v)| v.clone()).collect()));
    }
    out
}

/// The list with one value lowered (see [`lower`]), position by position.
pub fn lowered(items: &[u64], min: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for (i, &v) in items.iter().enumerate() {
        for smaller in lower(v, min) {
            let mut next = items.to_vec();
            next[i] = smaller;
            out.push(next);
        }
    }
    out
}

/// The values next to each power of two inside `lo..=hi` (2^k − 1, 2^k, 2^k + 1), ascending.
pub fn near_powers_of_two(lo: u64, hi: u64) -> Vec<u64> {
    let mut out: Vec<u64> = (0..64).flat_map(|k| {
        let p = 1u64 << k;
        [p - 1, p, p.saturating_add(1)]
    })
    .filter(|v| (lo..=hi).contains(v))
    .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A value in `lo..=hi`: one draw in four a boundary (`lo`, `hi`, or next to a power of
/// two), the others uniform on a random scale, so that small values come as often as large.
pub fn draw(rng: &mut impl Rng, lo: u64, hi: u64) -> u64 {
    assert!(lo <= hi, "empty range {lo}..={hi}");
    if rng.random_range(0..4) == 0 {
        return match rng.random_range(0..3) {
            0 => lo,
            1 => hi,
            _ => {
                let near = near_powers_of_two(lo, hi);
                if near.is_empty() { hi } else { near[rng.random_range(0..near.len())] }
            }
        };
    }
    let span = hi - lo;
    let bits = rng.random_range(0..=64 - span.leading_zeros());
    let top = if bits >= 64 { span } else { span.min((1u64 << bits).saturating_sub(1)) };
    lo + rng.random_range(0..=top)
}

/// The largest size a random case number `index` may have: small cases first (2 at the
/// start), growing by one every 64 cases up to `hi`.
pub fn growing(index: u64, lo: u64, hi: u64) -> u64 {
    (lo.max(2) + index / 64).min(hi).max(lo)
}

/// The largest value a random case number `index` may draw: 2, doubling every 32 cases, up
/// to `hi` (so that values of every magnitude come early, small ones first).
pub fn scale(index: u64, hi: u64) -> u64 {
    hi.min(1u64 << (1 + index / 32).min(63))
}

/// Every list of values ≥ `min` with at most `max_len` items and a total of at most
/// `max_total`, by total, then in the order of the cut points (each total's lists are all
/// ordered splittings of it).
pub fn compositions(min: u64, max_total: u64, max_len: usize) -> impl Iterator<Item = Vec<u64>> + Send {
    let min = min.max(1);
    (min..=max_total.min(40)).flat_map(move |total| {
        (0..1u64 << (total - 1)).filter_map(move |cuts| {
            let mut parts = Vec::new();
            let mut run = 1;
            for bit in 0..total - 1 {
                if cuts >> bit & 1 == 1 {
                    parts.push(run);
                    run = 0;
                }
                run += 1;
            }
            parts.push(run);
            (parts.len() <= max_len && parts.iter().all(|&p| p >= min)).then_some(parts)
        })
    })
}

/// Appends to `items` one value whose Grundy value (`value_of`) makes the XOR of all items'
/// values zero, as `inverse` finds it (`None`: no such value in range). Returns false, and
/// leaves `items` as they were, when there is none; nothing is appended when the XOR is
/// already zero.
pub fn balance(items: &mut Vec<u64>, value_of: impl Fn(u64) -> u64, inverse: impl Fn(u64) -> Option<u64>) -> bool {
    let xor = items.iter().fold(0, |x, &v| x ^ value_of(v));
    if xor == 0 {
        return true;
    }
    match inverse(xor) {
        Some(v) => {
            items.push(v);
            true
        }
        None => false,
    }
}

/// A random list for case number `index`: a length in `lens` (one case in 32 the longest,
/// three the shortest, else growing with `index`) of values in `values` drawn with [`draw`]
/// (one list in four over the whole range, the others up to [`scale`]).
pub fn random_list(rng: &mut impl Rng, index: u64, lens: (u64, u64), values: (u64, u64)) -> Vec<u64> {
    let ((min_len, max_len), (lo, hi)) = (lens, values);
    let n = match rng.random_range(0..32) {
        0 => max_len,
        1..=3 => min_len,
        _ => draw(rng, min_len, growing(index, min_len, max_len)),
    };
    let cap = if rng.random_range(0..4) == 0 { hi } else { (lo + scale(index, hi)).min(hi) };
    (0..n).map(|_| draw(rng, lo, cap)).collect()
}

/// A list of at most `max_len` values in `values` whose Grundy values (`value_of`) XOR to
/// zero: up to 64 items (one list in 16 the longest), most next to a power of two, the last
/// one found by `inverse` (see [`balance`]); drawn again until that succeeds.
pub fn zero_sum_list(
    rng: &mut impl Rng,
    max_len: u64,
    values: (u64, u64),
    value_of: impl Fn(u64) -> u64,
    inverse: impl Fn(u64) -> Option<u64>,
) -> Vec<u64> {
    let (lo, hi) = values;
    let near = near_powers_of_two(lo, hi);
    loop {
        let longest = max_len.saturating_sub(1).max(1);
        let n = if rng.random_range(0..16) == 0 { longest } else { draw(rng, 1, longest.min(64)) };
        let mut items: Vec<u64> = (0..n)
            .map(|_| if rng.random_bool(0.7) && !near.is_empty() { near[rng.random_range(0..near.len())] } else { draw(rng, lo, hi) })
            .collect();
        if balance(&mut items, &value_of, &inverse) && items.len() as u64 <= max_len {
            return items;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn smaller_candidates() {
        assert_eq!(lower(10, 1), [1, 2, 5, 6, 8, 9]);
        assert_eq!(lower(6, 1), [1, 2, 3, 4, 5]);
        assert_eq!(lower(2, 1), [1]);
        assert!(lower(1, 1).is_empty());
        assert_eq!(shorter(&[1, 2, 3], 1), vec![vec![1], vec![2, 3], vec![2, 3], vec![1, 3], vec![1, 2]]);
        assert!(shorter(&[7], 1).is_empty());
        assert_eq!(lowered(&[1, 3], 1), vec![vec![1, 1], vec![1, 2]]);
        assert_eq!(lower(u64::MAX, 0).len(), 6);
    }

    #[test]
    fn draws_stay_in_range_and_reach_the_ends() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let values: Vec<u64> = (0..4000).map(|_| draw(&mut rng, 1, 1_000_000_000)).collect();
        assert!(values.iter().all(|v| (1..=1_000_000_000).contains(v)));
        assert!(values.contains(&1) && values.contains(&1_000_000_000) && values.contains(&(1 << 29)));
        assert!(values.iter().filter(|&&v| v < 100).count() > 200, "small values are common");
        assert_eq!(near_powers_of_two(3, 9), [3, 4, 5, 7, 8, 9]);
        assert_eq!(draw(&mut rng, 5, 5), 5);
        assert_eq!((scale(0, 1000), scale(64, 1000), scale(10_000, 1000)), (2, 8, 1000));
        assert_eq!((growing(0, 1, 100), growing(640, 1, 100), growing(1 << 20, 1, 100)), (2, 12, 100));
    }

    #[test]
    fn compositions_by_total() {
        let all: Vec<Vec<u64>> = compositions(1, 3, 9).collect();
        assert_eq!(all, vec![vec![1], vec![2], vec![1, 1], vec![3], vec![1, 2], vec![2, 1], vec![1, 1, 1]]);
        let twos: Vec<Vec<u64>> = compositions(2, 5, 1).collect();
        assert_eq!(twos, vec![vec![2], vec![3], vec![4], vec![5]]);
        assert_eq!(compositions(1, 10, 10).count(), (1 << 10) - 1);
    }

    #[test]
    fn balance_zeroes_the_xor() {
        let mut items = vec![5, 9];
        assert!(balance(&mut items, |v| v, Some));
        assert_eq!(items, [5, 9, 12]);
        assert!(balance(&mut items, |v| v, |_| None), "already zero");
        let mut odd = vec![3];
        assert!(!balance(&mut odd, |v| v, |_| None) && odd == [3]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        for _ in 0..100 {
            let list = zero_sum_list(&mut rng, 100, (1, 1000), |v| v, |x| (x <= 1000).then_some(x));
            assert!(list.len() <= 100 && list.iter().all(|v| (1..=1000).contains(v)));
            assert_eq!(list.iter().fold(0, |x, v| x ^ v), 0);
        }
        let lists: Vec<Vec<u64>> = (0..2000).map(|i| random_list(&mut rng, i, (1, 100), (2, 50))).collect();
        assert!(lists.iter().all(|l| (1..=100).contains(&l.len()) && l.iter().all(|v| (2..=50).contains(v))));
        assert!(lists.iter().any(|l| l.len() == 100) && lists[..64].iter().all(|l| l.len() <= 2 || l.len() == 100));
    }
}
