//! "Did you mean ...?": the known names closest to a name that is not known.
//!
//! Closeness is the Damerau-Levenshtein (optimal string alignment) distance, so a swapped pair
//! of letters (`lgeal`) counts as one edit. A name is suggested when it is within a third of
//! the longer word's length (at least one edit), when one name starts with the other, when both
//! share a stem of four letters or more and differ only after it (`castle`, `castling`), or
//! when a short word is two edits away after its first two letters (`spie`, `spy`). Callers
//! offer the names of the variant at hand only, never another variant's.

/// Edit distance between two strings, counted in characters; adjacent swaps cost one.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rolling rows: the one before the previous is needed for swaps.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The known names close enough to `unknown` to be what was meant, closest first (ties in the
/// order given), at most three.
pub fn closest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    // Very long input (a pasted line, a binary blob) is no name: comparing it costs time and
    // suggests nothing useful.
    if unknown.len() > 64 {
        return Vec::new();
    }
    let mut scored: Vec<(usize, usize, &str)> = known
        .into_iter()
        .enumerate()
        .filter_map(|(i, k)| {
            let d = distance(unknown, k);
            let longer = unknown.chars().count().max(k.chars().count());
            let near = d <= (longer / 3).max(1);
            let prefix = unknown.len() >= 3 && (k.starts_with(unknown) || unknown.starts_with(k));
            // The same stem, another ending (`castle`, `castling`), or a short word misspelt
            // after a correct start (`spie`, `spy`).
            let shared = unknown
                .chars()
                .zip(k.chars())
                .take_while(|(a, b)| a == b)
                .count();
            let shorter = unknown.chars().count().min(k.chars().count());
            let stem = shared >= 4 && shared + 2 >= shorter;
            let start = d <= 2 && shared >= 2 && longer >= 4;
            (d > 0 && (near || prefix || stem || start)).then_some((d, i, k))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored.into_iter().take(3).map(|(_, _, k)| k).collect()
}

/// ` Did you mean `a` or `b`?`, or nothing when no name is close.
pub fn did_you_mean<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = closest(unknown, known)
        .into_iter()
        .map(|k| format!("`{k}`"))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => format!("; did you mean {}?", names[0]),
        n => format!(
            "; did you mean {} or {}?",
            names[..n - 1].join(", "),
            names[n - 1]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("legal", "legal"), 0);
        assert_eq!(distance("legl", "legal"), 1);
        assert_eq!(distance("lgeal", "legal"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn suggests_near_names_only() {
        let known = ["legal", "illegal", "moves", "check"];
        assert_eq!(closest("legl", known), vec!["legal"]);
        assert_eq!(closest("ilegal", known), vec!["legal", "illegal"]);
        assert!(closest("zzzzzz", known).is_empty());
        assert!(closest("legal", known).iter().all(|k| *k != "legal"));
        assert_eq!(
            did_you_mean("castlin", ["castling", "check"]),
            "; did you mean `castling`?"
        );
        assert_eq!(did_you_mean("qqq", ["castling"]), "");
        assert_eq!(
            closest("castle", ["castling", "en-passant"]),
            vec!["castling"]
        );
        assert_eq!(closest("spie", ["king", "spy", "pawn"]), vec!["spy"]);
        assert!(closest("pawn", ["king", "spy", "rook"]).is_empty());
    }

    #[test]
    fn long_input_suggests_nothing() {
        let long = "a".repeat(1000);
        assert!(closest(&long, ["a"]).is_empty());
    }
}
