//! Embedding JSON in an HTML `<script>` element safely: the serialised replay must not be able to
//! end the element (`</script>`), open a comment (`<!--`) or otherwise be read as markup, whatever
//! the bots printed in their messages.

use serde_json::Value;

/// Serialises `value` as compact JSON in which `<`, `>` and `&` appear only as the escapes
/// `\u003c`, `\u003e` and `\u0026`, and U+2028/U+2029 as `\u2028`/`\u2029`. Outside strings JSON
/// has none of these characters, so the result is still valid JSON and parses to the same value,
/// and it can sit between `<script type="application/json">` and `</script>` unchanged.
pub fn script_safe_json(value: &Value) -> String {
    let json = value.to_string();
    let mut safe = String::with_capacity(json.len() + json.len() / 16);
    for character in json.chars() {
        match character {
            '<' => safe.push_str("\\u003c"),
            '>' => safe.push_str("\\u003e"),
            '&' => safe.push_str("\\u0026"),
            '\u{2028}' => safe.push_str("\\u2028"),
            '\u{2029}' => safe.push_str("\\u2029"),
            other => safe.push(other),
        }
    }
    safe
}
