//! `gametrace schema`: the JSON Schemas of the spec format and the JSON export.

use super::common::*;
use crate::suite;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Write the schema files under schema/ instead of printing the spec schema
    #[arg(long)]
    pub write: bool,
}

pub fn execute(a: Args) -> Exit {
    schema(a.write)
}

fn schema(write: bool) -> Exit {
    if !write {
        return print_all(&crate::spec::schema::spec_schema());
    }
    let files = [
        (
            "schema/spec.schema.json",
            crate::spec::schema::spec_schema(),
        ),
        ("schema/tree.schema.json", crate::export::tree_schema()),
    ];
    for (file, text) in files {
        let path = std::path::Path::new(file);
        let written =
            std::fs::create_dir_all("schema").and_then(|()| suite::write_atomically(path, &text));
        if let Err(e) = written {
            return Err(Failure::message(format!(
                "error: cannot write {file}: {e}\n  = hint: run it from the project's root"
            )));
        }
        println!("wrote {file}");
    }
    Ok(0)
}
