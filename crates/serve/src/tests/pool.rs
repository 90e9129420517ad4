//! The computer's queue: searches stopped, refused beyond the queue, and each address held to
//! its share.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use othello::{Dimensions, Game, RuleSet, Setup};

use othello_engine::computer::Level;

use super::super::pool::{Pool, PoolError};

/// The client address of the tests that need one.
const HOME: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

#[tokio::test]
async fn a_search_stops_when_asked_and_when_the_server_closes() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let pool = Arc::new(Pool::new(1, 4, 4));
    let game = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let level = othello_engine::computer::Level::MAX;
    let stop = Arc::new(AtomicBool::new(false));
    let search = tokio::spawn({
        let (pool, game, stop) = (Arc::clone(&pool), game.clone(), Arc::clone(&stop));
        async move { pool.choose(HOME, game, level, stop).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    stop.store(true, Ordering::Relaxed);
    let stopped = search.await.unwrap();
    assert!(matches!(stopped, Err(PoolError::Cancelled)), "{stopped:?}");

    let search = tokio::spawn({
        let (pool, game) = (Arc::clone(&pool), game.clone());
        async move { pool.choose(HOME, game, level, Arc::default()).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    pool.close();
    let stopped = search.await.unwrap();
    assert!(matches!(stopped, Err(PoolError::Stopped)), "{stopped:?}");
    let after = pool.choose(HOME, game, level, Arc::default()).await;
    assert!(matches!(after, Err(PoolError::Stopped)), "{after:?}");
}

#[tokio::test]
async fn searches_beyond_the_queue_are_refused_and_a_request_gone_leaves_it() {
    let pool = Arc::new(Pool::new(1, 1, 4));
    let game = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let level = othello_engine::computer::Level::MAX;
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let running = tokio::spawn({
        let (pool, game, stop) = (Arc::clone(&pool), game.clone(), Arc::clone(&stop));
        async move { pool.choose(HOME, game, level, stop).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let waiting = tokio::spawn({
        let (pool, game) = (Arc::clone(&pool), game.clone());
        async move { pool.choose(HOME, game, level, Arc::default()).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let refused = pool.choose(HOME, game.clone(), level, Arc::default()).await;
    assert!(matches!(refused, Err(PoolError::Busy)), "{refused:?}");
    // The waiting request goes away: its place in the queue is free again.
    waiting.abort();
    let _ = waiting.await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = running.await;
    let small = Game::new(
        Setup::standard(Dimensions::new(4, 4).unwrap()),
        RuleSet::Full,
    );
    let square = pool
        .choose(
            HOME,
            small.clone(),
            othello_engine::computer::Level::MIN,
            Arc::default(),
        )
        .await
        .unwrap();
    assert!(small.is_legal(square));
}

#[tokio::test]
async fn one_address_gets_its_share_of_the_queue_and_others_are_served_in_turn() {
    let pool = Arc::new(Pool::new(1, 256, 3));
    let big = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let greedy = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    let other = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
    // The greedy address: one search running, three waiting (its share), each as long as the
    // engine's longest until stopped.
    let mut stops = Vec::new();
    let mut searches = Vec::new();
    for _ in 0..4 {
        let stop = Arc::new(AtomicBool::new(false));
        stops.push(Arc::clone(&stop));
        searches.push(tokio::spawn({
            let (pool, game) = (Arc::clone(&pool), big.clone());
            async move { pool.choose(greedy, game, Level::MAX, stop).await }
        }));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Over its share: the greedy address alone is refused.
    let refused = pool
        .choose(greedy, big.clone(), Level::MAX, Arc::default())
        .await;
    assert!(
        matches!(refused, Err(PoolError::AddressBusy)),
        "{refused:?}"
    );
    let small = Game::new(
        Setup::standard(Dimensions::new(4, 4).unwrap()),
        RuleSet::Full,
    );
    let served = tokio::spawn({
        let (pool, game) = (Arc::clone(&pool), small.clone());
        async move { pool.hint(other, game).await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    // The running search ends: the other address's turn comes next, before the greedy
    // address's searches still waiting (in order of arrival it would wait for all three).
    stops[0].store(true, Ordering::Relaxed);
    let hint = tokio::time::timeout(Duration::from_secs(5), served)
        .await
        .expect("the other address is served in its turn")
        .unwrap()
        .unwrap();
    assert!(small.is_legal(hint.best_move));
    assert!(searches[2..].iter().all(|search| !search.is_finished()));
    for stop in &stops {
        stop.store(true, Ordering::Relaxed);
    }
    for search in searches {
        let _ = search.await;
    }
}

#[test]
fn a_client_over_its_share_is_told_when_to_ask_again() {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    for error in [PoolError::AddressBusy, PoolError::Busy] {
        let response = super::super::api::ApiError::from(error).into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "5");
    }
}
