//! The kit's end-to-end tests, in one binary: they drive `challenge` as a user would
//! (real engine processes, real servers started and stopped by the tests themselves).
//! One binary links the kit once, where a binary per file linked it two dozen times.
//! Run one file's tests with `cargo test --release --features full --test e2e FILE::`,
//! e.g. `cargo test --release --features full --test e2e sandbox::` (the tests drive
//! every command, so they need every feature: Cargo.toml's `required-features`).

// Helpers shared by several test files.
mod common;
mod common_challenge;
mod match_common;
mod postgres_server;
mod secrets_common;
mod serve_common;

mod analyze;
mod bench;
mod bot_construction;
mod bot_crate;
mod bot_engines;
mod bot_names;
mod build_bounds;
mod challenge_ratings;
mod challenge_report;
mod challenge_run;
mod challenge_submit;
mod claims;
mod clean;
mod cli_bad_input;
mod cli_rough_edges;
mod csharp_api;
mod csharp_pairs;
mod docs_names;
mod docs_search;
mod field;
mod install;
mod known_opponents;
mod match_cli;
mod match_faults;
mod match_limits;
mod match_stats;
mod neutral_start;
mod play_cli;
mod play_web;
mod postgres_access;
mod postgres_migrate;
mod postgres_organiser;
mod postgres_roles;
mod postgres_store;
mod postgres_workers;
mod sandbox;
mod secrets;
mod secrets_served;
mod serve_bounds;
mod serve_browser;
mod serve_groups;
mod serve_live;
mod serve_live_postgres;
mod serve_pages;
mod serve_postgres;
mod serve_security;
mod serve_stop;
mod serve_store;
mod store_migration;
mod suites;
mod sweep;
mod tokens_items;
mod tt_lab;
mod tune;
mod turochamp;
mod uci_client;
mod uci_options;
mod variants;
