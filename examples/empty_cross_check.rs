//! Compares a proof of the X-free wall board (proof.bin) with a computed table (empty.bin):
//! every value g(h×w) with h ≤ both heights and w ≤ the table's width must agree. Prints the
//! count compared; exits 1 at the first disagreement.
//! Usage: cargo run --release --example empty_cross_check -- TABLE.bin PROOF.bin

use sprague::games::wall::empty::compact;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [table, proof] = &args[..] else {
        eprintln!("usage: empty_cross_check TABLE.bin PROOF.bin");
        return std::process::ExitCode::from(2);
    };
    let (table, proof) = match (compact::read(table.as_ref()), compact::read_proof(proof.as_ref())) {
        (Ok(t), Ok(p)) => (t, p),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let mut compared = 0u64;
    for row in proof.rows().iter().skip(1).take_while(|r| r.height <= table.short()) {
        for w in 1..=table.long() {
            if row.at(w) != table.get(row.height, w) {
                println!("row {} width {w}: proof {}, table {}", row.height, row.at(w), table.get(row.height, w));
                return std::process::ExitCode::from(1);
            }
            compared += 1;
        }
    }
    println!("{compared} values agree (rows 1..={} of the proof, widths 1..={})", proof.height().min(table.short()), table.long());
    std::process::ExitCode::SUCCESS
}
