//! `sprague table wall-empty`: the Grundy value of every board with no X, as empty.csv.

use super::verify_wall::parse_dims;
use super::Status;
use sprague::games::wall::Shape;
use sprague::output::csv::write_csv;
use sprague::games::wall::verify::empty_table;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct TableArgs {
    #[command(subcommand)]
    table: Table,
}

#[derive(clap::Subcommand)]
enum Table {
    /// Wall Making Game: rectangle-DP Grundy value of the X-free board of every size up to --max.
    WallEmpty(WallEmptyArgs),
}

#[derive(clap::Args)]
struct WallEmptyArgs {
    /// Every size h×w with h ≤ H and w ≤ W (each at most 20).
    #[arg(long, value_parser = parse_dims, default_value = "20x20")]
    max: Shape,
    /// The CSV file to write (`rows,cols,grundy`, sorted), e.g. results/wall/standard/empty.csv.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: TableArgs) -> anyhow::Result<Status> {
    match args.table {
        Table::WallEmpty(a) => {
            let rows = empty_table(a.max)?;
            write_csv(&a.out, &rows)?;
            eprintln!("wall empty boards: {} sizes up to {}; written to {}", rows.len(), a.max, a.out.display());
            Ok(Status::Ok)
        }
    }
}
