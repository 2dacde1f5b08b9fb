//! The compact table file: a header, g(h×w) for h ≤ w as little-endian u16, row by row, and
//! the SHA-256 of everything before it.
//!
//! Layout: `SPRGWALL` (8 bytes), version 1, short side S and long side L (u32 LE each), then
//! for h = 1..=S the values g(h×w) for w = h..=L, then 32 bytes of SHA-256. The proof file is
//! alike: `SPRGPRUF`, version 1, the number of rows A, then per row h = 1..=A its constant
//! (u16), start p and computed_to (u32), the prefix g(h×n) for n < p (u16 each); SHA-256.

use super::prove::{Proof, ProvedRow};
use super::table::Table;
use crate::error::{Error, Result};
use crate::output::atomic::{sha256_hex, write_bytes_atomic};
use sha2::{Digest, Sha256};
use std::path::Path;

const MAGIC: &[u8; 8] = b"SPRGWALL";
const PROOF_MAGIC: &[u8; 8] = b"SPRGPRUF";
const VERSION: u32 = 1;
const HEADER: usize = 20;

/// The bytes of the compact file of `table`.
pub fn encode(table: &Table) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER + 2 * upper_len(table.short(), table.long()) + 32);
    bytes.extend_from_slice(MAGIC);
    for n in [VERSION, table.short() as u32, table.long() as u32] {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    for v in table.upper() {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let digest = Sha256::digest(&bytes);
    bytes.extend_from_slice(&digest);
    bytes
}

/// Writes the compact file atomically; returns its SHA-256 (hex).
pub fn write(path: &Path, table: &Table) -> Result<String> {
    let bytes = encode(table);
    write_bytes_atomic(path, &bytes)?;
    Ok(sha256_hex(&bytes))
}

/// Reads a compact file, checking its header, length and checksum.
pub fn read(path: &Path) -> Result<Table> {
    let bytes = crate::output::atomic::read_regular(path).map_err(|e| Error::io(path, e))?;
    decode(&bytes).map_err(|message| Error::malformed(path, message))
}

/// Values stored for an S×L table.
fn upper_len(short: usize, long: usize) -> usize {
    (1..=short).map(|h| long - h + 1).sum()
}

/// The table in `bytes`, or what is wrong with them.
pub fn decode(bytes: &[u8]) -> std::result::Result<Table, String> {
    if bytes.len() < HEADER + 32 || &bytes[..8] != MAGIC {
        return Err("not a compact wall-empty table (no SPRGWALL header)".into());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let (version, short, long) = (word(8), word(12) as usize, word(16) as usize);
    if version != VERSION {
        return Err(format!("format version {version}, this sprague reads version {VERSION}"));
    }
    if short == 0 || short > long || long > 1 << 20 {
        return Err(format!("header gives an impossible size {short}x{long}"));
    }
    let expected = HEADER + 2 * upper_len(short, long) + 32;
    if bytes.len() != expected {
        return Err(format!("{} bytes, a {short}x{long} table has {expected}", bytes.len()));
    }
    let (body, digest) = bytes.split_at(expected - 32);
    if Sha256::digest(body).as_slice() != digest {
        return Err("checksum differs (the file is damaged)".into());
    }
    let upper: Vec<u16> = body[HEADER..].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    Ok(Table::from_upper(short, long, &upper))
}

/// The bytes of the proof file of `proof`.
pub fn encode_proof(proof: &Proof) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(PROOF_MAGIC);
    for n in [VERSION, proof.height() as u32] {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    for row in &proof.rows()[1..] {
        bytes.extend_from_slice(&row.constant.to_le_bytes());
        bytes.extend_from_slice(&(row.start as u32).to_le_bytes());
        bytes.extend_from_slice(&(row.computed_to as u32).to_le_bytes());
        row.prefix.iter().for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    }
    let digest = Sha256::digest(&bytes);
    bytes.extend_from_slice(&digest);
    bytes
}

/// Reads a proof file, checking its header, checksum and rows.
pub fn read_proof(path: &Path) -> Result<Proof> {
    let bytes = crate::output::atomic::read_regular(path).map_err(|e| Error::io(path, e))?;
    decode_proof(&bytes).map_err(|message| Error::malformed(path, message))
}

/// The proof in `bytes`, or what is wrong with them.
pub fn decode_proof(bytes: &[u8]) -> std::result::Result<Proof, String> {
    if !bytes.starts_with(PROOF_MAGIC) {
        return Err("not a wall-empty proof file (no SPRGPRUF header)".into());
    }
    if bytes.len() < 16 + 32 {
        return Err(format!("the file is truncated ({} bytes; a proof file has at least {})", bytes.len(), 16 + 32));
    }
    let (body, digest) = bytes.split_at(bytes.len() - 32);
    if Sha256::digest(body).as_slice() != digest {
        return Err("checksum differs (the file is damaged)".into());
    }
    let mut at = 8;
    let mut take = |n: usize| -> std::result::Result<&[u8], String> {
        let part = body.get(at..at + n).ok_or("the file ends inside a row")?;
        at += n;
        Ok(part)
    };
    let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize;
    let (version, count) = (word(take(4)?), word(take(4)?));
    if version != VERSION as usize {
        return Err(format!("format version {version}, this sprague reads version {VERSION}"));
    }
    let mut rows = Proof::new().rows().to_vec();
    for height in 1..=count {
        let constant = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes"));
        let (start, computed_to) = (word(take(4)?), word(take(4)?));
        let prefix = take(2 * start)?.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        rows.push(ProvedRow { height, constant, start, computed_to, prefix });
    }
    if at != body.len() {
        return Err(format!("{} bytes after the last row", body.len() - at));
    }
    Proof::from_rows(rows).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Silent;

    #[test]
    fn a_truncated_proof_is_named_so() {
        let mut bytes = PROOF_MAGIC.to_vec();
        bytes.extend_from_slice(&[0, 0]);
        assert_eq!(decode_proof(&bytes).unwrap_err(), "the file is truncated (10 bytes; a proof file has at least 48)");
        assert!(decode_proof(b"SPRGWALL").unwrap_err().contains("no SPRGPRUF header"));
    }

    #[test]
    fn round_trips_and_refuses_damage() {
        let table = Table::compute(5, 9, true, &Silent).unwrap();
        let bytes = encode(&table);
        assert_eq!(bytes.len(), HEADER + 2 * (9 + 8 + 7 + 6 + 5) + 32);
        assert_eq!(decode(&bytes).unwrap(), table);
        let mut damaged = bytes.clone();
        damaged[HEADER + 3] ^= 1;
        assert!(decode(&damaged).unwrap_err().contains("checksum"));
        assert!(decode(&bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
        assert!(decode(b"not a table at all, not at all, not at all, no").unwrap_err().contains("header"));
    }

    #[test]
    fn proofs_round_trip() {
        let mut proof = Proof::new();
        for _ in 0..9 {
            proof.extend(crate::games::wall::empty::Lemma::Proven, true).unwrap();
        }
        let bytes = encode_proof(&proof);
        assert_eq!(decode_proof(&bytes).unwrap(), proof);
        assert!(decode_proof(&bytes[1..]).is_err());
        let mut damaged = bytes;
        damaged[20] ^= 4;
        assert!(decode_proof(&damaged).unwrap_err().contains("checksum"));
    }
}
