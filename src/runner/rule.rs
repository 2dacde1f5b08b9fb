//! Rule names of result files: `kind:key=value:…`, e.g. `random:seed=1:count=100:claim=greedy`.

use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// The claims a game can put under test, by name: the first is the claim itself, the others
/// are deliberately wrong variants that show the check can fail.
#[derive(Debug)]
pub struct Claims<T: 'static> {
    pub game: &'static str,
    pub variants: &'static [(&'static str, T)],
}

impl<T: Copy + PartialEq> Claims<T> {
    /// The claim named `name` (absent: the claim under test).
    pub fn of(&self, name: Option<&str>) -> Result<T> {
        let Some(name) = name else { return Ok(self.variants[0].1) };
        self.variants.iter().find(|(n, _)| *n == name).map(|&(_, v)| v).ok_or_else(|| {
            let names: Vec<&str> = self.variants.iter().map(|(n, _)| *n).collect();
            Error::Usage(format!("{} has no claim {name:?} ({})", self.game, names.join(" or ")))
        })
    }

    /// The name of `claim`.
    pub fn name(&self, claim: T) -> &'static str {
        self.variants.iter().find(|(_, v)| *v == claim).map_or("?", |(n, _)| n)
    }

    /// The rule name of a run of `claim`: `base`, or `base:claim=NAME` for a wrong variant.
    pub fn rule(&self, base: &str, claim: T) -> String {
        rule_name(base, self.name(claim), self.variants[0].0)
    }
}

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

/// A numeric field of a rule read by [`rule_fields`], as the type it is used as (a value out
/// of that type's range is an error, never cut short).
pub fn rule_number<T: std::str::FromStr>(rule: &str, fields: &BTreeMap<&str, &str>, key: &str) -> Result<T> {
    fields
        .get(key)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Error::Usage(format!("rule {rule:?} needs a numeric field {key}= ({} at most)", std::any::type_name::<T>())))
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
        assert_eq!(rule_number::<u64>(&rule, &fields, "count").unwrap(), 9);
        assert!(rule_number::<u64>(&rule, &fields, "max").is_err());
        let (_, fields) = rule_fields("random:seed=4294967300").unwrap();
        let err = rule_number::<u32>("r", &fields, "seed").unwrap_err().to_string();
        assert_eq!(err, "rule \"r\" needs a numeric field seed= (u32 at most)");
        assert!(rule_fields("random:seed").is_err());
        let claims = Claims { game: "toy", variants: &[("right", 1), ("wrong", 2)] };
        assert_eq!((claims.of(None).unwrap(), claims.of(Some("wrong")).unwrap()), (1, 2));
        assert_eq!(claims.of(Some("other")).unwrap_err().to_string(), "toy has no claim \"other\" (right or wrong)");
        assert_eq!((claims.rule("exhaustive", 1), claims.rule("exhaustive", 2)), ("exhaustive".into(), "exhaustive:claim=wrong".into()));
    }
}
