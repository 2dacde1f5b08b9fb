//! Published value sequences and periods of octal games, checked against the engine and against
//! the committed family table (results/octal/family/family.csv). Each constant names its
//! source; OEIS sequences start at n = 1 (a(1) = g(1)) unless the source says otherwise, and
//! "values a(n − k)" in an OEIS comment means g(n) = a(n − k). Disagreements: docs/octal-family.md.

use sprague::games::octal::code::Code;
use sprague::games::octal::family::FamilyRow;
use sprague::games::octal::period::{prove, Bound};
use sprague::games::octal::values::{values, Method};
use sprague::output::csv::read_csv;
use std::path::Path;

/// OEIS A071435, octal game .177, a(1..=102) (oeis.org/A071435). "Octal games .450-.453 and
/// .470-.473 have values a(n-1). Eventually periodic with period 20. The last exception is at n=496."
const A071435: [u16; 102] = [
    1, 1, 2, 2, 3, 1, 1, 4, 4, 3, 2, 2, 1, 1, 4, 2, 2, 6, 4, 4, 1, 1, 2, 2, 7, 1, 1, 4, 4, 3, 2, 2, 1, 1, 4, 8, 2, 7, 4, 4, 1, 1, 2, 2, 7, 8, 1, 4, 4, 7, 2, 2,
    1, 1, 4, 4, 2, 7, 7, 4, 1, 1, 2, 2, 7, 7, 1, 1, 4, 7, 2, 2, 1, 1, 4, 4, 6, 2, 7, 4, 1, 1, 2, 2, 8, 8, 5, 1, 4, 7, 2, 2, 1, 1, 8, 8, 6, 7, 7, 4, 1, 1,
];

/// OEIS A071434, octal game .1377, a(1..=102). "Octal games .074-.077 have values a(n-1).
/// Octal games .440-.443 and .460-.463 have values a(n-2). Period 24. The last exception is at n=140."
const A071434: [u16; 102] = [
    1, 1, 2, 2, 3, 3, 1, 1, 4, 4, 3, 3, 2, 2, 1, 1, 4, 4, 2, 2, 6, 6, 4, 4, 1, 1, 2, 2, 7, 7, 1, 1, 4, 4, 3, 3, 2, 2, 1, 1, 4, 4, 6, 6, 7, 7, 4, 4, 1, 1, 2, 2,
    8, 8, 5, 5, 4, 4, 7, 7, 2, 2, 1, 1, 8, 8, 6, 6, 7, 7, 4, 4, 1, 1, 2, 2, 3, 3, 1, 1, 4, 4, 7, 7, 2, 2, 1, 1, 8, 8, 2, 2, 7, 7, 4, 4, 1, 1, 2, 2, 8, 8,
];

/// OEIS A071452, octal game .11377, a(1..=105). "Octal game .0177 has values a(n-1). Octal
/// games .045 and .047 has values a(n-2). Period 32. The last exception is at n=186."
const A071452: [u16; 105] = [
    1, 1, 1, 2, 2, 2, 3, 3, 1, 1, 1, 4, 4, 4, 3, 3, 2, 2, 2, 1, 1, 1, 4, 4, 2, 2, 2, 6, 6, 4, 4, 4, 1, 1, 1, 2, 2, 2, 7, 7, 1, 1, 1, 4, 4, 4, 3, 3, 2, 2, 2,
    1, 1, 1, 4, 4, 8, 6, 2, 7, 7, 4, 4, 4, 1, 1, 1, 2, 2, 2, 8, 8, 8, 5, 1, 4, 4, 4, 7, 7, 2, 2, 2, 1, 1, 1, 8, 8, 8, 6, 2, 7, 7, 4, 4, 4, 1, 1, 1, 2, 2, 2, 3, 8, 1,
];

/// OEIS A071453, octal game .117, a(1..=105). "Octal games .051 and .053 have values a(n-1).
/// Period 48. The only exceptions are n=2, 6, 7, 12, 16, 22, 26, 36 and 46."
const A071453: [u16; 105] = [
    1, 1, 1, 0, 2, 2, 1, 3, 4, 0, 1, 1, 1, 3, 2, 2, 2, 3, 4, 0, 1, 5, 4, 3, 2, 2, 2, 3, 1, 0, 1, 0, 4, 3, 2, 2, 2, 0, 1, 0, 1, 0, 4, 3, 2, 5, 4, 0, 1, 0, 1, 0,
    2, 3, 2, 3, 4, 0, 1, 0, 1, 3, 2, 3, 2, 3, 4, 0, 1, 0, 4, 3, 2, 3, 2, 3, 1, 0, 1, 0, 4, 3, 2, 3, 2, 0, 1, 0, 1, 0, 4, 3, 2, 3, 4, 0, 1, 0, 1, 0, 2, 3, 2, 3, 4,
];

/// OEIS A071464, octal games .127 and .1271, a(1..=87). "Eventually periodic with period 4.
/// The last exception is at n=46577 [Gangolli and Plambeck]."
const A071464: [u16; 87] = [
    1, 0, 2, 2, 1, 0, 4, 4, 1, 2, 2, 0, 1, 4, 4, 6, 1, 7, 7, 0, 1, 2, 2, 6, 1, 4, 4, 8, 1, 2, 7, 8, 1, 0, 7, 2, 6, 8, 1, 4, 9, 8, 1, 2, 6, 0, 1, 4, 6, 2, 1,
    8, 9, 0, 1, 6, 2, 2, 7, 0, 1, 8, 3, 2, 1, 4, 4, 8, 9, 2, 7, 8, 1, 0, 9, 2, 2, 6, 4, 4, 1, 8, 3, 2, 1, 0, 4,
];

/// OEIS A071436, octal games .560-.563, a(1..=92). "Eventually periodic with period 144. The
/// last exception is at n=326637."
const A071436: [u16; 92] = [
    1, 0, 2, 2, 4, 1, 1, 3, 2, 4, 4, 6, 6, 2, 1, 1, 7, 6, 8, 4, 1, 1, 6, 5, 4, 8, 1, 1, 12, 4, 5, 6, 1, 1, 3, 12, 6, 6, 8, 9, 2, 11, 6, 6, 4, 2, 1, 1, 12, 13,
    4, 10, 8, 1, 12, 12, 5, 11, 1, 16, 2, 2, 12, 6, 1, 1, 2, 13, 12, 6, 6, 8, 1, 1, 7, 6, 11, 4, 16, 16, 6, 5, 5, 19, 1, 1, 12, 4, 14, 16, 1, 1,
];

/// OEIS A046695, Officers (.6, and .601, .61, .611, .62, .621, .63, .631), a(0..=101) (offset
/// 0), as quoted from the OEIS entry in the Nemotron-CC-Math dataset.
const A046695: [u16; 102] = [
    0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1, 0, 2, 1, 4, 5, 1, 4, 5, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 1, 0, 2, 8, 4, 5,
    3, 4, 5, 6, 2, 5, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 0, 2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6, 2, 3, 1, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 0, 2, 3, 4,
];

/// OEIS A125829, octal game .115, a(1..=98) (oeis.org/A125829). "Eventually periodic with
/// period 14. The only exception is at n=0 (not shown)."
const A125829: [u16; 98] = [
    1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2,
    2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2,
    1, 2, 2, 2, 1, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2,
];

/// OEIS A125920, octal game .176, a(1..=103) (oeis.org/A125920). "Eventually periodic with
/// period 8. The last exception is at n=23."
const A125920: [u16; 103] = [
    1, 1, 0, 2, 2, 3, 4, 4, 1, 1, 6, 2, 2, 3, 4, 4, 1, 1, 6, 6, 3, 3, 2, 4, 1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4, 4,
    1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4, 4,
    1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4, 4, 1, 1, 6, 6, 3, 3, 4,
];

/// g(0..=max) of `code`.
fn g(code: &str, max: usize) -> Vec<u16> {
    values(&Code::parse(code).unwrap(), max, Method::Sparse).unwrap()
}

/// Checks that the codes have values a(n − shift) for an OEIS sequence `a` from n = 1.
fn shifted(a: &[u16], codes: &[&str], shift: usize) {
    for code in codes {
        assert_eq!(g(code, a.len() + shift)[1 + shift..], *a, "{code} against a(n - {shift})");
    }
}

#[test]
fn oeis_sequences_and_the_codes_their_comments_name() {
    shifted(&A071435, &["0.177"], 0);
    shifted(&A071435, &["0.45", "0.451", "0.452", "0.453", "0.47", "0.471", "0.472", "0.473"], 1);
    shifted(&A071434, &["0.1377"], 0);
    shifted(&A071434, &["0.074", "0.075", "0.076", "0.077"], 1);
    shifted(&A071434, &["0.44", "0.441", "0.442", "0.443", "0.46", "0.461", "0.462", "0.463"], 2);
    shifted(&A071452, &["0.11377"], 0);
    shifted(&A071452, &["0.0177"], 1);
    shifted(&A071452, &["0.045", "0.047"], 2);
    shifted(&A071453, &["0.117"], 0);
    shifted(&A071453, &["0.051", "0.053"], 1);
    shifted(&A071464, &["0.127", "0.1271"], 0);
    shifted(&A071436, &["0.56", "0.561", "0.562", "0.563"], 0);
    shifted(&A125829, &["0.115"], 0);
    shifted(&A125920, &["0.176"], 0);
    for code in ["0.6", "0.601", "0.61", "0.611", "0.62", "0.621", "0.63", "0.631"] {
        assert_eq!(g(code, 101), A046695, "{code}");
    }
}

/// (n0, p) that the theorem proves from `len` values of `code`.
fn proved(code: &str, len: usize) -> Option<(usize, usize)> {
    let parsed = Code::parse(code).unwrap();
    prove(&g(code, len - 1), Bound::of(&parsed).unwrap(), parsed.max_take()).map(|p| (p.preperiod, p.period))
}

#[test]
fn published_periods_proved_from_the_values() {
    // Preperiod n0 = last exception + 1 (+ the shift of the comment naming the code).
    assert_eq!(proved("0.1377", 512), Some((141, 24)));
    assert_eq!(proved("0.11377", 1024), Some((187, 32)));
    assert_eq!(proved("0.117", 256), Some((47, 48)));
    // .127: last exception 46577 (Gangolli and Plambeck), so 2·46578 + 4 + 3 + 4 = 93167 values.
    assert_eq!(proved("0.127", 93_167), Some((46_578, 4)));
}

/// The committed table's (status, n0, p) of each code.
fn table() -> std::collections::BTreeMap<String, (String, Option<usize>, Option<usize>)> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/octal/family/family.csv");
    read_csv::<FamilyRow>(&file).unwrap().into_iter().map(|r| (r.code, (r.status, r.preperiod, r.period))).collect()
}

#[test]
fn the_committed_table_has_the_published_periods() {
    let table = table();
    let expect = |codes: &[&str], n0: usize, p: usize| {
        for code in codes {
            assert_eq!(table[*code], ("proved".to_string(), Some(n0), Some(p)), "{code}");
        }
    };
    expect(&["0.77"], 71, 12); // A002186: period 12, last exception 70
    expect(&["0.137"], 52, 34); // A002187: period 34, last exception 51
    expect(&["0.07"], 53, 34); // 0.07 is A002187 one heap later
    expect(&["0.177"], 497, 20);
    expect(&["0.45", "0.451", "0.452", "0.453", "0.47", "0.471", "0.472", "0.473"], 498, 20);
    expect(&["0.074", "0.075", "0.076", "0.077"], 142, 24);
    expect(&["0.44", "0.441", "0.442", "0.443", "0.46", "0.461", "0.462", "0.463"], 143, 24);
    expect(&["0.045", "0.047"], 189, 32);
    expect(&["0.051", "0.053"], 48, 48);
    expect(&["0.117"], 47, 48);
    expect(&["0.115"], 1, 14);
    expect(&["0.176"], 24, 8);
    // A071436: period 144 agrees; its last exception (326637) does not: docs/octal-family.md.
    let period = |code: &str| table[code].2;
    assert!(["0.56", "0.561", "0.562", "0.563"].iter().all(|c| period(c) == Some(144)));
}

#[test]
fn where_a071436_and_the_values_disagree() {
    // A071436 puts the last exception of .560–.563 at n = 326637 (so n0 = 326638). In the
    // values, g(326637) = g(326637 + 144) and g(326638) too, while g(326639) ≠ g(326783):
    // the theorem proves period 144 from n0 = 326640 (results/octal/family/family.csv).
    let g = g("0.56", 327_000);
    let exception = |n: usize| g[n] != g[n + 144];
    assert_eq!((exception(326_636), exception(326_637), exception(326_638), exception(326_639)), (true, false, false, true));
    assert!((326_640..326_640 + 144).all(|n| !exception(n)));
    assert_eq!(table()["0.56"], ("proved".to_string(), Some(326_640), Some(144)));
}

/// Grundy's game's sparse values as Flammenkamp lists them ("Known Sparse SGV of Grundy's
/// Game", wwwhomes.uni-bielefeld.de/achim/grundy.html: "1287 are known for Grundy's Game which
/// has m=01111…"), the first 47 (n, G(n)).
const GRUNDY_SPARSE: [(u64, u16); 47] = [
    (0, 0), (1, 0), (2, 0), (3, 1), (4, 0), (6, 1), (7, 0), (9, 1), (10, 0), (12, 1), (15, 1), (20, 0), (23, 0), (26, 0), (28, 1), (31, 1),
    (34, 1), (37, 1), (40, 1), (43, 1), (46, 1), (49, 1), (50, 0), (52, 1), (53, 0), (55, 1), (58, 1), (61, 1), (87, 7), (90, 7), (93, 7),
    (146, 6), (149, 6), (152, 6), (158, 11), (161, 11), (164, 11), (167, 11), (176, 7), (179, 7), (181, 12), (182, 7), (185, 7), (188, 7),
    (190, 12), (193, 12), (196, 10),
];

/// The committed run of Grundy's game to 2^30 (results/octal/runs/grundy) finds exactly the 1287
/// sparse values Flammenkamp reports, under his mask (every bit but the lowest), beginning as
/// his list does.
#[test]
fn grundys_game_to_2_30_has_the_1287_known_sparse_values() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/octal/runs/grundy");
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let fields: Vec<&str> = summary.lines().nth(1).unwrap().split(',').collect();
    // code, heaps, …, mask, split, rare_heaps, last_rare_heap.
    assert_eq!((fields[0], fields[1], fields[5], fields[6], fields[7]), ("grundy", "1073741824", "510", "range", "1287"));
    let rare = std::fs::read_to_string(dir.join("rare.csv")).unwrap();
    let listed: Vec<(u64, u16)> = rare.lines().skip(1).map(|l| {
        let (n, v) = l.split_once(',').unwrap();
        (n.parse().unwrap(), v.parse().unwrap())
    }).collect();
    assert_eq!(listed.len(), 1287);
    assert_eq!(listed[..GRUNDY_SPARSE.len()], GRUNDY_SPARSE);
}
