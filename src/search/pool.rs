//! One agent's tree storage: a node pool allocated once, reset in O(1) per turn, where each
//! node's children are one contiguous block addressed by a `u32` index.
//!
//! Every block has the same size, the agent's action count, so a node needs no child count and
//! fits in 16 bytes (four per cache line). Sums of squared scores, which only UCB1-Tuned reads,
//! live in a parallel array, kept only when the turn asks for them, so plain UCB1 never touches
//! them; that array and subtree keeping exist only with feature `experiments`.
//!
//! Between turns a pool can keep one subtree instead of starting over ([`NodePool::keep_subtree`]):
//! the subtree is moved, in place, to the front of the pool. A children block is always made
//! after its parent's block, so walking the blocks in pool order moves every kept block to a slot
//! at or before its old one, over blocks already walked, and finds its parent already moved.

/// Index of a node in its agent's [`NodePool`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);
    /// "No node": a leaf's `first_child`, or a descent that left its tree.
    pub const NONE: NodeId = NodeId(u32::MAX);

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// One decision point of one agent: the statistics of the action that led here and where its
/// children are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// Sum of the scores backpropagated through this node.
    pub score_sum: f64,
    /// Number of scores backpropagated through this node.
    pub visits: u32,
    /// First of the pool's `children_per_node` contiguous children, or [`NodeId::NONE`] before
    /// expansion.
    pub first_child: NodeId,
}

impl Node {
    const FRESH: Node = Node {
        score_sum: 0.0,
        visits: 0,
        first_child: NodeId::NONE,
    };

    /// Mean backpropagated score, 0 when never visited.
    #[inline]
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.score_sum / f64::from(self.visits)
        }
    }

    /// True once the children block exists.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.first_child != NodeId::NONE
    }
}

/// A fixed-capacity arena of nodes: slot 0 is the root, slots `1..len` hold children blocks.
#[derive(Clone, Debug)]
pub struct NodePool {
    nodes: Vec<Node>,
    /// `score_square_sums[i]`: sum of the squared scores added to node i, when `tracks_squares`.
    #[cfg(feature = "experiments")]
    score_square_sums: Vec<f64>,
    used: u32,
    children_per_node: u32,
    #[cfg(feature = "experiments")]
    tracks_squares: bool,
    /// True when the parallel array is in use (squares or EXP3 estimates): expansion zeroes it.
    #[cfg(feature = "experiments")]
    uses_extra: bool,
    /// Scratch for [`NodePool::keep_subtree`]: for old block b (slots `1 + b × children_per_node`
    /// onwards), 1 + the new slot of the node whose children it is, or 0 when it is not kept.
    #[cfg(feature = "experiments")]
    kept_block_parents: Vec<u32>,
}

impl NodePool {
    /// Allocate room for `capacity` nodes (at least 1, the root; at most `u32::MAX - 1`). The only
    /// allocation the pool ever makes. Call [`NodePool::reset`] before expanding.
    pub fn with_capacity(capacity: usize) -> Self {
        let capacity = capacity.clamp(1, (u32::MAX - 1) as usize);
        NodePool {
            nodes: vec![Node::FRESH; capacity],
            #[cfg(feature = "experiments")]
            score_square_sums: vec![0.0; capacity],
            used: 1,
            children_per_node: 0,
            #[cfg(feature = "experiments")]
            tracks_squares: false,
            #[cfg(feature = "experiments")]
            uses_extra: false,
            // Zeroed memory comes from the OS untouched: it costs nothing until a subtree is kept.
            #[cfg(feature = "experiments")]
            kept_block_parents: vec![0; capacity],
        }
    }

    /// Make the subtree under `child`, a child of the root, the whole tree: `child` becomes the
    /// root, with its statistics, and its descendants keep theirs, moved to the front of the pool;
    /// every other node is dropped. Each kept node then keeps `decay` × its visits, rounded, and its
    /// mean times `score_factor` (squared sums alike; EXP3's estimate sums keep the visits' share):
    /// the search passes its discount, since a kept node now stands one ply nearer the root and
    /// this turn's scores reach it discounted once more. Returns the nodes kept (root included).
    /// Does nothing and returns 0 when `child` is not a child of the root. Allocates nothing; time
    /// linear in the nodes in use.
    #[cfg(feature = "experiments")]
    pub fn keep_subtree(&mut self, child: NodeId, decay: f64, score_factor: f64) -> usize {
        let block_size = self.children_per_node as usize;
        let root = self.nodes[0];
        if block_size == 0
            || !root.is_expanded()
            || child.0 < root.first_child.0
            || child.0 >= root.first_child.0 + block_size as u32
        {
            return 0;
        }
        let old_used = self.used as usize;
        let block_count = (old_used - 1) / block_size;
        let parents = &mut self.kept_block_parents[..block_count];
        parents.fill(0);
        self.nodes[0] = self.nodes[child.index()];
        self.score_square_sums[0] = self.score_square_sums[child.index()];
        let block_of = |first: NodeId| (first.index() - 1) / block_size;
        if self.nodes[0].is_expanded() {
            parents[block_of(self.nodes[0].first_child)] = 1;
        }
        let mut new_used = 1;
        for block in 0..block_count {
            let parent_plus_one = self.kept_block_parents[block];
            if parent_plus_one == 0 {
                continue;
            }
            let old_first = 1 + block * block_size;
            // Kept blocks only move towards the front, over blocks already walked.
            debug_assert!(new_used <= old_first);
            self.nodes
                .copy_within(old_first..old_first + block_size, new_used);
            self.score_square_sums
                .copy_within(old_first..old_first + block_size, new_used);
            self.nodes[parent_plus_one as usize - 1].first_child = NodeId(new_used as u32);
            for slot in new_used..new_used + block_size {
                let node = self.nodes[slot];
                if node.is_expanded() {
                    self.kept_block_parents[block_of(node.first_child)] = slot as u32 + 1;
                }
            }
            new_used += block_size;
        }
        self.used = new_used as u32;
        if decay != 1.0 || score_factor != 1.0 {
            let nodes = &mut self.nodes[..new_used];
            for (node, square_sum) in nodes.iter_mut().zip(&mut self.score_square_sums) {
                if node.visits == 0 {
                    continue;
                }
                let visits = (f64::from(node.visits) * decay).round();
                let share = visits / f64::from(node.visits);
                node.visits = visits as u32;
                node.score_sum *= share * score_factor;
                if self.tracks_squares {
                    *square_sum *= share * score_factor * score_factor;
                } else if self.uses_extra {
                    // EXP3's estimates: a sum of one normalised term per visit.
                    *square_sum *= share;
                }
            }
        }
        new_used
    }

    /// Forget every node but a fresh root; expanded nodes will get `children_per_node` children
    /// each (at most `u16::MAX + 1`), and (feature `experiments`) squared-score sums are kept if
    /// `track_squares`. O(1).
    #[inline]
    pub fn reset(
        &mut self,
        children_per_node: usize,
        #[cfg(feature = "experiments")] track_squares: bool,
    ) {
        self.nodes[0] = Node::FRESH;
        self.used = 1;
        self.children_per_node = children_per_node.min(1 << 16) as u32;
        #[cfg(feature = "experiments")]
        {
            self.score_square_sums[0] = 0.0;
            self.tracks_squares = track_squares;
            self.uses_extra = track_squares;
        }
    }

    /// Like [`NodePool::reset`] without squares, but the parallel array holds EXP3's
    /// importance-weighted score estimates instead (see [`NodePool::add_estimate`]). O(1).
    #[cfg(feature = "experiments")]
    #[inline]
    pub fn reset_with_estimates(&mut self, children_per_node: usize) {
        self.reset(children_per_node, false);
        self.uses_extra = true;
    }

    /// Add `value` to the estimate sum of `id` (kept in the squared-sum slot; meaningful only
    /// after [`NodePool::reset_with_estimates`]). Does not count a visit.
    #[cfg(feature = "experiments")]
    #[inline]
    pub fn add_estimate(&mut self, id: NodeId, value: f64) {
        self.score_square_sums[id.index()] += value;
    }

    /// Nodes in use, root included.
    #[inline]
    pub fn len(&self) -> usize {
        self.used as usize
    }

    /// Always false: the root always exists.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Most nodes the pool can hold.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Size of every children block since the last reset.
    #[inline]
    pub fn children_per_node(&self) -> usize {
        self.children_per_node as usize
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Sum of the squared scores added to `id` (meaningful only when tracking squares).
    #[cfg(feature = "experiments")]
    #[inline]
    pub fn score_square_sum(&self, id: NodeId) -> f64 {
        self.score_square_sums[id.index()]
    }

    /// The children block of `id` (empty before expansion).
    #[inline]
    pub fn children(&self, id: NodeId) -> &[Node] {
        &self.nodes[self.children_range(id)]
    }

    /// The squared-score sums of the children of `id`, parallel to [`NodePool::children`].
    #[cfg(feature = "experiments")]
    #[inline]
    pub fn children_square_sums(&self, id: NodeId) -> &[f64] {
        &self.score_square_sums[self.children_range(id)]
    }

    #[inline]
    fn children_range(&self, id: NodeId) -> std::ops::Range<usize> {
        let node = self.node(id);
        if !node.is_expanded() {
            return 0..0;
        }
        let first = node.first_child.index();
        first..first + self.children_per_node as usize
    }

    /// Give `parent` a block of fresh children and return the first one, or `None` (and leave
    /// `parent` a leaf) when the pool has no room left.
    #[inline]
    pub fn expand(&mut self, parent: NodeId) -> Option<NodeId> {
        let first = self.used as usize;
        let end = first + self.children_per_node as usize;
        if end > self.nodes.len() {
            return None;
        }
        for child in &mut self.nodes[first..end] {
            *child = Node::FRESH;
        }
        #[cfg(feature = "experiments")]
        if self.uses_extra {
            for square_sum in &mut self.score_square_sums[first..end] {
                *square_sum = 0.0;
            }
        }
        self.used = end as u32;
        // The next expansion writes the block after this one: have it in cache by then.
        self.prefetch_block(end);
        let first_child = NodeId(first as u32);
        self.nodes[parent.index()].first_child = first_child;
        Some(first_child)
    }

    /// Hint the CPU to start loading the children block of `id` (nothing when `id` is a leaf), so
    /// that a descent into it a game step later finds the block in cache. Pure hint: no effect
    /// on any result.
    #[inline(always)]
    pub fn prefetch_children(&self, id: NodeId) {
        let node = self.node(id);
        if node.is_expanded() {
            self.prefetch_block(node.first_child.index());
        }
    }

    /// Hint the CPU to load the `children_per_node` slots from `first` (possibly past the end).
    #[inline(always)]
    fn prefetch_block(&self, first: usize) {
        if self.children_per_node == 0 {
            return;
        }
        let bytes = self.children_per_node as usize * std::mem::size_of::<Node>();
        let start = self.nodes.as_ptr().wrapping_add(first) as *const u8;
        // One hint per cache line the block touches.
        let misalignment = start as usize % 64;
        let line = start.wrapping_sub(misalignment);
        let mut offset = 0;
        while offset < misalignment + bytes {
            prefetch(line.wrapping_add(offset));
            offset += 64;
        }
    }

    /// Count one visit of `id` with score `value` (and `value²` when tracking squares).
    #[inline(always)]
    pub fn add_score(&mut self, id: NodeId, value: f64) {
        let node = &mut self.nodes[id.index()];
        node.visits += 1;
        node.score_sum += value;
        #[cfg(feature = "experiments")]
        if self.tracks_squares {
            self.score_square_sums[id.index()] += value * value;
        }
    }
}

/// Ask the CPU to bring the cache line of `address` closer (no effect on program semantics).
/// The trees outgrow the caches, so a descent stalls on a miss at nearly every ply; hinting the
/// next block one game step ahead cut the CPU time per ply by about 11% on the cg-demo replay
/// (`--iterations 20000`, 30 turns), which is why this one `unsafe` block is here.
#[inline(always)]
fn prefetch(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 is only a hint: it never faults, whatever the address, and changes no
    // memory; SSE, which it needs, is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(all(test, feature = "experiments"))]
mod tests {
    use super::*;

    #[test]
    fn nodes_take_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
    }

    #[test]
    fn expansion_hands_out_contiguous_blocks_until_full() {
        let mut pool = NodePool::with_capacity(8);
        pool.reset(3, true);
        assert_eq!(pool.len(), 1);
        assert_eq!(pool.expand(NodeId::ROOT), Some(NodeId(1)));
        assert_eq!(pool.children(NodeId::ROOT).len(), 3);
        assert_eq!(pool.expand(NodeId(2)), Some(NodeId(4)));
        assert_eq!(pool.len(), 7);
        // Needs 3 more slots, only 1 left: refused, and the node stays a leaf.
        assert_eq!(pool.expand(NodeId(1)), None);
        assert!(!pool.node(NodeId(1)).is_expanded());
        assert!(pool.children(NodeId(1)).is_empty());
        assert!(pool.children_square_sums(NodeId(1)).is_empty());
        pool.reset(1, false);
        assert_eq!(pool.expand(NodeId::ROOT), Some(NodeId(1)));
    }

    #[test]
    fn reset_gives_a_fresh_root_and_reuses_slots_fresh() {
        let mut pool = NodePool::with_capacity(4);
        pool.reset(3, true);
        pool.expand(NodeId::ROOT).unwrap();
        pool.add_score(NodeId(2), 2.0);
        pool.add_score(NodeId::ROOT, 2.0);
        pool.reset(3, true);
        assert_eq!(pool.len(), 1);
        assert_eq!(*pool.node(NodeId::ROOT), Node::FRESH);
        assert_eq!(pool.score_square_sum(NodeId::ROOT), 0.0);
        pool.expand(NodeId::ROOT).unwrap();
        assert_eq!(*pool.node(NodeId(2)), Node::FRESH);
        assert_eq!(pool.children_square_sums(NodeId::ROOT), [0.0; 3]);
    }

    #[test]
    fn add_score_counts_visits_sums_and_optionally_squares() {
        let mut pool = NodePool::with_capacity(1);
        pool.reset(2, true);
        pool.add_score(NodeId::ROOT, 3.0);
        pool.add_score(NodeId::ROOT, 1.0);
        let root = pool.node(NodeId::ROOT);
        assert_eq!((root.visits, root.score_sum, root.mean()), (2, 4.0, 2.0));
        assert_eq!(pool.score_square_sum(NodeId::ROOT), 10.0);
        pool.reset(2, false);
        pool.add_score(NodeId::ROOT, 3.0);
        assert_eq!(pool.node(NodeId::ROOT).score_sum, 3.0);
        assert_eq!(pool.score_square_sum(NodeId::ROOT), 0.0);
    }

    #[test]
    fn zero_capacity_still_holds_a_root() {
        let mut pool = NodePool::with_capacity(0);
        pool.reset(1, false);
        assert_eq!(pool.capacity(), 1);
        assert_eq!(pool.expand(NodeId::ROOT), None);
    }

    #[test]
    fn prefetch_is_harmless_on_leaves_blocks_and_empty_blocks() {
        let mut pool = NodePool::with_capacity(12);
        pool.reset(11, false);
        pool.prefetch_children(NodeId::ROOT);
        pool.expand(NodeId::ROOT).unwrap();
        pool.prefetch_children(NodeId::ROOT);
        pool.prefetch_children(NodeId(11));
        pool.reset(0, false);
        pool.expand(NodeId::ROOT).unwrap();
        pool.prefetch_children(NodeId::ROOT);
        assert_eq!(pool.len(), 1);
    }

    /// The subtree under `id`, read in child order: each node's statistics and its children's.
    #[derive(Debug, PartialEq)]
    struct Shape {
        visits: u32,
        score_sum: f64,
        square_sum: f64,
        children: Vec<Shape>,
    }

    fn shape(pool: &NodePool, id: NodeId) -> Shape {
        let node = pool.node(id);
        let children = if node.is_expanded() {
            (0..pool.children_per_node() as u32)
                .map(|k| shape(pool, NodeId(node.first_child.0 + k)))
                .collect()
        } else {
            Vec::new()
        };
        Shape {
            visits: node.visits,
            score_sum: node.score_sum,
            square_sum: pool.score_square_sum(id),
            children,
        }
    }

    fn node_count(shape: &Shape) -> usize {
        1 + shape.children.iter().map(node_count).sum::<usize>()
    }

    /// A tree of 3 children per node whose blocks are made out of breadth-first order: the
    /// subtree under root child 2 has blocks before, between and after other subtrees' blocks.
    fn interleaved_tree() -> NodePool {
        let mut pool = NodePool::with_capacity(64);
        pool.reset(3, true);
        let root_children = pool.expand(NodeId::ROOT).unwrap(); // 1..4
        let [a, _, c] = [0, 1, 2].map(|k| NodeId(root_children.0 + k));
        let a_children = pool.expand(a).unwrap(); // 4..7
        let c_children = pool.expand(c).unwrap(); // 7..10
        pool.expand(NodeId(a_children.0 + 1)).unwrap(); // 10..13
        let c_grandchildren = pool.expand(NodeId(c_children.0 + 2)).unwrap(); // 13..16
        pool.expand(NodeId(a_children.0 + 2)).unwrap(); // 16..19
        pool.expand(NodeId(c_children.0)).unwrap(); // 19..22
        pool.expand(NodeId(c_grandchildren.0 + 1)).unwrap(); // 22..25
        for slot in 0..pool.len() as u32 {
            for visit in 0..=slot % 4 {
                pool.add_score(NodeId(slot), f64::from(slot) + f64::from(visit) / 8.0);
            }
        }
        pool
    }

    #[test]
    fn keeping_a_subtree_keeps_exactly_its_nodes_and_statistics() {
        for kept_child in 0..3 {
            let mut pool = interleaved_tree();
            let subtree = shape(&pool, NodeId(1 + kept_child));
            let kept = pool.keep_subtree(NodeId(1 + kept_child), 1.0, 1.0);
            assert_eq!(kept, node_count(&subtree), "child {kept_child}");
            assert_eq!(pool.len(), kept);
            assert_eq!(shape(&pool, NodeId::ROOT), subtree, "child {kept_child}");
        }
        // Root child 2 holds 1 + 3 + 3 + 3 + 3 nodes; the others are dropped.
        let mut pool = interleaved_tree();
        assert_eq!(pool.keep_subtree(NodeId(3), 1.0, 1.0), 13);
    }

    #[test]
    fn kept_scores_are_scaled_and_visits_kept() {
        let mut pool = interleaved_tree();
        let mut expected = shape(&pool, NodeId(3));
        fn scale(shape: &mut Shape, factor: f64) {
            shape.score_sum *= factor;
            shape.square_sum *= factor * factor;
            for child in &mut shape.children {
                scale(child, factor);
            }
        }
        scale(&mut expected, 0.5);
        pool.keep_subtree(NodeId(3), 1.0, 0.5);
        assert_eq!(shape(&pool, NodeId::ROOT), expected);
    }

    #[test]
    fn a_decay_keeps_a_share_of_the_visits_at_the_same_mean() {
        let mut pool = interleaved_tree();
        let before = shape(&pool, NodeId(3));
        pool.keep_subtree(NodeId(3), 0.5, 1.0);
        let after = shape(&pool, NodeId::ROOT);
        fn check(before: &Shape, after: &Shape) {
            let visits = (f64::from(before.visits) * 0.5).round();
            assert_eq!(f64::from(after.visits), visits);
            let share = visits / f64::from(before.visits);
            assert!((after.score_sum - before.score_sum * share).abs() < 1e-9);
            assert!((after.square_sum - before.square_sum * share).abs() < 1e-9);
            assert_eq!(after.children.len(), before.children.len());
            for (b, a) in before.children.iter().zip(&after.children) {
                check(b, a);
            }
        }
        check(&before, &after);
    }

    #[test]
    fn a_kept_exp3_tree_keeps_the_visits_share_of_its_estimates() {
        let mut pool = NodePool::with_capacity(16);
        pool.reset_with_estimates(2);
        let children = pool.expand(NodeId::ROOT).unwrap(); // 1..3
        let kept = NodeId(children.0 + 1);
        let grandchildren = pool.expand(kept).unwrap(); // 3..5
        for slot in 0..pool.len() as u32 {
            for _ in 0..4 {
                pool.add_score(NodeId(slot), 0.5);
            }
            pool.add_estimate(NodeId(slot), 2.0 + f64::from(slot));
        }
        pool.keep_subtree(kept, 0.5, 0.25);
        // Half the visits: the mean times the score factor, the estimate sums halved (they are
        // normalised, so the score factor does not reach them).
        assert_eq!(pool.node(NodeId::ROOT).visits, 2);
        assert!((pool.node(NodeId::ROOT).score_sum - 2.0 * 0.5 * 0.25).abs() < 1e-12);
        let estimates = pool.children_square_sums(NodeId::ROOT);
        let expected = [0, 1].map(|k| (2.0 + f64::from(grandchildren.0 + k)) * 0.5);
        assert_eq!(estimates, expected);
    }

    #[test]
    fn a_kept_tree_grows_after_its_nodes_and_can_be_kept_again() {
        let mut pool = interleaved_tree();
        pool.keep_subtree(NodeId(3), 1.0, 1.0);
        let before = shape(&pool, NodeId::ROOT);
        let leaf = NodeId(pool.node(NodeId::ROOT).first_child.0 + 1);
        assert!(!pool.node(leaf).is_expanded());
        assert_eq!(pool.expand(leaf), Some(NodeId(13)));
        assert_eq!(pool.children_square_sums(leaf), [0.0; 3]);
        let mut grown = shape(&pool, NodeId::ROOT);
        grown.children[1].children.clear();
        assert_eq!(grown, before);
        // Again, one level down: the subtree of the kept root's third child.
        let third = NodeId(pool.node(NodeId::ROOT).first_child.0 + 2);
        let subtree = shape(&pool, third);
        assert_eq!(pool.keep_subtree(third, 1.0, 1.0), node_count(&subtree));
        assert_eq!(shape(&pool, NodeId::ROOT), subtree);
    }

    #[test]
    fn keeping_a_leaf_or_a_non_child_keeps_only_what_it_should() {
        let mut pool = interleaved_tree();
        let leaf = shape(&pool, NodeId(2));
        assert_eq!(pool.keep_subtree(NodeId(2), 1.0, 1.0), 1);
        assert_eq!(shape(&pool, NodeId::ROOT), leaf);
        assert_eq!(pool.expand(NodeId::ROOT), Some(NodeId(1)));
        // Not a child of the root: nothing happens.
        let mut pool = interleaved_tree();
        let whole = shape(&pool, NodeId::ROOT);
        assert_eq!(pool.keep_subtree(NodeId(5), 1.0, 1.0), 0);
        assert_eq!(pool.keep_subtree(NodeId::ROOT, 1.0, 1.0), 0);
        assert_eq!(shape(&pool, NodeId::ROOT), whole);
        // A root never expanded has no child to keep.
        let mut pool = NodePool::with_capacity(4);
        pool.reset(3, false);
        assert_eq!(pool.keep_subtree(NodeId(1), 1.0, 1.0), 0);
        assert_eq!(pool.len(), 1);
    }

    #[test]
    fn node_mean() {
        let mut node = Node::FRESH;
        assert_eq!(node.mean(), 0.0);
        node.visits = 4;
        node.score_sum = 3.0;
        assert_eq!(node.mean(), 0.75);
    }
}
