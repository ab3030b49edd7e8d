//! The flag side of the tables of tunables (feature `cli`): a [`Tunable`] entry, how a value is
//! shown ([`TunableValue`]), and the parsers the tables name, each refusing a value out of its
//! range with the words `--help` users read ("a number > 0"; an empty error means "one of the
//! listed values").

/// One tunable of the settings struct `T` as a flag sees it.
pub struct Tunable<T> {
    /// The flag's name, `--NAME VALUE`.
    pub name: &'static str,
    /// The value's placeholder (`MS`, `N`) or its alternatives separated by `|` (`0|1`).
    pub values: &'static str,
    /// One line: what the tunable does.
    pub meaning: &'static str,
    /// Sets the tunable from text. The error says what the value must be (`a number > 0`); an
    /// empty error means "one of [`Tunable::values`]".
    pub set: fn(&mut T, &str) -> Result<(), String>,
    /// The tunable's value as flags take it.
    pub show: fn(&T) -> String,
}

/// A tunable's value as its flag writes it.
pub trait TunableValue {
    fn show(&self) -> String;
}

impl TunableValue for f64 {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl TunableValue for u32 {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl TunableValue for u64 {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl TunableValue for usize {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl TunableValue for String {
    fn show(&self) -> String {
        self.clone()
    }
}

/// A switch: `0` or `1`.
impl TunableValue for bool {
    fn show(&self) -> String {
        u8::from(*self).to_string()
    }
}

/// An optional value: `none` when unset.
impl<T: TunableValue> TunableValue for Option<T> {
    fn show(&self) -> String {
        self.as_ref().map_or("none".to_string(), T::show)
    }
}

/// The `TUNABLES` of a settings struct from its table's lines, for `tunables!`: each line with
/// a flag half gives one [`Tunable`] entry.
macro_rules! tunable_flags {
    ($name:ident { $($field:ident $(=> $flag:literal, $values:expr, $parse:expr, $meaning:literal)?;)* }) => {
        impl $name {
            /// This table's tunables that have a flag, in order.
            pub const TUNABLES: &'static [$crate::search::parse::Tunable<$name>] = &[$($(
                $crate::search::parse::Tunable {
                    name: $flag,
                    values: $values,
                    meaning: $meaning,
                    set: |settings, text| {
                        #[allow(unused_imports)]
                        use $crate::search::parse::*;
                        settings.$field = ($parse)(text.trim())?;
                        Ok(())
                    },
                    show: |settings| $crate::search::parse::TunableValue::show(&settings.$field),
                },
            )?)*];
        }
    };
}
pub(crate) use tunable_flags;

/// A number > 0.
pub fn positive(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or_else(|| "a number > 0".to_string())
}

/// A finite number >= 0.
pub fn non_negative(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| "a number >= 0".to_string())
}

/// A number in [0, 1].
pub fn fraction(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| "a number in [0, 1]".to_string())
}

/// A number in (0, 1].
pub fn positive_fraction(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|p| *p > 0.0 && *p <= 1.0)
        .ok_or_else(|| "a number in (0, 1]".to_string())
}

/// A whole number in `low..=high`.
pub fn whole(value: &str, low: u64, high: u64) -> Result<u64, String> {
    let number = value.parse::<u64>().ok();
    number
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| match high {
            u64::MAX => format!("a whole number >= {low}"),
            _ => format!("a whole number in {low}..={high}"),
        })
}

/// `0` or `1` (an empty error: "one of the values").
pub fn switch(value: &str) -> Result<bool, String> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(String::new()),
    }
}

/// An integer in `low..=high`.
pub fn integer_in(value: &str, low: u32, high: u32) -> Result<u32, String> {
    value
        .parse()
        .ok()
        .filter(|number| (low..=high).contains(number))
        .ok_or_else(|| format!("an integer in {low}..={high}"))
}

/// A finite number >= 0.
pub fn finite_non_negative(value: &str) -> Result<f64, String> {
    value
        .parse()
        .ok()
        .filter(|c: &f64| *c >= 0.0 && c.is_finite())
        .ok_or_else(|| "a finite number >= 0".to_string())
}

/// An integer >= 0.
pub fn integer(value: &str) -> Result<u32, String> {
    value.parse().map_err(|_| "an integer >= 0".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parsers_accept_their_range_and_refuse_the_rest_in_words() {
        assert_eq!(integer_in("8", 1, 32), Ok(8));
        assert_eq!(integer_in("32", 1, 32), Ok(32));
        for bad in ["0", "x", "33", ""] {
            assert_eq!(
                integer_in(bad, 1, 32),
                Err("an integer in 1..=32".to_string())
            );
        }
        assert_eq!(finite_non_negative("0"), Ok(0.0));
        for bad in ["-0.5", "inf", "NaN", ""] {
            assert_eq!(
                finite_non_negative(bad),
                Err("a finite number >= 0".to_string())
            );
        }
        assert_eq!(integer("3"), Ok(3));
        for bad in ["1.5", "-1", "x"] {
            assert_eq!(integer(bad), Err("an integer >= 0".to_string()));
        }
        assert_eq!(positive_fraction("1"), Ok(1.0));
        for bad in ["0", "1.01", "nan"] {
            assert_eq!(
                positive_fraction(bad),
                Err("a number in (0, 1]".to_string())
            );
        }
        assert_eq!(fraction("1.5"), Err("a number in [0, 1]".to_string()));
        assert_eq!(non_negative("-1"), Err("a number >= 0".to_string()));
        assert_eq!(positive("0"), Err("a number > 0".to_string()));
        assert_eq!(
            whole("0", 1, u64::MAX),
            Err("a whole number >= 1".to_string())
        );
        assert_eq!(whole("17", 16, 20), Ok(17));
        assert_eq!(
            whole("21", 16, 20),
            Err("a whole number in 16..=20".to_string())
        );
        assert_eq!(switch("1"), Ok(true));
        assert_eq!(switch("yes"), Err(String::new()));
    }
}
