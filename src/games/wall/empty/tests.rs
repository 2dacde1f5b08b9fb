//! Cross-checks of the empty-board table and proof: the rectangle DP, the naive oracle, the
//! kernel's two paths, the proof against the table, and a wrong lemma caught.

use super::*;
use crate::games::wall::{claim::dp, naive, board::{Board, Shape, rules::Rule}};
use crate::runner::Silent;

#[test]
fn table_equals_the_rectangle_dp_up_to_20x20() {
    let table = Table::compute(20, 20, true, &Silent).unwrap();
    for (h, w) in (1..=20).flat_map(|h| (1..=20).map(move |w| (h, w))) {
        assert_eq!(table.get(h, w), dp::empty_grundy(h, w), "{h}x{w}");
    }
    let wide = Table::compute(7, 20, true, &Silent).unwrap();
    assert!((1..=7).all(|h| wide.row(h) == &table.row(h)[..=20]));
}

#[test]
fn table_equals_the_naive_oracle_on_small_boards() {
    let table = Table::compute(4, 6, true, &Silent).unwrap();
    for (h, w) in (1..=4).flat_map(|h| (1..=6).map(move |w| (h, w))).filter(|&(h, w)| h * w <= 20) {
        let verdict = naive::solve(&Board::empty(Shape::new(h, w)), Rule::Standard).unwrap();
        assert_eq!(u32::from(table.get(h, w)), verdict.grundy, "{h}x{w}");
    }
}

#[test]
fn portable_and_simd_paths_agree() {
    let portable = Table::compute(60, 140, false, &Silent).unwrap();
    assert_eq!(Table::compute(60, 140, true, &Silent).unwrap(), portable);
    assert_eq!(portable.get(10, 10), 0);
    assert_eq!(portable.get(12, 8), 0);
}

/// Rows 1..=height of `proof` against the table, at every width the table has.
fn disagreements(proof: &Proof, table: &Table) -> Vec<(usize, usize)> {
    let rows = proof.rows().iter().skip(1).take_while(|r| r.height <= table.short());
    rows.flat_map(|r| (1..=table.long()).filter(move |&w| r.at(w) != table.get(r.height, w)).map(move |w| (r.height, w))).collect()
}

#[test]
fn proof_equals_the_table_where_both_exist() {
    let table = Table::compute(30, 400, true, &Silent).unwrap();
    let mut proof = Proof::new();
    while proof.height() < 30 {
        proof.extend(Lemma::Proven, true).unwrap();
    }
    assert_eq!(disagreements(&proof, &table), []);
    let starts: Vec<usize> = proof.rows()[1..9].iter().map(|r| r.start).collect();
    assert_eq!(starts, [1, 3, 5, 7, 13, 14, 28, 35]);
    let constants: Vec<u16> = proof.rows()[1..7].iter().map(|r| r.constant).collect();
    assert_eq!(constants, [1, 2, 1, 4, 1, 8]);
    assert_eq!(proof.zeros(), [(2, 2), (4, 4), (4, 6), (6, 4), (8, 12), (10, 10), (12, 8)]);
    assert!(proof.zero_constants().is_empty());
}

#[test]
fn a_wrong_lemma_is_caught_by_the_table() {
    let table = Table::compute(30, 400, true, &Silent).unwrap();
    let mut wrong = Proof::new();
    while wrong.height() < 30 {
        wrong.extend(Lemma::WrongHalf, true).unwrap();
    }
    let found = disagreements(&wrong, &table);
    assert!(!found.is_empty(), "the P + 1 variant agreed with the table everywhere");
}

#[test]
fn check_units_pass_on_fresh_files_and_catch_a_changed_value() {
    use crate::output::manifest::RunClock;
    let root = tempfile::tempdir().unwrap();
    let (table_dir, proof_dir) = (root.path().join("table"), root.path().join("proof"));
    let clock = RunClock::start(vec!["sprague".into()], 1);
    files::write_table_dir(&table_dir, &Table::compute(14, 50, true, &Silent).unwrap(), (50, 14), (9, 12), &clock).unwrap();
    let mut proof = Proof::new();
    while proof.height() < 13 {
        proof.extend(Lemma::Proven, true).unwrap();
    }
    files::write_proof_dir(&proof_dir, &proof, 20, &clock).unwrap();
    type Compare = fn(&std::path::Path) -> crate::error::Result<Vec<crate::check::Difference>>;
    let units: [(Compare, std::path::PathBuf); 4] = [
        (check::table_csv, table_dir.join(files::TABLE_CSV)),
        (check::whole_table, table_dir.join(files::ROW_MAX)),
        (check::proof_start, proof_dir.join(files::ROWS)),
        (check::whole_proof, proof_dir.join(files::VERDICT)),
    ];
    for (compare, path) in &units {
        assert_eq!(compare(path).unwrap(), [], "{}", path.display());
    }
    let row_max = table_dir.join(files::ROW_MAX);
    let text = std::fs::read_to_string(&row_max).unwrap();
    std::fs::write(&row_max, text.replacen("\n3,3,", "\n3,4,", 1)).unwrap();
    let found: Vec<String> = check::whole_table(&row_max).unwrap().iter().map(ToString::to_string).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("committed sha256") && found[1].contains("line 4, committed 3,4,"), "{found:?}");
    std::fs::remove_file(proof_dir.join(files::PROOF_BIN)).unwrap();
    assert_eq!(check::whole_proof(&proof_dir.join(files::VERDICT)).unwrap(), [], "proof.bin need not be present");
}
