//! A bounded loopback load test: N concurrent games × M actions each over HTTP against a
//! server started in this process on 127.0.0.1 (temp-dir SQLite unless `--database` is
//! given), then the same number of requests against the trivial echo endpoint, for a ratio.
//!
//! ```text
//! cargo run --release -p acies-server --example loadtest -- --games 20 --actions 50
//! ```
//!
//! Options: `--games N` (1..=500, default 20), `--actions M` (1..=1000, default 50),
//! `--seconds S` (time bound per phase, default 60), `--database URL`, `--durability
//! process|disk` (an SQLite file's, see `acies_server::Durability`; default `process`).
//! Traffic goes to 127.0.0.1 only, and both phases stop at their count or their time bound.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use acies_server::testing::DiceRace;

/// The allocator of the `acies` binary (`src/main.rs`), so the server measured here allocates
/// as `acies serve` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use acies_server::{BoundServer, Durability, ServeConfig};
use serde_json::{Value, json};

struct Options {
    games: usize,
    actions: usize,
    seconds: u64,
    database: Option<String>,
    durability: Durability,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        games: 20,
        actions: 50,
        seconds: 60,
        database: None,
        durability: Durability::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--games" => options.games = number()?.clamp(1, 500) as usize,
            "--actions" => options.actions = number()?.clamp(1, 1000) as usize,
            "--seconds" => options.seconds = number()?.clamp(1, 600),
            "--database" => options.database = Some(value),
            "--durability" => options.durability = value.parse()?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

/// Latencies and counts of one phase.
struct Phase {
    ok: usize,
    failed: usize,
    wall: Duration,
    latencies: Vec<Duration>,
}

impl Phase {
    fn per_second(&self) -> f64 {
        self.ok as f64 / self.wall.as_secs_f64()
    }

    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
        sorted[i]
    }

    fn report(&self, name: &str) {
        println!(
            "{name:<8} {:>6} ok {:>4} failed in {:>7.2} s: {:>8.0} /s, p50 {:>7.2} ms, p99 {:>7.2} ms",
            self.ok,
            self.failed,
            self.wall.as_secs_f64(),
            self.per_second(),
            self.percentile(0.50).as_secs_f64() * 1e3,
            self.percentile(0.99).as_secs_f64() * 1e3,
        );
    }
}

/// Runs `tasks` concurrent loops of `count` requests made by `request(task, i)`, each
/// returning whether it was acknowledged; stops at the deadline.
async fn run_phase<F, Fut>(tasks: usize, count: usize, deadline: Duration, request: F) -> Phase
where
    F: Fn(usize, usize) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let start = Instant::now();
    let mut handles = Vec::new();
    for task in 0..tasks {
        let request = request.clone();
        handles.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(count);
            let mut failed = 0;
            for i in 0..count {
                if start.elapsed() > deadline {
                    break;
                }
                let t = Instant::now();
                if request(task, i).await {
                    latencies.push(t.elapsed());
                } else {
                    failed += 1;
                    // A game that refused an action cannot go on in step.
                    break;
                }
            }
            (latencies, failed)
        }));
    }
    let mut phase = Phase {
        ok: 0,
        failed: 0,
        wall: Duration::ZERO,
        latencies: Vec::new(),
    };
    for h in handles {
        if let Ok((latencies, failed)) = h.await {
            phase.ok += latencies.len();
            phase.failed += failed;
            phase.latencies.extend(latencies);
        }
    }
    phase.wall = start.elapsed();
    phase
}

/// CPU time used so far by this process's threads, in clock ticks, by thread name (Linux's
/// `/proc/self/task/*/stat`; empty elsewhere): `server` (its runtime), `acies-writer` (the
/// SQLite batch writer's thread), `sqlx-sqlite-wor…` (the SQLite connections' threads),
/// `client`, and the rest.
fn cpu_ticks() -> std::collections::BTreeMap<String, u64> {
    let mut by_name = std::collections::BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return by_name;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ...`: utime and stime are the 12th and 13th fields after comm.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = stat[open + 1..close].to_owned();
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let ticks: u64 = [11, 12]
            .iter()
            .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
            .sum();
        *by_name.entry(name).or_insert(0) += ticks;
    }
    by_name
}

/// The CPU each thread name used between `before` and `after`, in µs per request.
fn cpu_report(
    name: &str,
    before: &std::collections::BTreeMap<String, u64>,
    after: &std::collections::BTreeMap<String, u64>,
    requests: usize,
) {
    // Clock ticks are 10 ms on Linux (USER_HZ 100).
    let per_request = |ticks: u64| ticks as f64 * 10_000.0 / requests.max(1) as f64;
    let mut parts = Vec::new();
    let mut total = 0;
    for (thread, &ticks) in after {
        let used = ticks.saturating_sub(before.get(thread).copied().unwrap_or(0));
        total += used;
        if used > 0 {
            parts.push(format!("{thread} {:.0}", per_request(used)));
        }
    }
    if total > 0 {
        println!(
            "{name:<8} CPU µs per request: {:.0} ({})",
            per_request(total),
            parts.join(", ")
        );
    }
}

fn start_server(
    database: String,
    durability: Durability,
) -> Result<(tokio::runtime::Runtime, SocketAddr), String> {
    // The server gets its own runtime, as if it were another process on the same two cores.
    // Named threads, so that a profile tells the server's time from the client's
    // (`perf report --sort comm`).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("server")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let addr = runtime.block_on(async {
        let loopback: SocketAddr = ([127, 0, 0, 1], 0).into();
        let mut config = ServeConfig::new(loopback, database).host::<DiceRace>();
        config.durability = durability;
        // Every client of the load test is one address: no pacing, no per-address cap.
        config.limits.games_per_minute = 0;
        config.limits.max_connections_per_ip = config.limits.max_connections;
        let bound = BoundServer::bind(config).await.map_err(|e| e.to_string())?;
        let addr = bound.local_addr().map_err(|e| e.to_string())?;
        tokio::spawn(bound.run(std::future::pending()));
        Ok::<_, String>(addr)
    })?;
    Ok((runtime, addr))
}

fn main() -> Result<(), String> {
    let options = parse_options()?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let database = options
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("load.db").display()));
    let (server_runtime, addr) = start_server(database.clone(), options.durability)?;
    let client_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("client")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let backend = database.split(':').next().unwrap_or("?").to_owned();
    println!(
        "loopback load test: {} games x {} actions, server on {addr} ({backend}, durability {:?}), bound {} s per phase",
        options.games, options.actions, options.durability, options.seconds
    );
    client_runtime.block_on(async move {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(options.games)
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| e.to_string())?;
        let base = format!("http://{addr}/api");

        // Create the games (not timed).
        let mut games = Vec::new();
        for _ in 0..options.games {
            let body = json!({ "setup": { "target": 1000, "max_turns": options.actions + 10 } });
            let created: Value = client
                .post(format!("{base}/games"))
                .json(&body)
                .send()
                .await
                .map_err(|e| e.to_string())?
                .json()
                .await
                .map_err(|e| e.to_string())?;
            let id = created["game_id"].as_str().ok_or("no game id")?.to_owned();
            let token = |i: usize| created["seats"][i]["token"].as_str().unwrap_or_default().to_owned();
            games.push((id, token(0), token(1)));
        }
        let games = std::sync::Arc::new(games);
        let deadline = Duration::from_secs(options.seconds);

        let game_client = client.clone();
        let game_base = base.clone();
        let before_play = cpu_ticks();
        let play = run_phase(options.games, options.actions, deadline, move |task, i| {
            let (client, base, games) = (game_client.clone(), game_base.clone(), games.clone());
            async move {
                let (id, a, b) = &games[task];
                let token = if i % 2 == 0 { a } else { b };
                let body = json!({ "token": token, "version": i, "action": { "type": "roll" } });
                match client.post(format!("{base}/games/{id}/actions")).json(&body).send().await {
                    Ok(resp) => resp.status().is_success() && resp.bytes().await.is_ok(),
                    Err(_) => false,
                }
            }
        })
        .await;

        let after_play = cpu_ticks();

        let echo_client = client.clone();
        let echo_base = base.clone();
        let echo = run_phase(options.games, options.actions, deadline, move |_, i| {
            let (client, base) = (echo_client.clone(), echo_base.clone());
            async move {
                let body = json!({ "token": "0123456789abcdef0123456789abcdef", "version": i, "action": { "type": "roll" } });
                match client.post(format!("{base}/echo")).json(&body).send().await {
                    Ok(resp) => resp.status().is_success() && resp.bytes().await.is_ok(),
                    Err(_) => false,
                }
            }
        })
        .await;

        let after_echo = cpu_ticks();

        play.report("actions");
        echo.report("echo");
        cpu_report("actions", &before_play, &after_play, play.ok);
        cpu_report("echo", &after_play, &after_echo, echo.ok);
        println!(
            "echo/actions: throughput x{:.1}, p99 latency x{:.2}",
            echo.per_second() / play.per_second().max(f64::MIN_POSITIVE),
            play.percentile(0.99).as_secs_f64() / echo.percentile(0.99).as_secs_f64().max(f64::MIN_POSITIVE),
        );
        Ok::<_, String>(())
    })?;
    server_runtime.shutdown_background();
    drop(dir);
    Ok(())
}
