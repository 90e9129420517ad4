//! The real files of ../shared/data/real: Edax's OBF problems, GGF games, WTHOR databases
//! converted to GGF and back.

use std::path::Path;

use othello::Square;
use othello_records::{self as record, Format, ReadOptions, wthor};

/// A real file of `shared/data/real/`, read.
fn real(name: &str) -> Vec<u8> {
    std::fs::read(crate::support::real_file(name)).unwrap()
}

#[test]
fn edax_obf_problem_file_reads_and_writes_back_byte_for_byte() {
    let original = real("fforum-1-19.obf");
    let records = record::read(&original, &ReadOptions::default()).unwrap();
    assert_eq!(records.len(), 19);
    let listed = records[0].metadata().listed.as_ref().unwrap();
    assert_eq!((listed.score, listed.moves.len()), (18, 8));
    assert_eq!(listed.best, [Square::new(7, 6)]);
    assert_eq!(record::write(&records, Format::Obf).unwrap(), original);
    crate::support::othello()
        .args(["convert", "--to", "obf"])
        .arg(crate::support::real_file("fforum-1-19.obf"))
        .assert()
        .success()
        .stdout(original);
}

#[test]
fn an_obf_error_points_at_the_token() {
    let text = String::from_utf8(real("fforum-1-19.obf")).unwrap();
    let second = text.lines().nth(1).unwrap();
    let bad = text.replacen(second, &second.replace("A3:-6;", "A3:-6x;"), 1);
    crate::support::othello()
        .args(["convert", "--to", "obf", "-"])
        .write_stdin(bad)
        .assert()
        .code(2)
        .stderr(
            "othello: standard input: line 2, column 84: expected a move and its score such as \
             A2:+38, found \"A3:-6x\"\n",
        );
}

/// The real GGF files, their number of games and the board types they hold (in order, a type
/// repeated by the next game listed once).
const REAL_GGF: [(&str, usize, &[&str]); 7] = [
    ("ntest-TestGames.ggf", 12, &["8"]),
    ("nboard-test.ggf", 1, &["8"]),
    ("nboard-test2.ggf", 3, &["4", "8kr20", "8"]),
    ("novello-komi-8k.ggf", 1, &["8k"]),
    ("novello-saio-pass.ggf", 1, &["8"]),
    ("novello-white-starts-s8r19.ggf", 1, &["s8r19"]),
    ("welty-othello-synchro-match.ggf", 2, &["s8r18"]),
];

#[test]
fn every_real_ggf_game_reads_and_writes_back_what_it_holds() {
    for (name, games, types) in REAL_GGF {
        let records = record::read(&real(name), &ReadOptions::default()).unwrap();
        assert_eq!(records.len(), games, "{name}");
        let written = String::from_utf8(record::write(&records, Format::Ggf).unwrap()).unwrap();
        for (record, line) in records.iter().zip(written.lines()) {
            let kept: Vec<&(String, String)> = record.metadata().properties.iter().collect();
            for (property, value) in kept {
                assert!(
                    line.contains(&format!("{property}[{value}]")),
                    "{name}: {line}"
                );
            }
        }
        let mut board_types: Vec<&str> = written
            .lines()
            .map(|line| line.split("TY[").nth(1).unwrap().split(']').next().unwrap())
            .collect();
        board_types.dedup();
        assert_eq!(board_types, types, "{name}");
        // Read again, the same games with the same properties.
        assert_eq!(
            record::read(written.as_bytes(), &ReadOptions::default()).unwrap(),
            records,
            "{name}"
        );
    }
    // A komi game keeps its bids and komi.
    let komi = String::from_utf8(
        record::write(
            &record::read(&real("novello-komi-8k.ggf"), &ReadOptions::default()).unwrap(),
            Format::Ggf,
        )
        .unwrap(),
    )
    .unwrap();
    assert!(
        komi.contains("TY[8k]KB[e6//0.90]KW[f5/-1.00]KM[-0.500]"),
        "{komi}"
    );
}

#[test]
fn an_unreadable_game_is_skipped_with_a_warning_naming_it() {
    use predicates::prelude::*;

    let mut text = real("nboard-test2.ggf");
    text.extend_from_slice(b"(;GM[Othello]TY[88]B[f5];)\n");
    text.extend_from_slice(&real("novello-komi-8k.ggf"));
    let output = crate::support::othello()
        .args(["convert", "--to", "ggf", "-"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 4);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("othello: standard input: game 4 of 5 skipped: line 4, column 17: expected a square board type: the octagon, TY[88], is not played here"),
        "{stderr}"
    );
    // --game names it: refused; the games after it are there.
    crate::support::othello()
        .args(["convert", "--to", "movelist", "--game", "4", "-"])
        .write_stdin(text.clone())
        .assert()
        .code(2);
    crate::support::othello()
        .args(["convert", "--to", "ggf", "--game", "5", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicates::str::contains("PB[ming1014]").and(predicates::str::contains("TY[8k]")));
}

/// Standard output of `othello convert ARGS` with `input` on standard input, which must succeed.
pub(super) fn converted(args: &[&str], input: Vec<u8>) -> Vec<u8> {
    crate::support::othello()
        .timeout(std::time::Duration::from_secs(600))
        .arg("convert")
        .args(args)
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// Converts the WTHOR file `name` (its names files beside it) to GGF and back to WTHOR, and
/// checks that nothing is lost: the same bytes, the names in the GGF.
fn wthor_round_trip(name: &str) {
    let path = crate::support::real_file(&format!("wthor/{name}"));
    let original = std::fs::read(&path).unwrap();
    let ggf = converted(&["--to", "ggf", path.to_str().unwrap()], Vec::new());
    let records = record::read(&original, &ReadOptions::default()).unwrap();
    let text = String::from_utf8(ggf.clone()).unwrap();
    assert_eq!(text.lines().count(), records.len(), "{name}");
    for (record, line) in records.iter().zip(text.lines()) {
        let info = record.metadata().wthor.unwrap();
        assert!(
            line.contains(&format!("C[{}]", wthor::comment(&info))),
            "{name}: {line}"
        );
        let margin = 2 * i32::from(info.black_discs) - 64;
        assert!(
            line.contains(&format!("RE[{margin:+}.000]")),
            "{name}: {line}"
        );
        if name.starts_with("WTH_") {
            assert!(
                line.contains("PB[") && line.contains("PW[") && line.contains("PC["),
                "{name}: {line}"
            );
        }
    }
    let back = converted(&["--to", "wthor", "-"], ggf);
    assert!(
        back == original,
        "{name}: the WTHOR file written back differs"
    );
}

#[test]
fn wthor_to_ggf_and_back_keeps_every_field_of_a_few_years() {
    for name in [
        "WTH_1977.wtb",
        "WTH_1978.wtb",
        "WTH_1979.wtb",
        "WTH_1980.wtb",
    ] {
        wthor_round_trip(name);
    }
    // The names come from WTHOR.JOU and WTHOR.TRN beside the file.
    let ggf = crate::support::othello()
        .args(["convert", "--to", "ggf", "--game", "1"])
        .arg(crate::support::real_file("wthor/WTH_1977.wtb"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ggf = String::from_utf8(ggf).unwrap();
    assert!(
        ggf.starts_with("(;GM[Othello]PC[World Championship]DT[1977]PB[Inoue Hiroshi]PW[Heiberg Thomas]RE[+4.000]C[WTHOR tournament:1 black:346 white:843 score:34 theoretical:41 depth:24 year:1977 created:20.7.5.22 size:8 solitaire:0 reserved:0]TY[8]"),
        "{ggf}"
    );
}

/// Every WTHOR file of `shared/data/real/wthor/` (170,000 games): run by `.ci/run`.
#[test]
#[ignore = "slow (170,000 games): .ci/run runs it (-- --ignored every_wthor_game)"]
fn every_wthor_game_converts_to_ggf_and_back() {
    let dir = crate::support::real_file("wthor");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            Path::new(name)
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"))
        })
        .collect();
    names.sort();
    assert!(names.len() >= 45, "{names:?}");
    for name in names {
        wthor_round_trip(&name);
    }
}

#[test]
fn a_wthor_file_written_without_scores_read_keeps_the_real_score() {
    // A GGF game without WTHOR numbers: its real score comes from RE, the theoretical one is
    // the same (depth 0), and the year from its date.
    let ggf = real("novello-saio-pass.ggf");
    let output = converted(&["--to", "wthor", "-"], ggf);
    let (header, count) = wthor::read_header(&output).unwrap();
    assert_eq!(
        (count, header.games_year, header.depth, header.board_size),
        (1, 2003, 0, 8)
    );
    assert_eq!((output[16 + 6], output[16 + 7]), (32, 32));
}
