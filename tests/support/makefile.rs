//! A Makefile read as its rules (target, prerequisites, recipe) and its variables' defaults
//! (`NAME ?= value`): enough for the README's test (`tests/readme_claims.rs`) to check the
//! `make` commands the README gives against the Makefile.

use std::collections::BTreeMap;

/// One rule of the Makefile: its prerequisites and its recipe's lines.
pub struct Rule {
    pub prerequisites: Vec<String>,
    pub recipe: Vec<String>,
}

/// The Makefile's rules in order and its variables' defaults (`NAME ?= value`).
pub struct Makefile {
    pub rules: Vec<(String, Rule)>,
    pub defaults: BTreeMap<String, String>,
}

impl Makefile {
    pub fn parse(text: &str) -> Makefile {
        let mut rules: Vec<(String, Rule)> = Vec::new();
        let mut defaults = BTreeMap::new();
        let mut in_rule = false;
        for line in text.lines() {
            if let Some(command) = line.strip_prefix('\t') {
                if in_rule {
                    rules.last_mut().unwrap().1.recipe.push(command.to_string());
                }
                continue;
            }
            in_rule = false;
            if line.starts_with('#') || line.starts_with(' ') || line.trim().is_empty() {
                continue;
            }
            if let Some((name, value)) = line.split_once("?=") {
                defaults.insert(name.trim().to_string(), value.trim().to_string());
                continue;
            }
            if let Some((head, rest)) = line.split_once(':') {
                let is_name = !head.is_empty()
                    && head
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
                if is_name && !rest.starts_with('=') {
                    let prerequisites = rest.split(';').next().unwrap_or("");
                    rules.push((
                        head.to_string(),
                        Rule {
                            prerequisites: prerequisites
                                .split_whitespace()
                                .map(str::to_string)
                                .collect(),
                            recipe: Vec::new(),
                        },
                    ));
                    in_rule = true;
                }
            }
        }
        Makefile { rules, defaults }
    }

    pub fn rule(&self, target: &str) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|(name, _)| name == target)
            .map(|(_, rule)| rule)
    }

    /// What `make` alone makes: the first rule that is not a special target (`.PHONY`).
    pub fn default_goal(&self) -> Option<&str> {
        self.rules
            .iter()
            .map(|(name, _)| name.as_str())
            .find(|name| !name.starts_with('.'))
    }
}
