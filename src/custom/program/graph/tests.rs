use super::*;
use crate::custom::program::fake::{subtraction, Fake};

fn explorer(ask: &Arc<impl Ask + 'static>, convention: Convention) -> Explorer {
    Explorer::new(ask.clone(), convention, GraphLimits::default())
}

#[test]
fn subtraction_values_repeat_with_period_seven() {
    let game = Arc::new(Fake::new("positions moves claim", subtraction));
    let mut e = explorer(&game, Convention::Normal);
    let roots: Vec<u32> = (0..30).map(|n| e.intern(&n.to_string(), "test").unwrap()).collect();
    let values = e.values(&roots).unwrap();
    assert_eq!(values, (0..30).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect::<Vec<u32>>());
    let asked = game.asked.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(asked, 60, "each position of a small game asked twice");
    // Asking again asks nothing.
    e.values(&roots).unwrap();
    assert_eq!(game.asked.load(std::sync::atomic::Ordering::Relaxed), asked);
}

#[test]
fn misere_outcomes_by_minimax() {
    let game = Arc::new(Fake::new("positions moves", subtraction));
    let mut e = explorer(&game, Convention::Misere);
    let roots: Vec<u32> = (0..8).map(|n| e.intern(&n.to_string(), "test").unwrap()).collect();
    // Misère subtraction {1,3,4}: 0 wins (no move), 1 loses (only move to 0), 2 -> 1 wins, ...
    let wins = e.values(&roots).unwrap();
    assert_eq!(wins[..4], [1, 0, 1, 0]);
}

#[test]
fn a_cycle_is_printed() {
    let game = Arc::new(Fake::new("positions moves", |_, arg: &str| {
        Some(match arg { "a" => "b", "b" => "c", "c" => "a", _ => "" }.to_string())
    }));
    let mut e = explorer(&game, Convention::Normal);
    let root = e.intern("a", "test").unwrap();
    let err = e.values(&[root]).unwrap_err().to_string();
    assert!(err.contains("cycle of 3 positions: a -> b -> c -> a"), "{err}");
}

#[test]
fn bad_answers_name_the_request() {
    let game = Arc::new(Fake::new("positions moves", |_, arg: &str| Some(if arg == "0" { "1 -".into() } else { String::new() })));
    let mut e = explorer(&game, Convention::Normal);
    let root = e.intern("0", "test").unwrap();
    let err = e.values(&[root]).unwrap_err().to_string();
    assert!(err.contains("request `moves 0`") && err.contains("not a position"), "{err}");
}

#[test]
fn too_many_moves_and_positions_are_refused() {
    let wide = Arc::new(Fake::new("positions moves", |_, arg: &str| {
        Some(if arg == "r" { (0..50).map(|i| format!("p{i}")).collect::<Vec<_>>().join(" ") } else { String::new() })
    }));
    let mut e = Explorer::new(wide.clone(), Convention::Normal, GraphLimits { max_positions: 1000, max_moves: 10, ..GraphLimits::default() });
    let root = e.intern("r", "test").unwrap();
    assert!(e.values(&[root]).unwrap_err().to_string().contains("50 moves from one position (at most 10"));
    let mut e = Explorer::new(wide.clone(), Convention::Normal, GraphLimits { max_positions: 20, max_moves: 100, ..GraphLimits::default() });
    let root = e.intern("r", "test").unwrap();
    let err = e.values(&[root]).unwrap_err().to_string();
    assert!(err.contains("more than 20 positions") && err.contains("takes about 4.88 KiB and more"), "{err}");
}

#[test]
fn long_tokens_are_refused_past_the_memory_budget() {
    // 50 moves of 4000-byte tokens: about 200 KB, refused under a 100 KB budget.
    let fat = Arc::new(Fake::new("positions moves", |_, arg: &str| {
        Some(if arg == "r" { (0..50).map(|i| format!("p{i}{}", "x".repeat(4000))).collect::<Vec<_>>().join(" ") } else { String::new() })
    }));
    let mut e = Explorer::new(fat.clone(), Convention::Normal, GraphLimits { max_bytes: 100_000, ..GraphLimits::default() });
    let root = e.intern("r", "test").unwrap();
    let err = e.values(&[root]).unwrap_err().to_string();
    assert!(err.contains("the positions explored take more than 97.66 KiB of memory (25 positions") && err.contains("--memory-limit"), "{err}");
    assert!(err.len() < 1000, "the request is shortened: {err}");
    let mut e = Explorer::new(fat, Convention::Normal, GraphLimits { max_bytes: 1_000_000, ..GraphLimits::default() });
    let root = e.intern("r", "test").unwrap();
    assert_eq!(e.values(&[root]).unwrap(), [1]);
}

#[test]
fn a_program_changing_its_answers_is_caught() {
    let count = std::sync::atomic::AtomicUsize::new(0);
    let game = Arc::new(Fake::new("positions moves", move |_, arg: &str| {
        let n: u32 = arg.parse().ok()?;
        let k = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(if n == 0 { String::new() } else if n == 97 && k > 100 { "0".into() } else { (n - 1).to_string() })
    }));
    let mut e = explorer(&game, Convention::Normal);
    let roots: Vec<u32> = (0..=200).map(|n| e.intern(&n.to_string(), "test").unwrap()).collect();
    let err = e.values(&roots).unwrap_err().to_string();
    assert!(err.contains("`moves 97`") && err.contains("non-deterministic"), "{err}");
}

#[test]
fn exploring_against_a_deadline_stops_between_batches() {
    // A chain 0 -> 1 -> … -> 3000: one position per frontier, so the clock is looked at often.
    let chain = Arc::new(Fake::new("positions moves", |_, arg: &str| {
        let n: u32 = arg.parse().ok()?;
        Some(if n < 3000 { (n + 1).to_string() } else { String::new() })
    }));
    let mut e = explorer(&chain, Convention::Normal);
    let root = e.intern("0", "test").unwrap();
    let past = Instant::now();
    assert!(!e.explore_until(&[root], Some(past)).unwrap(), "stopped at once");
    assert_eq!((e.len(), e.moves(root)), (1, None), "nothing asked past the deadline");
    let later = Instant::now() + std::time::Duration::from_secs(600);
    assert!(e.explore_until(&[root], Some(later)).unwrap(), "the whole chain within the deadline");
    assert_eq!(e.len(), 3001);
    assert_eq!(e.values(&[root]).unwrap(), [0], "3000 moves to the end, an even number: value 0");
}

#[test]
fn values_past_the_deadline_are_an_error_naming_the_budget() {
    let chain = Arc::new(Fake::new("positions moves", |_, arg: &str| {
        let n: u32 = arg.parse().ok()?;
        Some(if n < 3000 { (n + 1).to_string() } else { String::new() })
    }));
    let mut e = explorer(&chain, Convention::Normal);
    let root = e.intern("0", "test").unwrap();
    e.set_deadline(Some(Instant::now()), "--budget 1 s");
    let err = e.values(&[root]).unwrap_err().to_string();
    assert!(err.contains("exploring the game used the whole --budget 1 s"), "{err}");
    let mut e = explorer(&chain, Convention::Normal);
    let root = e.intern("0", "test").unwrap();
    e.set_deadline(None, "");
    assert_eq!(e.values(&[root]).unwrap(), [0], "no deadline: the whole chain");
}
