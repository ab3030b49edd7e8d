//! One agent's tree storage: a node pool allocated once, reset in O(1) per turn, where each
//! node's children are one contiguous block addressed by a `u32` index.
//!
//! Every block has the same size, the agent's action count, so a node needs no child count and
//! fits in 16 bytes (four per cache line). What a selection policy keeps per node beyond visits
//! and score sums (a prior, say) lives in the policy, in an array parallel to the pool
//! (`selection.rs`).

/// Index of a node in its agent's [`NodePool`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);
    /// "No node": a leaf's `first_child`, or a descent that left its tree.
    pub const NONE: NodeId = NodeId(u32::MAX);

    #[inline]
    pub fn index(self) -> usize {
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
    used: u32,
    children_per_node: u32,
}

impl NodePool {
    /// Allocate room for `capacity` nodes (at least 1, the root; at most `u32::MAX - 1`). The only
    /// allocation the pool ever makes. Call [`NodePool::reset`] before expanding.
    pub fn with_capacity(capacity: usize) -> Self {
        let capacity = capacity.clamp(1, (u32::MAX - 1) as usize);
        NodePool {
            nodes: vec![Node::FRESH; capacity],
            used: 1,
            children_per_node: 0,
        }
    }

    /// Forget every node but a fresh root; expanded nodes will get `children_per_node` children
    /// each (at most `u16::MAX + 1`). O(1).
    #[inline]
    pub fn reset(&mut self, children_per_node: usize) {
        self.nodes[0] = Node::FRESH;
        self.used = 1;
        self.children_per_node = children_per_node.min(1 << 16) as u32;
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

    /// The children block of `id` (empty before expansion).
    #[inline]
    pub fn children(&self, id: NodeId) -> &[Node] {
        &self.nodes[self.children_range(id)]
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

    /// Count one visit of `id` with score `value`.
    #[inline(always)]
    pub fn add_score(&mut self, id: NodeId, value: f64) {
        let node = &mut self.nodes[id.index()];
        node.visits += 1;
        node.score_sum += value;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_take_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
    }

    #[test]
    fn expansion_hands_out_contiguous_blocks_until_full() {
        let mut pool = NodePool::with_capacity(8);
        pool.reset(3);
        assert_eq!(pool.len(), 1);
        assert_eq!(pool.expand(NodeId::ROOT), Some(NodeId(1)));
        assert_eq!(pool.children(NodeId::ROOT).len(), 3);
        assert_eq!(pool.expand(NodeId(2)), Some(NodeId(4)));
        assert_eq!(pool.len(), 7);
        // Needs 3 more slots, only 1 left: refused, and the node stays a leaf.
        assert_eq!(pool.expand(NodeId(1)), None);
        assert!(!pool.node(NodeId(1)).is_expanded());
        assert!(pool.children(NodeId(1)).is_empty());
        pool.reset(1);
        assert_eq!(pool.expand(NodeId::ROOT), Some(NodeId(1)));
    }

    #[test]
    fn reset_gives_a_fresh_root_and_reuses_slots_fresh() {
        let mut pool = NodePool::with_capacity(4);
        pool.reset(3);
        pool.expand(NodeId::ROOT).unwrap();
        pool.add_score(NodeId(2), 2.0);
        pool.add_score(NodeId::ROOT, 2.0);
        pool.reset(3);
        assert_eq!(pool.len(), 1);
        assert_eq!(*pool.node(NodeId::ROOT), Node::FRESH);
        pool.expand(NodeId::ROOT).unwrap();
        assert_eq!(*pool.node(NodeId(2)), Node::FRESH);
    }

    #[test]
    fn add_score_counts_visits_and_sums() {
        let mut pool = NodePool::with_capacity(1);
        pool.reset(2);
        pool.add_score(NodeId::ROOT, 3.0);
        pool.add_score(NodeId::ROOT, 1.0);
        let root = pool.node(NodeId::ROOT);
        assert_eq!((root.visits, root.score_sum, root.mean()), (2, 4.0, 2.0));
    }

    #[test]
    fn zero_capacity_still_holds_a_root() {
        let mut pool = NodePool::with_capacity(0);
        pool.reset(1);
        assert_eq!(pool.capacity(), 1);
        assert_eq!(pool.expand(NodeId::ROOT), None);
    }

    #[test]
    fn prefetch_is_harmless_on_leaves_blocks_and_empty_blocks() {
        let mut pool = NodePool::with_capacity(12);
        pool.reset(11);
        pool.prefetch_children(NodeId::ROOT);
        pool.expand(NodeId::ROOT).unwrap();
        pool.prefetch_children(NodeId::ROOT);
        pool.prefetch_children(NodeId(11));
        pool.reset(0);
        pool.expand(NodeId::ROOT).unwrap();
        pool.prefetch_children(NodeId::ROOT);
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
