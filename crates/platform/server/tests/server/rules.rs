//! The rules reader's API (`GET /api/{system}/rules`): a citation however the engine writes it
//! resolves to its section with our summary; an unknown or oversized citation is refused
//! clearly; with the user's own copy of the text (`ServeConfig::rules_text`), the passage
//! under the section's heading comes too.

use std::io::Write;
use std::net::SocketAddr;

use acies_server::testing::DiceRace;
use acies_server::{BoundServer, ServeConfig, ServeError, TextReport};
use reqwest::StatusCode;
use serde_json::Value;

use crate::common::*;

/// A server of the race with these copies of its rules; its address and what it found.
async fn serve(url: &str, texts: &[&std::path::Path]) -> (SocketAddr, Vec<TextReport>) {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), url).host::<DiceRace>();
    for t in texts {
        config = config.rules_text("dice-race", *t);
    }
    let bound = BoundServer::bind(config).await.unwrap();
    let addr = bound.local_addr().unwrap();
    let report = bound.rules_report().to_vec();
    tokio::spawn(bound.run(std::future::pending()));
    (addr, report)
}

async fn rule(addr: SocketAddr, citation: &str) -> (StatusCode, Value) {
    let url = reqwest::Url::parse_with_params(
        &format!("http://{addr}/api/dice-race/rules"),
        [("section", citation)],
    )
    .unwrap();
    get(&client(), url.as_str()).await
}

#[tokio::test]
async fn a_citation_resolves_to_its_summary_however_it_is_written() {
    let (_dir, url) = temp_db();
    let (addr, report) = serve(&url, &[]).await;
    assert!(report.is_empty());
    for c in [
        "turn order",
        "[turn order]",
        "Turn Order.",
        "turn order (simultaneous rounds)",
    ] {
        let (s, v) = rule(addr, c).await;
        assert_eq!(s, StatusCode::OK, "{c}: {v}");
        assert_eq!(v["citation"], c.trim());
        assert_eq!(v["sections"].as_array().unwrap().len(), 1, "{c}: {v}");
        let sec = &v["sections"][0];
        assert_eq!(sec["cite"], "turn order");
        assert!(
            sec["summary"].as_str().unwrap().contains("take turns"),
            "{v}"
        );
        assert!(sec.get("text").is_none(), "no copy, no passage: {v}");
        assert_eq!(v["own_text"], false);
        assert_eq!(v["notice"], "Our own summaries of the race's rules.");
    }
    // Several sections in one citation, an alias.
    let (s, v) = rule(addr, "play / drawing").await;
    assert_eq!(s, StatusCode::OK);
    let cites: Vec<&str> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["cite"].as_str().unwrap())
        .collect();
    assert_eq!(cites, ["play", "draw"]);
    // The list.
    let (s, v) = get(&client(), &format!("http://{addr}/api/dice-race/rules")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["sections"].as_array().unwrap().len(), 5);
    assert_eq!(v["title"], "Dice race");
}

#[tokio::test]
async fn an_unknown_or_oversized_citation_is_refused_clearly() {
    let (_dir, url) = temp_db();
    let (addr, _) = serve(&url, &[]).await;
    let (s, v) = rule(addr, "castling").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    assert_eq!(v["code"], "unknown_section");
    assert!(v["error"].as_str().unwrap().contains("castling"), "{v}");
    let (s, v) = rule(addr, &"draw ".repeat(100)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_request");
    // A system without a reader has no such route.
    let (s, v) = get(
        &client(),
        &format!("http://{addr}/api/chess/rules?section=x"),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
}

#[tokio::test]
async fn the_users_own_copy_gives_the_passage_under_the_heading() {
    let (_dir, url) = temp_db();
    let mut copy = tempfile::NamedTempFile::new().unwrap();
    write!(
        copy,
        "THE DICE RACE\n\nContents\nTurn order\t2\n\n1. TURN ORDER\n\nThe seats play in turn;\nA begins.\n\n2. PLAYING A CARD\n\nA card moves its value.\n"
    )
    .unwrap();
    let (addr, report) = serve(&url, &[copy.path()]).await;
    assert_eq!(report.len(), 1);
    assert_eq!((report[0].found, report[0].sought), (2, 3), "{report:?}");
    assert_eq!(report[0].missing, ["draw"]);
    let (s, v) = rule(addr, "turn order").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["own_text"], true);
    let sec = &v["sections"][0];
    assert_eq!(
        sec["text"],
        "1. TURN ORDER\n\nThe seats play in turn;\nA begins."
    );
    assert_eq!(
        sec["source"].as_str(),
        copy.path().file_name().and_then(|n| n.to_str())
    );
    assert!(sec["summary"].is_string(), "our summary comes too: {v}");
    // A section not in the copy has only our summary.
    let (_, v) = rule(addr, "draw").await;
    assert!(v["sections"][0].get("text").is_none(), "{v}");
    assert!(v["sections"][0]["summary"].is_string());
}

#[tokio::test]
async fn a_copy_for_an_unknown_system_or_a_missing_file_stops_the_start() {
    let (_dir, url) = temp_db();
    let config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), url.clone())
        .host::<DiceRace>()
        .rules_text("chess", "/nonexistent");
    match BoundServer::bind(config).await {
        Err(ServeError::Config(m)) => {
            assert!(m.contains("chess") && m.contains("dice-race"), "{m}")
        }
        other => panic!("{:?}", other.err()),
    }
    let config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), url)
        .host::<DiceRace>()
        .rules_text("dice-race", "/nonexistent/rules.txt");
    match BoundServer::bind(config).await {
        Err(ServeError::Config(m)) => assert!(m.contains("/nonexistent/rules.txt"), "{m}"),
        other => panic!("{:?}", other.err()),
    }
}
