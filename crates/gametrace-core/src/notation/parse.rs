//! The parser: SML notation (and JSON's `-3` and arrays) to a [`Value`].

use super::Value;
use std::fmt;

/// Where and why a value did not parse. `col` counts characters from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub col: usize,
    pub expected: String,
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: expected {}, found {}",
            self.col, self.expected, self.found
        )
    }
}

impl std::error::Error for ParseError {}

/// How deeply values may nest (the parser recurses once per level).
pub const MAX_DEPTH: usize = 500;

/// Parses one value; only spaces may surround it.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    let mut p = Parser { text, at: 0 };
    let v = p.value(0)?;
    p.skip_space();
    if p.at < text.len() {
        return Err(p.error("the end of the value"));
    }
    Ok(v)
}

struct Parser<'t> {
    text: &'t str,
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.at += c.len_utf8();
        }
    }

    fn error(&self, expected: &str) -> ParseError {
        let col = self.text[..self.at].chars().count() + 1;
        let rest = &self.text[self.at..];
        let found = match rest.chars().next() {
            None => "the end of the text".to_owned(),
            Some(_) => {
                let word: String = rest
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .take(12)
                    .collect();
                format!("`{word}`")
            }
        };
        ParseError {
            col,
            expected: expected.to_owned(),
            found,
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.skip_space();
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("a value nested at most {MAX_DEPTH} levels deep")));
        }
        const A_VALUE: &str =
            "a value (an integer, true, false, \"text\", (..), [..], <..> or raise name)";
        match self.peek() {
            Some('<') => self.items('<', '>', depth).map(Value::Seq),
            Some('[') => self.items('[', ']', depth).map(Value::List),
            Some('(') => {
                let start = self.at;
                let mut items = self.items('(', ')', depth)?;
                match items.len() {
                    1 => Ok(items.remove(0)),
                    0 => {
                        self.at = start;
                        Err(self.error("a tuple of two or more values"))
                    }
                    _ => Ok(Value::Tuple(items)),
                }
            }
            Some('"') => self.string().map(Value::Str),
            Some(c) if c == '~' || c == '-' || c.is_ascii_digit() => self.int(),
            Some(c) if c.is_alphabetic() => {
                let start = self.at;
                let word = self.word();
                match word {
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "raise" => {
                        self.skip_space();
                        let name = self.word();
                        if name.is_empty() {
                            Err(self.error("an exception name after `raise`"))
                        } else {
                            Ok(Value::Raise(name.to_owned()))
                        }
                    }
                    _ => {
                        self.at = start;
                        Err(self.error(A_VALUE))
                    }
                }
            }
            _ => Err(self.error(A_VALUE)),
        }
    }

    /// An identifier: letters, digits, `_` and `'`.
    fn word(&mut self) -> &str {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' || c == '\'' || (c == '.' && self.at > start) {
                self.at += c.len_utf8();
            } else {
                break;
            }
        }
        &self.text[start..self.at]
    }

    fn int(&mut self) -> Result<Value, ParseError> {
        let start = self.at;
        let negative = matches!(self.peek(), Some('~' | '-'));
        if negative {
            self.at += 1;
        }
        let digits_start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == digits_start {
            return Err(self.error("digits"));
        }
        let digits = &self.text[digits_start..self.at];
        let parsed = if negative {
            format!("-{digits}").parse::<i64>()
        } else {
            digits.parse::<i64>()
        };
        parsed.map(Value::Int).map_err(|_| {
            self.at = start;
            self.error("an integer that fits in 64 bits")
        })
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.at += 1; // the opening quote
        let mut s = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error("a closing `\"`")),
                Some('"') => {
                    self.at += 1;
                    return Ok(s);
                }
                Some('\\') => {
                    self.at += 1;
                    let c = self.peek();
                    let escaped = match c {
                        Some('n') => '\n',
                        Some('t') => '\t',
                        Some('\\') => '\\',
                        Some('"') => '"',
                        Some('/') => '/',
                        Some(d) if d.is_ascii_digit() => {
                            let code = self
                                .text
                                .get(self.at..self.at + 3)
                                .and_then(|t| t.parse::<u32>().ok());
                            match code.and_then(char::from_u32) {
                                Some(ch) if code.is_some_and(|n| n < 256) => {
                                    self.at += 2; // the third digit is skipped below
                                    ch
                                }
                                _ => {
                                    return Err(
                                        self.error("an escape of three decimal digits, like \\065")
                                    )
                                }
                            }
                        }
                        _ => return Err(self.error("an escape: \\n, \\t, \\\\, \\\" or \\ddd")),
                    };
                    self.at += 1;
                    s.push(escaped);
                }
                Some(c) => {
                    self.at += c.len_utf8();
                    s.push(c);
                }
            }
        }
    }

    /// `open` value (`,` value)* `close`, possibly empty.
    fn items(&mut self, open: char, close: char, depth: usize) -> Result<Vec<Value>, ParseError> {
        self.at += open.len_utf8();
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(items);
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(items);
                }
                _ => return Err(self.error(&format!("`,` or `{close}`"))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_where_what_was_expected_and_what_was_found() {
        let e = parse("<(0,1),(1,0>").unwrap_err();
        assert_eq!(
            (e.col, e.expected.as_str(), e.found.as_str()),
            (12, "`,` or `)`", "`>`")
        );
        let e = parse("<1,2").unwrap_err();
        assert_eq!((e.col, e.found.as_str()), (5, "the end of the text"));
        let e = parse("<1,,2>").unwrap_err();
        assert_eq!(e.col, 4);
        assert!(e.expected.starts_with("a value"));
        let e = parse("<1> 2").unwrap_err();
        assert_eq!((e.col, e.expected.as_str()), (5, "the end of the value"));
        let e = parse("99999999999999999999").unwrap_err();
        assert_eq!(e.expected, "an integer that fits in 64 bits");
        assert_eq!(parse("\"abc").unwrap_err().expected, "a closing `\"`");
        assert_eq!(
            parse("()").unwrap_err().expected,
            "a tuple of two or more values"
        );
        assert!(parse("raise").is_err());
        assert!(parse("maybe").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = "<".repeat(100_000);
        let e = parse(&deep).unwrap_err();
        assert!(e.expected.contains("nested"), "{e}");
    }

    #[test]
    fn sml_string_escapes() {
        assert_eq!(parse("\"\\065\\t\"").unwrap(), Value::Str("A\t".into()));
        assert_eq!(parse("(5)").unwrap(), Value::Int(5));
        assert_eq!(parse("~0").unwrap(), Value::Int(0));
    }
}
