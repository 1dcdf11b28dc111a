//! Adapters: the chat platforms and the web pages. They translate between
//! a platform (or a browser) and the service, and do nothing else (no SQL,
//! no chess rules).

pub mod console;
pub mod discord;
#[cfg(feature = "matrix")]
pub mod matrix;
pub mod web;
