//! Test program for `sprague stress nim`: WRONG on a few positions — Nim's XOR rule, except that
//! it names the wrong winner on exactly the piles `1 2 3` and on every position of three or
//! more piles with over 100 stones. A random or adversarial find is large and shrinks only to
//! about 100 stones; the search below it reaches `1 2 3`, the smallest failing input.
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut words = text.split_whitespace().map(|w| w.parse::<u64>().expect("number"));
    let n = words.next().expect("N") as usize;
    let piles: Vec<u64> = words.take(n).collect();
    let first_wins = piles.iter().fold(0, |x, p| x ^ p) != 0;
    let wrong = piles == [1, 2, 3] || (n >= 3 && piles.iter().sum::<u64>() > 100);
    println!("{}", if first_wins != wrong { "koosaga" } else { "cubelover" });
}
