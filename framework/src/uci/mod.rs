//! The UCI side of the kit: the host that turns a [`Bot`](crate::bot::Bot) into
//! an engine process, and the parsing of the commands it receives.
//!
//! A bot engine is an ordinary executable speaking the Universal Chess
//! Interface on stdin/stdout. [`run`] is its whole `main`.

mod command;
mod host;
mod input;
mod memory;
mod options;
mod output;
mod sandbox;

pub use command::{Command, GoParams, ParseCommandError, PositionParams, SetOption};
pub use host::{
    CONSTRUCTION_LIMIT, QUIT_GRACE, STOP_GRACE, engine_name, run, run_with_memory_limit,
};
pub use input::MAX_COMMAND_BYTES;
pub use memory::{LimitedAllocator, MEMORY_LIMIT_BYTES, MEMORY_LIMIT_EXIT_CODE};
pub use options::{
    BotOption, CLEAR_HASH, MAX_BOT_OPTIONS, MAX_OPTION_NAME_CHARS, OptionAction, Options, SEED,
};
pub use output::MAX_NAME_CHARS;
pub use output::report;
pub use sandbox::NO_SANDBOX_ENV;
