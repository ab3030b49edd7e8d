//! Tables of tunables: `tunables!` declares a settings struct one line per tunable (field,
//! type, the default the bot plays, flag name, accepted values, parser with its range, meaning)
//! and derives from that one line the struct, its `Default` and, with feature `cli`, the
//! `TUNABLES` entries (`tunable_flags!` in `parse.rs`) that the flags, `--help` and the README's
//! flags table read. The
//! search's own tunables (`params.rs`) and the bot's (`bot/config.rs`, `bot/evaluation.rs`) are
//! such tables: a tunable's default is written nowhere else. The bundler strips each table's doc
//! comments and, in a bundle without `cli`, each line's flag half (from `=>` to `;`), so the table
//! must keep that shape (bundler/README.md).

/// Declares a settings struct as a table, one line per tunable:
///
/// ```text
/// /// doc of the field
/// field: Type = default => "flag-name", "VALUES", parser, "meaning";
/// ```
///
/// where `parser` is an expression callable as `parser(&str) -> Result<Type, String>`, in
/// whose scope are the parsers of `parse.rs`. A field without a flag is written
/// `field: Type = default;`.
macro_rules! tunables {
    (
        $(#[$struct_meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field:ident: $ty:ty = $default:expr
                $(=> $flag:literal, $values:expr, $parse:expr, $meaning:literal)?;
            )*
        }
    ) => {
        $(#[$struct_meta])*
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        #[cfg(feature = "cli")]
        $crate::search::parse::tunable_flags! {
            $name { $($field $(=> $flag, $values, $parse, $meaning)?;)* }
        }
    };
}
pub(crate) use tunables;
