//! The chess core.
