//! Maximum-cardinality matching in a general graph: Edmonds' blossom
//! algorithm, one augmenting path at a time.
//!
//! The Dutch pairing asks one question again and again: can these players
//! all be paired (one of them left for the bye)? That is whether their
//! graph of allowed games has a perfect matching. A search for an
//! augmenting path from one free vertex grows an alternating tree
//! breadth-first, shrinking each odd cycle (a blossom) into its base, and
//! takes O(V²) steps over an adjacency test; a maximum matching of V
//! vertices takes at most V of them. A matching can be grown vertex by
//! vertex: once it is maximum, a new vertex can only be matched by a path
//! that starts at it (Berge), so a matching of the players below a bracket
//! is computed once and each question adds only the few players it asks
//! about.
//!
//! ```
//! use pawnpost::competition::matching::Matching;
//!
//! // A triangle and a pendant vertex: 0-1, 1-2, 2-0, 2-3.
//! let edges = [(0, 1), (1, 2), (0, 2), (2, 3)];
//! let edge = |a: usize, b: usize| edges.contains(&(a.min(b), a.max(b)));
//! let vertices = [0, 1, 2, 3];
//! let mut matching = Matching::new(4);
//! for v in vertices {
//!     matching.augment(v, &vertices, edge);
//! }
//! assert_eq!(matching.size(), 2);
//! assert_eq!(matching.mate(3), Some(2));
//! ```

/// No vertex.
const NONE: usize = usize::MAX;

/// A matching over the vertices `0..n`, with the scratch space its
/// searches reuse.
#[derive(Clone, Debug)]
pub struct Matching {
    mate: Vec<usize>,
    /// Per search: the tree parent of a vertex reached by an unmatched edge.
    parent: Vec<usize>,
    /// Per search: the base of the blossom a vertex was shrunk into.
    base: Vec<usize>,
    /// Per search: the vertex is an outer vertex of the tree (queued once).
    outer: Vec<bool>,
    /// Per blossom: the bases on the cycle being shrunk.
    in_blossom: Vec<bool>,
    /// Per lowest common ancestor look-up: bases met on the way up.
    seen: Vec<bool>,
}

impl Matching {
    /// An empty matching over `0..n`.
    pub fn new(n: usize) -> Matching {
        Matching {
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            outer: vec![false; n],
            in_blossom: vec![false; n],
            seen: vec![false; n],
        }
    }

    /// Whom `v` is matched with.
    pub fn mate(&self, v: usize) -> Option<usize> {
        Some(self.mate[v]).filter(|&m| m != NONE)
    }

    /// Whether `v` is matched.
    pub fn is_matched(&self, v: usize) -> bool {
        self.mate[v] != NONE
    }

    /// The number of matched pairs.
    pub fn size(&self) -> usize {
        self.mate.iter().filter(|&&m| m != NONE).count() / 2
    }

    /// Matches `a` with `b`, both free.
    pub fn join(&mut self, a: usize, b: usize) {
        debug_assert!(self.mate[a] == NONE && self.mate[b] == NONE && a != b);
        self.mate[a] = b;
        self.mate[b] = a;
    }

    /// Frees `v` and its mate, if it has one.
    pub fn free(&mut self, v: usize) {
        let m = std::mem::replace(&mut self.mate[v], NONE);
        if m != NONE {
            self.mate[m] = NONE;
        }
    }

    /// Looks for an augmenting path from the free vertex `root` through
    /// `vertices` (the graph's vertices, `root` among them), `edge` saying
    /// which pairs are joined; flips it and returns true when there is one.
    /// When there is none, no later augmentation will ever match `root`.
    pub fn augment(
        &mut self,
        root: usize,
        vertices: &[usize],
        edge: impl Fn(usize, usize) -> bool,
    ) -> bool {
        if self.mate[root] != NONE {
            return false;
        }
        // A free neighbour: the one-edge path, without growing a tree.
        if let Some(&free) = vertices
            .iter()
            .find(|&&u| u != root && self.mate[u] == NONE && edge(root, u))
        {
            self.join(root, free);
            return true;
        }
        for &v in vertices {
            self.parent[v] = NONE;
            self.base[v] = v;
            self.outer[v] = false;
        }
        match self.grow(root, vertices, &edge) {
            Some(end) => {
                self.flip(end);
                true
            }
            None => false,
        }
    }

    /// Grows the alternating tree from `root` breadth-first; the free
    /// vertex it reaches, if any.
    fn grow(
        &mut self,
        root: usize,
        vertices: &[usize],
        edge: &impl Fn(usize, usize) -> bool,
    ) -> Option<usize> {
        let mut queue = std::collections::VecDeque::with_capacity(vertices.len());
        self.outer[root] = true;
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            for &u in vertices {
                if self.base[v] == self.base[u] || self.mate[v] == u || !edge(v, u) {
                    continue;
                }
                let u_outer =
                    u == root || (self.mate[u] != NONE && self.parent[self.mate[u]] != NONE);
                if u_outer {
                    // Two outer vertices joined: an odd cycle, shrunk into its base.
                    let base = self.common_base(v, u, vertices);
                    for &w in vertices {
                        self.in_blossom[w] = false;
                    }
                    self.mark_cycle(v, base, u);
                    self.mark_cycle(u, base, v);
                    for &w in vertices {
                        if self.in_blossom[self.base[w]] {
                            self.base[w] = base;
                            if !self.outer[w] {
                                self.outer[w] = true;
                                queue.push_back(w);
                            }
                        }
                    }
                } else if self.parent[u] == NONE {
                    self.parent[u] = v;
                    let next = self.mate[u];
                    if next == NONE {
                        return Some(u);
                    }
                    self.outer[next] = true;
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// The base of the blossom closing at the edge `a`–`b`: where their
    /// paths to the root meet.
    fn common_base(&mut self, a: usize, b: usize, vertices: &[usize]) -> usize {
        for &w in vertices {
            self.seen[w] = false;
        }
        let mut a = a;
        loop {
            a = self.base[a];
            self.seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        let mut b = b;
        loop {
            b = self.base[b];
            if self.seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the blossom's bases from `v` up to `base`, pointing the inner
    /// vertices' parents across the cycle (towards `child`).
    fn mark_cycle(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Flips the augmenting path that ends at the free vertex `end`.
    fn flip(&mut self, mut end: usize) {
        while end != NONE {
            let via = self.parent[end];
            let next = self.mate[via];
            self.mate[end] = via;
            self.mate[via] = end;
            end = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest matching by trying every one (small graphs only).
    fn brute_force(n: usize, edge: &dyn Fn(usize, usize) -> bool, used: &mut Vec<bool>) -> usize {
        let Some(first) = (0..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[first] = true;
        let mut best = brute_force(n, edge, used);
        for other in first + 1..n {
            if !used[other] && edge(first, other) {
                used[other] = true;
                best = best.max(1 + brute_force(n, edge, used));
                used[other] = false;
            }
        }
        used[first] = false;
        best
    }

    #[test]
    fn every_small_random_graph_gets_a_maximum_matching() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for case in 0..600 {
            let n = 2 + case % 11;
            let density = 1 + case % 7;
            let mut adjacent = vec![vec![false; n]; n];
            for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let joined = seed % 8 < density as u64;
                adjacent[a][b] = joined;
                adjacent[b][a] = joined;
            }
            let edge = |a: usize, b: usize| adjacent[a][b];
            let vertices: Vec<usize> = (0..n).collect();
            let mut matching = Matching::new(n);
            for &v in &vertices {
                matching.augment(v, &vertices, edge);
            }
            let expected = brute_force(n, &edge, &mut vec![false; n]);
            assert_eq!(matching.size(), expected, "case {case}: {adjacent:?}");
            for (v, row) in adjacent.iter().enumerate() {
                if let Some(m) = matching.mate(v) {
                    assert!(row[m] && matching.mate(m) == Some(v));
                }
            }
        }
    }

    #[test]
    fn a_matching_grows_vertex_by_vertex() {
        // Two triangles joined by one edge (a blossom on each side): the
        // first five vertices leave one free, the sixth completes it.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (4, 5), (3, 5)];
        let edge = |a: usize, b: usize| edges.contains(&(a.min(b), a.max(b)));
        let mut matching = Matching::new(6);
        let mut vertices = Vec::new();
        for v in 0..5 {
            vertices.push(v);
            matching.augment(v, &vertices, edge);
        }
        assert_eq!(matching.size(), 2);
        vertices.push(5);
        assert!(matching.augment(5, &vertices, edge));
        assert_eq!(matching.size(), 3);
    }
}
