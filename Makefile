# The project's entry points. Each target installs what it needs (see scripts/deps).
.PHONY: run test stress build bench timing-oracle clean-dev

run:
	@scripts/run

test:
	@scripts/test

# The load tests at full size (500 stop cycles, 2,000 slow clients, latchd SIGTERM x10); not part of make test.
stress:
	@scripts/stress

build:
	swift build

bench:
	@scripts/bench

# Registered against unregistered addresses: the answer times of the flows that must not tell them apart.
timing-oracle:
	@scripts/timing-oracle

# Stops and deletes the local development cluster and mail under .build/dev.
clean-dev:
	-scripts/pg-cluster stop .build/dev/pg
	rm -rf .build/dev
