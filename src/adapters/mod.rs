//! Chat adapters: they translate between a platform and the service, and
//! do nothing else (no SQL, no chess rules).

pub mod console;
pub mod discord;
#[cfg(feature = "matrix")]
pub mod matrix;
