# The project's entry points. Each target installs what it needs (see scripts/deps).
.PHONY: run test build bench clean-dev

run:
	@scripts/run

test:
	@scripts/test

build:
	swift build

bench:
	@scripts/bench

# Stops and deletes the local development cluster and mail under .build/dev.
clean-dev:
	-scripts/pg-cluster stop .build/dev/pg
	rm -rf .build/dev
