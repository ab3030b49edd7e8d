//! The search allocates nothing once constructed: a counting global allocator watches every
//! allocation made by this test's thread while it searches.

mod search_games;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use csb::search::{SearchParams, Smitsimax};
use search_games::{DominantMatrixGame, HashGame};

/// Counts allocations (and reallocations) of the current thread while counting is on.
struct CountingAllocator;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn note_allocation() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
    }
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Allocations made by `work` on this thread.
fn allocations_during(work: impl FnOnce()) -> u64 {
    ALLOCATIONS.with(|count| count.set(0));
    COUNTING.with(|counting| counting.set(true));
    work();
    COUNTING.with(|counting| counting.set(false));
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn the_counter_sees_allocations() {
    let allocations = allocations_during(|| {
        std::hint::black_box(vec![1u8; 10]);
    });
    assert_eq!(allocations, 1);
}

#[test]
fn searching_allocates_nothing_after_construction() {
    let mut search: Smitsimax<HashGame> = Smitsimax::new(20_000, SearchParams::default(), 1);
    let root = HashGame { mix: [5, 6, 7, 8] };
    let mut decisions = [0u8; 4];
    let mut nodes = 0;
    let allocations = allocations_during(|| {
        // Several turns, the pool filling up in the last ones.
        for turn in 0..4 {
            let stats = search.run_iterations(&(), &root, 2_000 * (turn + 1));
            nodes = nodes.max(stats.nodes_used[0]);
            for (agent, decision) in decisions.iter_mut().enumerate() {
                *decision = search.best_action(agent);
            }
            let _ = search
                .root_stats(0)
                .map(|(_, visits, _)| visits)
                .sum::<u32>();
        }
        let mut checks = 0;
        search.run_until(&(), &root, || {
            checks += 1;
            checks == 10
        });
        search.reset(&root);
        search.iterate(&());
        std::hint::black_box(search.stats());
    });
    assert!(nodes > 1, "the loop above searched nothing");
    assert_eq!(allocations, 0);
    assert!(decisions.iter().all(|&d| d < 9));

    let game = DominantMatrixGame::new(&[3, 5], &[1, 2], 5);
    let mut search = Smitsimax::new(1_000, SearchParams::default(), 2);
    let allocations = allocations_during(|| {
        search.run_iterations(&(), &game, 5_000);
    });
    assert_eq!(allocations, 0);
}

#[cfg(feature = "net")]
#[test]
fn the_value_network_allocates_nothing_per_evaluation() {
    use csb::bot::timeout_clocks::TimeoutClocks;
    use csb::bot::value_net::course::Course;
    use csb::bot::value_net::network::Network;
    use csb::engine::{FastPod, Map, Vec2};
    let map = Map::new(&[(1000, 1000), (9000, 1000), (9000, 7000)]).unwrap();
    let network = Network::embedded();
    let course = Course::new(&map);
    let pod = |x: f64, passes: u16| FastPod {
        pos: Vec2::new(x, 2000.0),
        vel: Vec2::new(100.0, -40.0),
        heading: Vec2::new(0.0, 1.0),
        passes,
        next_checkpoint: (passes % 3) as u8,
        boost_used: false,
        shield_lock_turns: 0,
    };
    let mut sum = 0.0;
    let allocations = allocations_during(|| {
        for step in 0..1_000 {
            let pods = [
                pod(f64::from(step), 1),
                pod(5000.0, 2),
                pod(7000.0, 1),
                pod(3000.0, 0),
            ];
            let clocks = TimeoutClocks::new([100 - step % 120, 70]);
            sum += network.player0_logit(&pods, &map, 9, clocks);
            sum += network.player0_logit_on(&pods, &course, 9, clocks);
        }
    });
    assert_eq!(allocations, 0);
    assert!(sum.is_finite() && sum != 0.0);
}

#[cfg(all(feature = "net", feature = "cli"))]
#[test]
fn the_policy_network_and_the_guided_search_allocate_nothing() {
    use csb::bot::actions::ActionSet;
    use csb::bot::csb_game::{CsbGame, RaceContext};
    use csb::bot::evaluation::{EvalWeights, Roles};
    use csb::bot::leaf_evaluation::HandEvaluation;
    use csb::bot::policy_net::guided::Guided;
    use csb::bot::policy_net::network::PolicyNetwork;
    use csb::bot::timeout_clocks::TimeoutClocks;
    use csb::bot::value_net::course::Course;
    use csb::engine::{FastPod, League, Map, Vec2};
    use csb::search::puct::Puct;
    let map = Map::new(&[(1000, 1000), (9000, 1000), (9000, 7000)]).unwrap();
    // A network that prefers some actions, so the priors are not uniform.
    let mut network = PolicyNetwork::zeros();
    for (input, row) in network.input.weights.iter_mut().enumerate() {
        for (hidden, weight) in row.iter_mut().enumerate() {
            *weight = ((input * 7 + hidden * 3) % 11) as f32 / 11.0 - 0.5;
        }
    }
    for (hidden, row) in network.heads.weights.iter_mut().enumerate() {
        for (output, weight) in row.iter_mut().enumerate() {
            *weight = ((hidden * 5 + output) % 13) as f32 / 13.0 - 0.5;
        }
    }
    let pod = |x: f64, passes: u16| FastPod {
        pos: Vec2::new(x, 2000.0),
        vel: Vec2::new(100.0, -40.0),
        heading: Vec2::new(0.0, 1.0),
        passes,
        next_checkpoint: (passes % 3) as u8,
        boost_used: false,
        shield_lock_turns: 0,
    };
    let pods = [
        pod(1000.0, 1),
        pod(5000.0, 2),
        pod(7000.0, 1),
        pod(3000.0, 0),
    ];
    let course = Course::new(&map);
    let mut sum = 0.0;
    let allocations = allocations_during(|| {
        for step in 0..1_000 {
            let mut moved = pods;
            moved[0].pos.x += f64::from(step);
            let clocks = TimeoutClocks::FULL;
            let outputs = network.team_outputs(&moved, &course, 9, clocks, step as usize % 2);
            sum += outputs.priors[0][3] + outputs.values[1];
        }
    });
    assert_eq!(allocations, 0);
    assert!(sum.is_finite() && sum != 0.0);

    let hand = HandEvaluation {
        weights: EvalWeights::default(),
    };
    let context = RaceContext {
        map,
        actions: ActionSet::new(League::Legend),
        max_thrust: 200.0,
        passes_to_finish: 9,
        shield_near: true,
        greedy: 0.8,
        // The hand evaluation at the leaves, the priors and rollouts guided.
        evaluation: Guided::new(hand, network, &map, true),
    };
    let roles = [0, 2].map(|runner| Roles {
        runner,
        blocker: runner + 1,
        blocker_races: false,
    });
    let root = CsbGame::root(&context, pods, TimeoutClocks::FULL, roles);
    let mut search: Smitsimax<_, Puct> =
        Smitsimax::with_selection(20_000, SearchParams::default(), 3);
    let mut nodes = 0;
    let allocations = allocations_during(|| {
        for turn in 0..3 {
            let stats = search.run_iterations(&context, &root, 1_000 * (turn + 1));
            nodes = nodes.max(stats.nodes_used[0]);
        }
    });
    assert!(nodes > 1, "the guided search grew no tree");
    assert_eq!(allocations, 0);
}
