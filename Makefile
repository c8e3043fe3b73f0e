# RaftNS — a Raft-replicated name server for Apache RocketMQ.
# `make help` lists the targets.

GO        ?= go
BIN       := bin
DATA_DIR  ?= ./data
TEST_TIMEOUT ?= 30m
FUZZTIME  ?= 20s
CHAOS_SEED     ?= 1
CHAOS_RUNS     ?= 25
CHAOS_DURATION ?= 60s
CHAOS_OUT      ?= ./chaos-out
DISK_LOSS_RUNS ?= 20
SOAK_DURATION  ?= 150s
SOAK_OUT       ?= ./soak-out/samples.csv

# The build's identity (raftns --version, /v1/status, raftns_build_info).
BUILDINFO := github.com/raftns/raftns/internal/buildinfo
COMMIT    ?= $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo +dirty)
DESCRIBE  ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS   := -X $(BUILDINFO).commit=$(COMMIT) -X $(BUILDINFO).describe=$(DESCRIBE)

.DEFAULT_GOAL := help

.PHONY: help
help: ## Show the targets
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-14s %s\n", $$1, $$2}'

.PHONY: build
build: ## Build raftns, raftnsctl and raftns-bench into bin/
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/ ./cmd/... ./bench/raftns-bench

.PHONY: run
run: build ## Run a single-member server on :9876 with its data in ./data
	$(BIN)/raftns --data-dir $(DATA_DIR)

.PHONY: cluster
cluster: build ## Run a three-member cluster in the foreground (clients: 127.0.0.1:9876-9878); Ctrl-C stops it
	./cmd/raftns/cluster.sh $(BIN)/raftns ./.cluster

.PHONY: test
test: ## Run every test with the race detector
	$(GO) test -race -timeout $(TEST_TIMEOUT) ./...

.PHONY: test-cluster
test-cluster: ## Run only the multi-member tests (in-process and multi-process)
	$(GO) test -race -timeout $(TEST_TIMEOUT) -run 'Cluster|Process' ./cluster/... ./cmd/... ./bench/...

.PHONY: chaos
chaos: ## Seeded chaos runs on real processes: CHAOS_RUNS per member count (3 and 5) of CHAOS_DURATION from CHAOS_SEED; failing histories and visualizations in CHAOS_OUT (docs/contributors/reliability.md)
	$(GO) test ./test/chaos -run TestChaos -v -count=1 -timeout 0 -args \
	  -chaos.seed=$(CHAOS_SEED) -chaos.runs=$(CHAOS_RUNS) -chaos.duration=$(CHAOS_DURATION) -chaos.members=3,5 -chaos.out=$(abspath $(CHAOS_OUT))

.PHONY: disk-loss-test
disk-loss-test: ## DISK_LOSS_RUNS sequences on three real processes in which a member loses its disk (each variant and member in turn); no acknowledged write may be lost (docs/contributors/reliability.md)
	$(GO) test ./cmd/raftns -run 'TestProcess_DiskLoss$$' -v -count=1 -timeout 0 -args -disk-loss.runs=$(DISK_LOSS_RUNS)

.PHONY: upgrade-test
upgrade-test: ## Rolling upgrade on real processes: three members of release 0.3.0 upgraded one at a time to this build under load, one downgraded back and upgraded again, the upgrade finalized, then one member loses its disk (docs/operators/operations.md, "Upgrading")
	$(GO) test ./test/chaos -run TestUpgrade -v -count=1 -timeout 20m -args -upgrade.run

.PHONY: soak
soak: ## Three members for SOAK_DURATION under 1,000 brokers, churn, writes, reads, leader transfers and a restart; fails on a figure that keeps growing; samples to SOAK_OUT (docs/contributors/reliability.md, "Soak")
	$(GO) test ./test/soak -run TestSoak -v -count=1 -timeout 0 -args -soak.duration=$(SOAK_DURATION) -soak.out=$(abspath $(SOAK_OUT))

.PHONY: fuzz
fuzz: ## Fuzz every decoder for FUZZTIME each
	@for spec in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for f in $$(grep -h '^func Fuzz' $$spec/*_test.go | sed 's/func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
	    echo "== $$spec $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$spec || exit 1; \
	  done; \
	done

.PHONY: bench
bench: ## Run the Go benchmarks
	$(GO) test -run '^$$' -bench . -benchmem ./...

.PHONY: lint
lint: ## gofmt and go vet
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

.PHONY: golden
golden: ## Regenerate the compressed-body goldens from their hand-built layouts
	$(GO) test ./protocol/body -run Compressed -update

.PHONY: interop
interop: ## Real RocketMQ 5.5.0/4.9.x brokers, clients and mqadmin (Maven Central) against three members
	./test/interop/run.sh

.PHONY: interop-java
interop-java: ## The same scenarios against three reference NameServers (validates the harness)
	NAMESRV=java ./test/interop/run.sh

.PHONY: interop-capture
interop-capture: ## Re-record testdata/frames/captured from real RocketMQ
	./test/interop/capture.sh

.PHONY: clean
clean: ## Remove build output and local data
	rm -rf $(BIN) $(DATA_DIR) ./.cluster $(CHAOS_OUT) $(dir $(SOAK_OUT)) test/interop/target test/interop/v4/target
