//! Rule names of result files: `kind:key=value:…`, e.g. `random:seed=1:count=100:claim=greedy`.

use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// A rule name: `base`, or `base:claim=NAME` when a non-default claim is under test.
pub fn rule_name(base: &str, claim: &str, default_claim: &str) -> String {
    if claim == default_claim {
        base.to_string()
    } else {
        format!("{base}:claim={claim}")
    }
}

/// Splits a rule written as `kind:key=value:key=value…` into its kind and fields.
pub fn rule_fields(rule: &str) -> Result<(&str, BTreeMap<&str, &str>)> {
    let mut parts = rule.split(':');
    let kind = parts.next().unwrap_or_default();
    let fields = parts
        .map(|p| p.split_once('=').ok_or_else(|| Error::Usage(format!("rule {rule:?}: field {p:?} is not key=value"))))
        .collect::<Result<BTreeMap<_, _>>>()?;
    Ok((kind, fields))
}

/// A numeric field of a rule read by [`rule_fields`].
pub fn rule_number(rule: &str, fields: &BTreeMap<&str, &str>, key: &str) -> Result<u64> {
    fields
        .get(key)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Error::Usage(format!("rule {rule:?} needs a numeric field {key}=")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip() {
        assert_eq!(rule_name("exhaustive", "dp", "dp"), "exhaustive");
        let rule = rule_name("random:seed=3:count=9", "greedy", "dp");
        let (kind, fields) = rule_fields(&rule).unwrap();
        assert_eq!((kind, fields["claim"]), ("random", "greedy"));
        assert_eq!(rule_number(&rule, &fields, "count").unwrap(), 9);
        assert!(rule_number(&rule, &fields, "max").is_err());
        assert!(rule_fields("random:seed").is_err());
    }
}
