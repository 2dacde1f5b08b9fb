//! Test program for `sprague stress nim --answer move`: prints a Nim move as `i k` (take k
//! stones from pile i), or `cubelover` when the position is lost. `nim_moves last` is RIGHT:
//! it picks the last winning move (sprague's answer files hold the first); `nim_moves losing`
//! is WRONG on a won position with a pile of 3 or more: it takes one stone from the first pile.
use std::io::Read;

fn main() {
    let losing = std::env::args().nth(1).as_deref() == Some("losing");
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut words = text.split_whitespace().map(|w| w.parse::<u64>().expect("number"));
    let n = words.next().expect("N") as usize;
    let piles: Vec<u64> = words.take(n).collect();
    let xor = piles.iter().fold(0, |x, p| x ^ p);
    let last = piles.iter().rposition(|&p| xor ^ p < p);
    match last {
        None => println!("cubelover"),
        Some(_) if losing && piles.iter().any(|&p| p >= 3) => println!("1 1"),
        Some(i) => println!("{} {}", i + 1, piles[i] - (xor ^ piles[i])),
    }
}
