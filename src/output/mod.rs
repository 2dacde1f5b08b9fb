//! Output formats: atomic files, typed CSV, sealed JSON state, the verify files, run manifests and text for people.

pub mod atomic;
pub mod csv;
pub mod digests;
pub mod lock;
pub mod manifest;
pub mod panels;
pub mod plots;
pub mod records;
pub mod sealed;
pub mod run_report;
pub mod takeover;
pub mod text;
pub mod verify_files;
