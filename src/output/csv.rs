//! Typed CSV files: a fixed header per record type, written atomically, read back with checks.

use super::atomic::write_atomic;
use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// A row type of one of the project's CSV files.
pub trait CsvRecord: Serialize + DeserializeOwned {
    /// The exact header line of the file, column by column.
    const HEADER: &'static [&'static str];
}

/// Writes `rows` under the record's header (the header alone when `rows` is empty), atomically.
pub fn write_csv<T: CsvRecord>(path: &Path, rows: &[T]) -> Result<()> {
    write_csv_rows::<T, &T>(path, rows)
}

/// [`write_csv`] for rows that come one at a time (a table too large to hold as records).
pub fn write_csv_rows<T: CsvRecord, R: std::borrow::Borrow<T>>(path: &Path, rows: impl IntoIterator<Item = R>) -> Result<()> {
    write_csv_headed::<T, R>(path, T::HEADER, rows)
}

/// Writes `rows` under `header` (a file whose column names the caller chooses), atomically.
pub fn write_csv_headed<T: Serialize, R: std::borrow::Borrow<T>>(path: &Path, header: &[&str], rows: impl IntoIterator<Item = R>) -> Result<()> {
    write_atomic(path, |w| write_csv_to::<T, R>(w, path, header, rows))
}

/// Writes `header` and `rows` as CSV to the stream `w` (standard output, or a file being
/// written); `name` is the stream's name in errors.
pub fn write_csv_to<T: Serialize, R: std::borrow::Borrow<T>>(
    w: &mut dyn std::io::Write,
    name: &Path,
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> Result<()> {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(w);
    // A failed write stays an I/O error, so that a reader gone away (`| head`) is seen as one.
    let io = |e: csv::Error| {
        let message = e.to_string();
        match e.into_kind() {
            csv::ErrorKind::Io(error) => Error::io(name, error),
            _ => Error::malformed(name, message),
        }
    };
    csv.write_record(header).map_err(io)?;
    for row in rows {
        csv.serialize(row.borrow()).map_err(io)?;
    }
    csv.flush().map_err(|e| Error::io(name, e))
}

/// One record as the line [`write_csv`] writes for it, without the line end.
pub fn to_csv_line<T: Serialize>(row: &T) -> String {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    csv.serialize(row).expect("records serialize to memory");
    let bytes = csv.into_inner().expect("flushing to memory cannot fail");
    String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8").trim_end_matches(['\r', '\n']).to_string()
}

/// Reads one record written by [`to_csv_line`] (a checkpoint's extra rows).
pub fn from_csv_line<T: DeserializeOwned>(line: &str) -> Result<T> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(line.as_bytes());
    let row = reader.deserialize().next().unwrap_or_else(|| Err(csv::Error::from(std::io::Error::other("empty line"))));
    row.map_err(|e| Error::Usage(format!("record {line:?} does not read as a {}: {e}", std::any::type_name::<T>())))
}

/// Reads a file written by [`write_csv`], checking the header and every row.
pub fn read_csv<T: CsvRecord>(path: &Path) -> Result<Vec<T>> {
    read_csv_headed(path, T::HEADER)
}

/// The header line of a CSV file, column by column (what names the columns of a verify file
/// before its rows are read).
pub fn read_header(path: &Path) -> Result<Vec<String>> {
    let file = super::atomic::open_regular(path).map_err(|e| Error::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(file);
    let header = reader.headers().map_err(|e| Error::malformed(path, format!("line 1: {e}")))?;
    Ok(header.iter().map(str::to_string).collect())
}

/// Reads a file written by [`write_csv_headed`] under `header`, checking the header and every
/// row (fields are read by position, whatever the columns are called).
pub fn read_csv_headed<T: DeserializeOwned>(path: &Path, expected: &[&str]) -> Result<Vec<T>> {
    let file = super::atomic::open_regular(path).map_err(|e| Error::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(file);
    let header = reader.headers().map_err(|e| Error::malformed(path, e.to_string()))?.clone();
    if header.iter().ne(expected.iter().copied()) {
        return Err(Error::malformed(
            path,
            format!("line 1: header is {:?}, expected {:?}", header.iter().collect::<Vec<_>>(), expected),
        ));
    }
    reader
        .records()
        .enumerate()
        .map(|(i, row)| {
            row.and_then(|record| record.deserialize(None)).map_err(|e| {
                let detail = match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => match err.field() {
                        // csv counts fields from 0; lines and columns are counted from 1 here.
                        Some(field) => {
                            let name = expected.get(field as usize).map_or(String::new(), |n| format!(" ({n})"));
                            format!(", column {}{name}: {}", field + 1, err.kind())
                        }
                        None => format!(": {}", err.kind()),
                    },
                    _ => format!(": {e}"),
                };
                Error::malformed(path, format!("line {}{detail}", i + 2))
            })
        })
        .collect()
}
