//! A bounded load test of `othello serve` on loopback: 200 simulated players each play a whole
//! two-player game at once, first at a player's pace (a pause of 0.2 to 1 s before each move,
//! for the latency a player sees), then as fast as the answers come (for the most requests a
//! second, where each move waits behind the other players'); then 50 play against the computer
//! at level 1.
//!
//! `cargo bench --bench serve_load` starts the server (the bench build of the binary) on a free
//! port with a fresh games directory, and prints the latency of a played move (p50, p99), the
//! requests per second, the errors and the server's peak memory (`VmHWM`). Each player is a
//! client with its own loopback address (127.1.x.y), as players on their own phones are, so
//! that the per-client rate limit applies to each alone.

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

const PEOPLE: usize = 200;
const AGAINST_COMPUTER: usize = 50;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What the players of one phase saw.
#[derive(Default)]
struct Tally {
    /// Latency of each person's move.
    moves: Vec<Duration>,
    /// Latency of each computer move.
    computer: Vec<Duration>,
    requests: usize,
    errors: Vec<String>,
    games: usize,
}

type HttpClient = Client<HttpConnector, Full<Bytes>>;

fn client_at(address: IpAddr) -> HttpClient {
    let mut connector = HttpConnector::new();
    connector.set_local_address(Some(address));
    connector.set_nodelay(true);
    Client::builder(TokioExecutor::new()).build(connector)
}

async fn post(client: &HttpClient, url: &str, body: &Value) -> Result<Value, String> {
    let request = hyper::Request::post(url)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .map_err(|error| error.to_string())?;
    let response = client
        .request(request)
        .await
        .map_err(|error| error.to_string())?;
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|error| error.to_string())?
        .to_bytes();
    if !status.is_success() {
        return Err(format!("{status}: {}", String::from_utf8_lossy(&bytes)));
    }
    serde_json::from_slice(&bytes).map_err(|error| error.to_string())
}

/// One player's whole game: a person's move (a legal one, picked from the answer), and the
/// computer's reply when it plays white.
async fn one_game(base: String, player: usize, computer: bool, paced: bool) -> Tally {
    let address = IpAddr::V4(Ipv4Addr::new(
        127,
        1,
        (player / 250) as u8,
        (player % 250 + 1) as u8,
    ));
    let client = client_at(address);
    let mut tally = Tally::default();
    let settings = if computer {
        json!({"white": "computer:1"})
    } else {
        json!({})
    };
    tally.requests += 1;
    let mut game = match post(&client, &format!("{base}/api/games"), &settings).await {
        Ok(game) => game,
        Err(error) => {
            tally.errors.push(error);
            return tally;
        }
    };
    let id = game["id"].as_str().unwrap_or_default().to_owned();
    let mut pick = player;
    while game["over"] == json!(false) {
        let (path, body, computer_move) =
            if game["white"]["computer"].is_null() || game["turn"] == "black" {
                let legal = game["legal"].as_array().cloned().unwrap_or_default();
                pick = pick.wrapping_mul(31).wrapping_add(7);
                let square = legal[pick % legal.len()].clone();
                ("play", json!({ "square": square }), false)
            } else {
                ("computer", json!({}), true)
            };
        if paced && !computer_move {
            // 200 to 1,000 ms, the same for every run.
            pick = pick.wrapping_mul(31).wrapping_add(7);
            tokio::time::sleep(Duration::from_millis(200 + (pick % 801) as u64)).await;
        }
        let start = Instant::now();
        tally.requests += 1;
        match post(&client, &format!("{base}/api/games/{id}/{path}"), &body).await {
            Ok(next) => game = next,
            Err(error) => {
                tally.errors.push(error);
                return tally;
            }
        }
        let took = start.elapsed();
        if computer_move {
            tally.computer.push(took);
        } else {
            tally.moves.push(took);
        }
    }
    tally.games = 1;
    tally
}

async fn phase(base: &str, players: usize, computer: bool, paced: bool) -> (Tally, Duration) {
    let start = Instant::now();
    let tasks: Vec<_> = (0..players)
        .map(|player| tokio::spawn(one_game(base.to_owned(), player, computer, paced)))
        .collect();
    let mut all = Tally::default();
    for task in tasks {
        let tally = task.await.expect("a player finishes");
        all.moves.extend(tally.moves);
        all.computer.extend(tally.computer);
        all.requests += tally.requests;
        all.errors.extend(tally.errors);
        all.games += tally.games;
    }
    (all, start.elapsed())
}

fn percentile(sorted: &[Duration], per_cent: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() * per_cent / 100).min(sorted.len() - 1)]
}

fn peak_memory(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .map(|line| line["VmHWM:".len()..].trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

fn report(name: &str, tally: &mut Tally, took: Duration, pid: u32) {
    tally.moves.sort();
    tally.computer.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    println!(
        "{name}: {} games, {} requests in {:.2} s ({:.0} requests/s), {} errors",
        tally.games,
        tally.requests,
        took.as_secs_f64(),
        tally.requests as f64 / took.as_secs_f64(),
        tally.errors.len()
    );
    println!(
        "  a person's move: {} played, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        tally.moves.len(),
        ms(percentile(&tally.moves, 50)),
        ms(percentile(&tally.moves, 90)),
        ms(percentile(&tally.moves, 99)),
        ms(tally.moves.last().copied().unwrap_or_default())
    );
    if !tally.computer.is_empty() {
        println!(
            "  the computer's move: {} played, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            tally.computer.len(),
            ms(percentile(&tally.computer, 50)),
            ms(percentile(&tally.computer, 99)),
            ms(tally.computer.last().copied().unwrap_or_default())
        );
    }
    println!("  server peak memory (VmHWM): {}", peak_memory(pid));
    for error in tally.errors.iter().take(5) {
        println!("  error: {error}");
    }
}

fn main() {
    // `cargo bench` passes --bench; a filter that names another bench skips this one.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    if !args.is_empty() && !args.iter().any(|arg| "serve_load".contains(arg.as_str())) {
        return;
    }
    let games = std::env::temp_dir().join(format!("othello-serve-load-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["serve", "--addr", "127.0.0.1:0", "--games-dir"])
        .arg(&games)
        .stdout(Stdio::piped())
        .spawn()
        .expect("othello serve starts");
    let pid = child.id();
    let stdout = child.stdout.take().expect("piped");
    let server = Server(child);
    let base = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            line.strip_prefix("Open ")
                .and_then(|rest| rest.split_whitespace().next())
                .map(|url| url.trim_end_matches('/').to_owned())
        })
        .expect("the server prints its address");
    println!(
        "othello serve at {base} (pid {pid}), games in {}",
        games.display()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let base = Arc::new(base);
    runtime.block_on(async {
        let (mut paced, took) = phase(&base, PEOPLE, false, true).await;
        report(
            &format!("{PEOPLE} two-player games at once, at a player's pace"),
            &mut paced,
            took,
            pid,
        );
        let (mut people, took) = phase(&base, PEOPLE, false, false).await;
        report(
            &format!("{PEOPLE} two-player games at once, as fast as the answers come"),
            &mut people,
            took,
            pid,
        );
        let (mut computer, took) = phase(&base, AGAINST_COMPUTER, true, false).await;
        report(
            &format!("{AGAINST_COMPUTER} games against the computer (level 1) at once"),
            &mut computer,
            took,
            pid,
        );
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&games);
}
