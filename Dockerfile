# latchd and latchctl in a small Debian image. Built by docker-compose.yml; see the README.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libpq-dev libmicrohttpd-dev libargon2-dev libssl-dev \
      libcurl4-openssl-dev libcbor-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Manifest first, so a change in the sources does not invalidate the package-resolution layer.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product latchd \
 && swift build -c release --static-swift-stdlib --product latchctl \
 && mkdir -p /out \
 && cp "$(swift build -c release --show-bin-path)/latchd" "$(swift build -c release --show-bin-path)/latchctl" /out/ \
 && cp -R "$(swift build -c release --show-bin-path)"/*.resources /out/

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 libmicrohttpd12 libargon2-1 libssl3 libcurl4 libcbor0.8 \
      ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /app --shell /usr/sbin/nologin latch
WORKDIR /app
COPY --from=build /out/ /app/
COPY sql ./sql
USER latch
ENV LATCH_LISTEN=0.0.0.0:8080 LATCH_MIGRATIONS_DIR=/app/sql
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/app/latchd"]
