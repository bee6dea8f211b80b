//! The `arbiter` command line.
