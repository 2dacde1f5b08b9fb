//! Test program for `sprague stress octal --answer move`: reads the code, n and the heaps, and
//! prints a move as `i` and the heaps heap i leaves, or `Second` when the position is lost.
//! `octal_moves last` is RIGHT: the last winning move, its heaps largest first (sprague's
//! answer files hold the first, smallest first); `octal_moves losing` is WRONG on a won position
//! where heap 1 has a losing move: it plays the first such move.
use sprague::games::octal::code::Code;
use sprague::games::octal::values::{values, Method};
use std::io::Read;

fn main() {
    let losing = std::env::args().nth(1).as_deref() == Some("losing");
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut words = text.split_whitespace();
    let code = Code::parse(words.next().expect("code")).expect("a valid code");
    let n: usize = words.next().expect("n").parse().expect("n");
    let heaps: Vec<usize> = words.take(n).map(|w| w.parse().expect("heap")).collect();
    let g = values(&code, heaps.iter().copied().max().unwrap_or(0), Method::Sparse).expect("values");
    let xor = heaps.iter().fold(0, |x, &h| x ^ g[h]);
    let leaves = |parts: &[usize]| parts.iter().fold(0, |x, &p| x ^ g[p]);
    let all: Vec<(usize, Vec<usize>)> = heaps.iter().enumerate().flat_map(|(i, &h)| code.options(h).into_iter().map(move |parts| (i, parts))).collect();
    let wins = |(i, parts): &&(usize, Vec<usize>)| leaves(parts) == xor ^ g[heaps[*i]];
    let pick = match all.iter().rev().find(wins) {
        Some(_) if losing => all.iter().find(|m| m.0 == 0 && !wins(m)).or_else(|| all.iter().rev().find(wins)),
        last => last,
    };
    match pick {
        None => println!("Second"),
        Some((i, parts)) => {
            let parts: String = parts.iter().rev().map(|p| format!(" {p}")).collect();
            println!("{}{parts}", i + 1);
        }
    }
}
