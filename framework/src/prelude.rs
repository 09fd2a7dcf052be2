//! Everything a bot file needs, imported with one line:
//!
//! ```
//! use framework::prelude::*;
//! ```

pub use crate::chess::*;
