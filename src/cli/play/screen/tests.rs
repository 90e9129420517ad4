//! Snapshots of the screen and events, without a terminal.
