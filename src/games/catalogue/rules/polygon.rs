//! The polygon game's move rule: a chord joins two free vertices of a convex n-gon and crosses no earlier chord.

use crate::impartial::Impartial;

/// The polygon game. A position is (n, drawn segments as a bit set over vertex pairs).
pub struct Polygon;

/// Brute force handles polygons up to this many vertices (pair bits fit in a u128).
pub const MAX_BRUTE_VERTICES: u32 = 16;

/// (number of vertices, bit `pair_bit(a, b)` set for every drawn segment a–b).
pub type Drawing = (u32, u128);

/// The bit of the segment between vertices a ≠ b.
pub fn pair_bit(a: u32, b: u32) -> u32 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

/// The segments of a drawing as (low, high) vertex pairs.
pub fn segments(&(n, drawn): &Drawing) -> Vec<(u32, u32)> {
    (1..n).flat_map(|hi| (0..hi).map(move |lo| (lo, hi))).filter(|&(lo, hi)| drawn >> pair_bit(lo, hi) & 1 == 1).collect()
}

/// Two segments with four distinct endpoints on a convex polygon cross iff exactly one endpoint
/// of the second lies strictly between the endpoints of the first.
pub fn crosses((a, b): (u32, u32), (c, d): (u32, u32)) -> bool {
    let inside = |v: u32| a < v && v < b;
    inside(c) != inside(d)
}

impl Impartial for Polygon {
    type Position = Drawing;
    fn moves(&self, drawing: &Drawing) -> Vec<Drawing> {
        let (n, drawn) = *drawing;
        let existing = segments(drawing);
        let used: u32 = existing.iter().fold(0, |m, &(a, b)| m | 1 << a | 1 << b);
        let free = |v: u32| used >> v & 1 == 0;
        let mut out = Vec::new();
        for a in (0..n).filter(|&v| free(v)) {
            for b in (a + 1..n).filter(|&v| free(v)) {
                if existing.iter().all(|&s| !crosses((a, b), s)) {
                    out.push((n, drawn | 1 << pair_bit(a, b)));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::BruteForce;

    #[test]
    fn crossing_and_touching_segments_are_not_moves() {
        // Square 0-1-2-3 with diagonal 0–2: every other segment touches 0 or 2 or crosses it.
        assert!(Polygon.moves(&(4, 1 << pair_bit(0, 2))).is_empty());
        // With side 0–1 drawn, only 2–3 remains.
        assert_eq!(Polygon.moves(&(4, 1 << pair_bit(0, 1))), vec![(4, 1 << pair_bit(0, 1) | 1 << pair_bit(2, 3))]);
    }

    #[test]
    fn brute_force_on_the_polygon_itself() {
        let mut brute = BruteForce::new(&Polygon);
        let values: Vec<u32> = (0..=8).map(|n| brute.grundy(&(n, 0))).collect();
        // A published table says g(3)=0, g(5)=2, g(6)=1; play on the polygon says otherwise.
        assert_eq!(values, [0, 0, 1, 1, 2, 0, 3, 1, 1]);
    }
}
