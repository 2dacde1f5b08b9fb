//! Test program for `sprague stress nim`: WRONG CLAIM — the first player (koosaga) wins iff the
//! total number of stones is odd (true for heaps of one stone, false in general).
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut words = text.split_whitespace().map(|w| w.parse::<u64>().expect("number"));
    let n = words.next().expect("N") as usize;
    let total: u64 = words.take(n).sum();
    println!("{}", if total % 2 == 1 { "koosaga" } else { "cubelover" });
}
