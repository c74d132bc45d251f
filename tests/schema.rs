//! The JSON Schema in schema/: up to date with the code, and every spec in specs/ (read as
//! an editor's YAML plugin reads it) valid against it; broken specs are not.

use gametrace::spec::yaml::{self, Node, Yaml};
use serde_json::Value;
use std::path::Path;

/// A YAML node as JSON, with plain scalars typed as YAML 1.2's core schema types them (what
/// yaml-language-server checks against the schema).
fn to_json(node: &Node) -> Value {
    match &node.yaml {
        Yaml::Scalar { text, plain: false } => Value::String(text.to_string()),
        Yaml::Scalar { text, plain: true } => match text.as_str() {
            "" | "~" | "null" | "Null" | "NULL" => Value::Null,
            "true" | "True" | "TRUE" => Value::Bool(true),
            "false" | "False" | "FALSE" => Value::Bool(false),
            t => {
                if let Ok(i) = t.parse::<i64>() {
                    Value::from(i)
                } else if let Some(f) = t.parse::<f64>().ok().filter(|f| f.is_finite()) {
                    Value::from(f)
                } else {
                    Value::String(t.to_owned())
                }
            }
        },
        Yaml::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.scalar().unwrap_or("").to_owned(), to_json(v)))
                .collect(),
        ),
    }
}

fn validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string("schema/spec.schema.json").unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn problems(v: &jsonschema::Validator, text: &str) -> Vec<String> {
    let doc = to_json(&yaml::parse(text).unwrap().unwrap());
    v.iter_errors(&doc).map(|e| e.to_string()).collect()
}

#[test]
fn the_committed_schemas_are_the_ones_the_code_generates() {
    let stale = "is stale: run `gametrace schema --write` and commit schema/";
    assert_eq!(
        std::fs::read_to_string("schema/spec.schema.json").unwrap(),
        gametrace::spec::schema::spec_schema(),
        "schema/spec.schema.json {stale}"
    );
    assert_eq!(
        std::fs::read_to_string("schema/tree.schema.json").unwrap(),
        gametrace::export::tree_schema(),
        "schema/tree.schema.json {stale}"
    );
}

#[test]
fn every_spec_in_specs_is_valid_against_the_schema() {
    let v = validator();
    let specs = gametrace::suite::discover(&["specs".into()]).unwrap();
    assert!(specs.len() >= 12);
    for spec in specs {
        let text = std::fs::read_to_string(&spec).unwrap();
        let found = problems(&v, &text);
        assert!(found.is_empty(), "{}: {found:?}", spec.display());
    }
}

#[test]
fn generated_specs_are_valid_against_the_schema() {
    let v = validator();
    let g = gametrace::game::tree::Generate {
        branching: 3,
        depth: 3,
        seed: 5,
        min: -4,
        max: 4,
    };
    let text = gametrace::spec::new::spec(&g);
    assert_eq!(problems(&v, &text), Vec::<String>::new());
}

#[test]
fn specs_the_loader_refuses_for_their_shape_the_schema_refuses_too() {
    let v = validator();
    for (why, text) in [
        (
            "misspelt case key",
            "tree: {a: {b: 1}}\ncases: {ab: {algoritm: alphabeta}}\n",
        ),
        (
            "unknown algorithm",
            "tree: {a: {b: 1}}\ncases: {ab: {algorithm: alpha_beta_pruning}}\n",
        ),
        (
            "jamboree without prune_percentage",
            "tree: {a: {b: 1}}\ncases: {j: {algorithm: jamboree}}\n",
        ),
        (
            "prune_percentage on alphabeta",
            "tree: {a: {b: 1}}\ncases: {j: {algorithm: alphabeta, prune_percentage: 0.5}}\n",
        ),
        (
            "prune_percentage above 1",
            "tree: {a: {b: 1}}\ncases: {j: {algorithm: jamboree, prune_percentage: 50}}\n",
        ),
        (
            "a leaf that is text",
            "tree: {a: {b: six}}\ncases: {ab: {algorithm: alphabeta}}\n",
        ),
        (
            "two roots",
            "tree: {a: {b: 1}, z: {y: 2}}\ncases: {ab: {algorithm: alphabeta}}\n",
        ),
        (
            "unknown dialect",
            "tree: {a: {b: 1}}\ncases: {ab: {algorithm: alphabeta, dialect: s13}}\n",
        ),
        (
            "unknown line kind",
            "tree: {a: {b: 1}}\ncases: {ab: {algorithm: alphabeta, lines: [enter, bogus]}}\n",
        ),
        ("no cases", "tree: {a: {b: 1}}\n"),
        (
            "unknown top key",
            "tree: {a: {b: 1}}\ncases: {ab: {algorithm: alphabeta}}\ncolour: red\n",
        ),
        (
            "unknown task",
            "task: is_simplex\ncases: {one: {args: [\"<>\"], expect: true}}\n",
        ),
        (
            "task case without expect",
            "task: is_simple\ncases: {one: {args: [\"<>\"]}}\n",
        ),
    ] {
        // The loader refuses each one...
        assert!(
            gametrace::spec::load_str(Path::new("t.yaml"), text).is_err(),
            "the loader takes {why}"
        );
        // ...and so does the schema.
        assert!(!problems(&v, text).is_empty(), "the schema takes {why}");
    }
}
