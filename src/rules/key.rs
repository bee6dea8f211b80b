//! The hasher of repetition keys: fast and fixed. Searches compute a key at every node, and
//! SipHash (std's `DefaultHasher`) made that the largest cost of an invariant search. Keys only
//! need to tell positions apart, not to resist crafted collisions.

use std::hash::Hasher;

/// A multiply-rotate hasher (the FxHash construction, as in rustc), with no random seed, so a
/// position's key is the same in every run. It starts from a non-zero state so that runs of
/// zero bytes (empty squares) still move the hash.
#[derive(Clone, Copy, Debug)]
pub struct KeyHasher {
    hash: u64,
}

impl Default for KeyHasher {
    fn default() -> KeyHasher {
        KeyHasher { hash: SEED }
    }
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl KeyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.add(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(cells: &[u8]) -> u64 {
        let mut h = KeyHasher::default();
        for &c in cells {
            h.write_u8(c);
        }
        h.finish()
    }

    #[test]
    fn order_and_content_matter() {
        assert_eq!(key(&[1, 2, 3]), key(&[1, 2, 3]));
        assert_ne!(key(&[1, 2, 3]), key(&[3, 2, 1]));
        assert_ne!(key(&[0, 0, 1]), key(&[0, 1, 0]));
        assert_ne!(key(&[0; 64]), key(&[0; 65]));
    }
}
