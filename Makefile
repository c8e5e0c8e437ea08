# The README's two commands (run, test) and a few helpers. Every target
# installs what is missing first (scripts/setup.sh; Debian, run as root).
.PHONY: run test setup build install bench-core

PREFIX ?= /usr/local

## Install what is missing, build, and start the hub on http://localhost:8080/
## (rooms kept across restarts in .camhub-data/; DATA= to change, DATA= with nothing for memory only).
DATA ?= .camhub-data
run: setup
	swift build -c release --product camhub
	.build/release/camhub serve --host 127.0.0.1 --port 8080 $(if $(DATA),--data $(DATA))

## Install what is missing and run every test (Swift, JavaScript, browser).
test:
	scripts/test.sh

setup:
	scripts/setup.sh

build: setup
	swift build

## Build the release binary and install it as $(PREFIX)/bin/camhub, so that
## `camhub serve|present|follow|bench` runs from anywhere.
install: setup
	swift build -c release --product camhub
	install -D -m 755 .build/release/camhub $(DESTDIR)$(PREFIX)/bin/camhub
	@echo "installed $(DESTDIR)$(PREFIX)/bin/camhub"

## Micro-benchmarks of the pure core (release build).
bench-core: setup
	swift run -c release camhub-microbench
