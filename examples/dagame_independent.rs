//! Test program for `sprague stress dagame` (BOJ 27306): WRONG CLAIM — every token is taken as
//! an independent game worth g(node), ignoring that two tokens of one colour merge when
//! they meet. Young (first player) wins iff the XOR of g over all tokens is non-zero.
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut words = text.split_whitespace().map(|w| w.parse::<usize>().expect("number"));
    let mut next = || words.next().expect("more input");
    let (n, m) = (next(), next());
    let mut succ = vec![Vec::new(); n + 1];
    for _ in 0..m {
        let (p, q) = (next(), next());
        succ[p].push(q);
    }
    let mut g = vec![0u32; n + 1];
    for v in (1..=n).rev() {
        let mut options: Vec<u32> = succ[v].iter().map(|&q| g[q]).collect();
        options.sort_unstable();
        options.dedup();
        g[v] = options.iter().enumerate().find(|&(k, &x)| x != k as u32).map_or(options.len() as u32, |(k, _)| k as u32);
    }
    let k = next();
    let xor = (0..k).fold(0, |acc, _| {
        let (v, _colour) = (next(), next());
        acc ^ g[v]
    });
    println!("{}", if xor != 0 { "Young" } else { "Cheol" });
}
