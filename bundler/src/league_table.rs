//! The crate's own table of how each league's bundle is made: its Cargo.toml's
//! `[package.metadata.bundle.leagues]`, one row per league,
//! `gold = { features = "two-pod", compare-input = "replays/inputs/cg-demo.p0.txt" }`: the cargo
//! features the bundle is compiled with and the recorded game it is compared on. With
//! `--league`, the row gives what `--features` and `--compare-input` leave out, so `make bundle`
//! passes the league alone. A crate without the table bundles as before: no features, no input.
//!
//! The table is checked whole when a league is asked for: every key must be a league (csb's
//! `League` names), every row only those two keys, each a string, so a typo fails loudly.

use std::path::PathBuf;

use csb::engine::League;
use serde_json::Value;

use crate::error::{input, Result};

/// Where the table sits in `cargo metadata`'s `metadata` of the package.
pub const TABLE: &str = "[package.metadata.bundle.leagues]";

/// One league's row: each part it gives (a row may give only one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeagueBundle {
    /// The cargo features, comma-separated, as `--features` takes them.
    pub features: Option<String>,
    /// The recorded game, relative to the crate's directory.
    pub compare_input: Option<PathBuf>,
}

/// The row of `league` in the package's `metadata` (`Value::Null` when the crate has none);
/// the default (nothing given) when the crate has no table or no row for it.
pub fn row(metadata: &Value, league: League) -> Result<LeagueBundle> {
    let Some(table) = metadata
        .get("bundle")
        .and_then(|bundle| bundle.get("leagues"))
    else {
        return Ok(LeagueBundle::default());
    };
    let Some(rows) = table.as_object() else {
        return Err(input(format!("Cargo.toml's {TABLE} is not a table")));
    };
    let mut found = LeagueBundle::default();
    for (name, row) in rows {
        let Some(named) = League::parse(name) else {
            return Err(input(format!(
                "Cargo.toml's {TABLE} has a row `{name}`, which is no league ({})",
                League::ALL.map(League::name).join(", ")
            )));
        };
        let parsed = parse_row(name, row)?;
        if named == league {
            found = parsed;
        }
    }
    Ok(found)
}

/// `{ features = "...", compare-input = "..." }`, either key optional.
fn parse_row(name: &str, row: &Value) -> Result<LeagueBundle> {
    let Some(fields) = row.as_object() else {
        return Err(input(format!(
            "Cargo.toml's {TABLE}: `{name}` must be a table like \
             {{ features = \"..\", compare-input = \"..\" }}"
        )));
    };
    let mut bundle = LeagueBundle::default();
    for (key, value) in fields {
        let Some(text) = value.as_str() else {
            return Err(input(format!(
                "Cargo.toml's {TABLE}: `{name}.{key}` must be a string"
            )));
        };
        match key.as_str() {
            "features" => bundle.features = Some(text.to_string()),
            "compare-input" => bundle.compare_input = Some(PathBuf::from(text)),
            _ => {
                return Err(input(format!(
                    "Cargo.toml's {TABLE}: `{name}` has an unknown key `{key}` (features, \
                     compare-input)"
                )))
            }
        }
    }
    Ok(bundle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_row_gives_features_and_input() {
        let metadata = json!({"bundle": {"leagues": {
            "gold": {"features": "two-pod", "compare-input": "gold.txt"},
            "wood3": {"features": "one-pod"},
            "legend": {"features": "two-pod,net"},
        }}});
        assert_eq!(
            row(&metadata, League::Gold).unwrap(),
            LeagueBundle {
                features: Some("two-pod".to_string()),
                compare_input: Some(PathBuf::from("gold.txt")),
            }
        );
        assert_eq!(
            row(&metadata, League::Legend).unwrap().features.as_deref(),
            Some("two-pod,net")
        );
        assert_eq!(row(&metadata, League::Wood3).unwrap().compare_input, None);
        assert_eq!(
            row(&metadata, League::Bronze).unwrap(),
            LeagueBundle::default()
        );
        assert_eq!(
            row(&Value::Null, League::Gold).unwrap(),
            LeagueBundle::default()
        );
    }

    #[test]
    fn a_wrong_table_is_refused() {
        for (metadata, needle) in [
            (json!({"bundle": {"leagues": 3}}), "is not a table"),
            (
                json!({"bundle": {"leagues": {"platinum": {}}}}),
                "a row `platinum`, which is no league",
            ),
            (
                json!({"bundle": {"leagues": {"gold": "two-pod"}}}),
                "`gold` must be a table",
            ),
            (
                json!({"bundle": {"leagues": {"gold": {"features": 2}}}}),
                "`gold.features` must be a string",
            ),
            (
                json!({"bundle": {"leagues": {"gold": {"feature": "two-pod"}}}}),
                "unknown key `feature`",
            ),
        ] {
            let error = row(&metadata, League::Legend).unwrap_err().to_string();
            assert!(error.contains(needle), "{error}");
        }
    }
}
