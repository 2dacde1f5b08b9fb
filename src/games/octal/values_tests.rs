//! The value engine's tests: both methods, both kernels, one and two threads agree.
use super::*;

use crate::games::octal::pipeline::{Balance, Shape};

/// A short lag, so that two threads take over from heap 256 on even in short runs.
const SHORT: Shape = Shape { lag: 16, pairs: 8 };

/// The kernels this CPU runs.
fn kernels() -> Vec<Kernel> {
    let mut kernels = vec![Kernel::Portable];
    if Kernel::avx2_available() {
        kernels.push(Kernel::Avx2);
    }
    kernels
}

/// g(0..=max) by the sparse method with `kernel` on `threads` threads divided as `shape` says.
fn sparse_with(code: &Code, max: usize, kernel: Kernel, threads: usize, shape: Shape) -> Vec<u16> {
    let mut engine = Engine::new(code, Method::Sparse);
    engine.set_kernel(kernel);
    engine.set_threads(threads);
    engine.set_shape(shape);
    engine.extend_to(max, &mut |_| {}).unwrap();
    engine.g
}

/// The values by plain mex, checked equal to the sparse method's with every kernel, on one and
/// two threads.
fn both(code: &str, max: usize) -> Vec<u16> {
    let code = Code::parse(code).unwrap();
    let plain = values(&code, max, Method::Plain).unwrap();
    for kernel in kernels() {
        for threads in [1, 2] {
            assert_eq!(sparse_with(&code, max, kernel, threads, SHORT), plain, "{code}, {kernel:?}, {threads} threads");
        }
    }
    plain
}

#[test]
fn known_sequences() {
    // OEIS A002186 (Kayles, 0.77), first 40 terms.
    let kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3];
    assert_eq!(both("0.77", 39), kayles);
    // OEIS A002187 (Dawson's chess, 0.137), first 40 terms; 0.07 has values a(n − 1).
    let chess = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3];
    assert_eq!(both("0.137", 39), chess);
    assert_eq!(both("0.07", 40)[1..], chess);
    // OEIS A002188 (Grundy's game), first 34 terms.
    let grundy = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4];
    assert_eq!(both("grundy", 33), grundy);
    assert_eq!(both("{1,3,4}", 13), [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
}

#[test]
fn sparse_and_plain_agree_on_many_codes() {
    for code in ["0.6", "0.4", "0.007", "0.16", "0.26", "0.56", "4.07", "0.777", "0x0.3f", "0x0.f8", "0x4.4"] {
        both(code, 700);
    }
    let officers = values(&Code::parse("0.6").unwrap(), 3000, Method::Sparse).unwrap();
    assert_eq!(officers, values(&Code::parse("0.6").unwrap(), 3000, Method::Plain).unwrap());
}

#[test]
fn sparse_and_plain_agree_on_every_three_digit_code() {
    for digits in 0..512 {
        let code = format!("0.{}{}{}", digits >> 6, digits >> 3 & 7, digits & 7);
        both(&code, 1000);
    }
}

#[test]
fn the_engine_extends_where_it_stopped() {
    let code = Code::parse("0.6").unwrap();
    let mut engine = Engine::new(&code, Method::Sparse);
    engine.extend_to(500, &mut |_| {}).unwrap();
    engine.extend_to(1500, &mut |_| {}).unwrap();
    assert_eq!(engine.values(), values(&code, 1500, Method::Plain).unwrap());
    assert_eq!(engine.method(), Method::Sparse);
    assert_eq!(Engine::new(&Code::parse("{1,2}").unwrap(), Method::Sparse).method(), Method::Plain);
}

#[test]
fn officers_and_grundys_game_agree_on_every_thread_count() {
    for code in ["0.6", "grundy"] {
        let code = Code::parse(code).unwrap();
        let one = sparse_with(&code, 100_000, Kernel::Portable, 1, Shape::DEFAULT);
        for kernel in kernels() {
            for threads in [2, 3] {
                assert_eq!(sparse_with(&code, 100_000, kernel, threads, Shape::DEFAULT), one, "{code}, {kernel:?}, {threads} threads");
            }
        }
        assert_eq!(one[..3001], values(&code, 3000, Method::Plain).unwrap());
    }
}

#[test]
fn a_resumed_engine_goes_on_as_if_never_stopped() {
    // 0.6 splits by the mask alone; 0.104 by the mask and the heap's parity (domain type).
    for (name, domain) in [("0.6", false), ("0.104", true)] {
        let code = Code::parse(name).unwrap();
        let mut whole = Engine::new(&code, Method::Sparse);
        whole.extend_to(5000, &mut |_| {}).unwrap();
        assert_eq!(whole.split().rule().domain.is_some(), domain, "{name}");
        let mut first = Engine::new(&code, Method::Sparse);
        first.extend_to(2000, &mut |_| {}).unwrap();
        let (rule, review_at) = (first.split().rule(), first.split().review_at());
        let mut resumed = Engine::resume(&code, Method::Sparse, first.g, rule, review_at).unwrap();
        resumed.set_threads(2);
        resumed.set_shape(SHORT);
        resumed.extend_to(5000, &mut |_| {}).unwrap();
        assert_eq!(resumed.g, whole.g);
        assert_eq!((resumed.split().rule(), resumed.split().rare()), (whole.split().rule(), whole.split().rare()));
    }
    // A domain rule for a code whose splits remove 1 and 2 tokens (0.44) is refused.
    let mixed = Code::parse("0.44").unwrap();
    assert!(Engine::resume(&mixed, Method::Sparse, vec![0, 0, 0], crate::games::octal::split::Rule { mask: 3, domain: Some(0) }, 512).is_none());
}

/// Codes the range type leaves dense and the heap's parity makes sparse (Flammenkamp's domain
/// type): the sparse method picks it, keeps few heaps rare, and agrees with plain mex.
#[test]
fn the_domain_type_makes_some_dense_codes_sparse_and_exact() {
    for name in ["0.104", "0.127", "0.204"] {
        let code = Code::parse(name).unwrap();
        let mut engine = Engine::new(&code, Method::Sparse);
        engine.extend_to(20_000, &mut |_| {}).unwrap();
        let rule = engine.split().rule();
        assert!(rule.domain.is_some(), "{name}: {rule:?}");
        let newer = engine.split().rare().iter().filter(|&&n| n >= 10_000).count();
        let (_, by_mask_alone) = crate::games::octal::split::best_rule(&engine.values()[10_000..], 10_000, None);
        assert!(3 * newer < by_mask_alone && newer < 10_000 / 8, "{name}: {newer} rare heaps among the newer half, {by_mask_alone} by a mask alone");
        assert_eq!(engine.values(), values(&code, 20_000, Method::Plain).unwrap(), "{name}");
    }
}

#[test]
fn two_threads_agree_wherever_the_rare_heaps_divide() {
    // 0.007 has about 10,000 rare heaps below 60,000, most of them beyond the lag: wherever the
    // balance divides them (all to the helper, some, all to the main thread), the values are
    // one thread's.
    let code = Code::parse("0.007").unwrap();
    let one = sparse_with(&code, 60_000, Kernel::Portable, 1, Shape::DEFAULT);
    for below in [0, 5_000, 20_000, usize::MAX] {
        let mut engine = Engine::new(&code, Method::Sparse);
        engine.set_threads(2);
        engine.set_balance(Balance::main_below(below));
        engine.extend_to(60_000, &mut |_| {}).unwrap();
        assert_eq!(engine.values(), &one[..], "main thread below {below}");
    }
}

/// A code whose digits `digits` sit at k = `at`, `at` + 1, … (zeros between), after `head`.
fn far_digits(head: &str, at: usize, digits: &str) -> String {
    format!("0.{head}{}{digits}", "0".repeat(at - 1 - head.len()))
}

/// Two-heap splits removing 253 tokens or more leave m = n − k ≤ 3 tokens at heap 256, where the
/// sparse method starts (the m/4 cursor started at a = 0, no split: a panic). The oracle searches
/// whole positions; these codes split only heaps of 253 tokens or more, so their positions stay few.
#[test]
fn splits_of_nearly_whole_heaps_agree_with_the_oracle() {
    use crate::games::octal::brute::WholePositions;
    use crate::impartial::BruteForce;
    for (head, at, digits) in [("", 253, "4"), ("33", 253, "4"), ("2", 253, "66"), ("13", 254, "4444"), ("3", 256, "6"), ("", 300, "4")] {
        let name = far_digits(head, at, digits);
        let code = Code::parse(&name).unwrap();
        let max = at + digits.len() + 64;
        let sparse = both(&name, max);
        let game = WholePositions(&code);
        let mut brute = BruteForce::new(&game);
        let oracle: Vec<u16> = (0..=max).map(|n| brute.grundy(&vec![n]) as u16).collect();
        assert_eq!(sparse, oracle, "{head} {at} {digits}");
    }
}

/// Dense long codes (every heap splits): the sparse method against plain mex past heap 256.
#[test]
fn long_dense_codes_agree_with_plain_mex() {
    for len in [253, 254, 256, 300] {
        both(&format!("0.{}", "7".repeat(len)), 700);
    }
}
