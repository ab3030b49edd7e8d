//! One agent's tree storage: a node pool allocated once, reset in O(1) per turn, where each
//! node's children are one contiguous block addressed by a `u32` index.

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
    /// Sum of their squares (for UCB1-Tuned).
    pub score_square_sum: f64,
    /// Number of scores backpropagated through this node.
    pub visits: u32,
    /// First of the `child_count` contiguous children, or [`NodeId::NONE`] before expansion.
    pub first_child: NodeId,
    /// Number of children (the agent's action count) once expanded, else 0.
    pub child_count: u16,
}

impl Node {
    const FRESH: Node = Node {
        score_sum: 0.0,
        score_square_sum: 0.0,
        visits: 0,
        first_child: NodeId::NONE,
        child_count: 0,
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

/// A fixed-capacity arena of nodes: slot 0 is the root, slots `1..used` hold children blocks.
#[derive(Clone, Debug)]
pub struct NodePool {
    nodes: Vec<Node>,
    used: u32,
}

impl NodePool {
    /// Allocate room for `capacity` nodes (at least 1, the root; at most `u32::MAX - 1`). The only
    /// allocation the pool ever makes.
    pub fn with_capacity(capacity: usize) -> Self {
        let capacity = capacity.clamp(1, (u32::MAX - 1) as usize);
        NodePool {
            nodes: vec![Node::FRESH; capacity],
            used: 1,
        }
    }

    /// Forget every node but a fresh root. O(1).
    #[inline]
    pub fn reset(&mut self) {
        self.nodes[0] = Node::FRESH;
        self.used = 1;
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

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The children block of `id` (empty before expansion).
    #[inline]
    pub fn children(&self, id: NodeId) -> &[Node] {
        let node = self.node(id);
        if !node.is_expanded() {
            return &[];
        }
        let first = node.first_child.index();
        &self.nodes[first..first + usize::from(node.child_count)]
    }

    /// Give `parent` a block of `child_count` fresh children and return the first one, or `None`
    /// (and leave `parent` a leaf) when the pool has no room left.
    #[inline]
    pub fn expand(&mut self, parent: NodeId, child_count: u16) -> Option<NodeId> {
        let first = self.used as usize;
        let end = first + usize::from(child_count);
        if end > self.nodes.len() {
            return None;
        }
        for child in &mut self.nodes[first..end] {
            *child = Node::FRESH;
        }
        self.used = end as u32;
        let first_child = NodeId(first as u32);
        let node = self.node_mut(parent);
        node.first_child = first_child;
        node.child_count = child_count;
        Some(first_child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_hands_out_contiguous_blocks_until_full() {
        let mut pool = NodePool::with_capacity(8);
        assert_eq!(pool.len(), 1);
        assert_eq!(pool.expand(NodeId::ROOT, 3), Some(NodeId(1)));
        assert_eq!(pool.children(NodeId::ROOT).len(), 3);
        assert_eq!(pool.expand(NodeId(2), 3), Some(NodeId(4)));
        assert_eq!(pool.len(), 7);
        // Needs 3 more slots, only 1 left: refused, and the node stays a leaf.
        assert_eq!(pool.expand(NodeId(1), 3), None);
        assert!(!pool.node(NodeId(1)).is_expanded());
        assert!(pool.children(NodeId(1)).is_empty());
        assert_eq!(pool.expand(NodeId(1), 1), Some(NodeId(7)));
        assert_eq!(pool.len(), pool.capacity());
    }

    #[test]
    fn reset_gives_a_fresh_root_and_reuses_slots_fresh() {
        let mut pool = NodePool::with_capacity(4);
        pool.expand(NodeId::ROOT, 3).unwrap();
        pool.node_mut(NodeId(2)).visits = 5;
        pool.node_mut(NodeId::ROOT).visits = 5;
        pool.reset();
        assert_eq!(pool.len(), 1);
        assert_eq!(*pool.node(NodeId::ROOT), Node::FRESH);
        pool.expand(NodeId::ROOT, 3).unwrap();
        assert_eq!(pool.node(NodeId(2)).visits, 0);
    }

    #[test]
    fn zero_capacity_still_holds_a_root() {
        let mut pool = NodePool::with_capacity(0);
        assert_eq!(pool.capacity(), 1);
        assert_eq!(pool.expand(NodeId::ROOT, 1), None);
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
