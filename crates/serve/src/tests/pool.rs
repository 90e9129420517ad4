//! The computer's queue: searches stopped, refused beyond the queue, and each address held to
//! its share.

use std::sync::Arc;

use othello::{Dimensions, Game, RuleSet, Setup};

use super::super::pool::{Pool, PoolError};

#[tokio::test]
async fn a_search_stops_when_asked_and_when_the_server_closes() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let pool = Arc::new(Pool::new(1, 4));
    let game = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let level = othello_engine::computer::Level::MAX;
    let stop = Arc::new(AtomicBool::new(false));
    let search = tokio::spawn({
        let (pool, game, stop) = (Arc::clone(&pool), game.clone(), Arc::clone(&stop));
        async move { pool.choose(game, level, stop).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    stop.store(true, Ordering::Relaxed);
    let stopped = search.await.unwrap();
    assert!(matches!(stopped, Err(PoolError::Cancelled)), "{stopped:?}");

    let search = tokio::spawn({
        let (pool, game) = (Arc::clone(&pool), game.clone());
        async move { pool.choose(game, level, Arc::default()).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    pool.close();
    let stopped = search.await.unwrap();
    assert!(matches!(stopped, Err(PoolError::Stopped)), "{stopped:?}");
    let after = pool.choose(game, level, Arc::default()).await;
    assert!(matches!(after, Err(PoolError::Stopped)), "{after:?}");
}

#[tokio::test]
async fn searches_beyond_the_queue_are_refused_and_a_request_gone_leaves_it() {
    let pool = Arc::new(Pool::new(1, 1));
    let game = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let level = othello_engine::computer::Level::MAX;
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let running = tokio::spawn({
        let (pool, game, stop) = (Arc::clone(&pool), game.clone(), Arc::clone(&stop));
        async move { pool.choose(game, level, stop).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let waiting = tokio::spawn({
        let (pool, game) = (Arc::clone(&pool), game.clone());
        async move { pool.choose(game, level, Arc::default()).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let refused = pool.choose(game.clone(), level, Arc::default()).await;
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
            small.clone(),
            othello_engine::computer::Level::MIN,
            Arc::default(),
        )
        .await
        .unwrap();
    assert!(small.is_legal(square));
}
