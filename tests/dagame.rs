//! DAGame (BOJ 27306): hand-made stacking cases, chain laws, claim vs brute force, CLI errors.

mod common;
use common::sprague;

use predicates::str::contains;
use proptest::prelude::*;
use sprague::games::dagame::{brute, claim, Dag, Group, Instance};
use sprague::runner::files::read_verify_files;
use sprague::games::dagame::verify::verify_nodes;

fn solve_both(text: &str) -> (u32, u32) {
    let instance = Instance::parse_input("t", text).unwrap();
    (claim::solve(&instance), brute::solve(&instance).unwrap())
}

#[test]
fn stacked_start_moves_as_one_token() {
    // Chain 1→2→3. Both colour-1 tokens on node 2: one stack, one move left ⇒ Young.
    assert_eq!(solve_both("3 2\n1 2\n2 3\n2\n2 1\n2 1\n"), (1, 1));
    // The same two tokens in different colours: two independent moves ⇒ Cheol.
    assert_eq!(solve_both("3 2\n1 2\n2 3\n2\n2 1\n2 2\n"), (0, 0));
}

#[test]
fn merging_by_a_move_changes_the_winner() {
    // Chain 1→2→3 with colour 1 at 1 and 2 (pair value 2: stacking at 2 is a move to value 1),
    // beside a triangle 4→5, 4→6, 5→6 with colour 2 at 4 (value 2). 2 xor 2 = 0 ⇒ Cheol;
    // treating the colour-1 tokens as independent would give 0 xor 1 xor 2 = 3 ⇒ Young.
    let text = "6 5\n1 2\n2 3\n4 5\n4 6\n5 6\n3\n1 1\n2 1\n4 2\n";
    assert_eq!(solve_both(text), (0, 0));
    sprague().args(["solve", "dagame"]).write_stdin(text).assert().success().stdout("Cheol\n");
    sprague().args(["solve", "dagame", "--engine", "naive"]).write_stdin(text).assert().success().stdout("Cheol\n");
    let independent = text.replace("2 1\n4 2", "2 3\n4 2");
    sprague().args(["solve", "dagame", "--format", "json"]).write_stdin(independent).assert().success().stdout("{\"grundy\":3,\"winner\":\"Young\"}\n");
}

fn chain(n: usize) -> Dag {
    Dag::new(n, &(0..n as u16 - 1).map(|v| (v, v + 1)).collect::<Vec<_>>())
}

/// On a chain ending at L: G(a, b) = (b - a) mod 2 for b - a ≥ 2, and for neighbours 1 when
/// L - b is even, else 2 — derived by hand, checked here against the brute force.
fn chain_pair_law(last: u16, a: u16, b: u16) -> u32 {
    match b - a {
        1 if (last - b).is_multiple_of(2) => 1,
        1 => 2,
        d => (d % 2) as u32,
    }
}

#[test]
fn chain_pairs_follow_the_law_under_brute_force() {
    for n in 2..=10 {
        let dag = chain(n);
        let mut search = brute::Brute::new(&dag, &[1, 1]).unwrap();
        for a in 0..n as u16 {
            for b in a + 1..n as u16 {
                assert_eq!(search.grundy(&[a, b]), chain_pair_law(n as u16 - 1, a, b), "chain {n}, ({a}, {b})");
            }
        }
    }
}

#[test]
fn chain_of_500_is_solved_iteratively() {
    let mut text = String::from("500 499\n");
    for v in 1..500 {
        text += &format!("{v} {}\n", v + 1);
    }
    // Colour 1 at 1, 2 (law: 1), colour 2 at 2, 3 (law: 2), colour 3 at 1, 500 (law: 1).
    text += "6\n1 1\n2 1\n2 2\n3 2\n1 3\n500 3\n";
    let instance = Instance::parse_input("chain", &text).unwrap();
    assert_eq!(claim::solve(&instance), 1 ^ 2 ^ 1);
    sprague().args(["solve", "dagame"]).write_stdin(text).assert().success().stdout("Young\n");
}

#[test]
fn full_limits_instance_is_solved() {
    // N = 500, M = 100,000 edges (the densest prefix of all forward pairs), K = 1000 tokens,
    // every colour a pair; node 1 reaches every node so most pairs are needed.
    let edges: Vec<(u16, u16)> = (0..500u16).flat_map(|p| (p + 1..500).map(move |q| (p, q))).take(100_000).collect();
    let groups: Vec<Group> = (0..500u16).map(|c| Group::Pair(c % 500, (c * 7 + 1) % 500)).collect();
    let instance = Instance::from_groups(Dag::new(500, &edges), &groups);
    let reparsed = Instance::parse_input("full", &instance.to_input()).unwrap();
    assert_eq!(reparsed, instance);
    let value = claim::solve(&instance);
    // Pairs are bounded by the mex of out-degree sums.
    assert!(value < 1024, "{value}");
}

fn arb_instance() -> impl Strategy<Value = Instance> {
    (2usize..=7)
        .prop_flat_map(|n| {
            let pairs = n * (n - 1) / 2;
            let group = prop_oneof![
                (0..n as u16).prop_map(Group::Single),
                (0..n as u16, 0..n as u16).prop_map(|(a, b)| Group::Pair(a, b)),
            ];
            (Just(n), proptest::collection::vec(any::<bool>(), pairs), proptest::collection::vec(group, 1..=3))
        })
        .prop_map(|(n, bits, groups)| {
            let all = (0..n as u16).flat_map(|p| (p + 1..n as u16).map(move |q| (p, q)));
            let edges: Vec<(u16, u16)> = all.zip(bits).filter(|(_, on)| *on).map(|(e, _)| e).collect();
            Instance::from_groups(Dag::new(n, &edges), &groups)
        })
}

proptest! {
    #[test]
    fn claim_equals_brute_force(instance in arb_instance()) {
        prop_assert_eq!(claim::solve(&instance), brute::solve(&instance).unwrap(), "{}", instance.to_compact());
    }
}

#[test]
fn exhaustive_four_nodes_agrees() {
    let results = verify_nodes(4, &[1, 2, 3]).unwrap();
    assert!(results.all_agree(), "{:?}", results.mismatches);
    // 64 DAGs × C(14 + k - 1, k) placements (4 singles + 10 pairs a ≤ b).
    let counts: Vec<u64> = (1..=3).map(|k| results.sizes[&(4, k)].patterns).collect();
    assert_eq!(counts, vec![64 * 14, 64 * 105, 64 * 560]);
}

#[test]
fn bad_inputs_exit_2_with_line_and_column() {
    let cases = [
        ("3 1\n3 2\n1\n1 1\n", "<stdin>:2:1: edge 1 goes 3 -> 2; every edge must go from a lower to a higher node (p < q)"),
        ("3 1\n1 2\n1\n4 1\n", "<stdin>:4:1: node of token 1 must be between 1 and 3, found 4"),
        ("3 1\n1 2\n3\n1 2\n2 2\n3 2\n", "<stdin>:6:3: token 3 is a third token of colour 2"),
        ("3 1\n1 x\n", "<stdin>:2:3: expected end node q of edge 1 (a number), found \"x\""),
        ("501 1\n", "<stdin>:1:1: N (number of nodes) must be between 2 and 500, found 501"),
    ];
    for (text, message) in cases {
        sprague().args(["solve", "dagame"]).write_stdin(text).assert().code(2).stderr(contains(message));
    }
}

#[test]
fn verify_cli_writes_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ex");
    sprague().args(["verify", "dagame", "--max", "3", "-q", "--out"]).arg(&out).assert().success();
    let results = read_verify_files(&out).unwrap();
    assert_eq!(results.sizes.len(), 6);
    assert!(out.join("manifest.json").exists());
    let out = dir.path().join("rnd");
    sprague().args(["verify", "dagame", "--max", "8", "--random", "300", "--seed", "5", "-q", "--out"]).arg(&out).assert().success();
    let results = read_verify_files(&out).unwrap();
    assert_eq!(results.rule, "random:seed=5:count=300:max_nodes=8");
    assert_eq!(results.sizes.values().map(|t| t.patterns).sum::<u64>(), 300);
    sprague().args(["verify", "dagame", "--max", "7"]).arg("--out").arg(dir.path()).assert().code(2);
}

/// The audit's case: 8 tokens in pairs on a 128-node chain, about 10^16 states.
fn chain_128_with_8_tokens() -> String {
    let mut text = String::from("128 127\n");
    for v in 1..128 {
        text += &format!("{v} {}\n", v + 1);
    }
    text += "8\n";
    for i in 0..8 {
        text += &format!("{} {}\n", 1 + i, 1 + i / 2);
    }
    text
}

#[test]
fn a_hopeless_naive_search_is_refused_up_front() {
    use predicates::prelude::*;
    sprague()
        .args(["solve", "dagame", "--engine", "naive"])
        .write_stdin(chain_128_with_8_tokens())
        .assert()
        .code(2)
        .stderr(contains("8 tokens on 128 nodes").and(contains("states")).and(contains("--engine claim")));
    // The claim answers it at once; --force belongs to the naive engine.
    sprague().args(["solve", "dagame"]).write_stdin(chain_128_with_8_tokens()).assert().success();
    sprague().args(["solve", "dagame", "--force"]).write_stdin(chain_128_with_8_tokens()).assert().code(2).stderr(contains("--force applies to the naive engine"));
}

#[test]
fn a_small_naive_search_is_accepted() {
    // Two colours on a 40-node chain, 1,600 states at most.
    let mut text = String::from("40 39\n");
    for v in 1..40 {
        text += &format!("{v} {}\n", v + 1);
    }
    text += "2\n1 1\n3 2\n";
    let claim = sprague().args(["solve", "dagame"]).write_stdin(text.clone()).assert().success().get_output().stdout.clone();
    sprague().args(["solve", "dagame", "--engine", "naive"]).write_stdin(text).assert().success().stdout(claim);
}
