//! How the Smitsimax search behaves on small games: convergence to dominant actions, agents with
//! different action counts, discount, determinism, full pools, stopping. Games of
//! random shape are drawn with `rand` (`tests/seeded/mod.rs`: default seed, `CSB_TEST_SEED` to
//! try others, the seed printed on failure).

mod search_games;
mod seeded;

use csb::search::{Game, NodeId, SearchParams, Smitsimax, CHECK_INTERVAL, MAX_AGENTS};
use search_games::{DominantMatrixGame, HashGame, MatchingPennies, QuickOrSlowWin};
use seeded::Seeded;

/// The generic search's settings these tests were written for (the bot plays depth 10,
/// discount 0.99 and expansion after 10 visits, `GENERIC`).
const GENERIC: SearchParams = SearchParams {
    depth: 6,
    exploration: 1.0,
    puct_exploration: 1.5,
    random_visits: 10,
    expand_after: 0,
    discount: 1.0,
};

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
    {
        for seed in 0..5 {
            let params = SearchParams {
                depth: 4,
                ..GENERIC
            };
            let mut search = Smitsimax::new(200_000, params, seed);
            let stats = search.run_iterations(&(), &game, 5_000);
            assert_eq!(stats.iterations, 5_000);
            assert_eq!(stats.simulated_plies, 4 * 5_000);
            for agent in 0..3 {
                let dominant = game.dominant[agent];
                assert_eq!(search.best_action(agent), dominant, "seed {seed}");
                assert_eq!(most_visited(&search, agent), dominant);
                let root_visits: u32 = search.root_stats(agent).map(|(_, v, _)| v).sum();
                let dominant_visits = search.root_stats(agent).nth(dominant.into()).unwrap().1;
                assert!(
                    dominant_visits * 2 > root_visits,
                    "seed {seed} agent {agent}: {dominant_visits}/{root_visits}"
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
        ..GENERIC
    };
    let mut search = Smitsimax::new(100_000, params, 11);
    search.run_iterations(&(), &game, 4_000);
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
    search.run_iterations(&(), &single, 500);
    assert_eq!(search.best_action(0), 2);
    assert_eq!(search.root_stats(1).count(), 0);
    assert_eq!(search.best_action(3), 0);
    assert_eq!(search.stats().nodes_used[1..], [0; MAX_AGENTS - 1]);
}

#[test]
fn a_sooner_terminal_win_is_preferred_only_when_discounted() {
    let root = QuickOrSlowWin::default();
    {
        let undiscounted = GENERIC;
        let mut search = Smitsimax::new(10_000, undiscounted, 3);
        search.run_iterations(&(), &root, 2_000);
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
        search.run_iterations(&(), &root, 2_000);
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
        ..GENERIC
    };
    let mut search = Smitsimax::new(100, params, 1);
    search.run_iterations(&(), &root, 2_000);
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
fn same_seed_same_search_different_seed_different_search() {
    let root = HashGame { mix: [1, 2, 3, 4] };
    let run = |seed: u64| {
        let mut search = Smitsimax::new(50_000, GENERIC, seed);
        let stats = search.run_iterations(&(), &root, 3_000);
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
    let mut reused = Smitsimax::new(50_000, GENERIC, 9);
    let mut fresh = Smitsimax::new(50_000, GENERIC, 9);
    assert_eq!(
        reused.run_iterations(&(), &root, 500),
        fresh.run_iterations(&(), &root, 500)
    );
    assert_eq!(
        reused.run_iterations(&(), &root, 700),
        fresh.run_iterations(&(), &root, 700)
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
            ..GENERIC
        };
        let mut search = Smitsimax::new(capacity, params, 77);
        let stats = search.run_iterations(&(), &game, 20_000);
        assert_eq!(stats.iterations, 20_000);
        assert_eq!(stats.simulated_plies, 12 * 20_000);
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
        ..GENERIC
    };
    let mut search = Smitsimax::new(10_000, params, 0);
    assert_eq!(search.iterate(&()), 0, "no root yet");
    let stats = search.run_iterations(&(), &root, 10);
    assert_eq!(stats.simulated_plies, 32 * 10);
    search.params_mut().depth = 0;
    assert_eq!(search.iterate(&()), 1);

    let finished = DominantMatrixGame::new(&[3], &[1], 0);
    let mut search = Smitsimax::new(10_000, GENERIC, 0);
    let stats = search.run_iterations(&(), &finished, 100);
    assert_eq!(stats.simulated_plies, 0);
    assert_eq!(search.best_action(0), 0);
}

#[test]
fn run_until_checks_its_predicate_every_interval() {
    let root = HashGame::default();
    let mut search = Smitsimax::new(100_000, GENERIC, 0);
    let mut checks = 0;
    let stats = search.run_until(&(), &root, || {
        checks += 1;
        checks == 3
    });
    assert_eq!(stats.iterations, 3 * CHECK_INTERVAL);
    let stats = search.run_until(&(), &root, || true);
    assert_eq!(
        stats.iterations, CHECK_INTERVAL,
        "at least one interval runs"
    );
}

#[test]
fn matching_pennies_keeps_both_actions_in_play() {
    for seed in 0..5 {
        let mut search = Smitsimax::new(1_000, GENERIC, seed);
        search.run_iterations(&(), &MatchingPennies::default(), 10_000);
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
            ..GENERIC
        };
        let mut search = Smitsimax::new(200_000, params, 3);
        let stats = search.run_iterations(&(), &game, 5_000);
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

/// [`DominantMatrixGame`] whose default policy always plays `preferred`.
#[derive(Clone, Copy, Debug)]
struct Guided {
    inner: DominantMatrixGame,
    preferred: u8,
}

impl Game for Guided {
    type Context = ();
    fn agent_count(&self) -> usize {
        self.inner.agent_count()
    }
    fn action_count(&self, agent: usize) -> usize {
        self.inner.action_count(agent)
    }
    fn step(&mut self, context: &(), actions: &[u8; MAX_AGENTS]) {
        self.inner.step(context, actions)
    }
    fn is_terminal(&self, context: &()) -> bool {
        self.inner.is_terminal(context)
    }
    fn evaluate(&self, context: &(), scores: &mut [f64; MAX_AGENTS]) {
        self.inner.evaluate(context, scores)
    }
    fn default_action(&self, _: &(), _agent: usize, _rng: &mut csb::search::Rng) -> u8 {
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
        ..GENERIC
    };
    let mut search = Smitsimax::new(100_000, params, 3);
    search.run_iterations(&(), &game, 500);
    for agent in 0..2 {
        for (action, visits, _) in search.root_stats(agent) {
            assert_eq!(visits, if action == 2 { 500 } else { 0 }, "agent {agent}");
        }
    }
    // With the usual few random visits, selection takes over and still finds the dominant move.
    let mut search = Smitsimax::new(100_000, GENERIC, 3);
    search.run_iterations(&(), &game, 5_000);
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
        let params = SearchParams { depth, ..GENERIC };
        let mut search = Smitsimax::new(200_000, params, rng.int(0, 1 << 40) as u64);
        search.run_iterations(&(), &game, 5_000);
        for (agent, &best) in dominant.iter().enumerate() {
            assert_eq!(
                search.best_action(agent),
                best,
                "draw {draw}: counts {counts:?}, dominant {dominant:?}, depth {depth}"
            );
        }
    }
}
