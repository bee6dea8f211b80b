//! Unit tests of the ChessXpanse interpreter.

use super::*;
