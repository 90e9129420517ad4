//! Strength of the computer player: its strongest level against a random mover and against a
//! greedy mover (most flips), 200 games each on 8x8 with colours alternating.
//!
//! Slow in a debug build, so ignored by default; run it with
//! `cargo test --release --test it -- --ignored strength --nocapture`.
//! It prints the win rates and the time per move of the strongest level (docs/measurements.md
//! quotes them) and fails unless the computer wins essentially every game.

use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use othello::{Color, Dimensions, Game, RuleSet, Setup, Square};
use othello_engine::computer::{Computer, Level};

const GAMES: u64 = 200;

/// A simple opponent.
#[derive(Clone, Copy, Debug)]
enum Mover {
    /// Any legal move, uniformly at random.
    Random,
    /// A move that flips the most discs, ties broken at random.
    Greedy,
}

impl Mover {
    fn choose(self, game: &Game, rng: &mut ChaCha8Rng) -> Square {
        let moves = game.legal_moves();
        let candidates = match self {
            Mover::Random => moves,
            Mover::Greedy => {
                let flips = |&square: &Square| game.flips(square).map_or(0, |f| f.len());
                let most = moves.iter().map(flips).max().unwrap_or(0);
                moves.into_iter().filter(|s| flips(s) == most).collect()
            }
        };
        *candidates
            .choose(rng)
            .expect("the player to move has a move")
    }
}

/// Totals of a series of games.
#[derive(Default)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
    disc_margin: i64,
    move_times: Vec<Duration>,
}

/// Plays game `index` of a series: the computer takes black in even games, white in odd ones.
fn play_one(opponent: Mover, index: u64, tally: &mut Tally) {
    let computer_color = if index.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let mut computer = Computer::new(Level::MAX, index);
    let mut rng = ChaCha8Rng::seed_from_u64(1_000 + index);
    let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let stop = AtomicBool::new(false);
    while let Some(turn) = game.turn() {
        let square = if turn == computer_color {
            let started = Instant::now();
            let choice = computer.choose(&game, &stop).expect("the game is not over");
            tally.move_times.push(started.elapsed());
            choice.square
        } else {
            opponent.choose(&game, &mut rng)
        };
        game.play(square).expect("both players play legal moves");
    }
    let score = game.score();
    let margin = i64::from(score[computer_color]) - i64::from(score[computer_color.opponent()]);
    tally.disc_margin += margin;
    match game.outcome().and_then(othello::Outcome::winner) {
        Some(color) if color == computer_color => tally.wins += 1,
        Some(_) => tally.losses += 1,
        None => tally.draws += 1,
    }
}

/// Plays the series on two threads (the games are independent and seeded by their index).
fn series(opponent: Mover) -> Tally {
    let halves: Vec<Tally> = thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|half| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for index in (half..GAMES).step_by(2) {
                        play_one(opponent, index, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    halves.into_iter().fold(Tally::default(), |mut all, part| {
        all.wins += part.wins;
        all.draws += part.draws;
        all.losses += part.losses;
        all.disc_margin += part.disc_margin;
        all.move_times.extend(part.move_times);
        all
    })
}

#[test]
#[ignore = "200 + 200 games at the strongest level: run with --release -- --ignored"]
fn strength_of_the_strongest_level_against_random_and_greedy_movers() {
    for opponent in [Mover::Random, Mover::Greedy] {
        let started = Instant::now();
        let mut tally = series(opponent);
        tally.move_times.sort();
        let moves = tally.move_times.len();
        let median = tally.move_times[moves / 2];
        let slowest = tally.move_times[moves - 1];
        println!(
            "level {} vs {opponent:?}: {} games, {} won, {} drawn, {} lost ({:.1}% won), \
             mean margin {:+.1} discs; {moves} computer moves, median {median:?}, \
             slowest {slowest:?}; {:.0?} in all",
            Level::MAX,
            GAMES,
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.wins as f64 / GAMES as f64,
            tally.disc_margin as f64 / GAMES as f64,
            started.elapsed(),
        );
        assert!(
            tally.wins * 100 >= GAMES * 98,
            "the strongest level must win essentially every game against {opponent:?}"
        );
    }
}
