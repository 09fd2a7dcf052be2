//! The challenge's law: token counting and rule checking for bot files.
