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
            sum += network.player0_logit(&pods, &map, 9);
            sum += network.player0_logit_on(&pods, &course, 9);
        }
    });
    assert_eq!(allocations, 0);
    assert!(sum.is_finite() && sum != 0.0);
}
