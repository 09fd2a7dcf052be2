//! The host framework every bot links against.
