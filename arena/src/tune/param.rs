//! One tuned flag of `arena tune`, as written on the command line: `NAME=START:MIN:MAX[:STEP]`.
//! NAME is the bot's flag without its dashes; the value stays within [MIN, MAX]; STEP is the
//! size of the first perturbation (the SPSA `c` of this parameter, in its own units; a tenth of
//! MAX − MIN when left out). A parameter written entirely in whole numbers is an integer flag:
//! the tuner keeps a real value but gives the bot the nearest whole number.

use serde::{Deserialize, Serialize};

/// The first perturbation when STEP is not given, as a share of MAX − MIN.
const DEFAULT_STEP_SHARE: f64 = 0.1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamSpec {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// First perturbation, in the flag's units.
    pub step: f64,
    /// Given to the bot rounded to a whole number.
    pub integer: bool,
}

impl ParamSpec {
    /// Parses `NAME=START:MIN:MAX[:STEP]`; the error names the spec and what is wrong.
    pub fn parse(text: &str) -> Result<ParamSpec, String> {
        let fail = |why: &str| format!("{why} (expected NAME=START:MIN:MAX[:STEP])");
        let (name, numbers) = text.split_once('=').ok_or_else(|| fail("no '='"))?;
        let name = name.trim_start_matches("--");
        let name_ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !name_ok {
            return Err(fail("the name must be a flag name such as chase-weight"));
        }
        let fields: Vec<&str> = numbers.split(':').collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(fail("three or four numbers separated by ':'"));
        }
        let mut values = Vec::new();
        for field in &fields {
            match field.trim().parse::<f64>() {
                Ok(value) if value.is_finite() => values.push(value),
                _ => return Err(fail(&format!("{field:?} is not a number"))),
            }
        }
        let (start, min, max) = (values[0], values[1], values[2]);
        if min >= max {
            return Err(fail("MIN must be below MAX"));
        }
        if !(min..=max).contains(&start) {
            return Err(fail("START must lie within MIN..MAX"));
        }
        let step = values
            .get(3)
            .copied()
            .unwrap_or(DEFAULT_STEP_SHARE * (max - min));
        if step <= 0.0 || step > max - min {
            return Err(fail("STEP must be above 0 and at most MAX - MIN"));
        }
        let integer = fields
            .iter()
            .all(|field| field.trim().parse::<i64>().is_ok());
        Ok(ParamSpec {
            name: name.to_string(),
            start,
            min,
            max,
            step,
            integer,
        })
    }

    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The value as the bot gets it: a whole number for integer flags, otherwise at most six
    /// decimals without trailing zeros.
    pub fn bot_value(&self, value: f64) -> String {
        let value = self.clamp(value);
        if self.integer {
            return format!("{}", value.round() as i64);
        }
        let text = format!("{value:.6}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text == "-0" {
            "0".to_string()
        } else {
            text.to_string()
        }
    }
}

/// The bot command with the flags of `values` appended (later flags override earlier ones).
pub fn command_with(bot: &str, params: &[ParamSpec], values: &[f64]) -> String {
    let mut command = bot.to_string();
    for (param, value) in params.iter().zip(values) {
        command.push_str(&format!(" --{} {}", param.name, param.bot_value(*value)));
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_real_and_integer_specs() {
        let chase = ParamSpec::parse("chase-weight=0.3:0:2:0.2").unwrap();
        assert_eq!(
            (chase.start, chase.min, chase.max, chase.step),
            (0.3, 0.0, 2.0, 0.2)
        );
        assert!(!chase.integer);
        let guard = ParamSpec::parse("--timeout-guard=75:40:100").unwrap();
        assert_eq!(guard.name, "timeout-guard");
        assert!(guard.integer);
        assert!((guard.step - 6.0).abs() < 1e-12);
        assert_eq!(guard.bot_value(71.6), "72");
        assert_eq!(guard.bot_value(300.0), "100");
        assert_eq!(chase.bot_value(0.123_456_78), "0.123457");
        assert_eq!(chase.bot_value(1.0), "1");
        assert_eq!(chase.bot_value(-0.5), "0");
        assert_eq!(
            command_with("bot --x 1", &[chase, guard], &[0.5, 60.0]),
            "bot --x 1 --chase-weight 0.5 --timeout-guard 60"
        );
    }

    #[test]
    fn rejects_bad_specs_with_the_reason() {
        for (text, reason) in [
            ("chase-weight", "no '='"),
            ("=1:0:2", "flag name"),
            ("a b=1:0:2", "flag name"),
            ("x=1:0", "three or four"),
            ("x=1:0:2:0.1:9", "three or four"),
            ("x=one:0:2", "not a number"),
            ("x=1:0:nan", "not a number"),
            ("x=1:2:0", "MIN must be below MAX"),
            ("x=3:0:2", "START must lie within"),
            ("x=1:0:2:0", "STEP must be above 0"),
            ("x=1:0:2:5", "STEP must be above 0"),
        ] {
            let error = ParamSpec::parse(text).unwrap_err();
            assert!(error.contains(reason), "{text}: {error}");
            assert!(!error.contains('\n'));
        }
    }
}
