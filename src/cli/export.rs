//! `gametrace export`: the tree as SML, Python or JSON for a student's code to load.

use super::common::*;
use crate::spec::{self, Diagnostic};
use crate::suite;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The spec file (YAML)
    pub spec: PathBuf,
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: ExportFormat,
    /// Take the root player, move names and search settings from this case (default: the
    /// first)
    #[arg(long, value_name = "NAME")]
    pub case: Option<String>,
    /// The SML structure's name (default: the spec's sml_structure, else the file name
    /// in CamelCase)
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Write to this file (atomically) instead of stdout
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Sml,
    Python,
    Json,
}

pub fn execute(a: Args) -> Exit {
    export(
        &a.spec,
        a.to,
        a.case.as_deref(),
        a.name,
        a.output.as_deref(),
    )
}

/// `handout-small.yaml` -> `HandoutSmall`: a structure name from a file name.
fn camel_case(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut name = String::new();
    for word in stem.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => name,
        Some(_) => format!("Tree{name}"),
        None => "Tree".to_owned(),
    }
}

fn export(
    path: &Path,
    to: ExportFormat,
    case: Option<&str>,
    name: Option<String>,
    output: Option<&Path>,
) -> Exit {
    let spec = tree_spec(path, case, "export")?;
    let Some(case) = case.and_then(|n| spec.case(n)).or(spec.cases.first()) else {
        return Ok(2);
    };
    let origin = format!(
        "{}exported by gametrace {} from {}",
        spec.title
            .as_deref()
            .map(|t| format!("{t}, "))
            .unwrap_or_default(),
        env!("CARGO_PKG_VERSION"),
        path.display()
    );
    let text = match to {
        ExportFormat::Json => crate::export::tree_json(&spec, case),
        ExportFormat::Sml => {
            let name = match name {
                Some(n) => n,
                None if case.style.sml_structure != "Game" => case.style.sml_structure.clone(),
                None => camel_case(path),
            };
            if !spec::is_sml_identifier(&name) {
                return Err(
                    Diagnostic::new(path, "`--name` must be an SML structure name")
                        .expected("a name like HandoutBig (letters, digits, _ and ')")
                        .found(format!("`{name}`"))
                        .into(),
                );
            }
            crate::export::sml::structure(&spec.tree, &name, &origin)
        }
        ExportFormat::Python => match crate::export::python::module(
            &spec.tree,
            case.root_player,
            &case.style.move_names,
            &origin,
        ) {
            Ok(text) => text,
            Err(twice) => {
                return Err(
                    Diagnostic::new(path, format!("node name `{twice}` is used twice"))
                        .expected("each node named once: the Python export keys states by name")
                        .found(format!("two nodes named `{twice}`"))
                        .hint("rename one (`gametrace validate` points at both)")
                        .into(),
                )
            }
        },
    };
    match output {
        Some(file) => match suite::write_atomically(file, &text) {
            Ok(()) => Ok(0),
            Err(e) => {
                Err(Failure::message(format!("error: cannot write {}: {e}\n  = hint: check that the directory exists and is writable",
                    file.display())))
            }
        },
        None => print_all(&text),
    }
}
