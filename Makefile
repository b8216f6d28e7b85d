# The project's entry points. Each target installs what it needs (see scripts/deps).
.PHONY: run test stress build bench timing-oracle clean-dev cluster cluster-stop cluster-test

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

# The production shape on this machine: PostgreSQL, PgBouncer (transaction mode), three latchd behind HAProxy, an
# SMTP sink, under .build/cluster; prints the balancer's URL. `make cluster-stop` removes it.
cluster:
	@LATCH_DEPS_EXTRA="haproxy pgbouncer" scripts/deps && scripts/test-venv && swift build --product latchd \
		&& swift build --product latchctl && scripts/cluster start .build/cluster

cluster-stop:
	@scripts/cluster stop .build/cluster

# The cluster's own test: rate limits, lockout, single-use links, refresh reuse and key rotation across instances,
# a SIGKILLed instance losing no mail, a rolling restart answering no 5xx (a few minutes; not part of make test).
cluster-test:
	@LATCH_DEPS_EXTRA="haproxy pgbouncer" scripts/deps && scripts/test-venv && swift build --product latchd \
		&& swift build --product latchctl && Tests/cluster/run

# Stops and deletes the local development cluster and mail under .build/dev.
clean-dev:
	-scripts/pg-cluster stop .build/dev/pg
	rm -rf .build/dev
