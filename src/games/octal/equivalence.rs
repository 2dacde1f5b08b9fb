//! Codes with the same value sequence, found from the family's rows and the proved codes'
//! values ([`super::family`]).
//!
//! Two proved codes (g = h from their preperiods n0a, n0b with periods pa, pb) are equal for
//! every n when they are equal for n < max(n0a, n0b) + lcm(pa, pb): from there on both repeat
//! the values of that window. That is exactly what is compared (stopping at the first
//! difference). An open code is only known up to its bound N: it equals another open code up to
//! N when their values files (same N) have the same digest, and a proved code when the proved
//! sequence, continued periodically to N, has that digest (tried only where the largest values
//! agree and N is too short for the theorem: see [`continued_equals`]). Such classes are "equal for n < N", nothing more. A proved code whose values are not
//! committed (too many) is compared by its digest, like an open one: the same digest is the same
//! proof, hence equal for every n.

use super::family::{values_digest, FamilyRow};
use crate::error::Result;
use crate::output::csv::CsvRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One class of two or more codes with the same values (as far as known).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassRow {
    /// The first code of the class (family order).
    pub first: String,
    /// Every code of the class, separated by spaces.
    pub codes: String,
    pub count: usize,
    /// True: equal for every n (all proved); false: equal for n < `compared`, open beyond.
    pub proved: bool,
    /// Values compared: max(n0) + lcm(p) for proved codes, N otherwise.
    pub compared: usize,
}

impl CsvRecord for ClassRow {
    const HEADER: &'static [&'static str] = &["first", "codes", "count", "proved", "compared"];
}

/// A code as the comparison sees it.
struct Member<'a> {
    row: &'a FamilyRow,
    /// The proof's values (proved codes).
    values: Option<&'a [u16]>,
}

impl Member<'_> {
    /// g(n) of a proved code, continued periodically past its values.
    fn at(&self, n: usize) -> u16 {
        let g = self.values.expect("proved codes have values");
        let (n0, p) = (self.row.preperiod.unwrap_or(1), self.row.period.unwrap_or(1));
        g[if n < g.len() { n } else { n0 + (n - n0) % p }]
    }

    /// The values of a proved code continued to `len`.
    fn continued(&self, len: usize) -> Vec<u16> {
        (0..len).map(|n| self.at(n)).collect()
    }
}

/// Whether `a` and `b` have the same values, and how many values that rests on.
fn same(a: &Member, b: &Member) -> Result<Option<usize>> {
    let (ra, rb) = (a.row, b.row);
    Ok(match (a.values.is_some(), b.values.is_some()) {
        (true, true) => {
            let (pa, pb) = (ra.period.unwrap_or(1), rb.period.unwrap_or(1));
            let end = ra.preperiod.max(rb.preperiod).unwrap_or(1) + pa / gcd(pa, pb) * pb;
            (0..end).all(|n| a.at(n) == b.at(n)).then_some(end)
        }
        (false, false) => (ra.values_kept == rb.values_kept && ra.sha256 == rb.sha256).then_some(ra.values_kept),
        (true, false) => continued_equals(a, rb)?,
        (false, true) => continued_equals(b, ra)?,
    })
}

/// A proved code against an open one: its continuation to the open code's N has its digest.
/// Tried only where the largest values agree and N is below the values the proof needs (the
/// proved code's, less its t, plus the open code's t): had the open code N values equal to the
/// proved one's, the theorem would have proved the same period from them.
fn continued_equals(proved: &Member, open: &FamilyRow) -> Result<Option<usize>> {
    let needed = proved.row.values_kept - proved.row.t + open.t;
    if proved.row.largest_value != open.largest_value || open.values_kept >= needed {
        return Ok(None);
    }
    Ok((values_digest(&proved.continued(open.values_kept))? == open.sha256).then_some(open.values_kept))
}

/// True when the class's equality holds for every n: all its codes proved and compared by the
/// criterion above, or all proved and with the same values file (the same proof).
fn proved<'a>(mut all: impl Iterator<Item = &'a Member<'a>> + Clone) -> bool {
    all.clone().all(|m| m.values.is_some()) || all.all(|m| m.row.proved() && m.values.is_none())
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The classes of two or more codes among `rows` (family order), from the proved codes' values
/// (`values`, by code); each code is compared with the first code of every class so far.
pub fn classes(rows: &[FamilyRow], values: &BTreeMap<String, Vec<u16>>) -> Result<Vec<ClassRow>> {
    let members: Vec<Member> = rows.iter().map(|row| Member { row, values: values.get(&row.code).map(Vec::as_slice) }).collect();
    let mut found: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    for (i, member) in members.iter().enumerate() {
        let mut joined = false;
        for (first, others, compared) in found.iter_mut() {
            if let Some(end) = same(&members[*first], member)? {
                others.push(i);
                *compared = (*compared).max(end);
                joined = true;
                break;
            }
        }
        if !joined {
            found.push((i, vec![i], 0));
        }
    }
    let mut out: Vec<ClassRow> = found
        .into_iter()
        .filter(|(_, all, _)| all.len() > 1)
        .map(|(first, all, compared)| ClassRow {
            first: rows[first].code.clone(),
            codes: all.iter().map(|&i| rows[i].code.as_str()).collect::<Vec<_>>().join(" "),
            count: all.len(),
            proved: proved(all.iter().map(|&i| &members[i])),
            compared,
        })
        .collect();
    out.sort_by(|a, b| a.first.cmp(&b.first));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::code::Code;
    use crate::games::octal::family::{settle, Limits};

    fn family(codes: &[&str], max: usize) -> (Vec<FamilyRow>, BTreeMap<String, Vec<u16>>) {
        let settled: Vec<_> = codes.iter().map(|c| settle(&Code::parse(c).unwrap(), Limits::to(max)).unwrap()).collect();
        let rows = settled.iter().map(|s| s.row().unwrap()).collect();
        let values = settled.iter().filter(|s| s.proof.is_some()).map(|s| (s.row().unwrap().code, s.kept().to_vec())).collect();
        (rows, values)
    }

    #[test]
    fn equal_sequences_are_classes() {
        // 0.074–0.077 all have A071434's values one heap later (its comment); 0.031 adds taking a
        // whole heap of 3 to 0.03, whose move from 3 leaves a heap of 1 (value 0) anyway.
        let (rows, values) = family(&["0.03", "0.031", "0.07", "0.074", "0.075", "0.076", "0.077"], 4096);
        let found = classes(&rows, &values).unwrap();
        let show: Vec<(&str, bool, usize)> = found.iter().map(|c| (c.codes.as_str(), c.proved, c.compared)).collect();
        // 0.074's period 24 from n0 = 142: compared up to 142 + 24; 0.03: 0 0 1 1, from n0 = 1.
        assert_eq!(show, [("0.03 0.031", true, 5), ("0.074 0.075 0.076 0.077", true, 142 + 24)]);
    }

    #[test]
    fn open_codes_are_equal_up_to_their_bound() {
        let (mut rows, values) = family(&["0.6", "0.6"], 2048);
        rows[1].code = "copy".into();
        let found = classes(&rows, &values).unwrap();
        assert_eq!(found, [ClassRow { first: "0.6".into(), codes: "0.6 copy".into(), count: 2, proved: false, compared: 2048 }]);
    }

    #[test]
    fn proved_codes_compare_up_to_the_larger_preperiod_plus_the_lcm() {
        let (mut rows, values) = family(&["0.77"], 1024);
        let mut values = values.clone();
        values.insert("copy".into(), values["0.77"].clone());
        rows.push(FamilyRow { code: "copy".into(), ..rows[0].clone() });
        assert_eq!(classes(&rows, &values).unwrap()[0].compared, 71 + 12);
        values.get_mut("copy").unwrap()[82] ^= 1;
        assert!(classes(&rows, &values).unwrap().is_empty());
    }
}
