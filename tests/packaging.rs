//! The wheel's binary (`crates/gametrace-wheel`) is a workspace of its own so that maturin
//! resolves only what the binary links: these tests keep it in step with the root package.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `name version` of every package in a `Cargo.lock`.
fn locked(path: &Path) -> BTreeMap<(String, String), ()> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = BTreeMap::new();
    let mut name = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let Some(v) = line.strip_prefix("version = ") {
            if let Some(n) = name.take() {
                out.insert((n, v.trim_matches('"').to_string()), ());
            }
        }
    }
    out
}

fn version_of(manifest: &Path) -> String {
    let text = std::fs::read_to_string(manifest).unwrap();
    let line = text.lines().find(|l| l.starts_with("version = ")).unwrap();
    line["version = ".len()..].trim_matches('"').to_string()
}

#[test]
fn the_wheel_ships_the_versions_the_root_package_is_tested_with() {
    let root = Path::new(ROOT);
    let wheel = root.join("crates/gametrace-wheel");
    assert_eq!(
        version_of(&wheel.join("Cargo.toml")),
        version_of(&root.join("Cargo.toml")),
        "the wheel's version is the package's"
    );
    let all = locked(&root.join("Cargo.lock"));
    let shipped = locked(&wheel.join("Cargo.lock"));
    for (name, version) in shipped.keys() {
        if name == "gametrace-wheel" {
            continue;
        }
        assert!(
            all.contains_key(&(name.clone(), version.clone())),
            "crates/gametrace-wheel/Cargo.lock has {name} {version}, which the root's \
             Cargo.lock does not: copy the root's lock there and run `cargo metadata` in it"
        );
    }
    for dev_only in [
        "proptest",
        "criterion",
        "assert_cmd",
        "predicates",
        "resvg",
        "jsonschema",
    ] {
        assert!(
            !shipped.keys().any(|(n, _)| n == dev_only),
            "the wheel resolves {dev_only}, a test dependency"
        );
    }
    assert!(
        shipped.len() * 3 < all.len() * 2,
        "{} of {}",
        shipped.len(),
        all.len()
    );
}

#[test]
fn the_wheels_lock_file_is_up_to_date() {
    // `--locked`: fails if the root package's dependencies changed and the wheel's lock was
    // not refreshed (maturin builds with the lock as it is).
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .arg("--manifest-path")
        .arg(Path::new(ROOT).join("crates/gametrace-wheel/Cargo.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bins: Vec<&str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"] == "gametrace-wheel")
        .flat_map(|p| p["targets"].as_array().unwrap())
        .filter(|t| t["kind"][0] == "bin")
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        bins,
        ["gametrace"],
        "the wheel installs the command as `gametrace`"
    );
}

#[test]
fn maturin_builds_the_wheels_binary() {
    let pyproject = std::fs::read_to_string(Path::new(ROOT).join("pyproject.toml")).unwrap();
    assert!(pyproject.contains("manifest-path = \"crates/gametrace-wheel/Cargo.toml\""));
}
