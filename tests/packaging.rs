//! The wheel's binary (`crates/gametrace-wheel`) is a workspace of its own so that maturin
//! resolves only what the binary links: these tests keep it in step with the root package.

use std::collections::BTreeMap;
use std::path::Path;

mod common;
use common::cli::ROOT;

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

/// One `[[package]]` of a `Cargo.lock`.
#[derive(Debug, serde::Deserialize)]
struct Package {
    name: String,
    version: String,
    source: Option<String>,
    checksum: Option<String>,
    #[serde(default)]
    dependencies: Vec<String>,
}

#[derive(Debug, serde::Deserialize)]
struct Lock {
    package: Vec<Package>,
}

fn lock(path: &Path) -> Lock {
    let text = std::fs::read_to_string(path).unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl Lock {
    /// The package an entry of a `dependencies` list names: `name`, or `name version` when
    /// the lock holds more than one version of it.
    fn resolve(&self, edge: &str) -> Option<&Package> {
        let (name, version) = match edge.split_once(' ') {
            Some((n, v)) => (n, Some(v.split_once(' ').map_or(v, |(v, _)| v))),
            None => (edge, None),
        };
        let mut found = self
            .package
            .iter()
            .filter(|p| p.name == name && version.is_none_or(|v| p.version == v));
        let first = found.next();
        assert!(found.next().is_none(), "`{edge}` is ambiguous");
        first
    }

    fn named(&self, name: &str) -> &Package {
        self.resolve(name)
            .unwrap_or_else(|| panic!("no package {name} in the lock"))
    }
}

/// The dependencies a package's manifest declares for its builds (normal and build
/// dependencies, on every platform; not dev-dependencies, which a path dependency does not
/// bring into the wheel's workspace): their package names.
fn declared(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let mut tables: Vec<&toml::Table> = Vec::new();
    for key in ["dependencies", "build-dependencies"] {
        tables.extend(doc.get(key).and_then(|t| t.as_table()));
    }
    if let Some(targets) = doc.get("target").and_then(|t| t.as_table()) {
        for target in targets.values() {
            for key in ["dependencies", "build-dependencies"] {
                tables.extend(target.get(key).and_then(|t| t.as_table()));
            }
        }
    }
    let mut names: Vec<String> = tables
        .iter()
        .flat_map(|t| t.iter())
        .map(|(key, spec)| {
            spec.get("package")
                .and_then(|p| p.as_str())
                .unwrap_or(key)
                .to_owned()
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The wheel's lock is what cargo would write for its workspace, checked without cargo (which
/// would want every platform's crates in its cache, and the network on a fresh machine):
/// each path package locks what its manifest declares, at the root's versions; every other
/// package is the root's own (same version, source and checksum) with edges the root's lock
/// also has; every edge leads to a package of the lock; and nothing is left over.
#[test]
fn the_wheels_lock_file_is_up_to_date() {
    let root = Path::new(ROOT);
    let all = lock(&root.join("Cargo.lock"));
    let shipped = lock(&root.join("crates/gametrace-wheel/Cargo.lock"));
    let stale = "copy the root's Cargo.lock to crates/gametrace-wheel/ and run `cargo metadata \
                 --format-version 1 --manifest-path crates/gametrace-wheel/Cargo.toml` (cargo \
                 prunes it)";
    let key = |p: &Package| (p.name.clone(), p.version.clone());

    // Path packages: the wheel's binary, and the root's packages it links.
    let manifests = [
        ("gametrace-wheel", "crates/gametrace-wheel/Cargo.toml"),
        ("gametrace", "Cargo.toml"),
        ("gametrace-core", "crates/gametrace-core/Cargo.toml"),
        ("gametrace-sandbox", "crates/gametrace-sandbox/Cargo.toml"),
        (
            "gametrace-check-game",
            "crates/gametrace-check-game/Cargo.toml",
        ),
    ];
    for (name, manifest) in manifests {
        let locked = shipped.named(name);
        assert!(locked.source.is_none(), "{name} is a path package");
        let mut has: Vec<(String, String)> = locked
            .dependencies
            .iter()
            .map(|e| {
                key(shipped
                    .resolve(e)
                    .unwrap_or_else(|| panic!("{name} -> {e}: {stale}")))
            })
            .collect();
        has.sort();
        let mut wants: Vec<(String, String)> = declared(&root.join(manifest))
            .iter()
            .map(|dep| {
                // The version the root's lock chose for this package's dependency.
                let source = if name == "gametrace-wheel" {
                    &shipped
                } else {
                    &all
                };
                let parent = source.named(name);
                let edge = parent
                    .dependencies
                    .iter()
                    .find(|e| e.split(' ').next() == Some(dep.as_str()))
                    .unwrap_or_else(|| {
                        panic!("{name} declares {dep}, which its lock lacks: {stale}")
                    });
                key(source.resolve(edge).unwrap())
            })
            .collect();
        wants.sort();
        assert_eq!(has, wants, "the wheel's lock of {name}: {stale}");
    }

    // Every other package: the root's, with the root's edges (or fewer: a feature only the
    // tests turn on adds edges to the root's lock alone).
    for p in &shipped.package {
        for e in &p.dependencies {
            assert!(
                shipped.resolve(e).is_some(),
                "{} {} -> {e}: no such package in the wheel's lock: {stale}",
                p.name,
                p.version
            );
        }
        if p.source.is_none() {
            continue;
        }
        let theirs = all
            .package
            .iter()
            .find(|q| key(q) == key(p))
            .unwrap_or_else(|| {
                panic!(
                    "{} {} is not in the root's lock: {stale}",
                    p.name, p.version
                )
            });
        assert_eq!(
            (&p.source, &p.checksum),
            (&theirs.source, &theirs.checksum),
            "{}",
            p.name
        );
        let theirs: Vec<(String, String)> = theirs
            .dependencies
            .iter()
            .map(|e| key(all.resolve(e).unwrap()))
            .collect();
        for e in &p.dependencies {
            let k = key(shipped.resolve(e).unwrap());
            assert!(
                theirs.contains(&k),
                "{} {} -> {} {}: an edge the root's lock does not have: {stale}",
                p.name,
                p.version,
                k.0,
                k.1
            );
        }
    }

    // Nothing left over: every package is reached from the wheel's binary.
    let mut reached = std::collections::BTreeSet::new();
    let mut todo = vec![key(shipped.named("gametrace-wheel"))];
    while let Some(k) = todo.pop() {
        if !reached.insert(k.clone()) {
            continue;
        }
        let p = shipped.package.iter().find(|p| key(p) == k).unwrap();
        todo.extend(
            p.dependencies
                .iter()
                .map(|e| key(shipped.resolve(e).unwrap())),
        );
    }
    let unreached: Vec<String> = shipped
        .package
        .iter()
        .filter(|p| !reached.contains(&key(p)))
        .map(|p| format!("{} {}", p.name, p.version))
        .collect();
    assert!(unreached.is_empty(), "{unreached:?}: {stale}");

    // The wheel installs the command as `gametrace`.
    let wheel: toml::Table = toml::from_str(
        &std::fs::read_to_string(root.join("crates/gametrace-wheel/Cargo.toml")).unwrap(),
    )
    .unwrap();
    let bins: Vec<&str> = wheel["bin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
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
