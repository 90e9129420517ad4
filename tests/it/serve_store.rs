//! `othello serve`'s games on disk, through the real binary: a burst of moves from several
//! clients cut by `kill -9`, and a disk that fills (a 256 KiB tmpfs, where the tests may mount
//! one), each followed by a restart in which every acknowledged move is there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// `othello serve` on a free loopback port, killed (SIGKILL) when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(data: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("othello serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let addr = lines
            .find_map(|line| {
                let line = line.ok()?;
                let rest = line.strip_prefix("Open http://")?;
                Some(rest.split('/').next()?.to_owned())
            })
            .expect("othello serve prints its address");
        // Keep reading what it prints, so that it never blocks on a full pipe.
        thread::spawn(move || lines.for_each(drop));
        Server { child, addr }
    }

    /// `kill -9`.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request on a connection of its own: the status and the JSON answer, or `None` when the
/// server cannot be reached or the answer was cut off.
fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let answer = String::from_utf8(answer).ok()?;
    let (head, body) = answer.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(body).ok()?))
}

fn game(addr: &str, id: &str) -> Value {
    let (status, game) = request(addr, "GET", &format!("/api/games/{id}"), None).unwrap();
    assert_eq!(status, 200, "{game}");
    game
}

fn first_legal(game: &Value) -> Value {
    game["legal"][0].clone()
}

#[test]
fn serve_kill_9_during_a_burst_of_moves_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data);
    let ids: Vec<String> = (0..4)
        .map(|_| {
            let (status, game) = request(
                &server.addr,
                "POST",
                "/api/games",
                Some(&json!({"size": 16})),
            )
            .unwrap();
            assert_eq!(status, 201, "{game}");
            game["id"].as_str().unwrap().to_owned()
        })
        .collect();
    // The moves each game's client was told are played.
    let acknowledged = Arc::new(Mutex::new(vec![0_u64; ids.len()]));
    let mut server = Some(server);
    for round in 0..3 {
        let running = server.take().unwrap_or_else(|| Server::start(&data));
        {
            let acknowledged = acknowledged.lock().unwrap();
            for (index, id) in ids.iter().enumerate() {
                let moves = game(&running.addr, id)["moves"].as_u64().unwrap();
                // A move saved but not yet answered when the server died may be there too.
                assert!(
                    moves == acknowledged[index] || moves == acknowledged[index] + 1,
                    "round {round}, game {index}: {moves} moves, {} acknowledged",
                    acknowledged[index]
                );
            }
        }
        let players: Vec<_> = ids
            .iter()
            .enumerate()
            .map(|(index, id)| {
                let (addr, id, acknowledged) =
                    (running.addr.clone(), id.clone(), Arc::clone(&acknowledged));
                thread::spawn(move || {
                    let mut view = game(&addr, &id);
                    acknowledged.lock().unwrap()[index] = view["moves"].as_u64().unwrap();
                    while view["over"] == false {
                        let body = json!({ "square": first_legal(&view) });
                        match request(&addr, "POST", &format!("/api/games/{id}/play"), Some(&body))
                        {
                            Some((200, next)) => {
                                acknowledged.lock().unwrap()[index] =
                                    next["moves"].as_u64().unwrap();
                                view = next;
                            }
                            Some((429, _)) => thread::sleep(Duration::from_millis(50)),
                            Some((status, answer)) => panic!("{status}: {answer}"),
                            None => return,
                        }
                    }
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(800));
        running.kill();
        for player in players {
            player.join().unwrap();
        }
    }
    let running = Server::start(&data);
    let acknowledged = acknowledged.lock().unwrap();
    assert!(acknowledged.iter().sum::<u64>() > 20, "{acknowledged:?}");
    for (index, id) in ids.iter().enumerate() {
        let moves = game(&running.addr, id)["moves"].as_u64().unwrap();
        assert!(moves == acknowledged[index] || moves == acknowledged[index] + 1);
    }
}

/// A tmpfs mounted for the test, unmounted when dropped.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(path: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(path).ok()?;
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(path)
            .stderr(Stdio::null())
            .status()
            .ok()?
            .success();
        mounted.then(|| Tmpfs(path.to_owned()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn serve_a_full_disk_changes_no_game_and_the_games_read_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = Tmpfs::mount(&dir.path().join("disk"), "256k") else {
        eprintln!(
            "skipped: cannot mount a tmpfs here (not root); the store's own tests fill a database instead"
        );
        return;
    };
    let data = disk.0.join("data");
    let server = Server::start(&data);
    let addr = server.addr.clone();
    let (status, created) = request(&addr, "POST", "/api/games", Some(&json!({}))).unwrap();
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}/play");
    let mut view = created;
    let mut played = 0;
    let play = |view: &mut Value| {
        let body = json!({ "square": first_legal(view) });
        let (status, answer) = request(&addr, "POST", &path, Some(&body)).unwrap();
        if status == 200 {
            *view = answer;
        } else {
            assert_eq!(status, 507, "{answer}");
            assert!(
                answer["error"]
                    .as_str()
                    .unwrap()
                    .contains("storage is full")
            );
        }
        status
    };
    for _ in 0..6 {
        assert_eq!(play(&mut view), 200);
        played += 1;
    }
    // Fill the disk.
    let filler = disk.0.join("filler");
    let mut file = std::fs::File::create(&filler).unwrap();
    let chunk = vec![0_u8; 4096];
    while file
        .write_all(&chunk)
        .and_then(|()| file.sync_all())
        .is_ok()
    {}
    drop(file);
    let mut refused = 0;
    for _ in 0..25 {
        if play(&mut view) == 200 {
            played += 1;
        } else {
            refused += 1;
        }
        // The game as it is answered is the game of the moves acknowledged.
        assert_eq!(game(&addr, &id)["moves"], played);
    }
    eprintln!(
        "with the disk full: {refused} moves refused, {} played",
        25 - refused
    );
    assert!(refused > 0, "the full disk refused moves");
    std::fs::remove_file(&filler).unwrap();
    for _ in 0..3 {
        assert_eq!(play(&mut view), 200);
        played += 1;
    }
    server.kill();
    let server = Server::start(&data);
    let start = Instant::now();
    let read = game(&server.addr, &id);
    assert_eq!(read["moves"], played);
    assert_eq!(read["board"], view["board"]);
    assert!(start.elapsed() < Duration::from_secs(10));
}
