# informer-from-scratch: rebuild client-go's informer machinery one layer at a time.
# Run `make` for the list of targets.

.DEFAULT_GOAL := help
SHELL := /bin/bash

# Native Windows is not a target (no flock, process groups or POSIX signals
# for the playground): say so at once instead of failing later. Inside WSL 2,
# make does not see OS=Windows_NT and everything runs as on Linux.
ifeq ($(OS),Windows_NT)
  $(error This course runs on Linux and macOS. On Windows, run it inside WSL 2 (a Linux): see the README)
endif
GO ?= go
# The linter make test runs, pinned. go run pkg@version builds it from the
# module proxy (checked against the checksum database) into the build cache,
# outside the learner's go.mod.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# The stages: directory and one line each. A stage is "ready" once its demo exists.
STAGE_DIR_1 := 01-listwatch
STAGE_DIR_2 := 02-reflector
STAGE_DIR_3 := 03-deltafifo
STAGE_DIR_4 := 04-indexer
STAGE_DIR_5 := 05-processor
STAGE_DIR_6 := 06-sharedinformer
STAGE_DIR_7 := 07-factory
STAGE_DIR_8 := 08-workqueue-controller
STAGE_WHAT_1 := ListWatch and pager: LIST in pages, WATCH from a resourceVersion, WatchList
STAGE_WHAT_2 := Reflector: list, watch, relist on 410, backoff, bookmarks, WatchList streaming
STAGE_WHAT_3 := DeltaFIFO and RealFIFO: the queues between reflector and informer
STAGE_WHAT_4 := Indexer: the thread-safe local cache, indexes and listers
STAGE_WHAT_5 := sharedProcessor and processorListener: fan-out to event handlers
STAGE_WHAT_6 := SharedIndexInformer: stages 1-5 assembled into a working informer
STAGE_WHAT_7 := SharedInformerFactory: one informer per type, shared
STAGE_WHAT_8 := Typed workqueue and a controller on top of the factory
STAGE_WHAT_zh_1 := ListWatch 与分页器：分页 LIST、从某个 resourceVersion 开始 WATCH、WatchList
STAGE_WHAT_zh_2 := Reflector：list、watch、遇 410 重新 LIST、退避、bookmark、WatchList 流式
STAGE_WHAT_zh_3 := DeltaFIFO 与 RealFIFO：Reflector 与 Informer 之间的队列
STAGE_WHAT_zh_4 := Indexer：线程安全的本地缓存、索引与 lister
STAGE_WHAT_zh_5 := sharedProcessor 与 processorListener：把通知分发给各个 handler
STAGE_WHAT_zh_6 := SharedIndexInformer：把第 1-5 阶段组装成一个能工作的 Informer
STAGE_WHAT_zh_7 := SharedInformerFactory：每种类型一个 Informer，大家共享
STAGE_WHAT_zh_8 := 泛型 workqueue，以及建立在 factory 之上的控制器
STAGES := 1 2 3 4 5 6 7 8

# `make run-stage 3` passes the stage as a second goal; turn it into N and make
# it a no-op goal. `make run-stage N=3` sets N directly.
ifeq ($(firstword $(MAKECMDGOALS)),run-stage)
  STAGE_ARGS := $(wordlist 2,$(words $(MAKECMDGOALS)),$(MAKECMDGOALS))
  ifneq ($(STAGE_ARGS),)
    $(eval $(STAGE_ARGS):;@:)
  endif
  N ?= $(STAGE_ARGS)
  STAGE := $(patsubst 0%,%,$(strip $(N)))
  # "0" (or "00") strips to nothing: a stage number that names no stage,
  # not a request for the list.
  ifneq ($(strip $(N)),)
    ifeq ($(STAGE),)
      $(error There is no stage "$(strip $(N))": the stages are 1 to 8 (run "make run-stage" for the list))
    endif
  endif
  # RUN_LANG is the language run-stage's own lines speak, chosen as the
  # demo chooses it (internal/lang): --lang in ARGS, else the first of
  # LC_ALL, LC_MESSAGES and LANG that is set, Chinese when it starts with zh.
  # (Each case pattern opens with its own parenthesis, so that make's
  # $(shell) sees them balanced.)
  RUN_LANG := $(shell l=; set -- $(ARGS); while [ $$# -gt 0 ]; do case "$$1" in (--) break;; (--lang=[zZ][hH]*|-lang=[zZ][hH]*) l=zh;; (--lang=*|-lang=*) l=en;; (--lang|-lang) l=$$2;; esac; shift; done; \
    [ -n "$$l" ] || l=$${LC_ALL:-$${LC_MESSAGES:-$$LANG}}; case "$$l" in ([zZ][hH]*) echo zh;; (*) echo en;; esac)
  ifneq ($(STAGE),)
    ifneq ($(words $(STAGE)),1)
      $(error make run-stage takes one stage number, got "$(N)")
    endif
    ifeq ($(filter $(STAGE),$(STAGES)),)
      $(error There is no stage "$(N)": the stages are 1 to 8 (run "make run-stage" for the list))
    endif
    ifeq ($(wildcard $(STAGE_DIR_$(STAGE))/demo/main.go),)
      $(error Stage $(STAGE) ($(STAGE_DIR_$(STAGE))) is not built yet: its issue is still open. Stages ready now: $(strip $(foreach s,$(STAGES),$(if $(wildcard $(STAGE_DIR_$(s))/demo/main.go),$(s)))))
    endif
  endif
endif

## help: list these targets (the default)
.PHONY: help
help:
	@echo "Targets:"
	@grep -E '^## ' $(MAKEFILE_LIST) | sed -e 's/^## /  make /' -e 's/: /\t/' | expand -t 30

## run-stage N: run stage N's demo on the playground (a real cluster: ARGS=--kubeconfig=PATH or INFORMER_KUBECONFIG); no N lists the stages
.PHONY: run-stage
run-stage:
ifeq ($(STAGE),)
ifeq ($(RUN_LANG),zh)
	@echo "各个阶段（make run-stage N）："
	@$(foreach s,$(STAGES),printf '  %s  %-26s %s  %s\n' $(s) $(STAGE_DIR_$(s)) "$(if $(wildcard $(STAGE_DIR_$(s))/demo/main.go),可运行    ,尚未完成  )" "$(STAGE_WHAT_zh_$(s))";)
	@echo "demo 的参数用 ARGS 传，比如 make run-stage 1 ARGS=--wait；ARGS=--lang=en 改用英文讲解（默认跟随 locale）"
else
	@echo "Stages (make run-stage N):"
	@$(foreach s,$(STAGES),printf '  %s  %-26s %-13s %s\n' $(s) $(STAGE_DIR_$(s)) "$(if $(wildcard $(STAGE_DIR_$(s))/demo/main.go),ready,not built yet)" "$(STAGE_WHAT_$(s))";)
	@echo "Pass demo flags with ARGS, e.g. make run-stage 1 ARGS=--wait, or ARGS=--lang=zh for Chinese narration (the locale decides by default)"
endif
else
	@mkdir -p .bin
	@echo "$(SAY_COMPILING_$(RUN_LANG))"
	@# go build -v names each package it compiles: none when the build cache is
	@# warm, about 600 (client-go and the standard library) the first time.
	@set -o pipefail; $(GO) build -v -o .bin/stage$(STAGE) ./$(STAGE_DIR_$(STAGE))/demo 2>&1 | \
	  awk -v say='$(SAY_COMPILED_$(RUN_LANG))' '/^[^ :]+$$/ { if (++n % 100 == 0) printf "  " say "\n", n; fflush(); next } { print }'
	@exec ./.bin/stage$(STAGE) $(ARGS)
endif

# run-stage's own lines, in the language of RUN_LANG.
SAY_COMPILING_en = Compiling the stage $(STAGE) demo…
SAY_COMPILING_zh = 正在编译第 $(STAGE) 阶段的 demo……
SAY_COMPILED_en = compiled %d packages (about 600 on a first build; later builds reuse them)
SAY_COMPILED_zh = 已编译 %d 个包（第一次编译大约 600 个，以后的编译会复用它们）

# The labs take their number as run-stage does: make lab-check 3 (or N=3);
# lab-hint and lab-wrong take a name after it: make lab-hint 3 Pop.
LAB_GOALS := lab-start lab-check lab-hint lab-solution lab-diff lab-wrong lab-mutants
ifneq ($(filter $(firstword $(MAKECMDGOALS)),$(LAB_GOALS)),)
  LAB_ARGS := $(wordlist 2,$(words $(MAKECMDGOALS)),$(MAKECMDGOALS))
  ifneq ($(LAB_ARGS),)
    $(eval $(LAB_ARGS):;@:)
  endif
  N ?= $(firstword $(LAB_ARGS))
  LAB_NAME := $(wordlist 2,$(words $(LAB_ARGS)),$(LAB_ARGS))
endif
LAB := mkdir -p .bin && $(GO) build -o .bin/lab ./cmd/lab && ./.bin/lab

## lab: list the labs: you write a stage's core functions, and the stage's tests grade them against client-go
.PHONY: lab
lab:
	@$(LAB) $(ARGS) list

## lab-start N: enter lab N: its functions become stubs that state their contract (refuses if you have uncommitted changes to them)
.PHONY: lab-start
lab-start:
	@$(LAB) $(ARGS) start $(N)

## lab-check N: grade lab N: the stage's differential tests, ours (yours) against client-go
.PHONY: lab-check
lab-check:
	@$(LAB) $(ARGS) check $(N)

## lab-hint N [FUNC]: the next hint for one function of lab N, a step at a time (ARGS=--lang=zh for Chinese; ARGS=--all prints every hint, for instructors)
.PHONY: lab-hint
lab-hint:
	@$(LAB) $(ARGS) hint $(N) $(LAB_NAME)

## lab-solution N: end lab N: your code is saved (make lab-diff N shows it), the solution is put back
.PHONY: lab-solution
lab-solution:
	@$(LAB) $(ARGS) solution $(N)

## lab-diff N: your code in lab N (or your last attempt) beside the solution, function by function
.PHONY: lab-diff
lab-diff:
	@$(LAB) $(ARGS) diff $(N)

## lab-wrong N [NAME]: the wrong answers lab N's grader rejects; with a NAME, what it changes and what the check says of it
.PHONY: lab-wrong
lab-wrong:
	@$(LAB) $(ARGS) wrong $(N) $(LAB_NAME)

## lab-mutants N: mutate lab N's solution and grade every mutant as lab-check does; survivors fail it (tens of minutes; ARGS=-j=2, -only=FUNC, -list, -show=ID)
.PHONY: lab-mutants
lab-mutants:
	@$(LAB) $(ARGS) mutants $(N)

## test: gofmt, go vet, staticcheck, race-enabled tests of every package, the docs checks and conformance (CI runs this)
.PHONY: test
test: playground-binaries
	@echo "== gofmt"
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	@echo "== go vet"
	$(GO) vet ./...
	@echo "== go vet for macOS (arm64 and amd64): the module, tests included, still compiles there"
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=darwin GOARCH=amd64 $(GO) vet ./...
	@echo "== staticcheck (keep a finding on purpose with //lint:ignore CHECK reason)"
	$(GO) run $(STATICCHECK) ./...
	@echo "== mermaid: every diagram of the docs renders in headless Chromium, none wider than 4:1 (skipped without Node.js)"
	@$(GO) run ./cmd/diagrams
	@echo "== go test -race (includes the docs checks in internal/docscheck and the generated sequence diagrams)"
	@# cmd/testprogress runs go test -json and prints go test's lines, each
	@# package as it ends, and after 15 s without a line, which packages are
	@# still running and for how long. Built, not go run: go run would turn
	@# go test's exit status into 1 and add a line of its own.
	@mkdir -p .bin && $(GO) build -o .bin/testprogress ./cmd/testprogress
	GO=$(GO) ./.bin/testprogress -slowest=12 -race -timeout 30m ./...
	@echo "== conformance: client-go's own tests against our stages"
	@GO=$(GO) $(GO) run ./proving-ground/conformance

## conformance: client-go's own unit tests, run against our stages (ARGS=-v lists every test and exclusion; ARGS=-excluded tries the excluded ones)
.PHONY: conformance
conformance:
	@GO=$(GO) $(GO) run ./proving-ground/conformance $(ARGS)

## versions: prove the version timeline (docs/{en,zh}/versions.md) from the released client-go and apiserver modules: each row's change absent in the release before, present in the one it names (downloads the two dozen releases it reads once; ARGS=-v shows every release)
.PHONY: versions
versions:
	@GO=$(GO) $(GO) run ./proving-ground/versions $(ARGS)

## generate: rewrite stage 07's generated informers and listers (07-factory/gen); make test fails when they are stale
.PHONY: generate
generate:
	@$(GO) run ./07-factory/gen

# The demos whose tests draw a chapter's sequence diagrams from a scripted run.
DIAGRAM_PKGS := $(foreach s,1 2 3 4 5 6 7 8,./$(STAGE_DIR_$(s))/demo)

## diagrams: redraw the chapters' sequence diagrams from scripted runs, and render every diagram to .bin/diagrams/*.png (needs Node.js and Chromium)
.PHONY: diagrams
diagrams:
	UPDATE_DIAGRAMS=1 $(GO) test -count=1 -run '^TestSequenceDiagram' $(DIAGRAM_PKGS)
	@$(GO) run ./cmd/diagrams -required -png .bin/diagrams

# The tests that write a block of the docs from runs of client-go and ours
# (internal/docblock): chapter 05's resync table, the life page's timeline.
DOCS_FROM_RUNS := '^(TestResyncTable|TestOneInformersLife)$$'

## docs-from-runs: rewrite the doc blocks tests generate from runs of client-go's informer and ours (chapter 05's resync table, the life page's timeline); make test fails when they are stale
.PHONY: docs-from-runs
docs-from-runs:
	UPDATE_RUN_BLOCKS=1 $(GO) test -count=1 -run $(DOCS_FROM_RUNS) ./06-sharedinformer

## bench: the benchmarks, ours beside client-go's in the same run
.PHONY: bench
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## screenshots: regenerate the browser view's screenshots in docs/images (needs Chromium: apt-get install chromium)
.PHONY: screenshots
screenshots: playground-binaries
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	  { echo "make screenshots needs Chromium: install it from your system's packages (Debian and Ubuntu: sudo apt-get install chromium fonts-noto-cjk)"; exit 1; }
	@mkdir -p docs/images
	set -o pipefail; WEBVIEW_SCREENSHOTS=$(CURDIR)/docs/images $(GO) test -count=1 -run '^TestWebView$$/^browser$$' -v ./06-sharedinformer/demo ./08-workqueue-controller/demo | grep -E 'screenshot:|^(ok|FAIL|---)'

## chaos: a chaos soak, client-go's informers beside ours under faults, with its report (SEED=1 DURATION=2m EVERY=5s; TIMELINE=file keeps the run's timeline; CONTROLLER=1 soaks stage 08's controllers instead)
.PHONY: chaos
SEED ?= 1
DURATION ?= 2m
EVERY ?= 5s
chaos: playground-binaries
	$(GO) test -v -count=1 -timeout 0 -run '^TestChaos$(if $(CONTROLLER),Controller)Soak$$' ./proving-ground/chaos -args -chaos.seed=$(SEED) -chaos.duration=$(DURATION) -chaos.every=$(EVERY) $(if $(TIMELINE),-chaos.timeline=$(abspath $(TIMELINE)))

## bench-scale: initial sync, memory and steady state at 1,000 to 50,000 pods, ours beside client-go's and the floor (about 30 minutes on 2 cores; writes docs/bench/scale.md and the proof chapter's copies of its tables; ARGS=-h for options)
.PHONY: bench-scale
bench-scale:
	@mkdir -p .bin docs/bench
	@$(GO) build -o .bin/bench-scale ./proving-ground/bench-scale
	@./.bin/bench-scale $(ARGS)
	@# The report is the one copy of the numbers; docs/{en,zh}/proof/performance.md
	@# show some of its tables in generated blocks, rewritten from it here
	@# (make test fails when they differ from it).
	@UPDATE_BENCH_TABLES=1 $(GO) test -count=1 -run '^TestBenchTablesMatchTheReport$$' ./internal/docscheck

## playground: build the playground's kube-apiserver, etcd and kubectl (once per machine)
.PHONY: playground
playground:
	@$(GO) run ./cmd/playground build --kubectl

# What the tests need: kube-apiserver and etcd, built before go test so the
# first build's progress is visible instead of hidden in a test's output.
.PHONY: playground-binaries
playground-binaries:
	@$(GO) run ./cmd/playground build

## playground-darwin: cross-build the playground's kube-apiserver and etcd for macOS, to check they still build there (DARWIN_ARCHS="arm64 amd64"; about 4 minutes an architecture on 2 cores, once)
.PHONY: playground-darwin
DARWIN_ARCHS ?= arm64 amd64
playground-darwin:
	@for arch in $(DARWIN_ARCHS); do \
	  echo "== kube-apiserver and etcd for darwin/$$arch"; \
	  (cd playground && GOWORK=off GOOS=darwin GOARCH=$$arch $(GO) build -mod=readonly -ldflags='-s -w' \
	    -o $(CURDIR)/.bin/darwin-$$arch/ k8s.io/kubernetes/cmd/kube-apiserver go.etcd.io/etcd/server/v3) || exit 1; \
	  ls -l .bin/darwin-$$arch; \
	done

## playground-up: run a playground in the foreground and print its KUBECONFIG line
.PHONY: playground-up
playground-up:
	@mkdir -p .bin
	@$(GO) build -o .bin/playground ./cmd/playground
	@exec ./.bin/playground up $(ARGS)
