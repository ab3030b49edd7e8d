//! How the Smitsimax search behaves on small games: convergence to dominant actions, agents with
//! different action counts, discount, rollout, determinism, full pools, stopping. Games of
//! random shape are drawn with `rand` (`tests/seeded/mod.rs`: default seed, `CSB_TEST_SEED` to
//! try others, the seed printed on failure).

mod search_games;
mod seeded;

use csb::search::{
    FinalMove, Game, NodeId, SearchParams, Selection, Smitsimax, CHECK_INTERVAL, MAX_AGENTS,
};
use search_games::{DelayedReveal, DominantMatrixGame, HashGame, MatchingPennies, QuickOrSlowWin};
use seeded::Seeded;

fn most_visited(search: &Smitsimax<impl Game>, agent: usize) -> u8 {
    search
        .root_stats(agent)
        .max_by_key(|&(action, visits, _)| (visits, std::cmp::Reverse(action)))
        .map(|(action, _, _)| action)
        .unwrap()
}

#[test]
fn every_tree_converges_to_its_strictly_dominant_action() {
    let game = DominantMatrixGame::new(&[9, 9, 9], &[7, 2, 5], 4);
    for selection in [
        Selection::Ucb1,
        Selection::Ucb1Tuned,
        Selection::SmoothUct,
        Selection::Exp3,
    ] {
        for seed in 0..5 {
            let params = SearchParams {
                depth: 4,
                selection,
                ..SearchParams::default()
            };
            let mut search = Smitsimax::new(200_000, params, seed);
            let stats = search.run_iterations(&game, 5_000);
            assert_eq!(stats.iterations, 5_000);
            assert_eq!(stats.simulated_plies, 4 * 5_000);
            for agent in 0..3 {
                let dominant = game.dominant[agent];
                assert_eq!(
                    search.best_action(agent),
                    dominant,
                    "{selection:?} seed {seed}"
                );
                assert_eq!(most_visited(&search, agent), dominant);
                let root_visits: u32 = search.root_stats(agent).map(|(_, v, _)| v).sum();
                let dominant_visits = search.root_stats(agent).nth(dominant.into()).unwrap().1;
                assert!(
                    dominant_visits * 2 > root_visits,
                    "{selection:?} seed {seed} agent {agent}: {dominant_visits}/{root_visits}"
                );
            }
        }
    }
}

#[test]
fn agents_with_different_action_counts_each_get_their_own_tree() {
    let game = DominantMatrixGame::new(&[3, 5, 2, 7], &[1, 4, 0, 3], 3);
    let params = SearchParams {
        depth: 3,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(100_000, params, 11);
    search.run_iterations(&game, 4_000);
    for agent in 0..4 {
        let children: Vec<_> = search.root_stats(agent).collect();
        assert_eq!(children.len(), game.action_counts[agent], "agent {agent}");
        assert_eq!(
            search.best_action(agent),
            game.dominant[agent],
            "agent {agent}"
        );
    }
    // Agents the game does not have: nothing, and action 0.
    let single = DominantMatrixGame::new(&[4], &[2], 2);
    search.run_iterations(&single, 500);
    assert_eq!(search.best_action(0), 2);
    assert_eq!(search.root_stats(1).count(), 0);
    assert_eq!(search.best_action(3), 0);
    assert_eq!(search.stats().nodes_used[1..], [0; MAX_AGENTS - 1]);
}

#[test]
fn a_sooner_terminal_win_is_preferred_only_when_discounted() {
    let root = QuickOrSlowWin::default();
    for final_move in [FinalMove::MostVisited, FinalMove::BestAverage] {
        let undiscounted = SearchParams {
            final_move,
            ..SearchParams::default()
        };
        let mut search = Smitsimax::new(10_000, undiscounted, 3);
        search.run_iterations(&root, 2_000);
        assert_eq!(
            search.best_action(0),
            1,
            "γ = 1 takes the bigger, slower win"
        );
        let means: Vec<f64> = search.root_stats(0).map(|(_, _, mean)| mean).collect();
        assert!(
            (means[0] - 0.95).abs() < 1e-12 && means[1] == 1.0,
            "{means:?}"
        );

        let discounted = SearchParams {
            discount: 0.9,
            ..undiscounted
        };
        let mut search = Smitsimax::new(10_000, discounted, 3);
        search.run_iterations(&root, 2_000);
        assert_eq!(search.best_action(0), 0, "γ = 0.9 takes the quicker win");
        let means: Vec<f64> = search.root_stats(0).map(|(_, _, mean)| mean).collect();
        // The quick win ends at depth 1 (γ^0); the slow one at depth 3 reaches depth 1 as γ^2.
        assert!((means[0] - 0.95).abs() < 1e-12, "{means:?}");
        assert!((means[1] - 0.81).abs() < 1e-12, "{means:?}");
    }
}

#[test]
fn discount_applies_per_depth_along_the_path() {
    let root = QuickOrSlowWin::default();
    let params = SearchParams {
        discount: 0.5,
        random_visits: 0,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(100, params, 1);
    search.run_iterations(&root, 2_000);
    let tree = search.tree(0);
    let slow_id = NodeId(tree.node(NodeId::ROOT).first_child.0 + 1);
    let slow = tree.node(slow_id);
    // The slow win ends at depth 3: depth 1 receives 0.5^2, depth 2 0.5, depth 3 the full 1.0.
    assert!(slow.visits > 0);
    assert!((slow.mean() - 0.25).abs() < 1e-12, "{}", slow.mean());
    let mut checked_leaves = 0;
    for action in 0..2 {
        let depth2_id = NodeId(slow.first_child.0 + action);
        if tree.node(depth2_id).visits == 0 {
            continue;
        }
        let mean = tree.node(depth2_id).mean();
        assert!((mean - 0.5).abs() < 1e-12, "{mean}");
        for leaf in tree.children(depth2_id).iter().filter(|n| n.visits > 0) {
            assert_eq!(leaf.mean(), 1.0);
            checked_leaves += 1;
        }
    }
    assert!(checked_leaves > 0);
}

#[test]
fn rollout_plies_look_past_the_tree_with_random_actions() {
    let root = DelayedReveal::default();
    let shallow = SearchParams {
        depth: 1,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(1_000, shallow, 5);
    search.run_iterations(&root, 200);
    assert_eq!(
        search.best_action(0),
        1,
        "without rollout only the early look is seen"
    );
    assert_eq!(search.iterate(), 1);

    let with_rollout = SearchParams {
        rollout_plies: 2,
        ..shallow
    };
    let mut search = Smitsimax::new(1_000, with_rollout, 5);
    let stats = search.run_iterations(&root, 200);
    assert_eq!(
        search.best_action(0),
        0,
        "the rollout reaches the real outcome"
    );
    assert_eq!(stats.simulated_plies, 3 * 200);
    // The tree itself stays one ply deep: root + 2 children.
    assert_eq!(stats.nodes_used[0], 3);

    // Rollouts stop at terminal states.
    let long_rollout = SearchParams {
        rollout_plies: 10,
        ..shallow
    };
    let mut search = Smitsimax::new(1_000, long_rollout, 5);
    let stats = search.run_iterations(&root, 10);
    assert_eq!(stats.simulated_plies, 3 * 10);
}

#[test]
fn same_seed_same_search_different_seed_different_search() {
    let root = HashGame { mix: [1, 2, 3, 4] };
    let run = |seed: u64| {
        let mut search = Smitsimax::new(50_000, SearchParams::default(), seed);
        let stats = search.run_iterations(&root, 3_000);
        let decisions: Vec<u8> = (0..4).map(|agent| search.best_action(agent)).collect();
        let root_stats: Vec<Vec<(u8, u32, f64)>> = (0..4)
            .map(|agent| search.root_stats(agent).collect())
            .collect();
        (stats, decisions, root_stats)
    };
    assert_eq!(run(42), run(42));
    let differing = (0..4u64).filter(|&seed| run(seed).2 != run(42).2).count();
    assert_eq!(differing, 4, "other seeds should visit differently");

    // A reused search gives the same answers as a fresh one with the RNG in the same place.
    let mut reused = Smitsimax::new(50_000, SearchParams::default(), 9);
    let mut fresh = Smitsimax::new(50_000, SearchParams::default(), 9);
    assert_eq!(
        reused.run_iterations(&root, 500),
        fresh.run_iterations(&root, 500)
    );
    assert_eq!(
        reused.run_iterations(&root, 700),
        fresh.run_iterations(&root, 700)
    );
    for agent in 0..4 {
        assert_eq!(reused.best_action(agent), fresh.best_action(agent));
    }
}

#[test]
fn a_full_pool_stops_expansion_without_panic_and_actions_stay_legal() {
    let game = DominantMatrixGame::new(&[9, 4, 2], &[3, 1, 0], 1_000);
    for capacity in [0, 1, 5, 10, 25, 200] {
        let params = SearchParams {
            depth: 12,
            rollout_plies: 3,
            ..SearchParams::default()
        };
        let mut search = Smitsimax::new(capacity, params, 77);
        let stats = search.run_iterations(&game, 20_000);
        assert_eq!(stats.iterations, 20_000);
        assert_eq!(stats.simulated_plies, 15 * 20_000);
        for agent in 0..3 {
            assert!(stats.nodes_used[agent] <= capacity.max(1));
            assert!(usize::from(search.best_action(agent)) < game.action_counts[agent]);
        }
        if capacity >= 10 {
            // Enough room for every root's children: the dominant action is still found.
            for agent in 0..3 {
                assert_eq!(
                    search.best_action(agent),
                    game.dominant[agent],
                    "cap {capacity}"
                );
            }
        } else if capacity < 3 {
            assert_eq!(search.root_stats(0).count(), 0);
            assert_eq!(search.best_action(0), 0);
        }
    }
}

#[test]
fn depth_is_clamped_and_terminal_roots_are_harmless() {
    let root = HashGame::default();
    let params = SearchParams {
        depth: 1_000,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(10_000, params, 0);
    assert_eq!(search.iterate(), 0, "no root yet");
    let stats = search.run_iterations(&root, 10);
    assert_eq!(stats.simulated_plies, 32 * 10);
    search.params_mut().depth = 0;
    assert_eq!(search.iterate(), 1);

    let finished = DominantMatrixGame::new(&[3], &[1], 0);
    let mut search = Smitsimax::new(10_000, SearchParams::default(), 0);
    let stats = search.run_iterations(&finished, 100);
    assert_eq!(stats.simulated_plies, 0);
    assert_eq!(search.best_action(0), 0);
}

#[test]
fn run_until_checks_its_predicate_every_interval() {
    let root = HashGame::default();
    let mut search = Smitsimax::new(100_000, SearchParams::default(), 0);
    let mut checks = 0;
    let stats = search.run_until(&root, || {
        checks += 1;
        checks == 3
    });
    assert_eq!(stats.iterations, 3 * CHECK_INTERVAL);
    let stats = search.run_until(&root, || true);
    assert_eq!(
        stats.iterations, CHECK_INTERVAL,
        "at least one interval runs"
    );
}

#[test]
fn matching_pennies_keeps_both_actions_in_play() {
    for seed in 0..5 {
        let mut search = Smitsimax::new(1_000, SearchParams::default(), seed);
        search.run_iterations(&MatchingPennies::default(), 10_000);
        for agent in 0..2 {
            let visits: Vec<u32> = search.root_stats(agent).map(|(_, v, _)| v).collect();
            assert!(
                visits.iter().all(|&v| v > 2_000),
                "seed {seed} agent {agent}: {visits:?}"
            );
        }
    }
}

#[test]
fn expanding_after_t_visits_grows_smaller_trees_that_still_converge() {
    let game = DominantMatrixGame::new(&[9, 9, 9], &[7, 2, 5], 4);
    let mut nodes = Vec::new();
    for expand_after in [0, 1, 3] {
        let params = SearchParams {
            depth: 4,
            expand_after,
            ..SearchParams::default()
        };
        let mut search = Smitsimax::new(200_000, params, 3);
        let stats = search.run_iterations(&game, 5_000);
        // Off-tree plies still count: every iteration plays the full depth.
        assert_eq!(stats.simulated_plies, 4 * 5_000, "T={expand_after}");
        for agent in 0..3 {
            assert_eq!(
                search.best_action(agent),
                game.dominant[agent],
                "T={expand_after} agent {agent}"
            );
        }
        // A node is expanded on its visit number T + 1; its children hold every visit from there.
        let tree = search.tree(0);
        for index in 0..tree.len() as u32 {
            let node = tree.node(NodeId(index));
            if node.is_expanded() {
                let below: u32 = tree.children(NodeId(index)).iter().map(|c| c.visits).sum();
                assert!(node.visits > expand_after, "T={expand_after} node {index}");
                assert_eq!(below + expand_after, node.visits, "T={expand_after}");
            }
        }
        nodes.push(stats.nodes_used[0]);
    }
    assert!(nodes[0] > nodes[1] && nodes[1] > nodes[2], "{nodes:?}");
}

#[test]
fn randomised_selections_converge_on_other_shapes_and_are_reproducible() {
    // Two agents with different action counts, deeper game, and extreme variant parameters.
    let game = DominantMatrixGame::new(&[4, 12], &[0, 11], 6);
    let variants = [
        ("smooth-uct", "smooth-d", "0.1"),
        ("smooth-uct", "smooth-gamma", "0.5"),
        ("exp3", "exp3-gamma", "0.3"),
        ("exp3", "exp3-gamma", "0.05"),
    ];
    for (selection, name, value) in variants {
        let mut params = SearchParams {
            depth: 6,
            ..SearchParams::default()
        };
        params.set("selection", selection).unwrap();
        params.set(name, value).unwrap();
        for seed in 0..3 {
            let mut search = Smitsimax::new(400_000, params, seed);
            search.run_iterations(&game, 8_000);
            let mut again = Smitsimax::new(400_000, params, seed);
            again.run_iterations(&game, 8_000);
            for agent in 0..2 {
                let dominant = game.dominant[agent];
                assert_eq!(
                    search.best_action(agent),
                    dominant,
                    "{selection} {name}={value} seed {seed} agent {agent}"
                );
                let stats: Vec<_> = search.root_stats(agent).collect();
                assert_eq!(stats, again.root_stats(agent).collect::<Vec<_>>());
            }
        }
    }
}

/// [`DominantMatrixGame`] whose default policy always plays `preferred`.
#[derive(Clone, Copy, Debug)]
struct Guided {
    inner: DominantMatrixGame,
    preferred: u8,
}

impl Game for Guided {
    fn agent_count(&self) -> usize {
        self.inner.agent_count()
    }
    fn action_count(&self, agent: usize) -> usize {
        self.inner.action_count(agent)
    }
    fn step(&mut self, actions: &[u8; MAX_AGENTS]) {
        self.inner.step(actions)
    }
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    fn evaluate(&self, scores: &mut [f64; MAX_AGENTS]) {
        self.inner.evaluate(scores)
    }
    fn default_action(&self, _agent: usize, _rng: &mut csb::search::Rng) -> u8 {
        self.preferred
    }
}

#[test]
fn plies_without_statistics_play_the_games_default_policy() {
    let game = Guided {
        inner: DominantMatrixGame::new(&[6, 6], &[4, 1], 3),
        preferred: 2,
    };
    // Every in-tree choice is a "first visit": only the default policy plays.
    let params = SearchParams {
        depth: 3,
        random_visits: u32::MAX,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(100_000, params, 3);
    search.run_iterations(&game, 500);
    for agent in 0..2 {
        for (action, visits, _) in search.root_stats(agent) {
            assert_eq!(visits, if action == 2 { 500 } else { 0 }, "agent {agent}");
        }
    }
    // With the usual few random visits, selection takes over and still finds the dominant move.
    let mut search = Smitsimax::new(100_000, SearchParams::default(), 3);
    search.run_iterations(&game, 5_000);
    assert_eq!(search.best_action(0), 4);
    assert_eq!(search.best_action(1), 1);
}

#[test]
fn random_dominant_games_converge_whatever_their_shape() {
    let mut rng = Seeded::new("random_dominant_games_converge_whatever_their_shape", 5);
    for draw in 0..20 {
        let agents = rng.int(1, MAX_AGENTS as i64) as usize;
        let counts: Vec<usize> = (0..agents).map(|_| rng.int(2, 9) as usize).collect();
        let dominant: Vec<u8> = counts
            .iter()
            .map(|&count| rng.int(0, count as i64 - 1) as u8)
            .collect();
        let depth = rng.int(1, 6) as u32;
        let game = DominantMatrixGame::new(&counts, &dominant, depth);
        let params = SearchParams {
            depth,
            ..SearchParams::default()
        };
        let mut search = Smitsimax::new(200_000, params, rng.int(0, 1 << 40) as u64);
        search.run_iterations(&game, 5_000);
        for (agent, &best) in dominant.iter().enumerate() {
            assert_eq!(
                search.best_action(agent),
                best,
                "draw {draw}: counts {counts:?}, dominant {dominant:?}, depth {depth}"
            );
        }
    }
}

/// One tree read in child order: each node's visits and score sum, then its children's.
fn tree_shape(search: &Smitsimax<impl Game>, agent: usize, id: NodeId) -> Vec<(u32, f64)> {
    let tree = search.tree(agent);
    let mut shape = Vec::new();
    let mut stack = vec![id];
    while let Some(id) = stack.pop() {
        let node = tree.node(id);
        shape.push((node.visits, node.score_sum));
        if node.is_expanded() {
            let block = tree.children_per_node() as u32;
            stack.extend((0..block).rev().map(|k| NodeId(node.first_child.0 + k)));
        }
    }
    shape
}

fn root_child(search: &Smitsimax<impl Game>, agent: usize, action: u8) -> NodeId {
    NodeId(search.tree(agent).node(NodeId::ROOT).first_child.0 + u32::from(action))
}

#[test]
fn a_kept_tree_is_the_played_actions_subtree_and_the_others_start_fresh() {
    let params = SearchParams {
        depth: 5,
        expand_after: 2,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(100_000, params, 3);
    let root = HashGame { mix: [1, 2, 3, 4] };
    search.run_iterations(&root, 3_000);
    let played = [most_visited(&search, 0), most_visited(&search, 1)];
    let subtrees =
        [0, 1].map(|agent| tree_shape(&search, agent, root_child(&search, agent, played[agent])));
    assert!(subtrees[0].len() > 50, "{} nodes", subtrees[0].len());
    let next = HashGame { mix: [9, 8, 7, 6] };
    search.reset_keeping(&next, [Some(played[0]), Some(played[1]), None, None]);
    for (agent, subtree) in subtrees.iter().enumerate() {
        assert_eq!(&tree_shape(&search, agent, NodeId::ROOT), subtree);
        assert_eq!(search.tree(agent).len(), subtree.len());
    }
    for agent in 2..4 {
        assert_eq!(search.tree(agent).len(), 1);
        assert_eq!(search.tree(agent).node(NodeId::ROOT).visits, 0);
    }
    let stats = search.stats();
    assert_eq!(
        stats.nodes_kept,
        [subtrees[0].len(), subtrees[1].len(), 0, 0]
    );
    assert_eq!((stats.iterations, stats.simulated_plies), (0, 0));
    // The kept trees go on growing and the search on choosing legal actions.
    let stats = search.run_iterations_keeping(&next, [Some(0), Some(1), None, None], 2_000);
    assert_eq!(stats.iterations, 2_000);
    for agent in 0..4 {
        assert!(search.best_action(agent) < 9);
    }
}

/// A kept node stands a ply nearer the root: its mean is discounted once, as this turn's scores
/// will reach it, and `reuse_decay` keeps that share of its visits.
#[test]
fn kept_statistics_are_discounted_once_and_decayed() {
    let params = SearchParams {
        depth: 5,
        discount: 0.9,
        reuse_decay: 0.25,
        ..SearchParams::default()
    };
    let mut search = Smitsimax::new(100_000, params, 8);
    let root = HashGame { mix: [1, 2, 3, 4] };
    search.run_iterations(&root, 3_000);
    let played = most_visited(&search, 0);
    let old = *search.tree(0).node(root_child(&search, 0, played));
    let old_grandchildren = search
        .tree(0)
        .children(root_child(&search, 0, played))
        .to_vec();
    assert!(old.visits > 100 && !old_grandchildren.is_empty());
    search.reset_keeping(&root, [Some(played), None, None, None]);
    let kept = *search.tree(0).node(NodeId::ROOT);
    let kept_visits = (f64::from(old.visits) * 0.25).round();
    assert_eq!(f64::from(kept.visits), kept_visits);
    assert!((kept.mean() - old.mean() * 0.9).abs() < 1e-12);
    for (kept, old) in search
        .tree(0)
        .children(NodeId::ROOT)
        .iter()
        .zip(&old_grandchildren)
    {
        assert_eq!(
            f64::from(kept.visits),
            (f64::from(old.visits) * 0.25).round()
        );
        if kept.visits > 0 {
            assert!((kept.mean() - old.mean() * 0.9).abs() < 1e-12);
        }
    }
}

#[test]
fn a_tree_starts_fresh_when_it_cannot_be_kept() {
    let root = HashGame { mix: [5, 6, 7, 8] };
    let params = SearchParams {
        depth: 4,
        ..SearchParams::default()
    };
    let keep_all = [Some(0), Some(1), Some(2), Some(3)];
    let fresh = |search: &Smitsimax<HashGame>| {
        let stats = search.stats();
        assert_eq!(stats.nodes_kept, [0; MAX_AGENTS]);
        (0..MAX_AGENTS).all(|agent| {
            search.tree(agent).len() == 1 && search.tree(agent).node(NodeId::ROOT).visits == 0
        })
    };
    // No previous turn.
    let mut search = Smitsimax::new(50_000, params, 1);
    search.reset_keeping(&root, keep_all);
    assert!(fresh(&search));
    // Another depth, another selection policy.
    search.run_iterations(&root, 2_000);
    search.params_mut().depth = 5;
    search.reset_keeping(&root, keep_all);
    assert!(fresh(&search));
    search.run_iterations(&root, 2_000);
    search.params_mut().selection = Selection::Ucb1Tuned;
    search.reset_keeping(&root, keep_all);
    assert!(fresh(&search));
    // Other action counts (a game of another shape).
    let mut search = Smitsimax::new(50_000, params, 1);
    let game = DominantMatrixGame::new(&[3, 5, 4, 2], &[1, 2, 0, 1], 6);
    search.run_iterations(&game, 2_000);
    let other = DominantMatrixGame::new(&[3, 6, 4, 2], &[1, 2, 0, 1], 6);
    search.reset_keeping(&other, [None, Some(1), None, None]);
    assert_eq!(search.tree(1).len(), 1);
    assert_eq!(search.stats().nodes_kept[1], 0);
    // An action the search never tried, and an action out of range.
    let mut search = Smitsimax::new(50_000, params, 1);
    search.run_iterations(&root, 5);
    let untried = (0..9)
        .find(|&action| search.root_stats(0).nth(action as usize).map(|(_, v, _)| v) == Some(0))
        .expect("5 iterations visit at most 5 of the 9 root actions");
    search.reset_keeping(&root, [Some(untried), Some(200), None, None]);
    assert!(fresh(&search));
    // With nothing to keep, reset_keeping is reset: the same decisions.
    let mut plain = Smitsimax::new(50_000, params, 4);
    let mut keeping = Smitsimax::new(50_000, params, 4);
    plain.run_iterations(&root, 1_000);
    keeping.run_iterations_keeping(&root, [None; MAX_AGENTS], 1_000);
    for agent in 0..MAX_AGENTS {
        assert_eq!(
            plain.root_stats(agent).collect::<Vec<_>>(),
            keeping.root_stats(agent).collect::<Vec<_>>()
        );
    }
}
