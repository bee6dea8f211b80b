//! An independent enumerator of the Magic Pieces' paths, the oracle for the generator (being written).
