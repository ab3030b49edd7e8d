# csb entry points. `make` runs the main job; `make test` passes the tests.
#   all     build everything, bundle and check dist/main.rs, run the bot on a recorded game
#   test    every test: csb with and without feature `exact`, then the other crates; first
#           installs Debian's chromium for the viewer's browser test and openssh-server,
#           openssh-client, parallel and rsync for learn's ssh test if they are missing (needs
#           root; without it those tests fail and say how to install them)
#   lint    rustfmt, clippy -D warnings on the workspace, and clippy incompatible_msrv (Rust 1.70)
#           on the bundled crate in each bundle's configuration (features one-pod, two-pod alone,
#           two-pod with the network: two-pod,net), which together hold all the bundled code;
#           then every league's bundle compiled alone with rustc 1.70 (scripts/msrv-bundles.sh,
#           installs the 1.70.0 toolchain with rustup if missing)
#   bundle  dist/main.rs for CodinGame (LEAGUE=wood3|wood2|wood1|bronze|silver|gold|legend, default
#           legend): the crate as `--no-default-features --features <features>` compiles it,
#           checked against target/release/csb $(BOT_ARGS) --league $(LEAGUE) on a recorded game
#           of that league's protocol; the league's features and game are its row of Cargo.toml's
#           [package.metadata.bundle.leagues] (FEATURES=.. and INPUT=.. override them). The
#           bundle, which has no flags, is compiled for the check with CSB_ITERATIONS and CSB_SEED
#           set to the same iterations and seed; `--prune` drops what the bundle never uses;
#           `--check-debug` compiles it again as CodinGame's IDE does (debug: no -O, overflow
#           checks on), without those variables, and plays the recorded game by the clock to
#           the end (every turn answered, no panic, exit 0)
#   bench   engine and search speed on fixed positions, plus the decision signature
#           (BENCH_ARGS=--engine: the engine's alone; --eval: the leaf evaluation's and the
#           networks' costs alone; --profile: where a turn's time goes, engine steps, leaf
#           evaluations, policy priors, default policy and the rest, for the default and the
#           hand bot at the real control's iterations; bot flags: the search's speed with them)
#   arena   build the arena, its test bot and the sparring bots (target/release/arena, testbot,
#           reflex, ga)
#   selfplay  self-play data for the value network into data/selfplay (GAMES=1600,
#           SELFPLAY_ITERATIONS=400, SHARD=0/1, seed 1; resumable: written games are skipped;
#           data/selfplay/manifest.txt lists them with the bots' signatures)
#   train   train the value network on data/selfplay into target/train (reproducible: seeded
#           weights, per-epoch checkpoint with the optimiser's state, loss.csv and loss.svg,
#           model.manifest beside the model), print its test-split figures beside the hand
#           evaluation's
#   td-chain  the value network by fitted TD(λ) on generations 2 and 3's self-play data
#           (TD_DATA, TD_WINDOW) into target/td-chain/step-0..5 (scripts/td-chain.sh: seeded,
#           resumable; step 5's model is the chain's, `make export-net MODEL=...` embeds it)
#   export-net  write target/train's model (or MODEL=...) into src/bot/value_net/weights.rs
#           (and learn/model/)
#   generation  one turn of the self-play loop, or the rest of an interrupted one (`learn
#           generation`: self-play by the best networks, training the value network and the
#           policy on the last WINDOW=3 generations (WINDOW_DATA="DIR ..." adds self-play
#           folders from outside the loop: games of generations not on this machine), a gate,
#           promotion into learn/generations,
#           ladder/players.toml and docs/generations.md; GEN_GAMES=800, GEN_ITERATIONS=5000,
#           GATE_GAMES=400, TARGET_KIND=td:0.8 trained TD_ROUNDS=4 times in a row (fitted TD,
#           each round GEN_EPOCHS=6 epochs bootstrapped from the round before, the first from
#           the parent), POLICY_EPOCHS=40 (0 keeps the parent's policy), learning rates
#           GEN_LR=0.002 and POLICY_LR=0.003, WARM_START=1 to start both trainings from the
#           parent's networks (else from the seed's weights), TEMPER_POLICY=1 to temper the
#           trained policy to its parent's sharpness, ACTION_INPUTS=1 to train the policy
#           with inputs per action (ACTION_CONTEXT=1: and their context layer;
#           ACTION_MIDDLE=1: and a second action layer),
#           POLICY_MIRROR=1 to train it on each game's reflection too, POLICY_ANNEAL=1 to
#           anneal its learning rate to zero, GATE_BUDGET_MS=50 for a gate on the clock (the real
#           control; alone on the machine) instead of at GEN_ITERATIONS, GATE_SPRT="0 50" (Elo bounds;
#           "-25 25" with PROMOTE_INCONCLUSIVE=1 promotes a generation not measurably worse:
#           one the gate leaves undecided after its games), JOBS=1 games at once
#           (JOBS=2 on both cores of this machine),
#           DEEP_ITERATIONS=20000 DEEP_SHARE=0.25 for deep turns (KataGo's playout-cap
#           randomisation: that share of self-play's turns searched at those iterations, in trees
#           of DEEP_NODES=400000 nodes, their positions alone training the policy),
#           SELECT_VALUE=1 to keep the trained value network only if it beats the parent's
#           on the window's test split (the parent's otherwise),
#           STOP_AFTER=selfplay|train|gate for a session's share; data in
#           data/generations; docs/learning.md, "Self-play generations")
#   generations-table  write docs/generations.md and its plots again from learn/generations
#   fuzz    run one fuzz target under AFL++ (TARGET=bot_two_pod|bot_one_pod|bot_output|replay|
#           cg_recording|match_result|ladder_players|ladder_results|tune_trajectory|selfplay_data,
#           SECONDS=600); installs cargo-afl if it is missing (docs/reliability.md)
#   fuzz-all  every target in turn (or TARGETS="a b"), SECONDS each, at nice 19, each resuming its
#           target/fuzz/<target>; one line per target at the end (scripts/fuzz-all.sh)
#   fuzz-cmin  minimise TARGET's grown AFL++ queue with afl-cmin into fuzz/corpus/TARGET
#   fuzz-table  rewrite docs/reliability.md's fuzz table from target/fuzz's AFL++ statistics

CARGO  ?= cargo
LEAGUE ?= legend
# The bundle's cargo features and the recorded game it is checked on: empty, the league's row of
# Cargo.toml's [package.metadata.bundle.leagues] (its protocol, and in Legend the value network
# the bot plays there by default, `--eval league`).
FEATURES ?=
INPUT  ?=
# The recorded game `make all` shows the bot's first moves on (the binary's default league).
DEMO_INPUT ?= replays/inputs/cg-demo.p0.txt
ITERATIONS ?= 2000
SEED ?= 1
# CodinGame's limit on the bundle's characters.
MAX_CHARS ?= 100000
# How the bundle is written: the steps between the expanded crate and the file a user pastes
# (`make bundle`, and the Rust 1.70 check of `make lint` on the same file).
BUNDLE_STEPS = --compact --prune --rename
BOT_ARGS ?= --iterations $(ITERATIONS) --seed $(SEED)

.PHONY: all build test lint bundle bench arena selfplay train td-chain export-net generation generations-table fuzz fuzz-all fuzz-cmin fuzz-table clean

all: build bundle
	@echo "== csb on $(DEMO_INPUT) ($(BOT_ARGS)): first moves"
	@target/release/csb $(BOT_ARGS) < $(DEMO_INPUT) 2>/dev/null | head -n 10
	@echo "== $$(target/release/csb $(BOT_ARGS) < $(DEMO_INPUT) 2>/dev/null | wc -l) command lines for $$(( ($$(wc -l < $(DEMO_INPUT)) - 5) / 4 )) turns"

build:
	$(CARGO) build --release --workspace

test:
	@sh scripts/install-chromium.sh || echo "make test: chromium could not be installed; the viewer's browser test will fail" >&2
	@sh scripts/install-ssh-tools.sh || echo "make test: sshd, ssh, parallel or rsync could not be installed; learn's ssh test will fail" >&2
	$(CARGO) test -p csb
	$(CARGO) test -p csb --features exact
	$(CARGO) test -p csb --lib --no-default-features --features two-pod
	$(CARGO) test -p csb --lib --no-default-features --features one-pod
	$(CARGO) test --workspace --exclude csb

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p csb --lib --bins --no-default-features --features two-pod -- -D warnings -D clippy::incompatible_msrv
	$(CARGO) clippy -p csb --lib --bins --no-default-features --features one-pod -- -D warnings -D clippy::incompatible_msrv
	$(CARGO) clippy -p csb --lib --bins --no-default-features --features two-pod,net -- -D warnings -D clippy::incompatible_msrv
	BUNDLE_STEPS="$(BUNDLE_STEPS)" sh scripts/msrv-bundles.sh

bundle:
	$(CARGO) build --release -p csb
	$(CARGO) run --quiet --release -p bundler -- --crate . --out dist/main.rs --league $(LEAGUE) \
		$(if $(FEATURES),--features $(FEATURES)) $(if $(INPUT),--compare-input $(INPUT)) \
		$(BUNDLE_STEPS) --max-chars $(MAX_CHARS) --check-compile --check-debug \
		--reference target/release/csb \
		--check-env CSB_ITERATIONS=$(ITERATIONS) --check-env CSB_SEED=$(SEED) \
		--reference-args "$(BOT_ARGS) --league $(LEAGUE)"

bench:
	$(CARGO) run --quiet --release -p csb --example bench -- $(BENCH_ARGS)

arena:
	$(CARGO) build --release -p arena -p sparring

GAMES      ?= 1600
SELFPLAY_ITERATIONS ?= 400
SHARD      ?= 0/1
EPOCHS     ?= 12

selfplay:
	$(CARGO) run --release -p learn -- selfplay --out data/selfplay --games $(GAMES) \
		--iterations $(SELFPLAY_ITERATIONS) --seed 1 --shard $(SHARD)

train:
	$(CARGO) run --release -p learn -- train --data data/selfplay --out target/train --epochs $(EPOCHS)

TD_DATA   ?= data/generations/gen-003/data
TD_WINDOW ?= data/generations/gen-002/data
td-chain:
	$(CARGO) build --release -p learn
	sh scripts/td-chain.sh target/td-chain $(TD_DATA) $(TD_WINDOW)

MODEL ?= target/train/model.safetensors
export-net:
	$(CARGO) run --release -p learn -- export --model $(MODEL)
	$(CARGO) fmt --all

GEN_GAMES      ?= 800
GEN_ITERATIONS ?= 5000
GATE_GAMES     ?= 400
WINDOW         ?= 3
WINDOW_DATA    ?=
TARGET_KIND    ?= td:0.8
TD_ROUNDS      ?= 4
GEN_EPOCHS     ?= 6
POLICY_EPOCHS  ?= 40
GEN_LR         ?= 0.002
POLICY_LR      ?= 0.003
WARM_START     ?=
TEMPER_POLICY  ?=
ACTION_INPUTS  ?=
ACTION_CONTEXT ?=
ACTION_MIDDLE ?=
POLICY_MIRROR ?=
POLICY_ANNEAL ?=
GATE_BUDGET_MS ?=
DEEP_ITERATIONS ?=
DEEP_SHARE     ?= 0.25
DEEP_NODES     ?= 400000
GATE_SPRT      ?= 0 50
PROMOTE_INCONCLUSIVE ?=
SELECT_VALUE   ?=
JOBS           ?= 1
STOP_AFTER     ?=
generation:
	$(CARGO) build --release -p learn
	nice -n 15 target/release/learn generation --games $(GEN_GAMES) --iterations $(GEN_ITERATIONS) \
		--gate-games $(GATE_GAMES) --gate-iterations $(GEN_ITERATIONS) --window $(WINDOW) \
		$(foreach dir,$(WINDOW_DATA),--window-data $(dir)) \
		--target $(TARGET_KIND) --td-rounds $(TD_ROUNDS) --epochs $(GEN_EPOCHS) \
		--policy-epochs $(POLICY_EPOCHS) --learning-rate $(GEN_LR) \
		--policy-learning-rate $(POLICY_LR) --sprt $(GATE_SPRT) --jobs $(JOBS) \
		$(if $(WARM_START),--warm-start) $(if $(TEMPER_POLICY),--temper-policy) \
		$(if $(ACTION_INPUTS),--action-inputs) $(if $(ACTION_CONTEXT),--action-context) $(if $(ACTION_MIDDLE),--action-middle) $(if $(POLICY_MIRROR),--policy-mirror) $(if $(POLICY_ANNEAL),--policy-anneal) $(if $(SELECT_VALUE),--select-value) $(if $(GATE_BUDGET_MS),--gate-budget-ms $(GATE_BUDGET_MS)) \
		$(if $(PROMOTE_INCONCLUSIVE),--promote-inconclusive) $(if $(STOP_AFTER),--stop-after $(STOP_AFTER)) \
		$(if $(DEEP_ITERATIONS),--deep-iterations $(DEEP_ITERATIONS) --deep-share $(DEEP_SHARE) --nodes $(DEEP_NODES))

generations-table:
	$(CARGO) run --release -p learn -- generations-table

TARGET  ?=
SECONDS ?= 600
fuzz:
	sh scripts/fuzz.sh "$(TARGET)" "$(SECONDS)"

fuzz-all:
	sh scripts/fuzz-all.sh "$(SECONDS)" $(TARGETS)

fuzz-cmin:
	sh scripts/fuzz-cmin.sh "$(TARGET)"

fuzz-table:
	sh scripts/fuzz-report.sh doc

clean:
	$(CARGO) clean
	rm -rf dist
