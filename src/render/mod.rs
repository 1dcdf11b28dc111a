//! Pictures: pure CPU work, no I/O.
//!
//! A text diagram for the console; PNG tables (standings) and rating
//! charts drawn with plotters and the embedded DejaVu Sans font.

pub mod bitmap;
pub mod rating_chart;
pub mod table;
pub mod text;
