//! The dependency rules of ARCHITECTURE.md ("Invariants"), checked on `cargo metadata`:
//!
//! 1. A rule crate (`onus-*`, `command-points-*`, `morale-clock-*`, `othw-*`, but not a
//!    `*-server` or `*-web` crate) depends on no server or network crate, directly or
//!    through the workspace: rules stay pure libraries any face can use.
//! 2. A platform crate (`crates/platform/`) depends on no rule system, not even for its
//!    tests: the platform serves every system and may favour none.
//! 3. Only the root binary (and test-only crates such as `acies-e2e`) knows more than one
//!    system; the binary knows every one (it registers them all).
//! 4. A crate's `testing` feature (write access to a game's state, e.g. `onus_game::testing`)
//!    is enabled by dev-dependencies only: no game a server, bot or command plays can reach it.
//! 5. Every file directly under a crate's `tests/` is compiled: it is a test target itself or
//!    a module one of them declares (crates whose tests share one binary, `autotests = false`,
//!    declare each file in `tests/all.rs`; a file left out would never run).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// The prefixes of rule systems' package names.
const SYSTEMS: [&str; 4] = ["onus-", "command-points-", "morale-clock-", "othw-"];

/// Server, network and async-runtime crates no rule crate may pull in.
const SERVER_OR_IO: [&str; 12] = [
    "tokio",
    "axum",
    "sqlx",
    "hyper",
    "hyper-util",
    "reqwest",
    "tower",
    "tokio-tungstenite",
    "governor",
    "tracing-subscriber",
    "acies-server",
    "acies-web",
];

/// Crates that only test others: they may know every system.
const TEST_ONLY: [&str; 1] = ["acies-e2e"];

/// The root binary.
const ROOT: &str = "acies";

/// One dependency of a workspace package.
#[derive(Clone, Debug)]
struct Dep {
    name: String,
    /// `None` for a normal dependency, `Some("dev")` or `Some("build")`.
    kind: Option<String>,
    /// The features it enables.
    features: Vec<String>,
}

/// The workspace as the rules see it: each package, its directory and its dependencies.
#[derive(Debug, Default)]
struct Workspace {
    packages: BTreeMap<String, (String, Vec<Dep>)>,
}

impl Workspace {
    /// Reads `cargo metadata --no-deps` output.
    fn from_metadata(meta: &Value) -> Workspace {
        let mut ws = Workspace::default();
        for p in meta["packages"].as_array().into_iter().flatten() {
            let name = p["name"].as_str().unwrap_or_default().to_owned();
            let dir = p["manifest_path"].as_str().unwrap_or_default().to_owned();
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|d| Dep {
                    name: d["name"].as_str().unwrap_or_default().to_owned(),
                    kind: d["kind"].as_str().map(str::to_owned),
                    features: d["features"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|f| f.as_str().map(str::to_owned))
                        .collect(),
                })
                .collect();
            ws.packages.insert(name, (dir, deps));
        }
        ws
    }

    /// Every crate `name` depends on for building (normal dependencies, followed through the
    /// workspace), plus its own dev-dependencies when `with_dev`.
    fn closure(&self, name: &str, with_dev: bool) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<String> = self.direct(name, with_dev);
        while let Some(n) = todo.pop() {
            if seen.insert(n.clone()) {
                todo.extend(self.direct(&n, false));
            }
        }
        seen
    }

    fn direct(&self, name: &str, with_dev: bool) -> Vec<String> {
        let Some((_, deps)) = self.packages.get(name) else {
            return Vec::new();
        };
        deps.iter()
            .filter(|d| d.kind.is_none() || (with_dev && d.kind.as_deref() == Some("dev")))
            .map(|d| d.name.clone())
            .collect()
    }
}

/// The system a package belongs to, by its name.
fn system_of(name: &str) -> Option<&'static str> {
    SYSTEMS.iter().copied().find(|p| name.starts_with(p))
}

fn is_rule_crate(name: &str) -> bool {
    system_of(name).is_some() && !name.ends_with("-server") && !name.ends_with("-web")
}

fn is_platform(dir: &str) -> bool {
    dir.replace('\\', "/").contains("/crates/platform/")
}

/// Rule 1: what each rule crate pulls in that it must not.
fn rule_crates_stay_pure(ws: &Workspace) -> Vec<String> {
    let mut errors = Vec::new();
    for name in ws.packages.keys().filter(|n| is_rule_crate(n)) {
        let bad: Vec<String> = ws
            .closure(name, false)
            .into_iter()
            .filter(|d| {
                SERVER_OR_IO.contains(&d.as_str()) || d.ends_with("-server") || d.ends_with("-web")
            })
            .collect();
        if !bad.is_empty() {
            errors.push(format!("rule crate {name} depends on {}", bad.join(", ")));
        }
    }
    errors
}

/// Rule 2: platform crates that know a rule system.
fn platform_knows_no_system(ws: &Workspace) -> Vec<String> {
    let mut errors = Vec::new();
    for (name, (dir, _)) in &ws.packages {
        if !is_platform(dir) || TEST_ONLY.contains(&name.as_str()) {
            continue;
        }
        let systems: Vec<String> = ws
            .closure(name, true)
            .into_iter()
            .filter(|d| system_of(d).is_some())
            .collect();
        if !systems.is_empty() {
            errors.push(format!(
                "platform crate {name} depends on {}",
                systems.join(", ")
            ));
        }
    }
    errors
}

/// Rule 3: crates other than the binary and the test-only ones that know several systems, and
/// systems the binary does not know.
fn only_the_binary_knows_every_system(ws: &Workspace) -> Vec<String> {
    let systems_known = |name: &str| -> BTreeSet<&'static str> {
        let mut known: BTreeSet<&'static str> = ws
            .closure(name, true)
            .iter()
            .filter_map(|d| system_of(d))
            .collect();
        known.extend(system_of(name));
        known
    };
    let mut errors = Vec::new();
    for name in ws.packages.keys() {
        if name == ROOT || TEST_ONLY.contains(&name.as_str()) {
            continue;
        }
        let known = systems_known(name);
        if known.len() > 1 {
            let list: Vec<&str> = known.into_iter().collect();
            errors.push(format!("{name} knows several systems: {}", list.join(" ")));
        }
    }
    let every: BTreeSet<&'static str> = ws.packages.keys().filter_map(|n| system_of(n)).collect();
    let root = systems_known(ROOT);
    for missing in every.difference(&root) {
        errors.push(format!("the binary does not know the system {missing}*"));
    }
    errors
}

/// Rule 4: dependencies other than dev-dependencies that enable a `testing` feature.
fn testing_is_for_tests(ws: &Workspace) -> Vec<String> {
    let mut errors = Vec::new();
    for (name, (_, deps)) in &ws.packages {
        for d in deps.iter().filter(|d| d.kind.as_deref() != Some("dev")) {
            if d.features.iter().any(|f| f == "testing") {
                errors.push(format!("{name} enables {}'s testing feature", d.name));
            }
        }
    }
    errors
}

/// A package's integration-test files as the compiler sees them.
struct TestFiles {
    package: String,
    /// The stems of the `.rs` files directly under `tests/`.
    files: Vec<String>,
    /// Each test target rooted in `tests/`: its file's stem and text.
    roots: Vec<(String, String)>,
}

/// The files under `tests/` of each package that no test target compiles: neither a test
/// target's root nor declared (`mod name;`) in one.
fn undeclared_test_files(packages: &[TestFiles]) -> Vec<String> {
    let mut errors = Vec::new();
    for TestFiles {
        package: name,
        files,
        roots,
    } in packages
    {
        for file in files {
            let declared = roots.iter().any(|(stem, text)| {
                stem == file || text.lines().any(|l| l.trim() == format!("mod {file};"))
            });
            if !declared {
                errors.push(format!(
                    "{name}: tests/{file}.rs is compiled by no test target"
                ));
            }
        }
    }
    errors
}

/// Each package's `tests/*.rs` stems and its test targets' roots, read from the disk.
fn test_files_of(meta: &Value) -> Vec<TestFiles> {
    let mut out = Vec::new();
    for p in meta["packages"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap_or_default().to_owned();
        let manifest = std::path::Path::new(p["manifest_path"].as_str().unwrap_or_default());
        let tests_dir = manifest.with_file_name("tests");
        let Ok(entries) = std::fs::read_dir(&tests_dir) else {
            continue;
        };
        let stem = |path: &std::path::Path| {
            path.file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_owned()
        };
        let files = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|path| path.extension().is_some_and(|x| x == "rs"))
            .map(|path| stem(&path))
            .collect();
        let roots = p["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "test"))
            })
            .filter_map(|t| t["src_path"].as_str())
            .map(std::path::Path::new)
            .filter(|root| root.parent() == Some(tests_dir.as_path()))
            .map(|root| {
                (
                    stem(root),
                    std::fs::read_to_string(root).unwrap_or_default(),
                )
            })
            .collect();
        out.push(TestFiles {
            package: name,
            files,
            roots,
        });
    }
    out
}

fn workspace() -> Workspace {
    Workspace::from_metadata(&metadata())
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn the_workspace_keeps_the_dependency_rules() {
    let ws = workspace();
    for expected in ["acies", "acies-core", "onus-game", "command-points-game"] {
        assert!(ws.packages.contains_key(expected), "{expected} not found");
    }
    let mut errors = rule_crates_stay_pure(&ws);
    errors.extend(platform_knows_no_system(&ws));
    errors.extend(only_the_binary_knows_every_system(&ws));
    errors.extend(testing_is_for_tests(&ws));
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn every_test_file_is_compiled() {
    let packages = test_files_of(&metadata());
    let onus_game = packages.iter().find(|p| p.package == "onus-game");
    assert!(
        onus_game.is_some_and(|p| p.files.len() > 40 && p.roots.len() == 1),
        "onus-game's tests share one binary"
    );
    let errors = undeclared_test_files(&packages);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn a_test_file_left_out_is_caught() {
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let packages = [
        TestFiles {
            package: "one-binary".to_owned(),
            files: owned(&["all", "charge", "common", "forgotten"]),
            roots: vec![("all".to_owned(), "mod common;\nmod charge;\n".to_owned())],
        },
        TestFiles {
            package: "auto".to_owned(),
            files: owned(&["a", "b"]),
            roots: vec![
                ("a".to_owned(), String::new()),
                ("b".to_owned(), String::new()),
            ],
        },
    ];
    assert_eq!(
        undeclared_test_files(&packages),
        ["one-binary: tests/forgotten.rs is compiled by no test target"]
    );
}

/// The checks find each kind of violation (so the test above cannot pass by checking
/// nothing).
#[test]
fn each_rule_catches_its_violation() {
    let package = |name: &str, dir: &str, deps: &[(&str, Option<&str>)]| {
        serde_json::json!({
            "name": name,
            "manifest_path": format!("/w/{dir}/Cargo.toml"),
            "dependencies": deps.iter().map(|(n, k)| {
                let features = if n.ends_with("-game") { vec!["testing"] } else { vec![] };
                serde_json::json!({"name": n, "kind": k, "features": features})
            }).collect::<Vec<_>>(),
        })
    };
    let meta = serde_json::json!({ "packages": [
        package("acies", ".", &[("onus-game", None)]),
        package("acies-core", "crates/platform/core", &[]),
        package("acies-bot", "crates/platform/bot", &[("onus-game", Some("dev"))]),
        package("onus-game", "crates/onus/game", &[("onus-io", None)]),
        package("onus-io", "crates/onus/io", &[("tokio", None)]),
        package("onus-server", "crates/onus/server", &[("tokio", None)]),
        package("morale-clock-game", "crates/morale-clock/game", &[("onus-game", None)]),
    ]});
    let ws = Workspace::from_metadata(&meta);
    let pure = rule_crates_stay_pure(&ws);
    assert_eq!(
        pure,
        [
            "rule crate morale-clock-game depends on tokio",
            "rule crate onus-game depends on tokio",
            "rule crate onus-io depends on tokio",
        ]
    );
    assert_eq!(
        platform_knows_no_system(&ws),
        ["platform crate acies-bot depends on onus-game, onus-io"]
    );
    assert_eq!(
        only_the_binary_knows_every_system(&ws),
        [
            "morale-clock-game knows several systems: morale-clock- onus-",
            "the binary does not know the system morale-clock-*",
        ]
    );
    assert_eq!(
        testing_is_for_tests(&ws),
        [
            "acies enables onus-game's testing feature",
            "morale-clock-game enables onus-game's testing feature",
        ]
    );
}
