//! Self-play generations (`learn generation`): one turn of the loop per call. Generation `g`
//! (a folder `gen-NNN` under the root) is made by the current best generation `b`:
//!
//! 1. **selfplay**: `b`'s networks (`csb --eval net --net-file --policy-net`: its value network
//!    at the leaves, its policy's priors in PUCT) play themselves at a fixed iteration count into
//!    `gen-NNN/data` (`learn selfplay`, resumable game by game), a share of the turns deeper with
//!    `--deep-iterations` (`data::deep_turns`; the policy then trains on those turns alone);
//! 2. **train**: the next value network is trained on the data of the last `window` generations
//!    (`learn train`, resumable epoch by epoch) into `gen-NNN/train`, with the hand
//!    evaluation's share of the target from the schedule (`value::target::hand_share`); then the next
//!    policy on the same window's root visits and values (`learn train-policy`, seeded, so an
//!    interrupted run trained again ends the same) into `gen-NNN/train-policy`, or with
//!    `--policy-epochs 0` the parent's policy is kept; with `--select-value` the generation keeps
//!    the trained value network only if it beats its parent's on the window's test split
//!    (`select`), the parent's otherwise;
//! 3. **gate**: the candidate (`gen-NNN/network.txt` and `policy.txt`) plays `b` in game pairs
//!    (a map each, seats swapped) at a fixed iteration count, in-process on the referee's
//!    engine (`--jobs` games at once, recorded in order), until
//!    arena's SPRT (`arena::stats::sprt`, pentanomial) decides or the game budget ends; each
//!    finished game is appended to `gen-NNN/gate.txt` and never played again;
//! 4. **promote**: accepted, the candidate becomes the best (`best.txt`), its model, manifest,
//!    network file and state are kept (`--keep`, in the repository), it gets a ladder player and
//!    the generations table and plot are written again (`table.rs`); otherwise the
//!    best stays.
//!
//! Each step ends with a line appended to `gen-NNN/state.txt` (written whole, in the
//! manifest format), so a run interrupted at any point resumes where it stopped when the same
//! command is run again: finished games, epochs, gate games and kept files are never played,
//! trained or written again. A folder begun with other settings is refused (one line), as are
//! data or models whose manifests do not match their files (checked by `learn train`).
//!
//! The files: the settings and places (`settings`), a generation's folder and state (`state`),
//! generation 1 (`first`), a new root given the kept generations (`restore`), the turn step by
//! step (`run`), the `learn` processes it runs (`learn_process`), the value network's choice
//! (`select`), the gate (`gate`), the promotion (`promote`), the ETA (`eta`), the generations
//! table (`table`), and `learn generation` and `learn generations-table` (`command`). It
//! imports every earlier room: `common`, `data`, `selfplay`, `value`, `policy`.

pub mod command;
pub mod eta;
pub mod first;
pub mod gate;
pub mod learn_process;
pub mod promote;
pub mod restore;
pub mod run;
pub mod select;
pub mod settings;
pub mod state;
pub mod table;
