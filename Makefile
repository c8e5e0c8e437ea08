# The two commands of the README, and a few helpers.
.PHONY: run test bench-core setup

## Install what is missing, build, and start the hub (when it exists).
run: setup
	swift build -c release

## Install what is missing and run every test.
test:
	scripts/test.sh

setup:
	scripts/setup.sh

## Micro-benchmarks of the pure core (release build).
bench-core: setup
	swift run -c release camhub-microbench
