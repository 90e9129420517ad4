//! All integration tests, in one test binary (faster to build and link than one per file).

mod reference;

mod engine;
mod engine_io;
mod play;
mod play_screen;
mod play_strength;
mod reference_self_check;

mod support;

mod golden;

mod cli;

mod rules;

mod properties;

mod analysis;
mod arena;
mod book;
mod records;

mod grader;
mod grader_class;
mod grader_hostile;
mod grader_not_root;
mod grader_reports;
mod hardening;
mod match_contained;
mod perft;
mod serve_browser;
mod serve_export;
mod serve_stdout;
mod serve_store;
#[cfg(unix)]
mod shards;
mod solve;
mod train;
