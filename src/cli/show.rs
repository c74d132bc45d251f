//! `gametrace show`: the tree drawn in the terminal or as SVG, a case's search laid over it.

use super::common::*;
use crate::spec;
use crate::suite;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub parallel: Parallel,
    /// The spec file (YAML), or a built-in spec by its name (`gametrace specs`)
    pub spec: PathBuf,
    /// Lay this case's search over the tree
    #[arg(long, value_name = "NAME")]
    pub case: Option<String>,
    /// Draw an SVG picture (with a legend) to this file instead, or to stdout with `-`
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Colour the drawing (auto: when printing to a terminal and NO_COLOR is unset)
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

pub fn execute(a: Args) -> Exit {
    show(a.spec, a.case, a.svg, a.color)
}

/// `show`: the terminal drawing, or with `--svg`, the SVG picture instead (`-`: to stdout).
fn show(path: PathBuf, case: Option<String>, svg: Option<PathBuf>, color: ColorWhen) -> Exit {
    let spec = load_tree_spec(&path, case.as_deref(), "show", spec::load_for_drawing)?;
    let picture = crate::draw::Picture::new(&spec, case.as_deref().and_then(|n| spec.case(n)));
    match &svg {
        Some(file) if file.as_os_str() == "-" => print_all(&crate::draw::svg::draw(&picture)),
        Some(file) => match suite::write_atomically(file, &crate::draw::svg::draw(&picture)) {
            Ok(()) => Ok(0),
            Err(e) => {
                Err(Failure::message(format!("error: cannot write the SVG to {}: {e}\n  = hint: check that the directory exists and is writable",
                    file.display())))
            }
        },
        None => print_all(&crate::draw::terminal::draw(&picture, color.palette())),
    }
}
