//! Everything a bot file needs, imported with one line:
//!
//! ```
//! use framework::prelude::*;
//! ```

pub use crate::bot::Bot;
pub use crate::chess::*;
pub use crate::search::{SearchAborted, abort_search, catch_abort, try_search};
pub use crate::table::Table;
pub use crate::timer::{SearchLimits, Timer};
pub use crate::uci::report;
pub use crate::csharp::runtime as cs;
