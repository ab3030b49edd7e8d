//! README's table of the bot's flags is `csb --help`'s list: the same flags in the same order,
//! each with the same values, default and meaning, so that neither drifts from the other. On a
//! difference the test prints the table to paste into README.md.

#[path = "support/csb_help.rs"]
mod csb_help;
use csb_help::{help_flags, HelpFlag as Row};

/// Between these two lines README.md holds the table.
const TABLE_START: &str =
    "<!-- flags table: generated from csb --help, checked by tests/readme_flags.rs -->";
const TABLE_END: &str = "<!-- end of flags table -->";

/// The rows of README's table (`| `--name VALUES` | default | meaning |`, `\|` for `|`).
fn readme_rows() -> Vec<Row> {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme
        .find(TABLE_START)
        .expect("README.md has the flags table");
    let end = readme[start..].find(TABLE_END).expect("the table ends") + start;
    readme[start + TABLE_START.len()..end]
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<String> = line
                .replace("\\|", "\u{1}")
                .trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().replace('\u{1}', "|"))
                .collect();
            assert_eq!(cells.len(), 3, "three cells: {line}");
            Row {
                usage: cells[0].trim_matches('`').to_string(),
                default: cells[1].clone(),
                meaning: cells[2].clone(),
            }
        })
        .collect()
}

fn table(rows: &[Row]) -> String {
    let mut text = String::from("| flag | default | meaning |\n| --- | --- | --- |\n");
    for row in rows {
        text.push_str(&format!(
            "| `{}` | {} | {} |\n",
            row.usage.replace('|', "\\|"),
            row.default,
            row.meaning
        ));
    }
    text
}

#[test]
fn readmes_flags_table_is_csb_help() {
    let help = help_flags();
    assert!(help.len() >= 20, "csb --help lists its flags: {help:?}");
    let readme = readme_rows();
    assert!(
        readme == help,
        "README.md's flags table differs from csb --help; the table from csb --help:\n{}",
        table(&help)
    );
}
