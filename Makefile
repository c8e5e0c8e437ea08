# The README's two commands (run, test) and a few helpers. Every target
# installs what is missing first (scripts/setup.sh; Debian, run as root).
.PHONY: run test setup build bench-core

## Install what is missing, build, and start the hub on http://localhost:8080/.
run: setup
	swift build -c release --product camhub
	.build/release/camhub serve --host 127.0.0.1 --port 8080

## Install what is missing and run every test (Swift, JavaScript, browser).
test:
	scripts/test.sh

setup:
	scripts/setup.sh

build: setup
	swift build

## Micro-benchmarks of the pure core (release build).
bench-core: setup
	swift run -c release camhub-microbench
