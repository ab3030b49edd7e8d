//! The code of a Markdown page: each line of its fenced blocks and each inline code span, with
//! the prose around a span, for the README's test (`tests/readme_claims.rs`) to read the
//! commands, flags and defaults the page gives.

/// A piece of code on a page, a code span or a line of a fenced block, with the prose just
/// before and after it (whitespace folded to single spaces; empty in a fenced block).
pub struct Code {
    pub text: String,
    pub before: String,
    pub after: String,
}

fn fold_whitespace(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    let mut last_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if !last_space {
                folded.push(' ');
            }
            last_space = true;
        } else {
            folded.push(c);
            last_space = false;
        }
    }
    folded
}

/// The code of a Markdown page in order: each line of a fenced block, and each code span of a
/// paragraph (a span may cross a line break).
pub fn code_of(markdown: &str) -> Vec<Code> {
    let mut code = Vec::new();
    let mut fenced = false;
    let mut paragraph = String::new();
    let flush = |paragraph: &mut String, code: &mut Vec<Code>| {
        let pieces: Vec<String> = paragraph.split('`').map(fold_whitespace).collect();
        for index in (1..pieces.len()).step_by(2) {
            code.push(Code {
                text: pieces[index].clone(),
                before: pieces[index - 1].clone(),
                after: pieces.get(index + 1).cloned().unwrap_or_default(),
            });
        }
        paragraph.clear();
    };
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            flush(&mut paragraph, &mut code);
            fenced = !fenced;
        } else if fenced {
            code.push(Code {
                text: line.to_string(),
                before: String::new(),
                after: String::new(),
            });
        } else if line.trim().is_empty() {
            flush(&mut paragraph, &mut code);
        } else {
            paragraph.push_str(line);
            paragraph.push('\n');
        }
    }
    flush(&mut paragraph, &mut code);
    code
}
