//! Output formats: atomic files, typed CSV, the verify files and run manifests.

pub mod atomic;
pub mod csv;
pub mod lock;
pub mod manifest;
pub mod panels;
pub mod plots;
pub mod records;
pub mod run_report;
pub mod verify_files;
