//! SML value notation, as the homeworks write values and SML/NJ prints them: integers with `~`
//! for minus, `true`/`false`, strings `"hi"`, tuples `(0,1)`, lists `[1,2]`, sequences `<1,2>`,
//! nested freely, and an exception `raise not_in_graph`.
//!
//! [`parse`] reads it (also JSON's `-3` and arrays, which [`Type::conform`] turns into the
//! sequences and tuples a task expects); `Display` prints it back, so printing then parsing
//! gives the same value.

mod parse;

pub use parse::{parse, ParseError};

use std::cmp::Ordering;
use std::fmt;

/// An SML value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(String),
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Seq(Vec<Value>),
    /// An exception a function raised: `raise not_in_graph`.
    Raise(String),
}

impl Value {
    /// The elements of a sequence, list or tuple.
    pub fn items(&self) -> Option<&[Value]> {
        match self {
            Value::Seq(v) | Value::List(v) | Value::Tuple(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }
}

/// A total order on values (for comparing sequences as multisets).
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        fn rank(v: &Value) -> u8 {
            match v {
                Value::Int(_) => 0,
                Value::Bool(_) => 1,
                Value::Str(_) => 2,
                Value::Tuple(_) => 3,
                Value::List(_) => 4,
                Value::Seq(_) => 5,
                Value::Raise(_) => 6,
            }
        }
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Str(a), Value::Str(b)) | (Value::Raise(a), Value::Raise(b)) => a.cmp(b),
            (Value::Tuple(a), Value::Tuple(b))
            | (Value::List(a), Value::List(b))
            | (Value::Seq(a), Value::Seq(b)) => a.cmp(b),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_value(self, &mut out);
        f.write_str(&out)
    }
}

/// Writes a value in SML notation (no spaces, as the handouts write values).
pub fn write_value(v: &Value, out: &mut String) {
    let items = |out: &mut String, open: char, xs: &[Value], close: char| {
        out.push(open);
        for (i, x) in xs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_value(x, out);
        }
        out.push(close);
    };
    match v {
        Value::Int(n) => crate::game::write_sml_int(out, *n),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Str(s) => write_sml_string(s, out),
        Value::Tuple(xs) => items(out, '(', xs, ')'),
        Value::List(xs) => items(out, '[', xs, ']'),
        Value::Seq(xs) => items(out, '<', xs, '>'),
        Value::Raise(name) => {
            out.push_str("raise ");
            out.push_str(name);
        }
    }
}

/// `"..."` with SML's escapes.
fn write_sml_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The type a task's argument or result has, as SML writes it. `Graph` is a `seq` whose
/// index means something (the vertex), so it keeps its order even under `order: any`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Bool,
    /// `'a`: any value.
    Any,
    Tuple(Vec<Type>),
    List(Box<Type>),
    Seq(Box<Type>),
    /// An adjacency sequence, indexed by vertex.
    Graph(Box<Type>),
}

impl Type {
    pub fn seq(t: Type) -> Type {
        Type::Seq(Box::new(t))
    }

    /// `int seq seq` etc.
    pub fn sml(&self) -> String {
        match self {
            Type::Int => "int".into(),
            Type::Bool => "bool".into(),
            Type::Any => "'a".into(),
            Type::Tuple(ts) => format!(
                "({})",
                ts.iter().map(Type::sml).collect::<Vec<_>>().join(" * ")
            ),
            Type::List(t) => format!("{} list", t.sml()),
            Type::Seq(t) | Type::Graph(t) => format!("{} seq", t.sml()),
        }
    }

    /// Reads `v` as this type: JSON arrays (parsed as lists) become the sequences and tuples
    /// the type says; anything else must already match. On a mismatch, says where.
    pub fn conform(&self, v: Value) -> Result<Value, String> {
        self.conform_at(v, "")
    }

    fn conform_at(&self, v: Value, at: &str) -> Result<Value, String> {
        let mismatch = |v: &Value| {
            let place = if at.is_empty() {
                String::new()
            } else {
                format!(" at {at}")
            };
            Err(format!(
                "expected {}{place}, found {}",
                self.describe(),
                crate::spec::yaml::shorten(&v.to_string())
            ))
        };
        let each = |t: &Type, xs: Vec<Value>, what: &str| -> Result<Vec<Value>, String> {
            xs.into_iter()
                .enumerate()
                .map(|(i, x)| {
                    t.conform_at(
                        x,
                        &format!(
                            "{what}{}index {i}",
                            if at.is_empty() {
                                "".to_string()
                            } else {
                                format!("{at}, ")
                            }
                        ),
                    )
                })
                .collect()
        };
        match (self, v) {
            (Type::Any, v) => Ok(v),
            (Type::Int, Value::Int(n)) => Ok(Value::Int(n)),
            (Type::Bool, Value::Bool(b)) => Ok(Value::Bool(b)),
            (Type::Seq(t) | Type::Graph(t), Value::Seq(xs) | Value::List(xs)) => {
                Ok(Value::Seq(each(t, xs, "")?))
            }
            (Type::List(t), Value::List(xs)) => Ok(Value::List(each(t, xs, "")?)),
            (Type::Tuple(ts), Value::Tuple(xs) | Value::List(xs)) if ts.len() == xs.len() => {
                let parts: Result<Vec<Value>, String> = ts
                    .iter()
                    .zip(xs)
                    .enumerate()
                    .map(|(i, (t, x))| {
                        t.conform_at(
                            x,
                            &format!(
                                "{}part {}",
                                if at.is_empty() {
                                    "".to_string()
                                } else {
                                    format!("{at}, ")
                                },
                                i + 1
                            ),
                        )
                    })
                    .collect();
                Ok(Value::Tuple(parts?))
            }
            (_, v) => mismatch(&v),
        }
    }

    fn describe(&self) -> String {
        match self {
            Type::Int => "an integer".into(),
            Type::Bool => "true or false".into(),
            Type::Any => "a value".into(),
            Type::Tuple(ts) => format!("a {}-tuple ({})", ts.len(), self.sml()),
            Type::List(_) => format!("a list ({})", self.sml()),
            Type::Seq(_) | Type::Graph(_) => format!("a sequence ({})", self.sml()),
        }
    }
}

/// Does `actual` equal `expected` of type `ty`? With `any_order`, every sequence (but not a
/// graph's outer, vertex-indexed one) is compared as a multiset. On a difference, says where:
/// `at index 1: expected <0,2>, got <2,0>`.
pub fn compare(expected: &Value, actual: &Value, ty: &Type, any_order: bool) -> Result<(), String> {
    compare_at(expected, actual, ty, any_order, "")
}

fn compare_at(
    expected: &Value,
    actual: &Value,
    ty: &Type,
    any_order: bool,
    at: &str,
) -> Result<(), String> {
    let differ = || {
        let place = if at.is_empty() {
            String::new()
        } else {
            format!("at {at}: ")
        };
        Err(format!("{place}expected {expected}, got {actual}"))
    };
    let inner = |t: &Type| match t {
        Type::Seq(t) | Type::List(t) | Type::Graph(t) => (**t).clone(),
        _ => Type::Any,
    };
    match (expected, actual) {
        (Value::Seq(e), Value::Seq(a)) | (Value::List(e), Value::List(a)) => {
            let elem = inner(ty);
            if any_order && matches!(ty, Type::Seq(_)) {
                let canon = |xs: &[Value]| {
                    let mut v: Vec<Value> = xs.iter().map(|x| canonical(x, &elem)).collect();
                    v.sort();
                    v
                };
                return if canon(e) == canon(a) {
                    Ok(())
                } else {
                    differ()
                };
            }
            // Point at the first differing element itself: `at index 1: expected <0,2>, got <2,0>`.
            for (i, (x, y)) in e.iter().zip(a).enumerate() {
                if compare_at(x, y, &elem, any_order, "").is_err() {
                    let place = if at.is_empty() {
                        format!("index {i}")
                    } else {
                        format!("{at}, index {i}")
                    };
                    return Err(format!("at {place}: expected {x}, got {y}"));
                }
            }
            if e.len() != a.len() {
                return differ().map_err(|m| format!("{m} (lengths {} and {})", e.len(), a.len()));
            }
            Ok(())
        }
        (Value::Tuple(e), Value::Tuple(a)) if e.len() == a.len() => {
            let types: Vec<Type> = match ty {
                Type::Tuple(ts) if ts.len() == e.len() => ts.clone(),
                _ => vec![Type::Any; e.len()],
            };
            for (i, ((x, y), t)) in e.iter().zip(a).zip(&types).enumerate() {
                let here = if at.is_empty() {
                    format!("part {}", i + 1)
                } else {
                    format!("{at}, part {}", i + 1)
                };
                compare_at(x, y, t, any_order, &here)?;
            }
            Ok(())
        }
        _ if expected == actual => Ok(()),
        _ => differ(),
    }
}

/// A value with every order-free sequence sorted, so multisets compare by equality.
fn canonical(v: &Value, ty: &Type) -> Value {
    match (v, ty) {
        (Value::Seq(xs), Type::Seq(t)) => {
            let mut items: Vec<Value> = xs.iter().map(|x| canonical(x, t)).collect();
            items.sort();
            Value::Seq(items)
        }
        (Value::Seq(xs), Type::Graph(t)) => {
            Value::Seq(xs.iter().map(|x| canonical(x, t)).collect())
        }
        (Value::List(xs), Type::List(t)) => {
            Value::List(xs.iter().map(|x| canonical(x, t)).collect())
        }
        (Value::Tuple(xs), Type::Tuple(ts)) if xs.len() == ts.len() => {
            Value::Tuple(xs.iter().zip(ts).map(|(x, t)| canonical(x, t)).collect())
        }
        _ => v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        parse(s).unwrap()
    }

    #[test]
    fn prints_the_way_the_handouts_write() {
        assert_eq!(v("< <1> , <0, 2>,<1> >").to_string(), "<<1>,<0,2>,<1>>");
        assert_eq!(
            v("<(3,\"hi\"), (1, \"bye\")>").to_string(),
            "<(3,\"hi\"),(1,\"bye\")>"
        );
        assert_eq!(v("~3").to_string(), "~3");
        assert_eq!(v("-3").to_string(), "~3");
        assert_eq!(v("[true,false]").to_string(), "[true,false]");
        assert_eq!(v("raise not_in_graph").to_string(), "raise not_in_graph");
        assert_eq!(v("\"a\\\"b\\\\c\\n\"").to_string(), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(v("<>").to_string(), "<>");
    }

    #[test]
    fn json_arrays_take_the_shape_the_type_asks_for() {
        let edges = Type::seq(Type::Tuple(vec![Type::Int, Type::Int]));
        assert_eq!(
            edges.conform(v("[[0,1],[1,0]]")).unwrap(),
            v("<(0,1),(1,0)>")
        );
        let graph = Type::Graph(Box::new(Type::seq(Type::Int)));
        assert_eq!(
            graph.conform(v("[[1],[0,2],[1]]")).unwrap(),
            v("<<1>,<0,2>,<1>>")
        );
        let e = edges.conform(v("[[0,1],[1]]")).unwrap_err();
        assert_eq!(e, "expected a 2-tuple ((int * int)) at index 1, found [1]");
        assert!(Type::Int.conform(v("true")).is_err());
    }

    #[test]
    fn order_any_ignores_order_inside_sequences_but_not_across_vertices() {
        let graph = Type::Graph(Box::new(Type::seq(Type::Int)));
        assert!(compare(&v("<<1>,<0,2>>"), &v("<<1>,<2,0>>"), &graph, true).is_ok());
        assert_eq!(
            compare(&v("<<1>,<0,2>>"), &v("<<1>,<2,0>>"), &graph, false).unwrap_err(),
            "at index 1: expected <0,2>, got <2,0>"
        );
        assert!(compare(&v("<<1>,<0,2>>"), &v("<<0,2>,<1>>"), &graph, true).is_err());
        // A multiset: duplicates count.
        let seq = Type::seq(Type::Int);
        assert!(compare(&v("<1,1,2>"), &v("<1,2,2>"), &seq, true).is_err());
        assert_eq!(
            compare(&v("<1,2>"), &v("<1,2,3>"), &seq, false).unwrap_err(),
            "expected <1,2>, got <1,2,3> (lengths 2 and 3)"
        );
    }
}
