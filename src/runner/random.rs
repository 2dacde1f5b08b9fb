//! The seeded random stream of every random instance: instance i is stream i of the seed.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Stream `index` of `seed` (ChaCha8): every random instance can be rebuilt on its own.
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// A uniform draw from 0..n (multiply-shift; portable, no dependence on `rand` versions).
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    ((rng.next_u64() as u128 * n as u128) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_repeat_and_differ() {
        let draws = |index| (0..8).map(|_| below(&mut stream(7, index), 1000)).collect::<Vec<_>>();
        assert_eq!(draws(3), draws(3));
        let mut rng = stream(7, 3);
        let a: Vec<u64> = (0..8).map(|_| below(&mut rng, 1000)).collect();
        let mut rng = stream(7, 4);
        let b: Vec<u64> = (0..8).map(|_| below(&mut rng, 1000)).collect();
        assert_ne!(a, b);
        assert!(a.iter().all(|&x| x < 1000));
    }
}
